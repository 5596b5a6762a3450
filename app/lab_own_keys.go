package app

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"

	"bloomlab/app/settings"
	"bloomlab/app/ui/format"
	"bloomlab/core"
	"bloomlab/core/plan"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// browserKeyLimits bound one key list in the lab. Tighter than the command
// line's: the text, its copy in Go and the keys all sit in the page's memory
// at once, and a million keys already take seconds to sort out.
var browserKeyLimits = core.KeyLimits{MaxKeys: 1_000_000, MaxBytes: 32 << 20, MaxLineBytes: 4 << 10}

// Element IDs of the "Your own keys" section.
const (
	IDOwnKeys    = "own-keys"
	IDOwnMembers = "own-members"
	IDOwnAbsent  = "own-absent"
	IDOwnUse     = "own-use"
	IDOwnBack    = "own-back"
	IDOwnError   = "own-error"
	IDOwnReport  = "own-report"
)

// The two lists, in the order of ownPanel.src.
const (
	listMembers = iota
	listAbsent
)

var ownLists = [2]struct{ id, name, label, placeholder string }{
	{IDOwnMembers, "members", "Members: the keys to insert", "alice@example.com\nbob@example.com\n…"},
	{IDOwnAbsent, "absent queries", "Absent queries (optional): keys to look up that you never inserted", "mallory@example.com\n…"},
}

// ownSliders are the sliders the key lists decide: off while own keys are
// in use.
var ownSliders = map[string]bool{settings.IDItems: true, settings.IDQueries: true, settings.IDPresentShare: true, settings.IDKeyBytes: true}

// ownPanel is the "Your own keys" section: the two lists, their files, the
// read in progress and, once read, the keys the lab runs on. use tells the
// page the keys changed (keys nil: back to generated keys); t0 is the
// event's time, 0 for none.
type ownPanel struct {
	keys     *ownKeys
	src      [2]ownSource
	err      string
	runs     runs
	loading  bool
	progress float64
	use      func(ctx app.Context, t0 float64)
}

// ownKeys are key lists a user brought, as read: the lab runs on them
// instead of generated keys until the user goes back.
type ownKeys struct {
	// members and absent are the lists where the page holds them. Read by
	// the lab's worker they stay there, empty here, and desk is their
	// name on it.
	members, absent core.KeyList
	desk            int
	// facts are what the page shows of each list.
	facts [2]listFacts
	// absentMembers is how many absent keys were members, -1 until the
	// first run on the lists has counted them: they are left out of the
	// rate.
	absentMembers int
}

// listFacts are the counts of a list as read: lines, duplicates dropped and
// distinct keys.
type listFacts struct{ Lines, Duplicates, Len int }

func factsOf(l core.KeyList) listFacts { return listFacts{l.Lines, l.Duplicates, l.Len()} }

// inDesk reports whether the lists are in the lab's worker, not here.
func (o *ownKeys) inDesk() bool { return o != nil && o.desk != 0 }

// n is the filter's key count: the distinct members.
func (o *ownKeys) n() int { return o.facts[listMembers].Len }

// work is how many keys SimulateKeys handles for these lists: each once to
// sort the lists out, the members once a pass and once as a query, and the
// absent keys once as a query.
func (o *ownKeys) work(passes int) int {
	m, a := o.n(), o.facts[listAbsent].Len
	return 2*(m+a) + m*passes
}

// ownSource is a file chosen for one list; a list without one comes from
// its box.
type ownSource struct {
	file app.Value
	name string
	size int
}

// ownInput is one list's text as the page holds it, before it is read
// into Go: a chosen file, or the box's text.
type ownInput struct {
	file    app.Value // a File, or nil for the box
	text    app.Value // the box's text, a JavaScript string
	fromBox bool
}

// parseOwnKeys reads the two lists with lim. An absent box holding no key
// means no absent queries; an empty members list, or an empty absent file,
// is an error. Each error names its list. step, which may be nil, is
// called as the text is read, with bytes read over bytes in both lists.
func parseOwnKeys(members, absent []byte, absentFromBox bool, lim core.KeyLimits, step core.Step) (*ownKeys, error) {
	total := len(members) + len(absent)
	var own ownKeys
	var err error
	if own.members, err = core.ReadKeysSteps(newStepReader(members, 0, total, step), lim, holdAt(step, len(members), total)); err != nil {
		return nil, listError(listMembers, err)
	}
	own.facts[listMembers] = factsOf(own.members)
	own.absentMembers = -1
	if absentFromBox && len(bytes.TrimSpace(absent)) == 0 {
		own.absentMembers = 0
		return &own, nil
	}
	if own.absent, err = core.ReadKeysSteps(newStepReader(absent, len(members), total, step), lim, holdAt(step, total, total)); err != nil {
		return nil, listError(listAbsent, err)
	}
	own.facts[listAbsent] = factsOf(own.absent)
	return &own, nil
}

