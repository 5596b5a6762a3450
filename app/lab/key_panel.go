package lab

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/bloomlab/bloomlab/core/keys"

	"github.com/bloomlab/bloomlab/app/engine"
	"github.com/bloomlab/bloomlab/app/lab/painter"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui"
	"github.com/bloomlab/bloomlab/app/ui/format"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/try"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Element IDs of the key panel.
const (
	idKeyPanel     = "try"
	idTryKey       = "try-key"
	idTryInsert    = "try-insert"
	idTryQuery     = "try-query"
	idTryFindFP    = "try-find-fp"
	idTryClear     = "try-clear"
	idTryError     = "try-error"
	idTryVerdict   = "try-verdict"
	idTryCulprits  = "try-culprits"
	idTryTyped     = "try-typed"
	idTryPositions = "try-positions"
	// idTryArithmetic folds a key's arithmetic under its answer.
	idTryArithmetic = "try-arithmetic"
	// The attacks of one who knows the seed, and what they found.
	idTryForge       = "try-forge"
	idTryFill        = "try-fill"
	idTryRecover     = "try-recover"
	idTryRecoverList = "try-recover-list"
	idTryAttack      = "try-attack"
)

// fillKeys is how many keys the panel's fill crafts at a time, fewer when
// the typed keys leave less room.
const fillKeys = 8

// keyLab is what the key panel needs of the page: the settings the filter
// stands at, and a way to change the typed keys (which reruns the filter,
// then calls the panel's refresh).
type keyLab interface {
	current() settings.Lab
	ownKeys() *engine.OwnKeys
	typeKeys(ctx app.Context, keys settings.TypedKeys)
	// answered hears that the panel's answer changed.
	answered(ctx app.Context)
	// openFile is a filter file opened, which answers the typed
	// queries in the lab's stead; nil for none (file_view.go).
	openFile() *openedFile
}

// What the panel shows: the last thing asked of it.
const (
	askNone = iota
	askInsert
	askQuery
	askFind
	askAttack
)

// keyPanel is the key panel: a learner types "apple", inserts it and sees
// its k positions light up, queries "pear" and sees why the filter says
// no or maybe. It asks try.Run on the lab's filter as it stands (the
// typed keys in it), and asks again whenever the filter changes.
type keyPanel struct {
	lab  keyLab
	runs engine.Runs
	// later mounts the panel after the page's first tree (later.go).
	later later
	// inPart is set where the lab is a part of another page: its heading
	// is then an h3.
	inPart bool
	busy   bool
	// progress is the share of a long rebuild done.
	progress float64
	// err is a problem with what was typed, shown beside the field; note
	// a remark that is not one.
	err, note string
	ask       int
	key       string
	// answer is the answer to ask on the filter as it stands; answers
	// every query answered since the page opened, oldest first.
	answer  *try.Result
	answers []try.Query
	// fileAnswer is an opened file's answer to the typed query, shown
	// in the lab's stead while the file is open.
	fileAnswer *fileAnswer
	// queue are keys to query next, one after the other (a lesson's).
	queue []string
	// attack is the attack askAttack runs; attacked what the last one
	// found, shown until the panel is asked something else.
	attack     try.Attack
	attacked   *try.AttackResult
	attackedOn settings.Lab
	// motion plays a typed key's positions one after another; animate
	// asks it of the next answer; step is how many are shown while it
	// plays (-1 for all), anim tells one playing from the next.
	motion  bool
	animate bool
	step    int
	anim    int
	animBox bool
}

// motionStep is the time between two positions of a key's animation.
const motionStep = 160 * time.Millisecond

// idTryMotion turns the key panel's motion on and off.
const idTryMotion = "try-motion"

// reducedMotion reports the reader's wish for less motion.
func reducedMotion() bool {
	mq := app.Window().Call("matchMedia", "(prefers-reduced-motion: reduce)")
	return mq.Truthy() && mq.Get("matches").Bool()
}

// play shows the answer's positions one after another, a motionStep
// apart, when motion is on.
func (kp *keyPanel) play(ctx app.Context) {
	m := kp.marks()
	kp.playN(ctx, len(m.Ring)+len(m.Box), m.Ring == nil, motionStep)
}

