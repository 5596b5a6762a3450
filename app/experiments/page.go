package experiments

import (
	"errors"
	"net/url"
	"strconv"
	"sync/atomic"
	"time"

	"bloomlab/app/engine"
	"bloomlab/app/settings"
	"bloomlab/app/ui"
	"bloomlab/app/ui/format"
	"bloomlab/core"
	"bloomlab/core/experiment"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The experiments page has a style sheet of its own; it joins the lab's
// here so that the handler needs no edit.

// ExperimentsPage runs the classic measurements in the browser: pick one,
// set its sizes, run it with a progress bar and a cancel button, then read
// the table, the chart and the notes, and download them as CSV or JSON.
// The choice and the sizes live in the URL like the lab's settings; a run
// starts only on the Run button, never from a link, so the prerendered page
// and a shared link cost nothing until asked.
type Page struct {
	app.Compo

	sel     settings.Experiment
	large   bool
	notices []string
	// carry holds notices from a field edit, shown after the navigation
	// the edit makes (OnNav would otherwise clear them).
	carry []string
	// live is set once the page runs in the browser, so a test can tell
	// the prerendered page from the working one.
	live   bool
	narrow bool

	run *expRun
	// runs stops a run a newer one replaced, or a cancel.
	runs engine.Runs
	// probing is the selection whose work is being measured.
	probing string
	// mounts counts the page's mounts and dismounts, so that the watch
	// of the workers' news ends with the mount that started it.
	mounts atomic.Int64
}

// expRun is the page's run: its progress while it goes, then how it ended.
type expRun struct {
	Sel         settings.Experiment
	Done, Total int
	Running     bool
	Cancelled   bool
	Err         string
	Start       time.Time
	Elapsed     time.Duration
}

// percent is the run's progress as a whole percentage, 100 once done.
func (r *expRun) percent() int {
	if !r.Running && !r.Cancelled && r.Err == "" {
		return 100
	}
	if r.Total <= 0 {
		return 0
	}
	return min(100, 100*r.Done/r.Total)
}

func New() *Page {
	return &Page{sel: settings.DefaultExperiment()}
}

// OnNav reads the selection from the URL. It only parses: measuring the
// work the sizes plan (a few milliseconds) waits for the browser, and the
// experiment itself for the Run button.
func (p *Page) OnNav(ctx app.Context) {
	ctx.Page().SetTitle("Experiments · Bloom Lab")
	q := ctx.Page().URL().Query()
	sel, notices := settings.ExperimentFromQuery(q)
	p.large = false
	if raw, ok := settings.Lookup(q, settings.IDLarge); ok {
		p.large, _ = settings.ParseFlag(raw)
	}
	p.sel, p.notices, p.carry = sel, append(p.carry, notices...), nil
	if app.IsClient {
		ctx.Defer(p.learnUnits)
	}
}

func (p *Page) OnMount(ctx app.Context) {
	p.live = app.IsClient
	p.measure()
	if app.IsClient {
		engine.StartWorkers()
		p.watchEngines(ctx, p.mounts.Add(1))
	}
}

// watchEngines shows the workers' news (started, failed) while the page
// stays mounted.
func (p *Page) watchEngines(ctx app.Context, mount int64) {
	ctx.Async(func() {
		for p.mounts.Load() == mount {
			<-engine.Changed()
			ctx.Dispatch(func(ctx app.Context) {})
		}
	})
}

func (p *Page) OnResize(ctx app.Context) { p.measure() }

// OnDismount stops a run in flight: the tables already measured stay in
// the session for a return to the page.
func (p *Page) OnDismount() {
	p.runs.Cancel()
	p.mounts.Add(1)
}

// measure notes whether the window is narrow, where the chart is drawn
// narrower so that its text keeps its size.
func (p *Page) measure() {
	if !app.IsClient {
		return
	}
	w, _ := app.Window().Size()
	p.narrow = w > 0 && w < 560
}

func (p *Page) chartWidth() float64 {
	if p.narrow {
		return expChartNarrow
	}
	return expChartW
}

// learnUnits measures, off the event, the work planned by the current
// sizes and by the experiment's quick and full sizes, for the estimates.
func (p *Page) learnUnits(ctx app.Context) {
	sel := p.sel
	todo := []settings.Experiment{sel, sel.WithSizes(false), sel.WithSizes(true)}
	missing := false
	for _, s := range todo {
		if _, ok := expSession.unitsOf(s); !ok {
			missing = true
		}
	}
	if !missing || p.probing == sel.Key() {
		return
	}
	p.probing = sel.Key()
	ctx.Async(func() {
		for _, s := range todo {
			if _, ok := expSession.unitsOf(s); !ok {
				expSession.setUnits(s, engine.WorkUnits(s.Name, s.Sizes))
				time.Sleep(time.Millisecond)
			}
		}
		ctx.Dispatch(func(ctx app.Context) { p.probing = "" })
	})
}

// navigate records sel in the URL as a new history entry; OnNav reads it
// back.
func (p *Page) navigate(ctx app.Context, sel settings.Experiment) {
	u := *ctx.Page().URL()
	u.RawQuery = expQuery(sel, p.large).Encode()
	ctx.NavigateTo(&u)
}

func (p *Page) onExperiment(ctx app.Context, e app.Event) {
	ex, ok := experiment.Find(e.Get("target").Get("value").String())
	if !ok || ex.Name == p.sel.Name {
		return
	}
	sizes := ex.Quick
	sizes.Seed = p.sel.Sizes.Seed
	p.navigate(ctx, settings.Experiment{Name: ex.Name, Sizes: sizes})
}

// onKnob reads a size field when it is committed (Enter, or leaving it).
// A value out of range is clamped with a notice, as in a link.
func (p *Page) onKnob(k settings.ExpKnob) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		sel := p.sel
		v, notice := k.Parse(e.Get("target").Get("value").String(), *k.Field(&sel.Sizes))
		*k.Field(&sel.Sizes) = v
		p.commitField(ctx, e, sel, notice, format.Int(uint64(v)))
	}
}

