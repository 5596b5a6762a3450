package app

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"bloomlab/core"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// syncWork is the most inserts plus queries the lab runs straight inside an
// input event: the default shape is 9,000, a couple of milliseconds in the
// browser, so it repaints in the same frame. Anything larger runs in chunks
// on its own goroutine with a progress bar.
const syncWork = 60_000

// LabPage is the lab: the controls, the live bit array, the counters, the
// two charts and the audit badge. Its settings live in the URL: a control
// change navigates to the new query, and OnNav reads it back, so links,
// reloads and back/forward all restore the lab exactly.
type LabPage struct {
	app.Compo

	settings Settings
	notices  []string
	loaded   bool
	theory   theory

	result   *core.Result
	running  bool
	progress float64
	errText  string

	kSVG, bpkSVG string
	kPts, bpkPts []Point
	sampled      bool
	sweeping     bool

	audit      auditRun
	stopListen func()

	// own holds the user's key lists while the lab runs on them (nil:
	// generated keys); ownSrc the files chosen for them; loading is set
	// while they are read, under their own generation counter, so that a
	// slider move does not abandon a read.
	own         *ownKeys
	ownSrc      [2]ownSource
	ownErr      string
	ownGen      atomic.Int64
	loading     bool
	ownProgress float64

	// gen numbers the runs; a run whose number is no longer current was
	// replaced by a newer move and stops at its next chunk.
	gen atomic.Int64
	// t0 is the event time of the move being drawn, for the repaint timing.
	t0 float64
	// canvasW is the bit array's width in CSS pixels, read once per
	// resize: reading it after a change would force a layout.
	canvasW int
	// note is rateNote of the result noteFor, kept between renders.
	note    string
	noteFor *core.Result
}

func newLabPage() *LabPage { return &LabPage{} }

// theory is what the formulas say before any simulation: cheap enough to
// show in the prerendered page.
type theory struct {
	M     uint64
	N     uint64
	K     int
	Rate  float64
	Exact float64
}

func theoryOf(s Settings) theory {
	m, k := s.Params.Shape()
	n := uint64(s.Params.Items)
	return theory{M: m, N: n, K: k, Rate: core.Rate(m, n, k), Exact: core.RateExact(m, n, k)}
}

// shapeParams are the settings' params with n as the filter holds it: the
// distinct members of the user's list when own keys are in use.
func (c *LabPage) shapeParams() core.Params {
	p := c.settings.Params
	if c.own != nil {
		p.Items = c.own.n()
	}
	return p
}

func (c *LabPage) setTheory() {
	s := c.settings
	s.Params = c.shapeParams()
	c.theory = theoryOf(s)
}

func (c *LabPage) OnMount(ctx app.Context) {
	c.stopListen = audits.Listen(func() {
		ctx.Dispatch(func(ctx app.Context) { c.audit = audits.Get(c.settings.Params.Fault) })
	})
}

func (c *LabPage) OnDismount() {
	c.gen.Add(1) // stops any run in flight
	if c.stopListen != nil {
		c.stopListen()
	}
}

// OnNav reads the settings from the URL. It only parses: the simulation
// starts after the frame, and only in the browser.
func (c *LabPage) OnNav(ctx app.Context) {
	s, notices := FromQuery(ctx.Page().URL().Query())
	ctx.Page().SetTitle("Bloom Lab: watch a Bloom filter fill")
	if c.loaded && s == c.settings {
		// The page's own commit of a control's change: what the control
		// said (a fault that moved the variant, say) stays on screen.
		if len(notices) > 0 {
			c.notices = notices
		}
		return
	}
	c.notices = notices
	if c.loaded && s.Params == c.settings.Params && s.OptimalK == c.settings.OptimalK {
		// Only the type size changed: the same filter, redrawn to the new
		// width.
		c.settings.Large = s.Large
		c.canvasW = 0
		if app.IsClient {
			ctx.Defer(c.draw)
		}
		return
	}
	c.settings, c.loaded = s, true
	c.setTheory()
	if app.IsClient {
		ctx.Defer(func(ctx app.Context) { c.recompute(ctx, 0) })
	}
}

func (c *LabPage) OnResize(ctx app.Context) {
	c.canvasW = 0
	c.draw(ctx)
}

// change applies a new settings value from a control and recomputes; t0 is
// the event's time stamp, for the repaint timing.
func (c *LabPage) change(ctx app.Context, s Settings, t0 float64) {
	s = s.Normalize()
	if s == c.settings {
		return
	}
	c.settings = s
	c.notices = nil
	c.setTheory()
	c.recompute(ctx, t0)
}

// commit records the settings in the URL as a new history entry.
func (c *LabPage) commit(ctx app.Context) {
	u := *ctx.Page().URL()
	u.RawQuery = c.settings.Query().Encode()
	ctx.NavigateTo(&u)
}

func (c *LabPage) onSlider(sl slider) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		pos, err := strconv.ParseFloat(e.Get("target").Get("value").String(), 64)
		if err != nil {
			return
		}
		s := c.settings
		sl.set(&s.Params, sl.FromPosition(pos))
		if sl.ID == IDHashes {
			s.OptimalK = false
		}
		c.change(ctx, s, e.Get("timeStamp").Float())
	}
}

func (c *LabPage) onCommit(ctx app.Context, e app.Event) { c.commit(ctx) }

