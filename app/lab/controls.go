package lab

import (
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/bloomlab/bloomlab/app/engine"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui"
	"github.com/bloomlab/bloomlab/app/ui/format"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// labEditor is what the lab's controls need of the page: where the
// settings stand, the user's key lists (which decide some sliders), and a
// way to move the settings.
type labEditor interface {
	current() settings.Lab
	ownKeys() *engine.OwnKeys
	// change applies s, from an input event at time t0 (0 for none),
	// and reruns the filter.
	change(ctx app.Context, s settings.Lab, t0 float64)
	// notify shows notice, if any, in place of the notices shown. A
	// control's change clears them; a second event that changes nothing
	// (a select's input and change) must not clear what the first said.
	notify(notice string)
	// commit writes the settings into the link, a new history entry.
	commit(ctx app.Context)
	// restyle switches the large type on or off.
	restyle(ctx app.Context, large bool)
}

// labControls are the lab's presets, sliders and selects. Every edit goes
// through the labEditor: the controls hold no state of their own.
type labControls struct{ lab labEditor }

func (lc *labControls) onSlider(sl settings.Slider) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		pos, err := strconv.ParseFloat(e.Get("target").Get("value").String(), 64)
		if err != nil {
			return
		}
		s := lc.lab.current()
		sl.Set(&s.Params, sl.FromPosition(pos))
		if sl.ID == settings.IDHashes {
			s.OptimalK = false
		}
		lc.lab.change(ctx, s, e.Get("timeStamp").Float())
	}
}

func (lc *labControls) onCommit(ctx app.Context, e app.Event) { lc.lab.commit(ctx) }

// onExact reads the value typed into a slider's number field, as a link's
// is read: what it could not take as typed, it says.
func (lc *labControls) onExact(sl settings.Slider) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		s := lc.lab.current()
		v, notice := sl.Parse(e.Get("target").Get("value").String(), sl.Value(s.Params))
		sl.Set(&s.Params, v)
		lc.choose(ctx, e, s, notice)
	}
}

func (lc *labControls) onSeed(ctx app.Context, e app.Event) {
	seed, notice := settings.ParseSeed(settings.IDSeed, e.Get("target").Get("value").String(), lc.lab.current().Params.Seed)
	s := lc.lab.current()
	s.Params.Seed = seed
	lc.lab.change(ctx, s, e.Get("timeStamp").Float())
	lc.lab.notify(notice)
	lc.lab.commit(ctx)
}

func (lc *labControls) onReroll(ctx app.Context, e app.Event) {
	s := lc.lab.current()
	s.Params.Seed = 1 + rand.Uint64N(1<<31)
	lc.lab.change(ctx, s, e.Get("timeStamp").Float())
	lc.lab.commit(ctx)
}

func (lc *labControls) onOptimalK(ctx app.Context, e app.Event) {
	s := lc.lab.current()
	s.OptimalK = e.Get("target").Get("checked").Bool()
	lc.lab.change(ctx, s, e.Get("timeStamp").Float())
	lc.lab.commit(ctx)
}

func (lc *labControls) onVariant(ctx app.Context, e app.Event) {
	if v, err := core.ParseVariant(e.Get("target").Get("value").String()); err == nil {
		s, notice := lc.lab.current().WithVariant(v)
		lc.choose(ctx, e, s, notice)
	}
}

func (lc *labControls) onFault(ctx app.Context, e app.Event) {
	if f, err := core.ParseFault(e.Get("target").Get("value").String()); err == nil {
		s, notice := lc.lab.current().WithFault(f)
		lc.choose(ctx, e, s, notice)
	}
}

func (lc *labControls) onFingerprintBits(ctx app.Context, e app.Event) {
	if bits, err := strconv.Atoi(e.Get("target").Get("value").String()); err == nil {
		s, notice := lc.lab.current().WithFingerprintBits(bits)
		lc.choose(ctx, e, s, notice)
	}
}

func (lc *labControls) onHashing(ctx app.Context, e app.Event) {
	if h, err := core.ParseHashing(e.Get("target").Get("value").String()); err == nil {
		s, notice := lc.lab.current().WithHashing(h)
		lc.choose(ctx, e, s, notice)
	}
}

// choose applies settings a select chose, shows what the choice moved
// besides (notice, if any) and records the link.
func (lc *labControls) choose(ctx app.Context, e app.Event, s settings.Lab, notice string) {
	lc.lab.change(ctx, s, e.Get("timeStamp").Float())
	lc.lab.notify(notice)
	lc.lab.commit(ctx)
}

func (lc *labControls) onLarge(ctx app.Context, e app.Event) {
	s := lc.lab.current()
	s.Large = !s.Large
	lc.lab.restyle(ctx, s.Large)
}