func (p *Page) onSeed(ctx app.Context, e app.Event) {
	sel := p.sel
	v, notice := settings.ParseSeed(settings.ExpSeed, e.Get("target").Get("value").String(), sel.Sizes.Seed)
	sel.Sizes.Seed = v
	p.commitField(ctx, e, sel, notice, strconv.FormatUint(v, 10))
}

// commitField navigates to sel, carrying notice to the page. When sel is
// unchanged (text that is not a number) it shows the notice at once and
// puts the legal value back in the field.
func (p *Page) commitField(ctx app.Context, e app.Event, sel settings.Experiment, notice, shown string) {
	if sel == p.sel {
		if notice != "" {
			p.notices = []string{notice}
		}
		e.Get("target").Set("value", shown)
		return
	}
	if notice != "" {
		p.carry = []string{notice}
	}
	p.navigate(ctx, sel)
}

func (p *Page) onSizes(full bool) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		if sel := p.sel.WithSizes(full); sel != p.sel {
			p.navigate(ctx, sel)
		}
	}
}

func (p *Page) onLarge(ctx app.Context, e app.Event) {
	p.large = !p.large
	p.navigate(ctx, p.sel)
}

// progressEvery spaces the progress bar's updates: each one renders the
// page, on the thread that paints it.
const progressEvery = 200 * time.Millisecond

// progressQuiet is how often the bar redraws with no news, so that the
// time left it gives grows while a run stands still.
const progressQuiet = time.Second

// showProgress hands show a run's progress reports, paced by
// progressPace at each tick (every progressEvery). stop ends the showing.
func showProgress(tick <-chan time.Time, show func(done, total int)) (report func(done, total int), stop func()) {
	latest := make(chan [2]int, 1)
	end := make(chan struct{})
	go func() {
		pace := newProgressPace()
		for {
			select {
			case <-end:
				return
			case pace.latest = <-latest:
			case <-tick:
				if pace.due() {
					show(pace.latest[0], pace.latest[1])
				}
			}
		}
	}()
	report = func(done, total int) {
		select { // keep only the latest: one goroutine reports
		case <-latest:
		default:
		}
		latest <- [2]int{done, total}
	}
	return report, func() { close(end) }
}

