package auditpage

import (
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/bloomlab/bloomlab/app/engine"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui"
	"github.com/bloomlab/bloomlab/app/ui/format"
	"github.com/bloomlab/bloomlab/audit"
	"github.com/bloomlab/bloomlab/core"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Page runs the whole audit in the browser, check by check, and shows
// each contract with its verdict and detail, then the digest. With a fault
// chosen (?fault=NAME) it names the checks that caught it and the
// false-positive rate the broken filter reported meanwhile.
type Page struct {
	app.Compo

	fault      core.Fault
	notices    []string
	large      bool
	run        engine.AuditRun
	stopListen func()

	// filter is what the learner typed in the filter box; show the
	// verdicts the page lists (see views.go).
	filter string
	show   view

	// stepping is set on the live page, whose list draws the rows of the
	// closed groups a few at a time after its start (see checkList); the
	// prerendered page draws every row.
	stepping bool
	// live are the contexts of the parts that show the run as it comes
	// in, while they are mounted (see news).
	live [liveParts]app.Context
}

// The parts of the page that show the run as it comes in, in the page's
// order: the progress bar, the engine's status, the filter (its counts
// of each verdict) and the list.
const (
	liveProgress = iota
	liveEngine
	liveFilter
	liveList
	liveParts
)

// New makes the page; in the browser its list draws the closed groups'
// rows a few at a time from its first frame on (see checkList).
func New() *Page { return &Page{stepping: app.IsClient} }

// auditChecks is the audit's list of checks, made once: the table shows a
// row for each before any has run.
var auditChecks = sync.OnceValue(audit.Checks)

func (p *Page) OnMount(ctx app.Context) {
	p.stopListen = engine.Audits().Listen(func() {
		ctx.Dispatch(func(ctx app.Context) { p.news(ctx, engine.Audits().Get(p.fault)) })
	})
}

// news shows run, the latest of the page's audit, on the page of ctx.
// While the checks come in, only the parts that show them render again,
// the progress, the engine's status, the filter's counts and the list,
// and of the list only the groups and rows the news changed: go-app
// renders the whole page for a Dispatch of its context, its shell and
// head included, which took 57 to 379 ms a news at a slow laptop's pace
// (4x slowed CPU). The page renders whole when the run's end changes
// what it says around them: its state, the summary, the digest and the
// verdicts.
func (p *Page) news(ctx app.Context, run engine.AuditRun) {
	was := p.run
	p.run = run
	if run.Finished() != was.Finished() || run.Err != was.Err {
		return
	}
	for _, at := range p.live {
		if at.Src() == nil {
			// A part not mounted yet: the page's render draws it.
			return
		}
	}
	ctx.PreventUpdate()
	for _, at := range p.live {
		ui.DispatchBelow(at, &ctx, func(app.Context) {})
	}
}

// livePart renders a part of the page that shows the run as it comes in
// (see news), and keeps the part's context in the page's live while it is
// mounted. It is ui.PartAt's, a type of the package's own so that its
// tests mount it (outside a browser go-app calls OnPreRender, not
// OnMount): it renders when it mounts, and again at every render of its
// page.
func (p *Page) livePart(i int, render func() app.UI) app.UI {
	return &liveView{Of: render, at: &p.live[i]}
}

type liveView struct {
	app.Compo
	// Of is exported, as go-app hands a component's new render only
	// through its exported fields.
	Of func() app.UI
	at *app.Context
}

func (v *liveView) OnMount(ctx app.Context) { *v.at = ctx }

func (v *liveView) OnDismount() { *v.at = app.Context{} }

func (v *liveView) Render() app.UI { return v.Of() }

func (p *Page) OnDismount() {
	if p.stopListen != nil {
		p.stopListen()
	}
}

// OnNav reads the fault from the URL; the audit itself starts after the
// frame, in the browser only.
func (p *Page) OnNav(ctx app.Context) {
	q := ctx.Page().URL().Query()
	notices := settings.Repeated(q)
	p.fault = core.NoFault
	if raw, ok := settings.Lookup(q, settings.IDFault); ok {
		f, err := core.ParseFault(raw)
		if err != nil {
			notices = append(notices, "fault: "+settings.Quote(raw)+" is not one of the zoo, so the real filter is audited")
		} else {
			p.fault = f
		}
	}
	p.notices = notices
	p.large = settings.LargeType(q)
	ctx.Page().SetTitle("Audit · Bloom Lab")
	p.run = engine.Audits().Get(p.fault)
	if app.IsClient {
		f := p.fault
		ctx.Defer(func(ctx app.Context) {
			engine.Audits().Start(f)
			p.run = engine.Audits().Get(f)
		})
	}
}

func (p *Page) onFault(ctx app.Context, e app.Event) {
	f, err := core.ParseFault(e.Get("target").Get("value").String())
	if err != nil {
		return
	}
	u := *ctx.Page().URL()
	q := url.Values{}
	if f != core.NoFault {
		q.Set(settings.IDFault, string(f))
	}
	if p.large {
		q.Set(settings.IDLarge, "on")
	}
	u.RawQuery = q.Encode()
	ctx.NavigateTo(&u)
}

// pageRenders counts the page's renders since the program started, for a
// test.
var pageRenders int

func (p *Page) Render() app.UI {
	pageRenders++
	r := p.run
	state := "running"
	if r.Finished() {
		state = "done"
	}
	var failed []audit.Outcome
	for _, o := range r.Checks {
		if !o.Pass && !o.Skipped {
			failed = append(failed, o)
		}
	}
	return ui.NewShell().Route(ui.RouteAudit).LargeType(p.large).Body(
		app.Div().ID("audit").Class("audit").DataSet("state", state).Body(
			app.H1().Text("The audit"),
			app.P().Class("lede").Text("Every check of the filter's contract, run here in your browser with the same code, the same seeds and the same figures as the command line and the tests. A broken filter can report a beautiful false-positive rate for a set it has half lost, so the rate is checked last."),
			ui.Notices("notices", "clamp-notice", "Some settings in the link were changed to legal values:", p.notices),
			app.Div().Class("control audit-fault").Body(
				app.Label().For(settings.IDFault).Text("Audit the filter with this fault"),
				app.Select().ID(settings.IDFault).OnChange(p.onFault).Body(
					ui.Selected(app.Option().Value(string(core.NoFault)), p.fault == core.NoFault).Text("none: the real filter"),
					app.Range(core.Faults).Slice(func(i int) app.UI {
						f := core.Faults[i]
						return ui.Selected(app.Option().Value(string(f)), f == p.fault).Text(string(f) + ": " + f.Describe())
					}),
				),
			),
			p.livePart(liveProgress, p.renderProgress),
			p.livePart(liveEngine, func() app.UI {
				return app.P().ID("audit-engine").Class("muted small audit-engine").Text(engine.Status())
			}),
			p.renderSummary(failed),
			// The page mounts in two tasks (ui.Yield): the head, then the
			// filter and the list, which together held the start for over a
			// second at a slow laptop's pace.
			&ui.Yield{},
			p.livePart(liveFilter, p.renderFilter),
			p.livePart(liveList, p.renderGroups),
		),
	)
}

// renderProgress is the progress bar: how many checks have run.
func (p *Page) renderProgress() app.UI {
	r := p.run
	total := r.Total
	if total == 0 {
		total = len(audit.Checks())
	}
	return app.Div().Class("progress-row").Body(
		ui.Progress("audit-progress", "Checks run: "+strconv.Itoa(r.Done)+" of "+strconv.Itoa(total), float64(r.Done), float64(total), false),
	)
}

// renderSummary says how the audit stands. While it runs, the box has the
// finished summary's two lines, so the report takes the place kept for it.
func (p *Page) renderSummary(failed []audit.Outcome) app.UI {
	r := p.run
	if !r.Finished() {
		if r.Err != "" {
			return app.P().ID("audit-summary").Class("notice error").Text("The audit stopped: " + r.Err)
		}
		return app.Div().Class("summary pending").Body(
			app.P().ID("audit-summary").Class("big muted").Text("Running…"),
			app.P().Class("muted").Text("Digest: when every check has run"),
		)
	}
	rep := r.Report
	class := "summary pass"
	if !rep.AllPassed() {
		class = "summary fail"
	}
	return app.Div().Class(class).Body(
		// The tally is the headline; which checks ran is its own line, so
		// the headline stays two lines at 360 px.
		app.P().ID("audit-summary").Class("big").Text(rep.Tally()),
		app.If(rep.Coverage() != "", func() app.UI {
			c := rep.Coverage()
			return app.P().ID("audit-coverage").Class("muted").Text(strings.ToUpper(c[:1]) + c[1:] + ".")
		}),
		app.P().Body(app.Text("Digest: "), app.Code().ID("audit-digest").Text(rep.Digest)),
		app.If(p.fault != core.NoFault, func() app.UI {
			return app.Div().ID("audit-caught").Body(
				app.P().Body(
					app.Strong().Text("The "+string(p.fault)+" fault"),
					app.Text(" ("+p.fault.Describe()+") was caught by "+strconv.Itoa(len(failed))+" checks:"),
				),
				app.P().ID("audit-reported-fpr").Body(
					app.Text("Meanwhile the broken filter reported a false-positive rate of "),
					app.Strong().Text(format.Rate(rep.ReportedFPR)),
					app.Text(" at the lab's default shape, where theory says 0.008194: the rate alone would not have given it away."),
				),
				app.Ul().Body(app.Range(failed).Slice(func(i int) app.UI {
					return app.Li().Body(app.Code().Text(failed[i].ID), app.Text(": "+failed[i].Detail))
				})),
			)
		}),
	)
}