// playLast shows the n positions of the run's last key, ringed on the bit
// array, one after another, within the time given: the player's step.
func (kp *keyPanel) playLast(ctx app.Context, n int, within time.Duration) {
	if kp.marks().Ring != nil {
		return // the rings are a typed key's
	}
	kp.playN(ctx, n, false, min(motionStep, within/time.Duration(max(n, 1))))
}

// playN plays n marks, gap apart: the boxes if box, else the rings.
func (kp *keyPanel) playN(ctx app.Context, n int, box bool, gap time.Duration) {
	kp.anim++
	kp.step, kp.animBox = -1, box
	if !kp.motion || n < 2 {
		return
	}
	anim := kp.anim
	kp.step = 1
	var next func(ctx app.Context)
	next = func(ctx app.Context) {
		if kp.anim != anim {
			return
		}
		if kp.step++; kp.step >= n {
			kp.step = -1
		} else {
			ctx.After(gap, next)
		}
		kp.lab.answered(ctx)
	}
	ctx.After(gap, next)
}

func (kp *keyPanel) onMotion(ctx app.Context, e app.Event) {
	kp.motion = !kp.motion
	if !kp.motion && kp.step >= 0 {
		kp.anim++
		kp.step = -1
		kp.lab.answered(ctx)
	}
}

// afterRun answers again on the filter a run has just made, or queries
// the next queued key.
func (kp *keyPanel) afterRun(ctx app.Context) {
	if len(kp.queue) > 0 {
		kp.next(ctx)
		return
	}
	kp.refresh(ctx, false)
}

// next queries the first queued key.
func (kp *keyPanel) next(ctx app.Context) {
	if len(kp.queue) == 0 {
		return
	}
	key := kp.queue[0]
	kp.queue = kp.queue[1:]
	kp.query(ctx, key)
}

// fieldKey is the key in the field. A JavaScript string is UTF-16: Go
// gets it as UTF-8, a lone surrogate as U+FFFD.
func fieldKey() string {
	if in := app.Window().GetElementByID(idTryKey); in.Truthy() {
		return in.Get("value").String()
	}
	return ""
}

// check is the problem with key as a typed key, or "".
func check(key string) string {
	if key == "" {
		return "Type a key first: a word, a name, anything of 1 to 256 bytes."
	}
	if err := keys.CheckTyped("key", []string{key}); err != nil {
		msg := core.Message(err)
		return strings.ToUpper(msg[:1]) + msg[1:] + "."
	}
	return ""
}

func (kp *keyPanel) onInsert(ctx app.Context, e app.Event) {
	key := fieldKey()
	kp.err, kp.note = check(key), ""
	if kp.err != "" {
		return
	}
	s := kp.lab.current()
	typed := s.Typed.List()
	switch {
	case s.Typed.Has(key):
		kp.note = "“" + key + "” is already inserted: inserting a key again changes no bit."
	case len(typed) == keys.MaxTyped:
		kp.err = fmt.Sprintf("%d keys are typed already, the most the panel holds: clear them to type more.", keys.MaxTyped)
		return
	}
	kp.ask, kp.key, kp.animate, kp.attacked = askInsert, key, true, nil
	kp.fileAnswer = nil
	if s.Typed.Has(key) {
		kp.refresh(ctx, false)
		return
	}
	kp.lab.typeKeys(ctx, settings.JoinTyped(append(typed, key)))
}

func (kp *keyPanel) onQuery(ctx app.Context, e app.Event) {
	key := fieldKey()
	kp.err, kp.note = check(key), ""
	if kp.err != "" {
		return
	}
	if of := kp.lab.openFile(); of != nil {
		a := of.answer(key)
		kp.fileAnswer = &a
		kp.lab.answered(ctx)
		return
	}
	kp.animate = true
	kp.query(ctx, key)
}

// query asks the filter about key.
func (kp *keyPanel) query(ctx app.Context, key string) {
	kp.ask, kp.key, kp.attacked = askQuery, key, nil
	kp.fileAnswer = nil
	kp.refresh(ctx, true)
}