// progressPace decides at each tick whether the bar redraws: when the
// latest report's percentage moved, and every progressQuiet whatever it
// is. A report that comes too soon is shown at the next tick, never
// dropped, so the bar always reaches where the run stands, even when the
// run stops there (a held run, or workers busy at an exchange).
type progressPace struct {
	latest   [2]int // done, total
	shownPct int
	quiet    time.Duration
}

func newProgressPace() progressPace { return progressPace{shownPct: -1} }

func (p *progressPace) due() bool {
	pct := 100 * p.latest[0] / max(p.latest[1], 1)
	if p.quiet += progressEvery; pct == p.shownPct && p.quiet < progressQuiet {
		return false
	}
	p.shownPct, p.quiet = pct, 0
	return true
}

// onRun starts the selected experiment on its own goroutine. The page
// keeps working meanwhile: the run sleeps every frame, and a change of
// experiment or sizes leaves it running; its table joins the session when
// it finishes.
func (p *Page) onRun(ctx app.Context, e app.Event) {
	if p.run != nil && p.run.Running {
		return
	}
	ticket := p.runs.Start()
	r := &expRun{Sel: p.sel, Running: true, Start: time.Now()}
	p.run = r
	sel := p.sel
	ctx.Async(func() {
		defer engine.CollectLess()()
		tick := time.NewTicker(progressEvery)
		defer tick.Stop()
		report, stop := showProgress(tick.C, func(done, total int) {
			ctx.Dispatch(func(ctx app.Context) {
				if ticket.Live() {
					r.Done, r.Total = done, total
				}
			})
		})
		t, err := engine.RunExperiment(sel.Name, sel.Sizes, ticket.Live, report)
		stop()
		elapsed := time.Since(r.Start)
		var res *expResult
		if err == nil {
			units, _ := expSession.unitsOf(sel)
			if units == 0 {
				units = engine.WorkUnits(sel.Name, sel.Sizes)
			}
			// The table's exports and its rendering each get a task of
			// their own, so that neither holds the page for long.
			time.Sleep(time.Millisecond)
			res, err = newExpResult(sel, t, elapsed, units)
			time.Sleep(time.Millisecond)
		}
		ctx.Dispatch(func(ctx app.Context) { p.finish(ctx, ticket, r, res, err, elapsed) })
	})
	ctx.Defer(func(ctx app.Context) { focusID("exp-cancel") })
}

// finish records the run's outcome, unless it was cancelled meanwhile.
func (p *Page) finish(ctx app.Context, ticket engine.Run, r *expRun, res *expResult, err error, elapsed time.Duration) {
	if !ticket.Live() {
		return
	}
	r.Running, r.Elapsed = false, elapsed
	switch {
	case errors.Is(err, experiment.ErrCancelled):
		r.Cancelled = true
	case err != nil:
		r.Err = core.Message(err)
	default:
		r.Done = r.Total
		expSession.keep(res)
	}
	if active := app.Window().Get("document").Get("activeElement"); !active.Truthy() || active.Get("id").String() == "exp-cancel" || active.Get("tagName").String() == "BODY" {
		ctx.Defer(func(ctx app.Context) { focusID("exp-run") })
	}
}

// onCancel stops the run at its next progress report, within a frame.
func (p *Page) onCancel(ctx app.Context, e app.Event) {
	r := p.run
	if r == nil || !r.Running {
		return
	}
	p.runs.Cancel()
	r.Running, r.Cancelled, r.Elapsed = false, true, time.Since(r.Start)
	ctx.Defer(func(ctx app.Context) { focusID("exp-run") })
}

// focusID moves the keyboard focus to an element, so that the button that
// replaces the one just pressed can be pressed next.
func focusID(id string) {
	if el := app.Window().GetElementByID(id); el.Truthy() {
		el.Call("focus")
	}
}

func (p *Page) onDownload(kind string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		res := expSession.result(p.sel)
		if res == nil {
			return
		}
		if kind == "csv" {
			download(res.Sel.FileName("csv"), "text/csv", res.CSV)
			return
		}
		download(res.Sel.FileName("json"), "application/json", res.JSON)
	}
}