func (c *LabPage) onSeed(ctx app.Context, e app.Event) {
	seed, notice := parseSeed(IDSeed, e.Get("target").Get("value").String(), c.settings.Params.Seed)
	s := c.settings
	s.Params.Seed = seed
	c.change(ctx, s, e.Get("timeStamp").Float())
	c.notices = nil
	c.noticeIf(notice)
	c.commit(ctx)
}

func (c *LabPage) onReroll(ctx app.Context, e app.Event) {
	s := c.settings
	s.Params.Seed = 1 + rand.Uint64N(1<<31)
	c.change(ctx, s, e.Get("timeStamp").Float())
	c.commit(ctx)
}

func (c *LabPage) onOptimalK(ctx app.Context, e app.Event) {
	s := c.settings
	s.OptimalK = e.Get("target").Get("checked").Bool()
	c.change(ctx, s, e.Get("timeStamp").Float())
	c.commit(ctx)
}

func (c *LabPage) onVariant(ctx app.Context, e app.Event) {
	if v, err := core.ParseVariant(e.Get("target").Get("value").String()); err == nil {
		s, notice := c.settings.WithVariant(v)
		c.choose(ctx, e, s, notice)
	}
}

func (c *LabPage) onFault(ctx app.Context, e app.Event) {
	if f, err := core.ParseFault(e.Get("target").Get("value").String()); err == nil {
		s, notice := c.settings.WithFault(f)
		c.choose(ctx, e, s, notice)
	}
}

func (c *LabPage) onFingerprintBits(ctx app.Context, e app.Event) {
	if bits, err := strconv.Atoi(e.Get("target").Get("value").String()); err == nil {
		s, notice := c.settings.WithFingerprintBits(bits)
		c.choose(ctx, e, s, notice)
	}
}

func (c *LabPage) onHashing(ctx app.Context, e app.Event) {
	if h, err := core.ParseHashing(e.Get("target").Get("value").String()); err == nil {
		s, notice := c.settings.WithHashing(h)
		c.choose(ctx, e, s, notice)
	}
}

// choose applies settings a select chose, shows what the choice moved
// besides (notice, if any) and records the link.
func (c *LabPage) choose(ctx app.Context, e app.Event, s Settings, notice string) {
	c.change(ctx, s, e.Get("timeStamp").Float())
	c.noticeIf(notice)
	c.commit(ctx)
}

// noticeIf shows notice, if any, in place of the notices change cleared.
func (c *LabPage) noticeIf(notice string) {
	if notice != "" {
		c.notices = []string{notice}
	}
}

func (c *LabPage) onLarge(ctx app.Context, e app.Event) {
	c.settings.Large = !c.settings.Large
	c.commit(ctx)
}

func (c *LabPage) onPreset(p Preset) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		s := p.Settings
		s.Large = c.settings.Large
		c.change(ctx, s, e.Get("timeStamp").Float())
		c.commit(ctx)
	}
}

// recompute runs the simulation for the current settings: at once when it
// is small, otherwise in chunks on a goroutine that yields to the browser
// and gives up as soon as a newer move arrives.
func (c *LabPage) recompute(ctx app.Context, t0 float64) {
	gen := c.gen.Add(1)
	p := c.settings.Params
	own := c.own
	c.t0 = t0
	c.errText = ""
	c.kPts, c.bpkPts = nil, nil
	c.audit = audits.Get(p.Fault)
	if c.work() <= syncWork {
		start := now()
		r, err := simulate(c.settings, own, nil)
		timings.Computes = append(timings.Computes, now()-start)
		c.finish(ctx, gen, r, err)
		return
	}
	c.running, c.progress = true, 0
	ctx.Async(func() {
		r, err := simulate(c.settings, own, c.stepper(ctx, gen, 12*time.Millisecond, func(frac float64) { c.progress = frac }))
		ctx.Dispatch(func(ctx app.Context) { c.finish(ctx, gen, r, err) })
	})
}

// simulate runs the lab's simulation on generated keys, or on the user's
// lists when own is set; there the optimal k, when asked for, is the one
// for the lists' own n, which core works out from Hashes = 0.
func simulate(s Settings, own *ownKeys, step core.Step) (core.OwnKeysResult, error) {
	p := s.Params
	if own == nil {
		r, err := core.SimulateSteps(p, step)
		return core.OwnKeysResult{Result: r}, err
	}
	if s.OptimalK {
		p.Hashes = 0
	}
	return core.SimulateKeyLists(p, own.members, own.absent, step)
}

// work is the number of inserts and queries a simulation makes.
func work(p core.Params) int { return p.Items*p.DuplicatePasses + p.Queries }

// work is how much the current run does, on generated keys or on own ones.
func (c *LabPage) work() int {
	if c.own != nil {
		return c.own.work(c.settings.Params.DuplicatePasses)
	}
	return work(c.settings.Params)
}

// stepper returns the Step for run gen; see yielder.
func (c *LabPage) stepper(ctx app.Context, gen int64, interval time.Duration, progress func(float64)) core.Step {
	return c.yielder(ctx, func() bool { return c.gen.Load() == gen }, interval, progress)
}

// yielder returns a Step that, every interval, reports progress, sleeps a
// millisecond so the browser can paint and deliver input (Go on wasm is
// single threaded), and stops the work once live says it was replaced.
func (c *LabPage) yielder(ctx app.Context, live func() bool, interval time.Duration, progress func(float64)) core.Step {
	last := time.Now()
	return func(done, total int) error {
		if !live() {
			return core.ErrCancelled
		}
		if time.Since(last) < interval {
			return nil
		}
		frac := float64(done) / float64(max(total, 1))
		ctx.Dispatch(func(ctx app.Context) {
			if live() && progress != nil {
				progress(frac)
			}
		})
		time.Sleep(time.Millisecond)
		last = time.Now()
		if !live() {
			return core.ErrCancelled
		}
		return nil
	}
}