// onKey queries on Enter, as a search box does.
func (kp *keyPanel) onKey(ctx app.Context, e app.Event) {
	if e.Get("key").String() == "Enter" {
		e.PreventDefault()
		kp.onQuery(ctx, e)
	}
}

func (kp *keyPanel) onFind(ctx app.Context, e app.Event) {
	kp.err, kp.note = "", ""
	kp.ask, kp.key, kp.attacked = askFind, "", nil
	kp.fileAnswer = nil
	kp.refresh(ctx, true)
}

// onAttack runs the attack its button names on the filter as it stands.
func (kp *keyPanel) onAttack(ctx app.Context, e app.Event) {
	kp.err, kp.note = "", ""
	a := try.Attack{Kind: e.Get("currentTarget").Get("dataset").Get("attack").String()}
	switch a.Kind {
	case try.AttackFill:
		room := keys.MaxTyped - len(kp.lab.current().Typed.List())
		if room == 0 {
			kp.err = fmt.Sprintf("%d keys are typed already, the most the panel holds: clear them to craft more.", keys.MaxTyped)
			return
		}
		a.Keys = min(fillKeys, room)
	case try.AttackRecover:
		a.List = app.Window().GetElementByID(idTryRecoverList).Get("value").String()
	}
	kp.ask, kp.key, kp.attack, kp.attacked = askAttack, "", a, nil
	kp.fileAnswer = nil
	kp.refresh(ctx, true)
}

func (kp *keyPanel) onClear(ctx app.Context, e app.Event) {
	kp.err, kp.note = "", ""
	kp.ask, kp.key, kp.answer, kp.queue, kp.attacked = askNone, "", nil, nil, nil
	kp.fileAnswer = nil
	kp.lab.typeKeys(ctx, "")
}

// clearAnswers forgets the queries answered so far.
func (kp *keyPanel) clearAnswers() { kp.answers = nil }

// refresh answers the panel's question on the filter as it stands now: the
// page calls it after every run, the panel after a query. fresh marks a
// new question, whose answer joins the answers.
func (kp *keyPanel) refresh(ctx app.Context, fresh bool) {
	if kp.ask == askNone || kp.lab.ownKeys() != nil {
		kp.runs.Cancel()
		kp.busy = false
		return
	}
	s := kp.lab.current()
	req := try.Request{Params: s.Run(), Insert: s.Typed.List(), Explain: true}
	ask, key := kp.ask, kp.key
	if ask == askQuery {
		req.Query = []string{key}
	}
	if ask == askAttack {
		a := kp.attack
		req.Attack = &a
	}
	kp.busy, kp.progress = true, 0
	startRun(ctx, &kp.runs, func(run engine.Run) (try.Result, error) {
		report := run.Reporter(ctx, engine.Fraction(func(f float64) { kp.progress = f }))
		return engine.Answer(engine.WorkOf(req.Params) > syncWork, req, ask == askFind, run, report)
	}, func(ctx app.Context, res try.Result, err error) {
		kp.busy = false
		if err != nil {
			kp.err, kp.answer = core.Message(err), nil
			return
		}
		kp.answer = &res
		if res.Attack != nil {
			kp.attacked, kp.attackedOn = res.Attack, s
			if res.Attack.Kind == try.AttackFill {
				// The crafted keys join the typed ones: the filter
				// the lab shows is the one they filled.
				kp.ask = askNone
				kp.lab.typeKeys(ctx, settings.JoinTyped(append(req.Insert, res.Attack.Keys...)))
			}
		}
		if fresh && len(res.Queries) > 0 {
			kp.answers = append(kp.answers, res.Queries[0])
			if over := len(kp.answers) - keys.MaxTyped; over > 0 {
				kp.answers = kp.answers[over:]
			}
		}
		if kp.animate {
			kp.animate = false
			kp.play(ctx)
		}
		kp.lab.answered(ctx)
		kp.next(ctx)
	})
}