func (p *Page) state(res *expResult) string {
	switch {
	case !p.live:
		return "static"
	case p.run != nil && p.run.Running:
		return "running"
	case res != nil:
		return "done"
	case p.run != nil && p.run.Cancelled:
		return "cancelled"
	case p.run != nil && p.run.Err != "":
		return "error"
	}
	return "idle"
}

func (p *Page) Render() app.UI {
	res := expSession.result(p.sel)
	return ui.NewShell().Route(ui.RouteExperiments).LargeType(p.large).Body(
		app.Div().ID("experiments").Class("experiments").DataSet("state", p.state(res)).Body(
			app.Div().Class("exp-head").Body(
				app.H1().Text("Experiments"),
				app.P().Class("lede").Text("The classic Bloom filter measurements, run here in your browser with the same code and seeds as the command line: theory against millions of queries, RocksDB's 10 bits per key, the best k, round against ceil, hashing schemes, overfilling, probes, counting filters, memory and the blocked layout."),
				app.Button().ID(settings.IDLarge).Class("chip toggle").Aria("pressed", p.large).Text("Large type").OnClick(p.onLarge),
			),
			p.renderNotices(),
			app.Div().Class("exp-grid").Body(
				p.renderForm(),
				app.Div().Class("exp-out").Body(
					p.renderProgress(),
					p.renderStatus(res),
					app.P().Class("exp-cli small").Body(
						app.Text("The same table on the command line: "),
						app.Code().ID("exp-cli").Text(p.sel.CLI()),
					),
					app.If(p.sel.Name == "memory", func() app.UI {
						return app.P().ID("exp-memory-note").Class("notice").Body(
							app.Strong().Text("The exact set is an estimate here. "),
							app.Text("A browser's heap belongs to the whole page, so no Go map is measured here: the map rows come from the model of a map's table and keys in core.ExactSetBytes. The command line builds real maps and measures them natively: "),
							app.Code().Text("bloomlab experiment memory"),
							app.Text("."),
						)
					}),
					app.If(res != nil, func() app.UI { return p.renderResult(res) }),
				),
			),
		),
	)
}

func (p *Page) renderNotices() app.UI {
	return ui.Notices("exp-notices", "clamp-notice", "Some settings were changed to legal values:", p.notices)
}

func (p *Page) renderForm() app.UI {
	sel := p.sel
	ex := sel.Experiment()
	all := experiment.All()
	running := p.run != nil && p.run.Running
	return app.Section().Class("controls exp-form").Aria("label", "Experiment and sizes").Body(
		app.Div().Class("control").Body(
			app.Label().For("exp-name").Text("Experiment"),
			app.Select().ID("exp-name").Aria("describedby", "exp-summary").OnChange(p.onExperiment).Body(
				app.Range(all).Slice(func(i int) app.UI {
					o := app.Option().Value(all[i].Name).Text(all[i].Name)
					if all[i].Name == sel.Name {
						// Only ever true: prerendered, selected="false" would select.
						o = o.Selected(true)
					}
					return o
				}),
			),
			app.Small().ID("exp-summary").Class("exp-summary").Text(ex.Summary),
		),
		app.Range(settings.ExpKnobs).Slice(func(i int) app.UI {
			k := settings.ExpKnobs[i]
			if !k.Uses(ex) {
				return nil
			}
			return p.renderField(k.ID, k.Label, format.Int(uint64(*k.Field(&sel.Sizes))),
				k.Help+"; 1 to "+format.Int(uint64(k.Max)), p.onKnob(k))
		}),
		p.renderField("exp-seed", "Seed", strconv.FormatUint(sel.Sizes.Seed, 10),
			"any whole number from 0 to 2^64 - 1; the same seed gives the same table", p.onSeed),
		app.Div().Class("exp-sizes").Role("group").Aria("label", "Preset sizes").Body(
			app.Button().ID("exp-quick").Class("chip").Aria("pressed", sel == sel.WithSizes(false)).
				Text("Quick sizes").OnClick(p.onSizes(false)),
			app.Button().ID("exp-full").Class("chip").Aria("pressed", sel == sel.WithSizes(true)).
				Text("Full sizes").Aria("describedby", "exp-full-note").OnClick(p.onSizes(true)),
		),
		app.P().ID("exp-full-note").Class("muted small").Text(p.fullNote()),
		app.Div().Class("exp-actions").Body(
			app.If(!running, func() app.UI {
				return app.Button().ID("exp-run").Class("exp-run").Aria("describedby", "exp-estimate").
					Text("Run " + sel.Name).OnClick(p.onRun)
			}).Else(func() app.UI {
				return app.Button().ID("exp-cancel").Class("exp-cancel").Text("Cancel").OnClick(p.onCancel)
			}),
			app.Span().ID("exp-estimate").Class("muted small").Text(p.estimateText()),
		),
		app.P().ID("exp-engine").Class("muted small").Text(engine.Status()),
	)
}