// finish shows run gen's result, if it is still the current run, and
// starts the charts' measurements and the audit behind it.
func (c *LabPage) finish(ctx app.Context, gen int64, r core.OwnKeysResult, err error) {
	if gen != c.gen.Load() {
		return
	}
	c.running = false
	switch {
	case errors.Is(err, core.ErrCancelled):
		return
	case err != nil:
		c.errText = core.Message(err)
		c.result = nil
		return
	}
	c.result = &r.Result
	if c.own != nil {
		c.own.absentMembers = r.AbsentMembers
	}
	c.redrawCharts()
	c.draw(ctx)
	// The charts' measurements and the audit wait until the sliders rest,
	// so they never slow a drag.
	ctx.After(restDelay, func(ctx app.Context) {
		if c.gen.Load() == gen {
			c.sweep(ctx, gen)
			audits.Start(c.settings.Params.Fault)
		}
	})
}

// restDelay is how long the controls must rest before background work.
const restDelay = 150 * time.Millisecond

// sweep measures the charts' points on a goroutine, a chart at a time.
func (c *LabPage) sweep(ctx app.Context, gen int64) {
	p := c.shapeParams()
	if c.own != nil {
		// Own keys come with no generated queries: the points measure
		// generated keys of the same shape.
		p.Queries = sampleQueries
	}
	r := *c.result
	kmax := kRange(r.M, r.N, r.K)
	xs := bpkSamples(bpkRange(p.BitsPerKey))
	_, c.sampled = sampleParams(p)
	// A layout that k or bits per key mean nothing to has no chart
	// against them.
	sweepK, sweepBPK := r.Variant.UsesK(), r.Variant.UsesM()
	c.sweeping = p.Queries > 0 && (sweepK || sweepBPK)
	if !c.sweeping {
		return
	}
	ctx.Async(func() {
		step := c.stepper(ctx, gen, 5*time.Millisecond, nil)
		if sweepK {
			kPts, err := measureK(p, kmax, step)
			if err != nil {
				return
			}
			ctx.Dispatch(func(ctx app.Context) {
				if c.gen.Load() == gen {
					c.kPts = kPts
					c.redrawCharts()
				}
			})
		}
		var bpkPts []Point
		if sweepBPK {
			var err error
			if bpkPts, err = measureBPK(p, xs, step); err != nil {
				return
			}
		}
		ctx.Dispatch(func(ctx app.Context) {
			if c.gen.Load() == gen {
				c.bpkPts = bpkPts
				c.sweeping = false
				c.redrawCharts()
			}
		})
	})
}

func (c *LabPage) redrawCharts() {
	if c.result == nil {
		return
	}
	// On a narrow screen the chart is drawn narrower, so that its text
	// keeps its size when the SVG scales down to the column.
	width := 0.0
	if c.canvasW > 0 && c.canvasW < 480 {
		width = 340
	}
	r, bpk := *c.result, c.settings.Params.BitsPerKey
	c.kSVG, c.bpkSVG = "", ""
	if r.Variant.UsesK() {
		c.kSVG = kChart(r, c.kPts, c.sampled, width).SVG()
	}
	switch {
	case !r.Variant.UsesM():
	case r.Variant.Bloom():
		c.bpkSVG = bpkChart(r, bpk, c.bpkPts, c.sampled, width).SVG()
	default:
		c.bpkSVG = layoutBPKChart(r, bpk, c.settings.Params.FingerprintBits, c.bpkPts, c.sampled, width).SVG()
	}
}

// draw paints the bit array and writes the counters straight into the
// page, so a move shows within the frame of its input event; go-app's next
// update (a tick later) writes the same text and the rest of the page. For
// a move, it records how long the move took.
func (c *LabPage) draw(ctx app.Context) {
	if c.result == nil || !app.IsClient {
		return
	}
	canvas := app.Window().GetElementByID("bit-array")
	if !canvas.Truthy() {
		ctx.Defer(c.draw) // not mounted yet: after the next update
		return
	}
	if c.canvasW <= 0 {
		c.canvasW = canvas.Get("parentElement").Get("clientWidth").Int()
	}
	bitPainter.draw(canvas, c.result, c.canvasW)
	doc := app.Window().Get("document")
	for _, ct := range c.counters() {
		if el := doc.Call("getElementById", ct.id); el.Truthy() {
			el.Set("textContent", ct.value)
		}
	}
	for _, sl := range sliders {
		if el := doc.Call("getElementById", sl.ID+"-value"); el.Truthy() {
			el.Set("textContent", c.sliderShown(sl))
		}
	}
	timings.drawn(c.t0)
	c.t0 = 0
}