func (lc *labControls) onPreset(p settings.Preset) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		lc.start(ctx, e, p.Settings)
	}
}

// start opens a shape (a preset, the small start): the type size, the
// overlap and second views and the typed keys stay.
func (lc *labControls) start(ctx app.Context, e app.Event, s settings.Lab) {
	cur := lc.lab.current()
	s.Large, s.Overlap, s.Second, s.File, s.Typed = cur.Large, cur.Overlap, cur.Second, cur.File, cur.Typed
	lc.lab.change(ctx, s, e.Get("timeStamp").Float())
	lc.lab.commit(ctx)
}

// onSmallStart opens the small start and brings its picture into view:
// the bit array, every bit a cell, is what the click is for, and on a
// phone it lies below the controls.
func (lc *labControls) onSmallStart(ctx app.Context, e app.Event) {
	lc.start(ctx, e, settings.SmallStart())
	ctx.Defer(func(app.Context) {
		if el := app.Window().GetElementByID(idBitArray); el.Truthy() {
			el.Call("scrollIntoView", map[string]any{"block": "center"})
		}
	})
}

// Element IDs of the lab's header: the newcomer's start and its line to
// the lessons, and the header's groups of buttons.
const (
	idNewcomer     = "newcomer"
	idSmallStart   = "small-start"
	idLessonsLink  = "lessons-link"
	idPresetsGroup = "presets"
	idViewGroup    = "view-tools"
)

// renderSmallStart is the newcomer's way in: one click to a filter small
// enough to see every bit, and the line to the lessons.
func (lc *labControls) renderSmallStart() app.UI {
	return app.P().ID(idNewcomer).Class("newcomer").Body(
		app.Span().Class("newcomer-label").Text("New here? "),
		app.Button().ID(idSmallStart).Class("chip primary").
			Title("16 keys in 128 bits with k = 3: every bit a square you can point at").
			Text("Start small: 16 keys in 128 bits").OnClick(lc.onSmallStart),
		app.Text(" "),
		app.A().ID(idLessonsLink).Href(ui.Href(ui.RouteLessons)).Text("or follow the lessons, step by step"),
	)
}

// renderPresets is the classic cases, a group of their own.
func (lc *labControls) renderPresets() app.UI {
	presets := settings.Presets()
	return app.Div().ID(idPresetsGroup).Class("presets head-group").Role("group").Aria("labelledby", "presets-label").Body(
		app.Span().ID("presets-label").Class("presets-label").Text("Classic cases:"),
		app.Range(presets).Slice(func(i int) app.UI {
			p := presets[i]
			return app.Button().ID("preset-" + p.ID).Class("chip").Title(p.Lesson).Text(p.Name).OnClick(lc.onPreset(p))
		}),
	)
}

// renderViewTools is the group of what changes how the lab is shown or
// shared, not the filter: the large type and the embed box.
func (lc *labControls) renderViewTools(embed app.UI) app.UI {
	return app.Div().ID(idViewGroup).Class("view-tools head-group").Role("group").Aria("labelledby", "view-tools-label").Body(
		app.Span().ID("view-tools-label").Class("presets-label").Text("Show and share:"),
		app.Button().ID(settings.IDLarge).Class("chip toggle").Aria("pressed", lc.lab.current().Large).
			Text("Large type").OnClick(lc.onLarge),
		embed,
	)
}