// insertShown is the typed insert the panel shows, or nil.
func (kp *keyPanel) insertShown() *try.Insert {
	if kp.answer == nil || kp.ask != askInsert {
		return nil
	}
	for i := range kp.answer.Inserts {
		if kp.answer.Inserts[i].Key == kp.key {
			return &kp.answer.Inserts[i]
		}
	}
	return nil
}

// queryShown is the query the panel shows, or nil.
func (kp *keyPanel) queryShown() *try.Query {
	if kp.answer == nil || (kp.ask != askQuery && kp.ask != askFind && kp.ask != askAttack) || len(kp.answer.Queries) == 0 {
		return nil
	}
	return &kp.answer.Queries[0]
}

// marks are the panel's marks on the bit array: an insert's positions
// ringed, a query's probes boxed.
func (kp *keyPanel) marks() painter.Marks {
	if in := kp.insertShown(); in != nil {
		return painter.Marks{Ring: in.Positions, RingSays: "the " + kp.answer.Unit + "s of “" + in.Key + "”"}
	}
	if q := kp.queryShown(); q != nil {
		box := make([]uint64, len(q.Probes))
		for i, p := range q.Probes {
			box[i] = p.Position
		}
		return painter.Marks{Box: box, BoxSays: "read by the query “" + q.Key + "”"}
	}
	return painter.Marks{}
}

// playing trims the marks on the bit array to the first step of the
// heading is the panel's heading, a level under the lab's title.
func (kp *keyPanel) heading() app.UI {
	return ui.PartHeading(kp.inPart, "try-title", "try-heading", "One key at a time")
}

// rings (or the boxes) while they play.
func (kp *keyPanel) playing(m painter.Marks) painter.Marks {
	if kp.step < 0 {
		return m
	}
	if kp.animBox {
		m.Box = m.Box[:min(kp.step, len(m.Box))]
	} else {
		m.Ring = m.Ring[:min(kp.step, len(m.Ring))]
	}
	return m
}

func (kp *keyPanel) render() app.UI {
	s := kp.lab.current()
	typed := s.Typed.List()
	state := "ready"
	if kp.busy {
		state = "busy"
	}
	clear := app.Button().ID(idTryClear).Class("chip").Text("Clear typed keys").OnClick(kp.onClear)
	if len(typed) == 0 {
		clear = clear.Disabled(true)
	}
	if kp.lab.ownKeys() != nil {
		// The panel builds the generated keys' filter: with the user's
		// lists in use, its answers would be about another filter.
		return app.Section().ID(idKeyPanel).Class("key-panel off").DataSet("state", state).Aria("labelledby", "try-title").Body(
			kp.heading(),
			app.P().ID("try-off").Class("muted small").Text("The key panel works on the generated keys and the keys you type here: go back to generated keys to use it."),
		)
	}
	return app.Section().ID(idKeyPanel).Class("key-panel").DataSet("state", state).DataSet("playing", kp.step >= 0).Aria("labelledby", "try-title").Body(
		kp.heading(),
		app.P().Class("muted small").Text("Insert a word and see its positions light up; query another and see why the filter answers no, or maybe. Typed keys join the generated ones and stay in the link."),
		app.Div().Class("try-row").Body(
			app.Label().For(idTryKey).Text("Key"),
			app.Input().Type("text").ID(idTryKey).Placeholder("apple").AutoComplete(false).Spellcheck(false).
				Aria("describedby", idTryError).OnKeyDown(kp.onKey),
			app.Button().ID(idTryInsert).Class("chip primary").Text("Insert").OnClick(kp.onInsert),
			app.Button().ID(idTryQuery).Class("chip").Text("Query").OnClick(kp.onQuery),
			app.Button().ID(idTryFindFP).Class("chip").Title("query common English words in order until one is a false positive").
				Text("Find a false positive").OnClick(kp.onFind),
			clear,
			app.Button().ID(idTryMotion).Class("chip toggle").Aria("pressed", kp.motion).
				Title("set or read a typed key's positions one after another").Text("Animate").OnClick(kp.onMotion),
		),
		kp.renderAttackRow(),
		app.P().ID(idTryError).Class("try-error").Role("alert").Text(kp.err),
		app.If(kp.note != "", func() app.UI { return app.P().ID("try-note").Class("muted").Text(kp.note) }),
		app.If(len(typed) > 0, func() app.UI {
			return app.P().ID(idTryTyped).Class("small").Text("Typed and inserted (" + strconv.Itoa(len(typed)) + " of " +
				strconv.Itoa(keys.MaxTyped) + "): " + quoteList(typed) + ".")
		}),
		app.If(kp.busy && kp.progress > 0, func() app.UI {
			return ui.Progress("try-progress", "Rebuilding the filter for the panel: "+format.Percent(kp.progress), kp.progress, 1, false)
		}),
		kp.renderAttack(),
		kp.renderAnswer(),
	)
}