func (c *LabPage) Render() app.UI {
	s := c.settings
	state := "ready"
	if c.running || c.loading || c.result == nil {
		state = "running"
	}
	return newShell().Route(RouteLab).LargeType(s.Large).Body(
		app.Div().ID("lab").Class("lab").DataSet("state", state).Body(
			app.Div().Class("lab-head").Body(
				app.H1().Text("The lab"),
				app.P().Class("lede").Text("Move a slider and watch the filter fill: the bit array, the counters and the charts follow on every change, and the address bar keeps the settings for a link."),
				c.renderPresets(),
			),
			c.renderNotices(),
			c.renderOwnKeys(),
			app.Div().Class("lab-grid").Body(
				c.renderControls(),
				app.Div().Class("lab-out").Body(
					c.renderOwnReport(),
					c.renderProgress(),
					c.renderCounters(),
					c.renderBitArray(),
					app.Div().Class("charts").Body(
						chartBox("chart-k", c.kSVG, !c.variant().UsesK()),
						chartBox("chart-bpk", c.bpkSVG, !c.variant().UsesM()),
					),
					app.P().ID("chart-status").Class("muted small").Text(c.chartStatus()),
				),
			),
		),
	)
}

func (c *LabPage) chartStatus() string {
	if c.result == nil {
		return ""
	}
	return chartStatus(c.result, c.own != nil, c.sweeping)
}

// chartStatus is the line under the charts of result r: how the measured
// points were made, on own keys or generated ones, and which charts a
// layout has none of, and why.
func chartStatus(r *core.Result, own, sweeping bool) string {
	v := r.Variant
	switch {
	case !v.UsesK() && !v.UsesM():
		s := "No charts: they sweep k and bits per key, and the " + v.Name() + " filter takes neither (" +
			variantOff(v, IDHashes) + "; " + variantOff(v, IDBitsPerKey) + ")."
		if v.Fingerprints() != nil {
			s += " Its rate depends on its fingerprint bits alone: choose them above."
		}
		return s
	case own && sweeping:
		return "Measuring the chart points on generated keys…"
	case own && r.AbsentQueries == 0:
		return "The theory curves are for your n. Your keys have no absent queries, so the charts have no point of theirs; the measured points come from generated keys with the same bits per key and k."
	case own:
		return "The theory curves are for your n, and the ringed point \"this run\" is your keys' measured rate. The other measured points come from generated keys with the same bits per key and k (n sampled to at most 5,000): the rate depends on bits per key and k, not on which keys."
	case r.AbsentQueries == 0:
		return "No absent queries, so nothing to measure: the charts show theory only."
	case sweeping:
		return "Measuring the chart points…"
	case !v.UsesK():
		return "k means nothing to the " + v.Name() + " filter (" + variantOff(v, IDHashes) + "), so there is no chart against k. " +
			"Measured points come from the same settings with n sampled down to at most 5,000 keys and 10,000 absent queries; the theory is the " + v.Name() + " filter's own, beside the standard Bloom filter's at its best k."
	}
	return "Measured points come from the same settings with n sampled down to at most 5,000 keys and 10,000 absent queries; the rate depends on bits per key and k, not on n."
}

// variantOff is why control id means nothing to layout v, without the
// control's name: "a key has three cells".
func variantOff(v core.Variant, id string) string {
	_, why, _ := strings.Cut(controlNote(v, id), ": ")
	return why
}

// chartBox is a chart's figure; off, it is hidden, for a layout the chart
// means nothing to.
func chartBox(id, svg string, off bool) app.UI {
	fig := app.Figure().ID(id).Class("chart-box")
	if off {
		// Only ever true: HTML reads hidden="false" as hidden.
		fig = fig.Hidden(true)
	}
	return fig.Body(app.Raw(orEmptySVG(svg)))
}

func orEmptySVG(s string) string {
	if s == "" {
		return `<svg class="chart" viewBox="0 0 440 290" role="img" aria-label="chart not drawn yet" xmlns="http://www.w3.org/2000/svg"><text x="58" y="150" fill="#5a6478">Drawing…</text></svg>`
	}
	return s
}

func (c *LabPage) renderPresets() app.UI {
	presets := Presets()
	return app.Div().Class("presets").Body(
		app.Span().Class("presets-label").Text("Classic cases:"),
		app.Range(presets).Slice(func(i int) app.UI {
			p := presets[i]
			return app.Button().ID("preset-" + p.ID).Class("chip").Title(p.Lesson).Text(p.Name).OnClick(c.onPreset(p))
		}),
		app.Button().ID(IDLarge).Class("chip toggle").Aria("pressed", c.settings.Large).
			Text("Large type").OnClick(c.onLarge),
	)
}

func (c *LabPage) renderNotices() app.UI {
	return app.Div().ID("notices").Aria("live", "polite").Body(
		app.If(len(c.notices) > 0, func() app.UI {
			return app.Div().ID("clamp-notice").Class("notice").Role("status").Body(
				app.Strong().Text("Some settings in the link were changed to legal values:"),
				app.Ul().Body(app.Range(c.notices).Slice(func(i int) app.UI {
					return app.Li().Text(c.notices[i])
				})),
			)
		}),
		app.If(c.errText != "", func() app.UI {
			return app.Div().ID("lab-error").Class("notice error").Role("alert").Text(c.errText)
		}),
	)
}