// listError says which list an error is about, in words a user reads next
// to the box.
func listError(list int, err error) error {
	if errors.Is(err, core.ErrCancelled) {
		return err
	}
	return fmt.Errorf("%s: %s", ownLists[list].name, core.Message(err))
}

// holdAt is the step while a list's duplicates are dropped, after its text
// is read: the progress stays at the list's end, at, and the page still
// yields and can stop the read there (a million keys take a moment).
func holdAt(step core.Step, at, total int) core.Step {
	if step == nil {
		return nil
	}
	return func(int, int) error { return step(at, total) }
}

// stepReader hands text to core.ReadKeys a slice at a time, calling step
// before each slice: the browser yields there, and a newer read stops this
// one.
type stepReader struct {
	data        []byte
	off         int
	base, total int
	step        core.Step
}

func newStepReader(data []byte, base, total int, step core.Step) *stepReader {
	return &stepReader{data: data, base: base, total: total, step: step}
}

func (r *stepReader) Read(p []byte) (int, error) {
	if r.off >= len(r.data) {
		return 0, io.EOF
	}
	if r.step != nil {
		if err := r.step(r.base+r.off, r.total); err != nil {
			return 0, err
		}
	}
	n := copy(p, r.data[r.off:])
	r.off += n
	return n, nil
}

// tooLarge is the error for a list over the byte limit, found before its
// text is copied into Go.
func tooLarge(list int, size int) error {
	return listError(list, fmt.Errorf("%w: %s, more than the %s a list allowed here", core.ErrKeysTooLarge,
		plan.FormatBytes(uint64(size)), format.Limit(browserKeyLimits.MaxBytes)))
}

// onFile records the file chosen for a list. It is read when the user
// presses "Use these keys".
func (o *ownPanel) onFile(list int) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		files := e.Get("target").Get("files")
		o.err = ""
		if !files.Truthy() || files.Length() == 0 {
			o.src[list] = ownSource{}
			return
		}
		f := files.Index(0)
		o.src[list] = ownSource{file: f, name: f.Get("name").String(), size: f.Get("size").Int()}
		if o.src[list].size > int(browserKeyLimits.MaxBytes) {
			o.err = tooLarge(list, o.src[list].size).Error()
		}
	}
}

// onClearFile forgets a list's file, so the box counts again.
func (o *ownPanel) onClearFile(list int) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		o.src[list] = ownSource{}
		o.err = ""
		if in := app.Window().GetElementByID(ownLists[list].id + "-file"); in.Truthy() {
			in.Set("value", "")
		}
	}
}

// onUse reads both lists on a goroutine that yields to the browser, then
// switches the lab to them. Pressing it again, or going back to generated
// keys, abandons a read in progress.
func (o *ownPanel) onUse(ctx app.Context, e app.Event) {
	o.err = ""
	var in [2]ownInput
	size := 0 // bytes, or a box's UTF-16 units
	for i, l := range ownLists {
		if src := o.src[i]; src.file != nil {
			if src.size > int(browserKeyLimits.MaxBytes) {
				o.err = tooLarge(i, src.size).Error()
				return
			}
			in[i] = ownInput{file: src.file}
			size += src.size
			continue
		}
		box := app.Window().GetElementByID(l.id)
		// A box's text has at most as many UTF-16 units (textLength) as its
		// UTF-8 encoding has bytes: past the limit in units is past it in
		// bytes, and found before any copy.
		n := box.Get("textLength").Int()
		if n > int(browserKeyLimits.MaxBytes) {
			o.err = tooLarge(i, n).Error()
			return
		}
		in[i] = ownInput{text: box.Get("value"), fromBox: true}
		size += n
	}
	o.loading, o.progress = true, 0
	read := o.runs.start()
	report := read.reporter(ctx, fraction(func(f float64) { o.progress = f }))
	large := size > deskKeyBytes
	ctx.Async(func() {
		own, err := (*ownKeys)(nil), errNoEngines
		if large {
			own, err = keysOnDesk(in, read.live, report)
		}
		if errors.Is(err, errNoEngines) {
			own, err = readOwnKeys(in, read.onPage(report))
		}
		ctx.Dispatch(func(ctx app.Context) {
			if !read.live() {
				return
			}
			o.loading = false
			if err != nil {
				if !errors.Is(err, core.ErrCancelled) {
					o.err = core.Message(err)
				}
				return
			}
			o.keys = own
			o.use(ctx, 0)
		})
	})
}