func (p *Page) renderField(id, label, value, help string, onChange app.EventHandler) app.UI {
	return app.Div().Class("control exp-field").Body(
		app.Label().For(id).Text(label),
		app.Input().Type("text").ID(id).Value(value).Attr("inputmode", "numeric").
			AutoComplete(false).Spellcheck(false).Aria("describedby", id+"-help").OnChange(onChange),
		app.Small().ID(id+"-help").Text(help),
	)
}

// estimateText says how long the current sizes may take.
func (p *Page) estimateText() string {
	units, ok := expSession.unitsOf(p.sel)
	if !ok {
		return ""
	}
	d, _ := expSession.estimate(p.sel.Name, units)
	return format.About(d)
}

// fullNote says what the full sizes are and how long they may take in a
// browser.
func (p *Page) fullNote() string {
	full := p.sel.WithSizes(true)
	text := "Full sizes are the published ones: " + full.SizesText() + "."
	fu, ok := expSession.unitsOf(full)
	if !ok {
		return text
	}
	d, here := expSession.estimate(p.sel.Name, fu)
	where := "in a typical desktop browser"
	if here {
		where = "in this browser, at the pace of its last run"
	}
	if cu, ok := expSession.unitsOf(p.sel); ok && cu > 0 && full != p.sel {
		ratio := float64(fu) / float64(cu)
		if ratio >= 1.05 {
			text += " They do " + strconv.FormatFloat(ratio, 'f', 1, 64) + " times the work of these sizes."
		}
	}
	text += " Expect " + format.About(d) + " " + where + "; the page stays usable and Cancel stops the run."
	return text
}

func (p *Page) renderProgress() app.UI {
	r := p.run
	if r == nil {
		return app.Div().ID("exp-progress-row").Class("exp-progress-row")
	}
	pct := r.percent()
	label := "Running " + r.Sel.Name + " (" + r.Sel.SizesText() + "): " + strconv.Itoa(pct) + "%"
	if spent := time.Since(r.Start); r.Running && r.Done > 0 && spent > time.Second {
		// The run's own pace so far is the best guess at the rest.
		left := time.Duration(float64(spent) * float64(r.Total-r.Done) / float64(r.Done))
		label += ", " + format.About(left) + " left"
	}
	switch {
	case r.Cancelled:
		label = "Cancelled " + r.Sel.Name + " at " + strconv.Itoa(pct) + "% after " + format.Elapsed(r.Elapsed)
	case r.Err != "":
		label = r.Sel.Name + " stopped at " + strconv.Itoa(pct) + "%"
	case !r.Running:
		label = r.Sel.Name + " finished in " + format.Elapsed(r.Elapsed)
	}
	return app.Div().ID("exp-progress-row").Class("exp-progress-row").Body(
		ui.Progress("exp-progress", label, float64(pct), 100, r.Cancelled || r.Err != ""),
	)
}

