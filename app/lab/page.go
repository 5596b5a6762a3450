package lab

import (
	"net/url"
	"time"

	"github.com/bloomlab/bloomlab/app/engine"
	"github.com/bloomlab/bloomlab/app/lab/charts"
	"github.com/bloomlab/bloomlab/app/lab/painter"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui"
	"github.com/bloomlab/bloomlab/app/ui/format"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"
	"github.com/bloomlab/bloomlab/core/try"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// syncWork is the most inserts plus queries the lab runs straight inside an
// input event: the default shape is 9,000, a couple of milliseconds in the
// browser, so it repaints in the same frame. Anything larger runs in chunks
// on its own goroutine with a progress bar.
const syncWork = 60_000

// idStartsLive says, on a prerendered page without a first view, that
// the run starts when the lab is live.
const idStartsLive = "starts-live"

// Page is the lab. It holds the settings and the filter they make, and
// wires the parts that show them, each with one job: the controls, the
// user's own keys, the key panel, the player, the counters, the bit array
// and the charts. Its settings live in the URL: a control change navigates
// to the new query, and OnNav reads it back, so links, reloads and
// back/forward all restore the lab exactly.
type Page struct {
	app.Compo

	settings settings.Lab
	notices  []string
	loaded   bool
	theory   theory
	// deferred is set on the server when the link's first view was left
	// to the lab because the prerender budget was full (prerenders).
	deferred bool

	// result is the filter the settings make, nil before the first run
	// ends; running is set while a long run is on, with its progress.
	result   *sim.Result
	errText  string
	running  bool
	progress float64
	runs     engine.Runs
	// t0 is the event time of the move being drawn, for the repaint timing.
	t0 float64

	controls labControls
	own      ownPanel
	panel    keyPanel
	player   player
	counters counterBox
	bits     labBits
	charts   charts.Charts
	overlap  overlapView
	second   secondView
	file     fileView
	glance   glance

	audit engine.AuditRun
	// ctx is the page's context once mounted, which a part's own news
	// leaves alone (ui.DispatchBelow).
	ctx        app.Context
	stopListen func()
	// started is set while the first view's run waits for OnNav.
	started bool
	// noAudit is set for a page shown with Compact, which has no audit
	// badge: its filter is not audited.
	noAudit bool

	// keep are link keys the lab keeps when it writes its settings (a
	// lesson's place); changed, if set, hears whenever state() may have
	// changed.
	keep    url.Values
	changed func(ctx app.Context)
	// embedAs is what the Embed box embeds, nil for the lab as shown.
	embedAs EmbedChoice
}

func New() *Page {
	c := &Page{}
	c.Init()
	return c
}

// Init wires the parts to the page.
func (c *Page) Init() {
	c.controls.lab, c.panel.lab, c.player.lab, c.bits.lab, c.overlap.lab, c.second.lab, c.file.lab = c, c, c, c, c, c, c
	c.bits.pointed, c.bits.cursor, c.panel.step = -1, -1, -1
	c.panel.later.id, c.player.later.id, c.own.later.id = idKeyPanel, idPlayer, idOwnBody
	c.charts.Figure = c.figure
	c.own.use = func(ctx app.Context, t0 float64) {
		c.notices = nil
		c.player.pause()
		c.setTheory()
		c.recompute(ctx, t0)
	}
}

// theory is what the formulas say before any simulation: cheap enough to
// show in the prerendered page.
type theory struct {
	M     uint64
	N     uint64
	K     int
	Rate  float64
	Exact float64
}

func theoryOf(p sim.Params) theory {
	m, k := p.Shape()
	n := uint64(p.Items)
	return theory{M: m, N: n, K: k, Rate: core.Rate(m, n, k), Exact: core.RateExact(m, n, k)}
}

// shapeParams are the params of the filter shown, with n as the filter
// holds it: the distinct members of the user's list when own keys are in
// use.
func (c *Page) shapeParams() sim.Params {
	if c.own.keys != nil {
		p := c.settings.Params
		p.Items = c.own.keys.N()
		return p
	}
	return c.settings.Run()
}

func (c *Page) setTheory() { c.theory = theoryOf(c.shapeParams()) }

// The labEditor, keyLab, playLab, bitsLab and overlapLab the parts see.

func (c *Page) current() settings.Lab    { return c.settings }
func (c *Page) ownKeys() *engine.OwnKeys { return c.own.keys }

func (c *Page) notify(notice string) {
	if notice != "" {
		c.notices = []string{notice}
	}
}

// change applies a new settings value from a control and recomputes; t0 is
// the event's time stamp, for the repaint timing.
func (c *Page) change(ctx app.Context, s settings.Lab, t0 float64) {
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
func (c *Page) commit(ctx app.Context) {
	u := *ctx.Page().URL()
	q := c.settings.Query()
	for k, vs := range c.keep {
		q[k] = vs
	}
	u.RawQuery = q.Encode()
	ctx.NavigateTo(&u)
}

func (c *Page) restyle(ctx app.Context, large bool) {
	c.settings.Large = large
	c.commit(ctx)
}

// showOverlap opens or closes the overlap view, in the link: a view of
// the same filter, so nothing reruns.
func (c *Page) showOverlap(ctx app.Context, on bool) {
	c.settings.Overlap = on
	c.commit(ctx)
}

// showSecond opens, closes or switches the stories of the second view,
// in the link.
func (c *Page) showSecond(ctx app.Context, s settings.Second) {
	c.settings.Second = s
	c.commit(ctx)
}

// showFile opens or closes the file view, in the link.
func (c *Page) showFile(ctx app.Context, on bool) {
	c.settings.File = on
	c.commit(ctx)
}

// shown is the result shown, nil before the first run ends.
func (c *Page) shown() *sim.Result { return c.result }

// openFile is the filter file the key panel answers from, nil for none.
func (c *Page) openFile() *openedFile { return c.file.openFile() }

func (c *Page) typeKeys(ctx app.Context, keys settings.TypedKeys) {
	s := c.settings
	s.Typed = keys
	c.change(ctx, s, 0)
	c.commit(ctx)
}

func (c *Page) seek(ctx app.Context, at int, commit bool) {
	s := c.settings
	s.PlayAt = at
	c.change(ctx, s, 0)
	if commit {
		c.commit(ctx)
	}
}

// stepped plays the last key's positions one after another, within the
// time given: the player made one step.
func (c *Page) stepped(ctx app.Context, within time.Duration) {
	if c.result != nil {
		c.panel.playLast(ctx, len(c.result.LastInserted), within)
	}
}

// answered is the key panel's news: its answer changed the marks.
func (c *Page) answered(ctx app.Context) {
	c.draw(ctx)
	c.tell(ctx)
}

// tell lets a listener (a lesson) know the state may have changed.
func (c *Page) tell(ctx app.Context) {
	if c.changed != nil {
		c.changed(ctx)
	}
}

// State is what the lab holds now, for a lesson's task.
func (c *Page) State() State {
	st := State{Settings: c.settings, Result: c.result, Queries: c.panel.answers,
		Attack: c.panel.attacked, AttackOn: c.panel.attackedOn}
	if c.audit.Fault == c.settings.Params.Fault {
		st.Audit = c.audit.Report
	}
	return st
}

// Show puts the lab in settings s, as a lesson's "show me" does, and then
// has the key panel query ask in order, or run attack (nil for none).
func (c *Page) Show(ctx app.Context, s settings.Lab, ask []string, attack *try.Attack) {
	s.Large, s.Overlap, s.File = c.settings.Large, c.settings.Overlap, c.settings.File
	c.panel.later.show()
	c.own.drop()
	c.player.pause()
	c.panel.ask, c.panel.attacked = askNone, nil
	if attack != nil {
		c.panel.ask, c.panel.attack = askAttack, *attack
	}
	c.change(ctx, s, 0)
	c.commit(ctx)
	c.panel.queue = append([]string(nil), ask...)
	if !c.running {
		c.panel.next(ctx)
	}
}

// Settings are the lab's settings as they stand.
func (c *Page) Settings() settings.Lab { return c.settings }

// Keep sets link keys the lab keeps when it writes its settings: a
// lesson's place.
func (c *Page) Keep(q url.Values) { c.keep = q }

// OnChange has fn hear whenever State may have changed.
func (c *Page) OnChange(fn func(ctx app.Context)) { c.changed = fn }

// ClearQueries forgets the key panel's answers.
func (c *Page) ClearQueries() { c.panel.clearAnswers() }

func (c *Page) OnMount(ctx app.Context) {
	c.ctx = ctx
	c.panel.motion = !reducedMotion()
	// The moves made on the prerendered page, before the lab was live,
	// are made again (web/early.js) once the parts left out of the first
	// tree are in: a move may be on one of them.
	var replay app.Value
	if live := app.Window().Get("bloomlabLive"); live.Truthy() {
		replay = live.Invoke(true)
	}
	c.reveal(ctx, func(app.Context) {
		ui.MarkStart("whole")
		if replay != nil && replay.Truthy() {
			replay.Invoke()
		}
	})
	// The badge shows the audit's news itself (auditBadge): the page
	// keeps the audit for State, and once it has ended tells its listener
	// and renders again for it (a lesson's task may be done).
	c.stopListen = engine.Audits().Listen(func() {
		ctx.Dispatch(func(ctx app.Context) {
			c.audit = engine.Audits().Get(c.settings.Params.Fault)
			if !c.audit.Finished() || c.changed == nil {
				ctx.PreventUpdate()
				return
			}
			c.tell(ctx)
		})
	})
}

func (c *Page) OnDismount() {
	for _, rs := range []*engine.Runs{&c.runs, &c.own.runs, &c.panel.runs, &c.overlap.runs, &c.second.runs, &c.file.runs, &c.bits.who} {
		rs.Cancel()
	}
	c.charts.Stop()
	c.player.pause()
	if c.stopListen != nil {
		c.stopListen()
	}
	// A late callback that reaches the page through ctx finds no page
	// to leave alone (ui.DispatchBelow) or to update.
	c.ctx = app.Context{}
}

// OnInit starts the live page on the prerendered page's first view when
// it carries one for the link, so the page's first render shows what the
// prerendered one showed: same counters, picture and charts.
func (c *Page) OnInit() {
	if app.IsClient {
		// go-app's own start is a task; reading the prerendered page,
		// a forced layout among it, is the next.
		ui.LetBrowserIn()
		c.startLaters()
		c.started = c.startFirstView()
		if c.started {
			// The run made, the page's tree is built in tasks of its own.
			ui.MarkStart("first-view")
			ui.LetBrowserIn()
		}
	}
}

// OnNav reads the settings from the URL. It only parses: the simulation
// starts after the frame, and only in the browser. The server renders the
// first view.
func (c *Page) OnNav(ctx app.Context) {
	s, notices := settings.LabFromQuery(ctx.Page().URL().Query())
	ctx.Page().SetTitle("Bloom Lab: watch a Bloom filter fill")
	if c.started && s == c.settings {
		// The first view's run, made before the first render: what
		// follows a run follows now, in a task of its own after the
		// first tree's (the picture shows the first view meanwhile).
		c.started = false
		ui.LetBrowserIn()
		c.follow(ctx, c.runs.Start())
		return
	}
	c.started = false
	if c.loaded && s == c.settings {
		// The page's own commit of a control's change: what the control
		// said (a fault that moved the variant, say) stays on screen.
		if len(notices) > 0 {
			c.notices = notices
		}
		return
	}
	c.notices = notices
	if c.loaded && s.Params == c.settings.Params && s.OptimalK == c.settings.OptimalK && s.Typed == c.settings.Typed && s.PlayAt == c.settings.PlayAt {
		// Only the type size or the overlap or file view changed: the same
		// filter, redrawn to the new width, counted if the view opened.
		overlap, second := s.Overlap != c.settings.Overlap, s.Second != c.settings.Second
		c.settings.Large, c.settings.Overlap, c.settings.Second, c.settings.File = s.Large, s.Overlap, s.Second, s.File
		c.bits.resized()
		c.glance.resized()
		if app.IsClient {
			if overlap && c.showing() {
				c.overlap.count(ctx)
			}
			if second {
				c.second.build(ctx)
			}
			ctx.Defer(c.draw)
		}
		return
	}
	c.settings, c.loaded = s, true
	c.player.pause()
	c.setTheory()
	if app.IsServer {
		c.prerender()
		return
	}
	ctx.Defer(func(ctx app.Context) { c.recompute(ctx, 0) })
}

func (c *Page) OnResize(ctx app.Context) {
	c.bits.resized()
	c.glance.resized()
	c.draw(ctx)
}

// recompute runs the simulation for the current settings: at once when it
// is small, otherwise in chunks on a goroutine that yields to the browser
// and gives up as soon as a newer move arrives.
func (c *Page) recompute(ctx app.Context, t0 float64) {
	run := c.runs.Start()
	s, own := c.settings, c.own.keys
	p, typed := runParams(s, own), s.Typed.List()
	c.t0 = t0
	c.errText = ""
	c.charts.Clear()
	c.overlap.clear()
	c.second.clear()
	c.audit = engine.Audits().Get(s.Params.Fault)
	if c.work() <= syncWork && !own.InWorker() {
		start := now()
		r, err := engine.Simulate(p, typed, own, nil)
		timings.Computes = keep(timings.Computes, now()-start)
		c.finish(ctx, run, r, engine.StoreOfRun(r, err), err)
		return
	}
	c.running, c.progress = true, 0
	c.showSliders()
	report := run.Reporter(ctx, engine.Fraction(func(f float64) { c.progress = f }))
	ctx.Async(func() {
		// Lists read on the page stay there; everything else goes to the
		// lab's worker.
		r, store, err := engine.SimulateRun(own == nil || own.InWorker(), p, typed, own, run, report)
		ctx.Dispatch(func(ctx app.Context) { c.finish(ctx, run, r, store, err) })
	})
}

// runParams are the params a run of s takes. With own keys the lists give
// n, and the optimal k, when asked for, is the one for the lists' own n,
// which core works out from Hashes = 0.
func runParams(s settings.Lab, own *engine.OwnKeys) sim.Params {
	if own == nil {
		return s.Run()
	}
	p := s.Params
	if s.OptimalK {
		p.Hashes = 0
	}
	return p
}

// work is how much the current run does, on generated keys or on own ones.
func (c *Page) work() int {
	if c.own.keys != nil {
		return c.own.keys.Work(c.settings.Params.DuplicatePasses)
	}
	return engine.WorkOf(c.settings.Run())
}

// finish shows the run's result, if it is still the current run, and
// starts what follows a run: the key panel's answer on the new filter, the
// player's next stop, and, once the controls rest, the charts'
// measurements and the audit.
func (c *Page) finish(ctx app.Context, run engine.Run, r sim.KeysResult, store engine.BitStore, err error) {
	if !run.Live() {
		return
	}
	c.running = false
	if err != nil {
		c.errText = core.Message(err)
		c.result = nil
		c.player.pause()
		return
	}
	c.result, c.bits.store = &r.Result, store
	if c.own.keys != nil {
		c.own.keys.AbsentMembers = r.AbsentMembers
	}
	c.charts.Redraw(c.result, c.shapeParams(), c.player.chartPlay())
	c.follow(ctx, run)
}

// follow is what follows a run shown: the picture, the key panel's answer
// on the new filter, the player's next stop, and, once the controls rest,
// the charts' measurements (unless the first view brought them) and the
// audit.
func (c *Page) follow(ctx app.Context, run engine.Run) {
	c.draw(ctx)
	c.overlap.count(ctx)
	c.second.build(ctx)
	c.panel.afterRun(ctx)
	c.player.ran(ctx)
	c.tell(ctx)
	// No sweep to wait for when the first view brought the charts' points
	// or the player shows no measured points: the line under the charts
	// says so at once.
	noSweep := c.settings.Playing() || c.charts.Measured()
	if noSweep {
		c.charts.NoSweep()
	}
	ctx.After(restDelay, func(ctx app.Context) {
		if !run.Live() {
			return
		}
		audit := func() {
			if !c.noAudit {
				engine.Audits().StartWhenIdle(c.settings.Params.Fault, run.Live)
			}
		}
		if noSweep {
			audit()
			return
		}
		c.charts.Sweep(ctx, c.shapeParams(), *c.result, c.settings.Typed.List(), c.own.keys != nil, audit)
	})
}

// showing says whether a filter is shown, for the overlap view to count.
func (c *Page) showing() bool { return c.result != nil }

// restDelay is how long the controls must rest before background work.
const restDelay = 150 * time.Millisecond

// draw paints the bit array and writes the counters and the sliders'
// values straight into the page, so a move shows within the frame of its
// input event; go-app's next update (a tick later) writes the same text
// and the rest of the page. For a move, it records how long the move took.
func (c *Page) draw(ctx app.Context) {
	if c.result == nil || !app.IsClient {
		return
	}
	c.bits.overlap = c.overlap.counts()
	if !c.bits.paint(c.result, c.panel.playing(c.bits.marks(c.result, c.panel.marks()))) {
		ctx.Defer(c.draw) // not mounted yet: after the next update
		return
	}
	cs := c.counterList()
	writeCounters(cs)
	c.glance.paint(c.bits.store, c.bits.overlap, cs)
	c.player.sync()
	c.showSliders()
	timings.drawn(c.t0)
	c.t0 = 0
}

// showSliders writes the sliders' values straight into the page: after a
// run, and as a long run starts, so a move shows in the frame of its input
// event however long the run takes.
func (c *Page) showSliders() {
	if !app.IsClient {
		return
	}
	doc := app.Window().Get("document")
	for _, sl := range settings.Sliders {
		if el := doc.Call("getElementById", sl.ID+"-value"); el.Truthy() {
			el.Set("textContent", sliderShown(sl, c.settings.Params, c.own.keys))
		}
		// go-app sets a new element's attributes in no fixed order: a
		// value set before its max is clamped to the default 100.
		if el := doc.Call("getElementById", sl.ID); el.Truthy() {
			el.Set("value", sliderPosition(sl, c.settings.Params, c.own.keys))
		}
		// The number field, unless the reader is typing in it.
		if el := doc.Call("getElementById", sl.ID+exactSuffix); el.Truthy() && !el.Equal(doc.Get("activeElement")) {
			el.Set("value", sliderExact(sl, c.settings.Params, c.own.keys))
		}
	}
}

// variant is the layout the page shows: the result's, or before the first
// result the settings'.
func (c *Page) variant() core.Variant {
	if c.result != nil {
		return c.result.Variant
	}
	return c.settings.Params.Variant
}

func (c *Page) counterList() []counter {
	return labCounters(c.theory, c.variant(), c.settings.Params.FingerprintBits, c.result)
}

func (c *Page) Render() app.UI {
	return ui.NewShell().Route(ui.RouteLab).LargeType(c.settings.Large).Body(c.Body())
}

// Body is the lab without the page around it, titled with the page's h1.
func (c *Page) Body() app.UI {
	c.setPart(false)
	return c.body(func() app.UI { return app.H1().Text(labTitle) }, true)
}

// Part is the lab as a part of another page (the lessons'), whose title is
// that page's one h1: the lab's title is an h2 under it. The page leads
// its readers itself, so the lab's start for newcomers is left out.
func (c *Page) Part() app.UI {
	c.setPart(true)
	return c.body(func() app.UI { return app.H2().Class("lab-title").Text(labTitle) }, false)
}

// setPart says whether the lab is a part of another page, under that
// page's h1 with an h2 of its own: its parts' headings are then h3.
func (c *Page) setPart(part bool) {
	c.counters.inPart, c.bits.inPart, c.panel.inPart, c.charts.InPart = part, part, part, part
}

const labTitle = "The lab"

// state is the lab's data-state, for the page and the embed alike:
// prerendered (drawn, but nothing answers a move yet), running, or ready.
func (c *Page) state() string {
	switch {
	case app.IsServer:
		return "prerendered"
	case c.running || c.own.loading || c.result == nil:
		return "running"
	}
	return "ready"
}

// body is the lab under its title, an h1 or an h2, with the start for
// newcomers if newcomer.
func (c *Page) body(title func() app.UI, newcomer bool) app.UI {
	c.openLaters(c.settings)
	// The parts render as they mount (ui.Part), so that the Yields
	// between them split the first tree's render as well as its mount;
	// the key panel, the player and the own keys' body wait for the page
	// to be live (later.go).
	return app.Div().ID("lab").Class("lab").DataSet("state", c.state()).Body(
		&ui.Yield{},
		ui.Part(func() app.UI { return c.renderHead(title, newcomer) }),
		ui.Part(c.renderNotices),
		ui.Part(c.own.render),
		&ui.Yield{},
		app.Div().Class("lab-grid").Body(
			// The glance at the foot of the controls' column, in view
			// while a control is in use.
			app.Div().Class("lab-side").Body(
				ui.Part(func() app.UI { return c.controls.renderControls(c.own.renderSlidersNote()) }),
				&ui.Yield{},
				ui.Part(func() app.UI { return c.glance.render(c.counterList()) }),
			),
			&ui.Yield{},
			app.Div().Class("lab-out").Body(
				ui.Part(c.own.renderReport),
				ui.Part(c.renderProgress),
				ui.Part(func() app.UI { return c.player.later.render(c.player.render) }),
				ui.PartAt(&c.counters.ctx, func() app.UI {
					return c.counters.render(c.counterList(), c.result, &auditBadge{Fault: c.settings.Params.Fault, Shown: c.variant(), above: &c.counters.ctx})
				}),
				&ui.Yield{},
				ui.Part(func() app.UI { return c.panel.later.render(c.panel.render) }),
				ui.Part(c.renderBits),
				&ui.Yield{},
				ui.Part(func() app.UI { return c.overlap.render(c.result == nil || c.bits.layout(c.result).Cells) }),
				ui.Part(c.second.render),
				ui.Part(c.file.render),
				&ui.Yield{},
				ui.Part(func() app.UI {
					return c.charts.Render(c.variant(), c.result, c.own.keys != nil, c.player.chartPlay())
				}),
			),
		),
	)
}

// renderHead is the lab's title, lede and the tools above the controls.
// The title is made afresh at every render: a Part may render again on
// its own, and an element is never handed to go-app twice.
func (c *Page) renderHead(title func() app.UI, newcomer bool) app.UI {
	return app.Div().Class("lab-head").Body(
		title(),
		app.P().Class("lede").Text("Move a slider and watch the filter fill: the bit array, the counters and the charts follow on every change, and the address bar keeps the settings for a link."),
		app.If(newcomer, c.controls.renderSmallStart),
		app.Div().Class("head-tools").Body(
			c.controls.renderPresets(),
			c.controls.renderViewTools(renderEmbedBox(c.settings, c.embedAs)),
		),
	)
}

// renderBits is the bit array with the marks of the key panel's answer.
func (c *Page) renderBits() app.UI {
	var marks painter.Marks
	if c.result != nil {
		marks = c.panel.playing(c.bits.marks(c.result, c.panel.marks()))
	}
	return c.bits.render(c.result, marks)
}

func (c *Page) renderNotices() app.UI {
	return app.Div().Body(
		ui.Notices("notices", "clamp-notice", "Some settings in the link were changed to legal values:", c.notices),
		app.If(c.errText != "", func() app.UI { return ui.Failure("lab-error", c.errText) }),
	)
}

func (c *Page) renderProgress() app.UI {
	return app.Div().Class("progress-row").Body(
		app.If(app.IsServer && c.result == nil, func() app.UI {
			if c.deferred {
				return app.P().ID(idStartsLive).Class("muted").Text("The server is busy drawing other links: this run of " + format.Int(uint64(c.work())) +
					" inserts and queries starts as soon as the lab is live.")
			}
			return app.P().ID(idStartsLive).Class("muted").Text("This run of " + format.Int(uint64(c.work())) +
				" inserts and queries is larger than the page draws before the lab is live: it starts as soon as the lab is.")
		}),
		app.If(c.running, func() app.UI {
			label := "Simulating " + format.Int(uint64(engine.WorkOf(c.settings.Run()))) + " inserts and queries " + engine.RunsWhere() + ": "
			if own := c.own.keys; own != nil {
				label = "Running your keys (" + format.Int(uint64(own.Work(c.settings.Params.DuplicatePasses))) + " keys sorted, inserted and queried)"
				if own.InWorker() {
					label += " " + engine.RunsWhere()
				}
				label += ": "
			}
			return ui.Progress("lab-progress", label+format.Percent(c.progress), c.progress, 1, false)
		}),
		app.If(c.own.loading && !c.running, func() app.UI {
			return ui.Progress(idOwnProgress, "Reading your keys: "+format.Percent(c.own.progress), c.own.progress, 1, false)
		}),
	)
}