// deskKeyBytes is the most text the page reads itself, about where a run
// on the lists grows past syncWork. Larger lists go to the lab's worker,
// which reads them and keeps them for the runs on them.
const deskKeyBytes = 256 << 10

// readOwnKeys copies both lists into Go and parses them.
func readOwnKeys(in [2]ownInput, step core.Step) (*ownKeys, error) {
	var text [2][]byte
	for i, src := range in {
		b, err := inputBytes(src)
		if err != nil {
			return nil, listError(i, err)
		}
		text[i] = b
	}
	return parseOwnKeys(text[listMembers], text[listAbsent], in[listAbsent].fromBox, browserKeyLimits, step)
}

// inputBytes returns a list's bytes (see inputArray) in Go.
func inputBytes(src ownInput) ([]byte, error) {
	arr, err := inputArray(src)
	if err != nil {
		return nil, err
	}
	b := make([]byte, arr.Length())
	app.CopyBytesToGo(b, arr)
	return b, nil
}

// inputArray returns a list's bytes as they are, a Uint8Array: a file's
// raw bytes (so a binary file shows as one, not as replacement
// characters), or the box's text in UTF-8.
func inputArray(src ownInput) (app.Value, error) {
	if src.file == nil {
		return app.Window().Get("TextEncoder").New().Call("encode", src.text), nil
	}
	buf, err := await(src.file.Call("arrayBuffer"))
	if err != nil {
		return nil, fmt.Errorf("the file could not be read: %v", err)
	}
	return app.Window().Get("Uint8Array").New(buf), nil
}

// await blocks the calling goroutine, never the page's, until the promise
// settles.
func await(promise app.Value) (app.Value, error) {
	type settled struct {
		v   app.Value
		err error
	}
	done := make(chan settled, 1)
	ok := app.FuncOf(func(this app.Value, args []app.Value) any {
		done <- settled{v: args[0]}
		return nil
	})
	fail := app.FuncOf(func(this app.Value, args []app.Value) any {
		msg := "unknown error"
		if len(args) > 0 && args[0].Truthy() {
			msg = args[0].Call("toString").String()
		}
		done <- settled{err: errors.New(msg)}
		return nil
	})
	promise.Call("then", ok, fail)
	s := <-done
	ok.Release()
	fail.Release()
	return s.v, s.err
}

// drop goes back to generated keys without a run: the caller runs.
func (o *ownPanel) drop() {
	o.runs.cancel()
	o.loading, o.keys = false, nil
}

// onBack returns the lab to generated keys and abandons any read in
// progress.
func (o *ownPanel) onBack(ctx app.Context, e app.Event) {
	o.runs.cancel()
	o.loading = false
	o.err = ""
	if o.keys == nil {
		return
	}
	o.keys = nil
	o.use(ctx, e.Get("timeStamp").Float())
}

// sliderValue is where a slider stands: with own keys, the sliders the
// lists decide stand at what the lists hold. ok is false for key bytes,
// which vary from key to key, and while the lists are not counted yet.
func sliderValue(sl settings.Slider, p core.Params, o *ownKeys) (v float64, ok bool) {
	if o == nil || !ownSliders[sl.ID] {
		return sl.Value(p), true
	}
	if o.absentMembers < 0 {
		return 0, false
	}
	n, a := float64(o.n()), float64(o.facts[listAbsent].Len-o.absentMembers)
	switch sl.ID {
	case settings.IDItems:
		return n, true
	case settings.IDQueries:
		return n + a, true
	case settings.IDPresentShare:
		return math.Round(100 * n / (n + a)), true
	}
	return 0, false
}

// sliderShown is a slider's value as the page shows it.
func sliderShown(sl settings.Slider, p core.Params, o *ownKeys) string {
	v, ok := sliderValue(sl, p, o)
	switch {
	case ok:
		return sliderText(sl, v)
	case o != nil && o.absentMembers >= 0:
		return "varies"
	}
	return "…"
}