// renderControls is the controls' column; ownNote says why the sliders
// the user's key lists decide are off.
func (lc *labControls) renderControls(ownNote app.UI) app.UI {
	p := lc.lab.current().Params
	kNote := settings.ControlNote(p.Variant, settings.IDOptimalK)
	hashingNote := settings.ControlNote(p.Variant, settings.IDHashing)
	return app.Section().Class("controls").Aria("label", "Controls").Body(
		ownNote,
		app.Range(settings.Sliders).Slice(func(i int) app.UI { return lc.renderSlider(settings.Sliders[i]) }),
		app.Div().Class(offClass("control inline", kNote != "")).Body(
			lc.renderOptimalK(kNote != ""),
			app.Label().For(settings.IDOptimalK).Text("Use the optimal k, round((m/n) ln 2)"),
		),
		app.Div().Class("control").Body(
			app.Label().For(settings.IDSeed).Text("Seed"),
			app.Div().Class("seed-row").Body(
				// Text, not a number input: a browser rounds numbers past
				// 2^53, and every uint64 seed is legal.
				app.Input().Type("text").Attr("inputmode", "numeric").ID(settings.IDSeed).
					Value(strconv.FormatUint(p.Seed, 10)).OnChange(lc.onSeed),
				app.Button().ID("seed-reroll").Class("chip").Text("Re-roll").Title("pick a new random seed").OnClick(lc.onReroll),
			),
		),
		app.Div().Class("control").Body(
			app.Label().For(settings.IDVariant).Text("Variant"),
			app.Select().ID(settings.IDVariant).OnChange(lc.onVariant).Aria("describedby", "variant-help").Body(
				app.Range(core.Variants).Slice(func(i int) app.UI {
					v := core.Variants[i]
					return ui.Selected(app.Option().Value(v.Name()), v == p.Variant).Text(v.Label())
				}),
			),
			app.Small().ID("variant-help").Text(p.Variant.About()),
		),
		// A slot of its own, so that the controls after it keep their
		// places when it comes and goes.
		app.Div().Class("slot").Body(app.If(p.Variant.Fingerprints() != nil, lc.renderFingerprintBits)),
		app.Div().Class("control").Body(
			app.Label().For(settings.IDFault).Text("Fault"),
			app.Select().ID(settings.IDFault).OnChange(lc.onFault).Aria("describedby", "fault-help").Body(
				ui.Selected(app.Option().Value(string(core.NoFault)), p.Fault == core.NoFault).Text("none: the real filter"),
				app.Range(core.Faults).Slice(func(i int) app.UI {
					f := core.Faults[i]
					return ui.Selected(app.Option().Value(string(f)), f == p.Fault).Text(string(f))
				}),
			),
			app.Small().ID("fault-help").Text(p.Fault.Describe()),
		),
		lc.renderHashing(hashingNote),
	)
}

// offClass is a control's class, marked off when the control does not
// apply.
func offClass(class string, off bool) string {
	if off {
		return class + " off"
	}
	return class
}

// renderSlider is one range control. It is off while own keys decide it,
// or when the layout gives it no meaning; then its help says why, the
// layout's reason in an element of its own (#hashes-note, say). Its value
// stays in the link either way.
func (lc *labControls) renderSlider(sl settings.Slider) app.UI {
	p := lc.lab.current().Params
	own := lc.lab.ownKeys()
	shown := sliderShown(sl, p, own)
	decided := own != nil && ownSliders[sl.ID]
	note := settings.ControlNote(p.Variant, sl.ID)
	var help app.UI = app.Text(sliderHelp(sl, p.Variant))
	switch {
	case note != "":
		help = app.Span().ID(sl.ID + "-note").Class("control-note").Text(note)
	case decided:
		help = app.Text("set by your key lists")
	}
	in := app.Input().Type("range").ID(sl.ID).
		Min(sl.TrackMin()).Max(sl.TrackMax()).Step(sl.TrackStep()).
		Value(sliderPosition(sl, p, own)).
		Aria("valuetext", shown+" ("+sl.Label+")").
		Aria("describedby", sl.ID+"-help").
		OnInput(lc.onSlider(sl)).OnChange(lc.onCommit)
	if decided || note != "" {
		// Only ever true: HTML reads disabled="false" as disabled.
		in = in.Disabled(true)
	}
	var foot app.UI = app.Small().ID(sl.ID + "-help").Body(help)
	if sl.Exact {
		// Under the track, which keeps the column's width for its stops.
		foot = app.Div().Class("slider-foot").Body(foot, lc.renderExact(sl, decided || note != ""))
	}
	return app.Div().Class(offClass("control", decided || note != "")).Body(
		app.Label().For(sl.ID).Body(
			app.Span().Text(sl.Label),
			app.Output().ID(sl.ID+"-value").For(sl.ID).Text(shown),
		),
		in,
		foot,
	)
}

// renderExact is a slider's number field, for a value between the
// slider's stops; off with the slider.
func (lc *labControls) renderExact(sl settings.Slider, off bool) app.UI {
	in := app.Input().Type("number").ID(sl.ID+exactSuffix).Class("exact").
		Min(sl.Min).Max(sl.Max).Step(sl.Step).Value(sliderExact(sl, lc.lab.current().Params, lc.lab.ownKeys())).
		Attr("inputmode", "decimal").Aria("label", sl.Label+", exact").
		Title("any value from " + format.Plain(sl.Min) + " to " + format.Plain(sl.Max) + ", in steps of " + format.Plain(sl.Step)).
		OnChange(lc.onExact(sl))
	if off {
		in = in.Disabled(true)
	}
	return in
}

// exactSuffix ends the ID of a slider's number field.
const exactSuffix = "-exact"

// sliderExact is the value a slider's number field shows: the one the
// thumb stands nearest, exactly.
func sliderExact(sl settings.Slider, p sim.Params, own *engine.OwnKeys) string {
	v, ok := sliderValue(sl, p, own)
	if !ok {
		v = sl.Value(p)
	}
	return format.Plain(v)
}