// renderStatus says, in a live region, what the page is doing: waiting,
// running, finished, cancelled or failed.
func (p *Page) renderStatus(res *expResult) app.UI {
	r := p.run
	status := app.P().ID("exp-status").Class("exp-status").Role("status").Aria("live", "polite")
	switch {
	case r != nil && r.Running:
		return status.Text("Running " + r.Sel.Name + ". The page stays usable; Cancel stops the run.")
	case r != nil && r.Cancelled:
		return status.Text("Cancelled " + r.Sel.Name + " at " + strconv.Itoa(r.percent()) + "%. Nothing was kept; run it again when you like.")
	case r != nil && r.Err != "":
		return status.Class("notice error").Role("alert").Text(r.Sel.Name + " failed: " + r.Err)
	case r != nil && r.Sel != p.sel && expSession.result(r.Sel) != nil:
		return status.Body(
			app.Text(r.Sel.Name+" ("+r.Sel.SizesText()+") finished in "+format.Elapsed(r.Elapsed)+": "),
			app.A().ID("exp-finished-link").Href(ui.Href(ui.RouteExperiments)+"?"+expQuery(r.Sel, p.large).Encode()).Text("show its table"),
			app.Text("."),
		)
	case res != nil:
		return status.DataSet("units", res.Units).DataSet("ms", res.Elapsed.Milliseconds()).
			Text("Done in " + format.Elapsed(res.Elapsed) + " in this browser.")
	}
	return status.Text("Press Run to measure. The quick sizes take a few seconds; the table and the chart appear here.")
}

func (p *Page) renderResult(res *expResult) app.UI {
	t := res.Table
	return app.Div().ID("exp-result").Class("exp-result").Body(
		app.Section().Class("table-box exp-table-box").Aria("labelledby", "exp-title").Body(
			app.H2().ID("exp-title").Text(t.Title),
			app.P().Class("exp-scroll-hint muted small").Aria("hidden", "true").Text("The table scrolls sideways."),
			app.Div().Class("exp-table-wrap").Role("region").Aria("labelledby", "exp-title").TabIndex(0).Body(
				app.Table().ID("exp-table").Class("exp-table").Body(
					app.THead().Body(app.Tr().Body(app.Range(t.Columns).Slice(func(i int) app.UI {
						c := t.Columns[i]
						return app.Th().Scope("col").Class(expCellClass(c)).DataSet("key", c.Key).Text(c.Title)
					}))),
					app.TBody().Body(app.Range(t.Rows).Slice(func(r int) app.UI {
						row := t.Rows[r]
						return app.Tr().Body(app.Range(t.Columns).Slice(func(i int) app.UI {
							c := t.Columns[i]
							return app.Td().Class(expCellClass(c)).Text(c.Format(row[i]))
						}))
					})),
				),
			),
			app.If(len(t.Notes) > 0, func() app.UI {
				return app.Ul().ID("exp-notes").Class("exp-notes").Body(app.Range(t.Notes).Slice(func(i int) app.UI {
					return app.Li().Text(t.Notes[i])
				}))
			}),
			app.Div().Class("exp-downloads").Body(
				app.Button().ID("exp-csv").Class("chip").Text("Download CSV").OnClick(p.onDownload("csv")),
				app.Button().ID("exp-json-download").Class("chip").Text("Download JSON").OnClick(p.onDownload("json")),
			),
		),
		app.If(t.Chart != nil, func() app.UI { return p.renderChart(res) }),
		app.Details().Class("exp-json").Body(
			app.Summary().Text("The table as JSON, as bloomlab experiment --json prints it"),
			app.Pre().ID("exp-json").Text(res.JSON),
		),
	)
}

func (p *Page) renderChart(res *expResult) app.UI {
	c := res.Table.Chart
	return app.Figure().ID("exp-chart").Class("chart-box exp-chart-box").Aria("labelledby", "exp-chart-title").Body(
		app.H2().ID("exp-chart-title").Class("exp-chart-title").Text(c.Title),
		app.Raw(res.chartSVG(p.chartWidth())),
		app.FigCaption().Body(
			app.If(len(c.XLabels) > 0, func() app.UI {
				return app.Ol().Class("exp-xkey").Type("A").Body(app.Range(c.XLabels).Slice(func(i int) app.UI {
					return app.Li().Text(c.XLabels[i])
				}))
			}),
			app.P().Class("muted small").Text(expCaption(c)),
		),
	)
}

// expCellClass aligns text left and numbers right.
func expCellClass(c experiment.Column) string {
	if c.Kind == experiment.Text {
		return "text"
	}
	return "num"
}

// expQuery is sel's query, with the projector mode when it is on.
func expQuery(sel settings.Experiment, large bool) url.Values {
	q := sel.Query()
	if large {
		q.Set(settings.IDLarge, "on")
	}
	return q
}