// quoteList writes keys as “apple”, “pear”.
func quoteList(keys []string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = "“" + k + "”"
	}
	return strings.Join(q, ", ")
}

// positionsText writes positions in order: "12, 4,567 and 89".
func positionsText(ps []uint64) string {
	words := make([]string, len(ps))
	for i, p := range ps {
		words[i] = format.Int(p)
	}
	return format.List(words, "and")
}

// renderAnswer is the opened file's answer to the typed query while a
// file is open, else the lab's answer.
func (kp *keyPanel) renderAnswer() app.UI {
	if a := kp.fileAnswer; a != nil && kp.lab.openFile() != nil && a.file == kp.lab.openFile().name {
		return renderFileAnswer(a)
	}
	return app.Div().Body(kp.renderInsert(), kp.renderQuery())
}

func (kp *keyPanel) renderInsert() app.UI {
	in := kp.insertShown()
	if in == nil {
		return app.Text("")
	}
	unit := kp.answer.Unit
	text := "“" + in.Key + "” maps to " + unit + "s " + positionsText(in.Positions) + ", in probe order."
	var turned, already []uint64
	for i, p := range in.Positions {
		if i < len(in.New) && in.New[i] {
			turned = append(turned, p)
		} else {
			already = append(already, p)
		}
	}
	news := ""
	switch {
	case in.New == nil:
		news = "A " + kp.answer.Variant.Name() + " filter is solved once from every key, so no single insert turns a " + unit + " on; its cells hold values that make each key's three xor to its fingerprint."
	case len(turned) == 0:
		news = "It turned no " + unit + " on: every one was on already, set by other keys."
	default:
		news = "It turned on " + strconv.Itoa(len(turned)) + " of them (" + positionsText(turned) + ")"
		if len(already) > 0 {
			news += "; " + positionsText(already) + " " + format.WasWere(len(already)) + " on already"
		}
		news += "."
	}
	extras := []string{}
	if in.Block != nil {
		extras = append(extras, "All in block "+format.Int(*in.Block)+" of 512 bits: one cache line.")
	}
	if len(in.Counters) > 0 {
		cs := make([]string, len(in.Counters))
		for i, c := range in.Counters {
			cs[i] = strconv.Itoa(int(c))
		}
		extras = append(extras, "Its counters now read "+strings.Join(cs, ", ")+".")
	}
	for i, lost := range in.Lost {
		if lost {
			extras = append(extras, unit+" "+format.Int(in.Positions[i])+" is past the array: the "+string(kp.answer.Fault)+" fault lost that write.")
		}
	}
	return app.Div().ID("try-answer").Class("try-answer").Body(
		app.P().ID(idTryPositions).Text(text),
		app.P().ID("try-new-bits").Text(news),
		app.Range(extras).Slice(func(i int) app.UI { return app.P().Class("small").Text(extras[i]) }),
		renderArithmetic(in.Key, in.Explain),
	)
}