// ownReport says what the lists held: lines read, duplicates dropped, and
// absent keys that were members.
func (o *ownKeys) report() string {
	m, a := o.facts[listMembers], o.facts[listAbsent]
	s := fmt.Sprintf("Your own keys: %s read, %s dropped (a key counts once), so n = %s.",
		format.Plural(m.Lines, "member line"), format.Plural(m.Duplicates, "duplicate"), format.Int(uint64(o.n())))
	if a.Lines == 0 {
		return s + " No absent queries, so no measured rate."
	}
	if o.absentMembers < 0 {
		return s + fmt.Sprintf(" %s read, %s dropped; checking which are members…", format.Plural(a.Lines, "absent line"), format.Plural(a.Duplicates, "duplicate"))
	}
	measured := a.Len - o.absentMembers
	s += fmt.Sprintf(" %s read, %s dropped, %s left out of the rate", format.Plural(a.Lines, "absent line"),
		format.Plural(a.Duplicates, "duplicate"), format.Plural(o.absentMembers, "member"))
	return s + fmt.Sprintf(" (%s not absent): %s measured.", format.IsAre(o.absentMembers), format.Plural(measured, "absent query", "absent queries"))
}

func (o *ownPanel) render() app.UI {
	lim := browserKeyLimits
	active := o.keys != nil
	back := app.Button().ID(IDOwnBack).Class("chip").Text("Back to generated keys").OnClick(o.onBack)
	if !active && !o.loading {
		back = back.Disabled(true)
	}
	return app.Details().ID(IDOwnKeys).Class("own-keys").Body(
		app.Summary().Body(
			app.Span().Class("own-title").Text("Your own keys"),
			app.Span().Class("muted own-sub").Text(" paste or upload real keys; they stay in this page, not in the link"),
		),
		app.P().Class("own-help").Text("Build the filter from your keys, with the bits per key, k, passes, seed, variant and fault set below, and measure the false-positive rate on queries you know were never inserted. "+
			"One key per line; blank lines are skipped and nothing else is trimmed, so \"a\" and \"a \" are two keys. "+
			"A list holds at most "+format.Int(uint64(lim.MaxKeys))+" keys and "+format.Limit(lim.MaxBytes)+", a key at most "+format.Limit(int64(lim.MaxLineBytes))+"; past a few megabytes, upload a file, since a browser's text box grows slow. "+
			"The keys are read here and sent nowhere; a link keeps only the settings, so it opens on generated keys."),
		app.Div().Class("own-lists").Body(
			o.renderList(listMembers),
			o.renderList(listAbsent),
		),
		app.Div().Class("own-actions").Body(
			app.Button().ID(IDOwnUse).Class("chip primary").Text("Use these keys").OnClick(o.onUse),
			back,
		),
		app.If(o.err != "", func() app.UI {
			return app.Div().ID(IDOwnError).Class("notice error").Role("alert").Text(o.err)
		}),
	)
}

func (o *ownPanel) renderList(list int) app.UI {
	l := ownLists[list]
	src := o.src[list]
	fileID := l.id + "-file"
	note := "A file chosen here is used instead of the box."
	if src.file != nil {
		note = src.name + " (" + plan.FormatBytes(uint64(src.size)) + ") is used instead of the box."
	}
	return app.Div().Class("own-list").Body(
		app.Label().For(l.id).Text(l.label),
		app.Textarea().ID(l.id).Rows(6).Spellcheck(false).Wrap("off").
			Placeholder(l.placeholder).Aria("describedby", fileID+"-note"),
		app.Div().Class("own-file").Body(
			app.Label().For(fileID).Text("or upload the "+l.name+" as a file:"),
			app.Input().Type("file").ID(fileID).OnChange(o.onFile(list)),
			app.If(src.file != nil, func() app.UI {
				return app.Button().ID(fileID + "-clear").Class("chip").Text("Remove file").OnClick(o.onClearFile(list))
			}),
		),
		app.Small().ID(fileID+"-note").Class("muted").Text(note),
	)
}

// renderReport is the line above the counters while own keys are in use.
// Its slot is always there: a node that comes and goes before the counters
// would shift them, and go-app would then update the wrong ones (draw
// writes the counters' text itself).
func (o *ownPanel) renderReport() app.UI {
	return app.Div().Class("own-slot").Body(app.If(o.keys != nil, func() app.UI {
		return app.P().ID(IDOwnReport).Class("notice own-report").Role("status").Text(o.keys.report())
	}))
}

// renderSlidersNote says why some sliders are off, in a slot of its own
// for the same reason.
func (o *ownPanel) renderSlidersNote() app.UI {
	return app.Div().Class("own-slot").Body(app.If(o.keys != nil, func() app.UI {
		return app.P().ID("own-sliders-note").Class("own-note").Text("Your key lists decide items, queries, present share and key bytes, so those sliders are off until you go back to generated keys.")
	}))
}