func (c *LabPage) renderControls() app.UI {
	p := c.settings.Params
	kNote := controlNote(p.Variant, IDOptimalK)
	hashingNote := controlNote(p.Variant, IDHashing)
	return app.Section().Class("controls").Aria("label", "Controls").Body(
		c.renderOwnSlidersNote(),
		app.Range(sliders).Slice(func(i int) app.UI { return c.renderSlider(sliders[i]) }),
		app.Div().Class(offClass("control inline", kNote != "")).Body(
			c.renderOptimalK(kNote != ""),
			app.Label().For(IDOptimalK).Text("Use the optimal k, round((m/n) ln 2)"),
		),
		app.Div().Class("control").Body(
			app.Label().For(IDSeed).Text("Seed"),
			app.Div().Class("seed-row").Body(
				// Text, not a number input: a browser rounds numbers past
				// 2^53, and every uint64 seed is legal.
				app.Input().Type("text").Attr("inputmode", "numeric").ID(IDSeed).
					Value(strconv.FormatUint(p.Seed, 10)).OnChange(c.onSeed),
				app.Button().ID("seed-reroll").Class("chip").Text("Re-roll").Title("pick a new random seed").OnClick(c.onReroll),
			),
		),
		app.Div().Class("control").Body(
			app.Label().For(IDVariant).Text("Variant"),
			app.Select().ID(IDVariant).OnChange(c.onVariant).Aria("describedby", "variant-help").Body(
				app.Range(core.Variants).Slice(func(i int) app.UI {
					v := core.Variants[i]
					return app.Option().Value(v.Name()).Selected(v == p.Variant).Text(v.Label())
				}),
			),
			app.Small().ID("variant-help").Text(p.Variant.About()),
		),
		// A slot of its own, so that the controls after it keep their
		// places when it comes and goes.
		app.Div().Class("slot").Body(app.If(p.Variant.Fingerprints() != nil, c.renderFingerprintBits)),
		app.Div().Class("control").Body(
			app.Label().For(IDFault).Text("Fault"),
			app.Select().ID(IDFault).OnChange(c.onFault).Aria("describedby", "fault-help").Body(
				app.Option().Value(string(core.NoFault)).Selected(p.Fault == core.NoFault).Text("none: the real filter"),
				app.Range(core.Faults).Slice(func(i int) app.UI {
					f := core.Faults[i]
					return app.Option().Value(string(f)).Selected(f == p.Fault).Text(string(f))
				}),
			),
			app.Small().ID("fault-help").Text(p.Fault.Describe()),
		),
		c.renderHashing(hashingNote),
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
func (c *LabPage) renderSlider(sl slider) app.UI {
	p := c.settings.Params
	v, ok := c.sliderValue(sl)
	if !ok {
		v = sl.value(p)
	}
	shown := c.sliderShown(sl)
	own := c.own != nil && ownSliders[sl.ID]
	note := controlNote(p.Variant, sl.ID)
	var help app.UI = app.Text(sliderHelp(sl, p.Variant))
	switch {
	case note != "":
		help = app.Span().ID(sl.ID + "-note").Class("control-note").Text(note)
	case own:
		help = app.Text("set by your key lists")
	}
	in := app.Input().Type("range").ID(sl.ID).
		Min(sl.trackMin()).Max(sl.trackMax()).Step(sl.trackStep()).
		Value(formatPlain(sl.Position(v))).
		Aria("valuetext", shown+" ("+sl.Label+")").
		Aria("describedby", sl.ID+"-help").
		OnInput(c.onSlider(sl)).OnChange(c.onCommit)
	if own || note != "" {
		// Only ever true: HTML reads disabled="false" as disabled.
		in = in.Disabled(true)
	}
	return app.Div().Class(offClass("control", own || note != "")).Body(
		app.Label().For(sl.ID).Body(
			app.Span().Text(sl.Label),
			app.Output().ID(sl.ID+"-value").For(sl.ID).Text(shown),
		),
		in,
		app.Small().ID(sl.ID+"-help").Body(help),
	)
}

// renderFingerprintBits is the fingerprint width select of a layout with
// fingerprints: auto (the layout's choice) or one of its widths.
func (c *LabPage) renderFingerprintBits() app.UI {
	p := c.settings.Params
	widths := p.Variant.Fingerprints()
	help := "wider fingerprints: fewer false positives, more memory a key"
	if p.FingerprintBits == 0 {
		help = "auto, the filter's choice; " + help
	}
	return app.Div().Class("control").Body(
		app.Label().For(IDFingerprintBits).Text("Fingerprint bits"),
		app.Select().ID(IDFingerprintBits).OnChange(c.onFingerprintBits).Aria("describedby", IDFingerprintBits+"-help").Body(
			app.Option().Value("0").Selected(p.FingerprintBits == 0).Text("auto"),
			app.Range(widths).Slice(func(i int) app.UI {
				w := widths[i]
				return app.Option().Value(strconv.Itoa(w)).Selected(w == p.FingerprintBits).Text(strconv.Itoa(w) + " bits")
			}),
		),
		app.Small().ID(IDFingerprintBits+"-help").Text(help),
	)
}

// renderHashing is the hashing select, off with a note for a layout that
// finds its positions its own way.
func (c *LabPage) renderHashing(note string) app.UI {
	p := c.settings.Params
	sel := app.Select().ID(IDHashing).OnChange(c.onHashing).Aria("describedby", "hashing-help").Body(
		app.Range(core.Hashings).Slice(func(i int) app.UI {
			h := core.Hashings[i]
			return app.Option().Value(string(h)).Selected(h == p.Hashing || (p.Hashing == "" && h == core.DoubleHashing)).Text(string(h))
		}),
	)
	var help app.UI = app.Text(p.Hashing.Describe())
	if note != "" {
		sel = sel.Disabled(true)
		help = app.Span().ID("hashing-note").Class("control-note").Text(note)
	}
	return app.Div().Class(offClass("control", note != "")).Body(
		app.Label().For(IDHashing).Text("Hashing"),
		sel,
		app.Small().ID("hashing-help").Body(help),
	)
}

// renderOptimalK leaves "checked" out of the prerendered page when it is
// off: HTML reads checked="false" as checked, while the browser build sets
// the property itself. With off, the layout gives k no meaning: the box is
// disabled and described by the hashes slider's note.
func (c *LabPage) renderOptimalK(off bool) app.UI {
	box := app.Input().Type("checkbox").ID(IDOptimalK).OnChange(c.onOptimalK)
	if app.IsClient || c.settings.OptimalK {
		box = box.Checked(c.settings.OptimalK)
	}
	if off {
		box = box.Disabled(true).Aria("describedby", IDHashes+"-note")
	}
	return box
}

// sliderText is a slider's value as the page shows it.
func sliderText(sl slider, v float64) string {
	if sl.Int {
		return formatInt(uint64(v))
	}
	return formatPlain(v)
}

func (c *LabPage) renderProgress() app.UI {
	return app.Div().Class("progress-row").Body(
		app.If(c.running, func() app.UI {
			label := "Simulating " + formatInt(uint64(work(c.settings.Params))) + " inserts and queries: "
			if c.own != nil {
				label = "Running your keys (" + formatInt(uint64(c.own.work(c.settings.Params.DuplicatePasses))) + " keys sorted, inserted and queried): "
			}
			return app.Div().Body(
				app.Label().For("lab-progress").Text(label+formatPercent(c.progress)),
				app.Progress().ID("lab-progress").Max(1).Value(c.progress),
			)
		}),
		app.If(c.loading && !c.running, func() app.UI {
			return app.Div().Body(
				app.Label().For("own-progress").Text("Reading your keys: "+formatPercent(c.ownProgress)),
				app.Progress().ID("own-progress").Max(1).Value(c.ownProgress),
			)
		}),
	)
}

// counter is one figure in the counters grid. Every layout has the same
// figures in the same order, those it lacks hidden: draw writes the values
// by id straight into the page, and a grid that changed its length under
// go-app would leave a value in the wrong place.
type counter struct {
	id, label, value, title string
	alarm, hidden           bool
}

func (c *LabPage) counters() []counter {
	return labCounters(c.theory, c.variant(), c.settings.Params.FingerprintBits, c.result)
}

// variant is the layout the page shows: the result's, or before the first
// result the settings'.
func (c *LabPage) variant() core.Variant {
	if c.result != nil {
		return c.result.Variant
	}
	return c.settings.Params.Variant
}

// labCounters are the figures for layout v: the formulas' th before the
// first result, then r's. fingerprintBits is the width asked for, 0 for the
// layout's choice. Figures a layout lacks are hidden, and the Bloom ones
// are named for what they are in the others: slots or cells, not bits.
func labCounters(th theory, v core.Variant, fingerprintBits int, r *core.Result) []counter {
	unit := v.Unit()
	dash := "…"
	bloom, fingerprints := v.Bloom(), v.Fingerprints() != nil
	// A table of fingerprints filled key by key (cuckoo) has a load,
	// relocations and failed inserts; a layout built once from the whole
	// key set (fuse) has construction attempts.
	table := fingerprints && !v.Static()
	kLabel, probes := "k probes", "probes per absent query"
	setLabel := map[string]string{"bit": "set bits", "slot": "occupied slots"}[unit]
	if setLabel == "" {
		setLabel = "nonzero " + unit + "s"
	}
	exactLabel := "theory, exact m"
	if !v.UsesK() {
		kLabel = unit + "s a query reads"
		probes = unit + "s read per absent query"
	}
	out := []counter{
		{id: "out-m", label: "m " + unit + "s", value: dash},
		{id: "out-n", label: "n keys", value: formatInt(th.N)},
		{id: "out-k", label: kLabel, value: dash},
		{id: "out-bytes", label: "filter size", value: dash},
		{id: "memory-bits-per-key", label: "memory bits per key", value: dash, hidden: !fingerprints,
			title: "the filter's storage over n: what a key really costs"},
		{id: "fingerprint-bits-value", label: "fingerprint bits", value: dash, hidden: !fingerprints},
		{id: "out-set-bits", label: setLabel, value: dash},
		{id: "out-fill", label: "fill", value: dash, hidden: table},
		{id: "load", label: "load", value: dash, hidden: !table, title: "the share of slots in use, the stash included"},
		{id: "relocations", label: "relocations", value: dash, hidden: !table, title: "fingerprints moved to their other bucket to make room"},
		{id: "insert-failures", label: "insert failures", value: dash, hidden: !table, title: "inserts that found no room: the table is too full"},
		{id: "build-retries", label: "construction retries", value: dash, hidden: !v.Static(), title: "attempts that failed to peel before one built the array"},
		{id: "out-fpr-theory", label: "theory rate", value: dash, title: theoryFormula(v)},
		{id: "out-fpr-exact", label: exactLabel, value: dash, hidden: !bloom, title: "(1 - (1 - 1/m)^(kn))^k"},
		{id: "out-fpr-empirical", label: "measured rate", value: dash},
		{id: "out-ci", label: "95%, queries alone", value: dash, title: "Wilson score interval: how well this filter's own rate is measured"},
		{id: "out-ci-whole", label: "95%, whole measurement", value: dash, title: "the queries and the filter's own draw: the interval to judge the theory by"},
		{id: "out-false-positives", label: "false positives", value: dash},
		{id: "out-false-negatives", label: "false negatives", value: dash},
		{id: "out-probes", label: probes, value: dash},
		{id: "out-memory", label: "exact set would need", value: dash},
	}
	at := func(id string) *counter {
		for i := range out {
			if out[i].id == id {
				return &out[i]
			}
		}
		panic("app: no counter " + id)
	}
	set := func(id, v string) { at(id).value = v }
	if r == nil {
		// Before the first result only the Bloom formulas can be shown.
		if bloom {
			set("out-m", formatInt(th.M))
			set("out-k", strconv.Itoa(th.K))
			set("out-fpr-theory", formatRate(th.Rate))
			set("out-fpr-exact", formatRate(th.Exact))
		}
		return out
	}
	if bloom && r.TheoryFPRVariant != r.TheoryFPRExact {
		// The blocked filter's own theory, a Poisson mixture of blocks.
		at("out-fpr-exact").label = "theory, " + v.Name() + " layout"
		at("out-fpr-exact").title = "the " + v.Name() + " filter's own theory"
	}
	set("out-m", formatInt(r.M))
	set("out-n", formatInt(r.N))
	set("out-k", strconv.Itoa(r.K))
	set("out-bytes", formatBytes(r.FilterBytes))
	set("memory-bits-per-key", formatFloat(r.MemoryBitsPerKey, 2))
	fp := strconv.Itoa(r.FingerprintBits)
	if fingerprintBits == 0 {
		fp += " (auto)"
	}
	set("fingerprint-bits-value", fp)
	if bloom {
		set("out-set-bits", formatInt(r.SetBits)+" (expected "+formatFloat(r.ExpectedSetBits, 1)+")")
	} else {
		set("out-set-bits", formatInt(r.SetBits)+" of "+formatInt(r.M))
	}
	set("out-fill", formatPercent(r.Occupancy))
	set("load", formatPercent(r.Load))
	set("relocations", formatInt(r.Relocations))
	set("insert-failures", formatInt(r.InsertFailures))
	set("build-retries", formatInt(r.BuildRetries))
	at("insert-failures").alarm = r.InsertFailures > 0
	at("build-retries").alarm = r.BuildError != ""
	if bloom {
		set("out-fpr-theory", formatRate(r.TheoryFPR))
		set("out-fpr-exact", formatRate(r.TheoryFPRVariant))
	} else {
		set("out-fpr-theory", formatRate(r.TheoryFPRVariant))
	}
	if r.AbsentQueries > 0 {
		set("out-fpr-empirical", formatRate(r.EmpiricalFPR))
		set("out-ci", formatRate(r.QueryCILow)+" to "+formatRate(r.QueryCIHigh))
		set("out-ci-whole", formatRate(r.WholeCILow)+" to "+formatRate(r.WholeCIHigh))
		set("out-probes", formatFloat(r.ProbesPerNegative, 3))
		if bloom {
			// The others' expected reads leave out a query's early stop.
			set("out-probes", formatFloat(r.ProbesPerNegative, 3)+" (theory "+formatFloat(r.ExpectedProbes, 3)+")")
		}
	} else {
		set("out-fpr-empirical", "no absent queries")
		set("out-ci", "none")
		set("out-ci-whole", "none")
		set("out-probes", "none")
	}
	set("out-false-positives", formatInt(r.FalsePositives)+" of "+formatInt(r.AbsentQueries))
	set("out-false-negatives", formatInt(r.FalseNegatives)+" of "+formatInt(r.PresentQueries))
	set("out-memory", formatBytes(r.ExactSetBytes)+" against "+formatBytes(r.FilterBytes))
	at("out-false-negatives").alarm = r.FalseNegatives > 0
	return out
}

// warnings are the sentences under the counters that say what went wrong
// in a run: inserts a full table refused, a construction that failed, and
// keys the filter lost. Each has its element id.
func warnings(r *core.Result) []counter {
	if r == nil {
		return nil
	}
	var out []counter
	if r.InsertFailures > 0 {
		room := "More bits per key make room."
		if widths := r.Variant.Fingerprints(); len(widths) > 0 && r.FingerprintBits > slices.Min(widths) {
			room = "More bits per key, or narrower fingerprints, make room."
		}
		out = append(out, counter{id: "insert-failure-warning", value: "⚠ " + plural(int(r.InsertFailures), "insert") +
			" failed: the table is too full (load " + formatPercent(r.Load) + "). Apart from one fingerprint kept in the stash, those keys are not in the filter, " +
			"and a query for one of them is a false negative. " + room})
	}
	if r.BuildError != "" {
		out = append(out, counter{id: "build-error", value: "⚠ The filter could not be built: " + r.BuildError +
			". A filter that did not build answers yes to every key, so its measured rate is 1."})
	}
	if r.FalseNegatives > 0 {
		why := "A correct Bloom filter can never do this; the " + string(r.Fault) + " fault broke it."
		switch {
		case r.Fault == core.NoFault && r.InsertFailures > 0:
			why = "They are the inserts that failed above."
		case r.Fault == core.NoFault:
			why = "A correct filter of this layout can never do this."
		}
		out = append(out, counter{id: "false-negative-warning", value: "⚠ " + formatInt(r.FalseNegatives) +
			" false negatives: keys that were inserted, and that this filter now says were never added. " + why})
	}
	return out
}

func (c *LabPage) renderCounters() app.UI {
	cs := c.counters()
	r := c.result
	if c.noteFor != r {
		// The note sums a small filter's fill distribution: once a result.
		c.note, c.noteFor = rateNote(r), r
	}
	note := c.note
	warns := warnings(r)
	return app.Section().Class("counters-box").Aria("label", "Counters").Body(
		app.Dl().Class("counters").Body(
			app.Range(cs).Slice(func(i int) app.UI {
				ct := cs[i]
				class := "counter"
				if ct.alarm {
					class += " alarm"
				}
				div := app.Div().Class(class).Title(ct.title)
				if ct.hidden {
					// Only ever true: HTML reads hidden="false" as hidden.
					div = div.Hidden(true)
				}
				return div.Body(
					app.Dt().Text(ct.label),
					app.Dd().ID(ct.id).Text(ct.value),
				)
			}),
		),
		app.If(note != "", func() app.UI {
			// The small-m measurement is about the layouts that take a
			// hashing scheme: the others' notes stand alone.
			return app.P().ID("fpr-note").Class("note").Body(
				app.Text(note+" "),
				app.If(r.Variant.Hashings(), func() app.UI {
					return app.A().ID("fpr-note-link").Href(href(RouteExperiments) + "?experiment=small-m").Text("See the small-m measurement.")
				}),
			)
		}),
		app.Range(warns).Slice(func(i int) app.UI {
			return app.P().ID(warns[i].id).Class("alarm-text").Role("alert").Text(warns[i].value)
		}),
		c.renderBadge(),
	)
}

func (c *LabPage) renderBadge() app.UI {
	f := c.settings.Params.Fault
	a := c.audit
	text, class := "audit not run yet", "badge"
	switch {
	case a.Finished():
		text = a.Report.Summary()
		if a.Report.AllPassed() {
			class += " pass"
			text = "✓ " + text
		} else {
			class += " fail"
			text = "✗ " + text
		}
	case a.Running:
		text = "auditing: " + strconv.Itoa(a.Done) + "/" + strconv.Itoa(a.Total) + " checks"
	case a.Err != "":
		text, class = "audit failed to run", "badge fail"
	}
	target := href(RouteAudit)
	if f != core.NoFault {
		target += "?fault=" + string(f)
	}
	// The badge's audit is the lab's own filter with the fault: say so
	// when the page shows another layout.
	audited, shown := core.Standard.Effective(f), c.variant()
	return app.P().Class("badge-row").Body(
		app.A().ID("audit-badge").Class(class).Href(target).Title("the filter's contract, checked in this browser").Text(text),
		app.If(f != core.NoFault, func() app.UI {
			return app.Span().Class("muted").Text(" with the " + string(f) + " fault switched on")
		}),
		app.If(shown != audited, func() app.UI {
			return app.Span().ID("audit-badge-note").Class("muted").Text(" (of the " + audited.Name() + " filter, not the " + shown.Name() + " one shown here)")
		}),
	)
}

func (c *LabPage) renderBitArray() app.UI {
	r := c.result
	caption, ring, box := "The bit array.", "set by the last key inserted", "read by the first absent query"
	label := "the filter's bit array"
	var strays int
	if r != nil {
		w := c.canvasW
		if w <= 0 {
			w = 800
		}
		caption, ring, box = bitCaption(r, layoutBits(r.M, w, bitAreaCSSH, 1, groupOf(r.Filter)))
		label = "the filter's " + r.Variant.Unit() + "s"
		strays = outside(r.LastInserted, r.M) + outside(r.FirstProbed, r.M)
	}
	return app.Figure().Class("bits").Body(
		app.Div().Class("canvas-wrap").Body(
			app.Canvas().ID("bit-array").Aria("label", label).Role("img"),
		),
		app.FigCaption().ID("bit-caption").Body(
			app.Text(caption+" "),
			app.Span().Class("key-ring").Text("◯ ringed"),
			app.Text(": "+ring+". "),
			app.Span().Class("key-box").Text("▢ boxed"),
			app.Text(": "+box+"."),
			app.If(strays > 0, func() app.UI {
				return app.Strong().Class("alarm-text").Text(" " + strconv.Itoa(strays) + " of those positions fall outside [0, m): the fault writes where it must not.")
			}),
		),
	)
}

// repaintTimings records, for the JavaScript face, when the first bit array
// was drawn and how long each move took to reach the screen.
type repaintTimings struct {
	FirstDraw float64   `json:"firstDrawMs"`
	Updates   []float64 `json:"updatesMs"`  // input event to canvas and counters written
	Repaints  []float64 `json:"repaintsMs"` // input event to the next animation frame
	Computes  []float64 `json:"computeMs"`  // the simulation alone
}

// now is the page's clock, performance.now(), in milliseconds.
func now() float64 { return app.Window().Get("performance").Call("now").Float() }

var timings = &repaintTimings{FirstDraw: -1}

// drawn is called right after the bit array is painted. It takes the time
// at the next animation frame, when the browser is about to show it.
func (t *repaintTimings) drawn(t0 float64) {
	if t.FirstDraw >= 0 && t0 <= 0 {
		return
	}
	if t0 > 0 {
		t.Updates = append(t.Updates, now()-t0)
	}
	var cb app.Func
	cb = app.FuncOf(func(this app.Value, args []app.Value) any {
		now := app.Window().Get("performance").Call("now").Float()
		if t.FirstDraw < 0 {
			t.FirstDraw = now
		}
		if t0 > 0 {
			t.Repaints = append(t.Repaints, now-t0)
		}
		cb.Release()
		return nil
	})
	app.Window().Call("requestAnimationFrame", cb)
}