// renderFingerprintBits is the fingerprint width select of a layout with
// fingerprints: auto (the layout's choice) or one of its widths. A layout
// with many widths (the fuse filter's 1 to 32) lists the common ones and
// the current one; a link takes any it allows.
func (lc *labControls) renderFingerprintBits() app.UI {
	p := lc.lab.current().Params
	widths := selectWidths(p.Variant.Fingerprints(), p.FingerprintBits)
	help := "wider fingerprints: fewer false positives, more memory a key"
	if p.FingerprintBits == 0 {
		help = "auto, the filter's choice; " + help
	}
	if all := p.Variant.Fingerprints(); len(widths) < len(all) {
		help += "; any of " + p.Variant.FingerprintWidths("or") + " bits through the link (" + settings.IDFingerprintBits + "=N)"
	}
	return app.Div().Class("control").Body(
		app.Label().For(settings.IDFingerprintBits).Text("Fingerprint bits"),
		app.Select().ID(settings.IDFingerprintBits).OnChange(lc.onFingerprintBits).Aria("describedby", settings.IDFingerprintBits+"-help").Body(
			ui.Selected(app.Option().Value("0"), p.FingerprintBits == 0).Text("auto"),
			app.Range(widths).Slice(func(i int) app.UI {
				w := widths[i]
				return ui.Selected(app.Option().Value(strconv.Itoa(w)), w == p.FingerprintBits).Text(strconv.Itoa(w) + " bits")
			}),
		),
		app.Small().ID(settings.IDFingerprintBits+"-help").Text(help),
	)
}

// commonWidths are the fingerprint widths the select lists for a layout
// that allows more than maxListedWidths: every width to 8 bits that is a
// rate worth showing (2^-4 to 2^-8, 7 bits being the one nearest below
// 1%), then the byte-ish widths up to 32.
var commonWidths = []int{4, 5, 6, 7, 8, 10, 12, 16, 20, 24, 32}

const maxListedWidths = 12

// selectWidths is what the select lists of a layout's allowed widths:
// all of them when they are few, else the common ones it allows, with
// current (0 for auto) among them when it is allowed and not common.
func selectWidths(allowed []int, current int) []int {
	if len(allowed) <= maxListedWidths {
		return allowed
	}
	var out []int
	for _, w := range allowed {
		if w == current || slices.Contains(commonWidths, w) {
			out = append(out, w)
		}
	}
	return out
}

// renderHashing is the hashing select, off with a note for a layout that
// finds its positions its own way.
func (lc *labControls) renderHashing(note string) app.UI {
	p := lc.lab.current().Params
	sel := app.Select().ID(settings.IDHashing).OnChange(lc.onHashing).Aria("describedby", "hashing-help").Body(
		app.Range(core.Hashings).Slice(func(i int) app.UI {
			h := core.Hashings[i]
			return ui.Selected(app.Option().Value(string(h)), h == p.Hashing || (p.Hashing == "" && h == core.DoubleHashing)).Text(string(h))
		}),
	)
	var help app.UI = app.Text(p.Hashing.Describe())
	if note != "" {
		sel = sel.Disabled(true)
		help = app.Span().ID("hashing-note").Class("control-note").Text(note)
	}
	return app.Div().Class(offClass("control", note != "")).Body(
		app.Label().For(settings.IDHashing).Text("Hashing"),
		sel,
		app.Small().ID("hashing-help").Body(help),
	)
}

// renderOptimalK draws the optimal-k box (checked, as ui/attrs.go says,
// leaves "checked" out of the prerendered page when it is off). With off,
// the layout gives k no meaning: the box is disabled and described by the
// hashes slider's note.
func (lc *labControls) renderOptimalK(off bool) app.UI {
	box := ui.Checked(app.Input().Type("checkbox").ID(settings.IDOptimalK).OnChange(lc.onOptimalK), lc.lab.current().OptimalK)
	if off {
		box = box.Disabled(true).Aria("describedby", settings.IDHashes+"-note")
	}
	return box
}

// sliderPosition is where a slider's thumb stands: at its value, or with
// own keys deciding it at the lists' value, else at the settings' one.
func sliderPosition(sl settings.Slider, p sim.Params, own *engine.OwnKeys) string {
	v, ok := sliderValue(sl, p, own)
	if !ok {
		v = sl.Value(p)
	}
	return format.Plain(sl.Position(v))
}

// sliderText is a slider's value as the page shows it.
func sliderText(sl settings.Slider, v float64) string {
	if sl.Int {
		return format.Int(uint64(v))
	}
	return format.Plain(v)
}
