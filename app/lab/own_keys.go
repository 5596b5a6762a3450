package lab

import (
	"fmt"
	"math"

	"github.com/bloomlab/bloomlab/app/engine"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui"
	"github.com/bloomlab/bloomlab/app/ui/format"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/plan"
	"github.com/bloomlab/bloomlab/core/sim"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Element IDs of the "Your own keys" section.
const (
	idOwnKeys     = "own-keys"
	idOwnBody     = "own-keys-body"
	idOwnMembers  = "own-members"
	idOwnAbsent   = "own-absent"
	idOwnUse      = "own-use"
	idOwnBack     = "own-back"
	idOwnError    = "own-error"
	idOwnReport   = "own-report"
	idOwnProgress = "own-progress"
)

// ownLists are the two key lists. A placeholder is one line: go-app
// prerenders an attribute in Go's quoting, which writes a line break as
// the two characters \n.
var ownLists = [2]struct{ id, name, label, placeholder string }{
	{idOwnMembers, "members", "Members: the keys to insert", "One key per line, such as alice@example.com"},
	{idOwnAbsent, "absent queries", "Absent queries (optional): keys to look up that you never inserted", "One key per line, such as mallory@example.com"},
}

// ownSliders are the sliders the key lists decide: off while own keys are
// in use.
var ownSliders = map[string]bool{settings.IDItems: true, settings.IDQueries: true, settings.IDPresentShare: true, settings.IDKeyBytes: true}

// ownPanel is the "Your own keys" section: the two lists, their files, the
// read in progress and, once read, the keys the lab runs on. use tells the
// page the keys changed (keys nil: back to generated keys); t0 is the
// event's time, 0 for none.
type ownPanel struct {
	keys     *engine.OwnKeys
	src      [2]ownSource
	err      string
	runs     engine.Runs
	loading  bool
	progress float64
	use      func(ctx app.Context, t0 float64)
	// later mounts what the panel holds under its title once the page
	// is live, or when it is opened (later.go).
	later later
}

// ownSource is a file chosen for one list; a list without one comes from
// its box.
type ownSource struct {
	file app.Value
	name string
	size int
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
		if o.src[list].size > int(engine.KeyLimits.MaxBytes) {
			o.err = engine.TooLarge(list, o.src[list].size).Error()
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
	var in [2]engine.OwnInput
	size := 0 // bytes, or a box's UTF-16 units
	for i, l := range ownLists {
		if src := o.src[i]; src.file != nil {
			if src.size > int(engine.KeyLimits.MaxBytes) {
				o.err = engine.TooLarge(i, src.size).Error()
				return
			}
			in[i] = engine.OwnInput{File: src.file}
			size += src.size
			continue
		}
		box := app.Window().GetElementByID(l.id)
		// A box's text has at most as many UTF-16 units (textLength) as its
		// UTF-8 encoding has bytes: past the limit in units is past it in
		// bytes, and found before any copy.
		n := box.Get("textLength").Int()
		if n > int(engine.KeyLimits.MaxBytes) {
			o.err = engine.TooLarge(i, n).Error()
			return
		}
		in[i] = engine.OwnInput{Text: box.Get("value"), FromBox: true}
		size += n
	}
	o.loading, o.progress = true, 0
	large := size > engine.PageKeyBytes
	startRun(ctx, &o.runs, func(read engine.Run) (*engine.OwnKeys, error) {
		report := read.Reporter(ctx, engine.Fraction(func(f float64) { o.progress = f }))
		return engine.ReadKeys(large, in, read, report)
	}, func(ctx app.Context, own *engine.OwnKeys, err error) {
		o.loading = false
		if err != nil {
			o.err = core.Message(err)
			return
		}
		o.keys = own
		o.use(ctx, 0)
	})
}

// drop goes back to generated keys without a run: the caller runs.
func (o *ownPanel) drop() {
	o.runs.Cancel()
	o.loading, o.keys = false, nil
}

// onBack returns the lab to generated keys and abandons any read in
// progress.
func (o *ownPanel) onBack(ctx app.Context, e app.Event) {
	o.runs.Cancel()
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
func sliderValue(sl settings.Slider, p sim.Params, o *engine.OwnKeys) (v float64, ok bool) {
	if o == nil || !ownSliders[sl.ID] {
		return sl.Value(p), true
	}
	if o.AbsentMembers < 0 {
		return 0, false
	}
	n, a := float64(o.N()), float64(o.Facts[engine.ListAbsent].Len-o.AbsentMembers)
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
func sliderShown(sl settings.Slider, p sim.Params, o *engine.OwnKeys) string {
	v, ok := sliderValue(sl, p, o)
	switch {
	case ok:
		return sliderText(sl, v)
	case o != nil && o.AbsentMembers >= 0:
		return "varies"
	}
	return "…"
}

// ownReport says what the lists held: lines read, duplicates dropped, and
// absent keys that were members.
func ownReport(o *engine.OwnKeys) string {
	m, a := o.Facts[engine.ListMembers], o.Facts[engine.ListAbsent]
	s := fmt.Sprintf("Your own keys: %s read, %s dropped (a key counts once), so n = %s.",
		format.Plural(m.Lines, "member line"), format.Plural(m.Duplicates, "duplicate"), format.Int(uint64(o.N())))
	if a.Lines == 0 {
		return s + " No absent queries, so no measured rate."
	}
	if o.AbsentMembers < 0 {
		return s + fmt.Sprintf(" %s read, %s dropped; checking which are members…", format.Plural(a.Lines, "absent line"), format.Plural(a.Duplicates, "duplicate"))
	}
	measured := a.Len - o.AbsentMembers
	s += fmt.Sprintf(" %s read, %s dropped, %s left out of the rate", format.Plural(a.Lines, "absent line"),
		format.Plural(a.Duplicates, "duplicate"), format.Plural(o.AbsentMembers, "member"))
	return s + fmt.Sprintf(" (%s not absent): %s measured.", format.IsAre(o.AbsentMembers), format.Plural(measured, "absent query", "absent queries"))
}

func (o *ownPanel) render() app.UI {
	active := o.keys != nil
	return app.Details().ID(idOwnKeys).Class("own-keys").OnToggle(o.onToggle).Body(
		app.Summary().Body(
			app.Span().Class("own-title").Text("Your own keys"),
			app.Span().Class("muted own-sub").Text(" paste or upload real keys; they stay in this page, not in the link"),
		),
		o.later.render(func() app.UI { return o.renderBody(active) }),
	)
}

// onToggle mounts the panel's body as the panel opens, if the page has
// not mounted it yet.
func (o *ownPanel) onToggle(ctx app.Context, e app.Event) {
	if e.Get("target").Get("open").Bool() {
		o.later.show()
	}
}

// renderBody is what the panel holds under its title.
func (o *ownPanel) renderBody(active bool) app.UI {
	lim := engine.KeyLimits
	back := app.Button().ID(idOwnBack).Class("chip").Text("Back to generated keys").OnClick(o.onBack)
	if !active && !o.loading {
		back = back.Disabled(true)
	}
	return app.Div().ID(idOwnBody).Body(
		app.P().Class("own-help").Text("Build the filter from your keys, with the bits per key, k, passes, seed, variant and fault set below, and measure the false-positive rate on queries you know were never inserted. "+
			"One key per line; blank lines are skipped and nothing else is trimmed, so \"a\" and \"a \" are two keys. "+
			"A list holds at most "+format.Int(uint64(lim.MaxKeys))+" keys and "+format.Limit(lim.MaxBytes)+", a key at most "+format.Limit(int64(lim.MaxLineBytes))+"; past a few megabytes, upload a file, since a browser's text box grows slow. "+
			"The keys are read here and sent nowhere; a link keeps only the settings, so it opens on generated keys."),
		app.Div().Class("own-lists").Body(
			o.renderList(engine.ListMembers),
			o.renderList(engine.ListAbsent),
		),
		app.Div().Class("own-actions").Body(
			app.Button().ID(idOwnUse).Class("chip primary").Text("Use these keys").OnClick(o.onUse),
			back,
		),
		app.If(o.err != "", func() app.UI {
			return ui.Failure(idOwnError, o.err)
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
		return app.P().ID(idOwnReport).Class("notice own-report").Role("status").Text(ownReport(o.keys))
	}))
}

// renderSlidersNote says why some sliders are off, in a slot of its own
// for the same reason.
func (o *ownPanel) renderSlidersNote() app.UI {
	return app.Div().Class("own-slot").Body(app.If(o.keys != nil, func() app.UI {
		return app.P().ID("own-sliders-note").Class("own-note").Text("Your key lists decide items, queries, present share and key bytes, so those sliders are off until you go back to generated keys.")
	}))
}