func (kp *keyPanel) renderQuery() app.UI {
	q := kp.queryShown()
	if q == nil {
		return app.Text("")
	}
	unit := kp.answer.Unit
	verdict, class := verdictText(q, kp.answer), "verdict"
	switch q.Verdict {
	case try.VerdictNo:
		class += " no"
	case try.VerdictMember:
		class += " yes"
	default:
		class += " maybe"
	}
	return app.Div().ID("try-answer").Class("try-answer").Body(
		app.Ol().ID("try-probes").Class("try-probes").Body(
			app.Range(q.Probes).Slice(func(i int) app.UI {
				p := q.Probes[i]
				state := "0"
				if p.Set {
					state = "1"
				}
				switch {
				case p.Counter != nil:
					state = "counter " + strconv.Itoa(int(*p.Counter))
				case p.Value != nil && p.Set:
					state = "holds " + strconv.Itoa(int(*p.Value))
				case p.Value != nil:
					state = "empty"
				}
				where := ""
				if len(kp.answer.Links) > 0 {
					where = " in link " + strconv.Itoa(kp.answer.LinkAt(p.Position))
				}
				li := app.Li().Text(strconv.Itoa(i+1) + ". " + unit + " " + format.Int(p.Position) + where + ": " + state)
				if q.FirstZero == i+1 {
					li = li.Class("first-zero")
				}
				return li
			}),
		),
		app.P().ID(idTryVerdict).Class(class).Text(verdict),
		app.If(len(q.Culprits) > 0, func() app.UI {
			return app.Div().ID(idTryCulprits).Class("try-culprits").Body(
				app.P().Text("Who set them:"),
				app.Ul().Body(app.Range(q.Culprits).Slice(func(i int) app.UI {
					return app.Li().Text(culpritText(q.Culprits[i], unit))
				})),
			)
		}),
		renderArithmetic(q.Key, q.Explain),
	)
}

// renderArithmetic is a typed key's whole derivation, folded: the same
// lines as bloomlab try --explain prints.
func renderArithmetic(key string, e *core.Explanation) app.UI {
	if e == nil {
		return app.Text("")
	}
	lines := e.Lines()
	return app.Details().ID(idTryArithmetic).Class("try-arithmetic").Body(
		app.Summary().Text("The arithmetic: how “"+key+"” becomes its positions"),
		app.Pre().ID(idTryArithmetic+"-lines").Text(strings.Join(lines, "\n")),
	)
}

// verdictText says what the filter answered for q and why.
func verdictText(q *try.Query, r *try.Result) string {
	key := "“" + q.Key + "”"
	switch q.Verdict {
	case try.VerdictNo:
		if q.FirstZero > 0 {
			p := q.Probes[q.FirstZero-1].Position
			return "no: probe " + strconv.Itoa(q.FirstZero) + " read " + r.Unit + " " + format.Int(p) + ", a zero, so " + key +
				" was never inserted. A zero is proof."
		}
		return "no: " + key + " was never inserted; its fingerprint is not where it would have to be."
	case try.VerdictMember:
		who := "typed and inserted"
		if q.Member != "typed" {
			who = "generated " + strings.Replace(q.Member, "generated ", "member ", 1)
		}
		return "yes, a member: " + key + " is " + who + "."
	case try.VerdictFalseNegative:
		why := "a filter too full to take it lost it"
		if r.Fault != core.NoFault {
			why = "the " + string(r.Fault) + " fault lost its write"
		}
		return "no, yet " + key + " is a member: a false negative; " + why + "."
	}
	if r.BuildError != "" {
		return "maybe: a false positive. The filter failed to build, so it answers maybe for every key."
	}
	return "maybe: a false positive. " + key + " was never inserted, yet every " + r.Unit + " it reads answers yes: other keys set them."
}

// culpritNames are the keys behind one position: typed keys by name,
// generated members by index and first bytes, the rest counted.
func culpritNames(c try.Culprit) []string {
	var who []string
	for _, k := range c.Typed {
		who = append(who, "“"+k+"”")
	}
	for _, g := range c.Generated {
		who = append(who, "member #"+format.Int(g.Index)+" ("+g.Hex+"…)")
	}
	if c.More > 0 {
		who = append(who, format.Int(c.More)+" more members")
	}
	return who
}

// culpritText names the keys to blame for one position of a false
// positive.
func culpritText(c try.Culprit, unit string) string {
	who := culpritNames(c)
	if len(who) == 0 {
		return unit + " " + format.Int(c.Position) + ": no inserted key; the fault wrote it"
	}
	return unit + " " + format.Int(c.Position) + ": " + strings.Join(who, ", ")
}
