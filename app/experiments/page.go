package experiments

import (
	"sync/atomic"

	"github.com/bloomlab/bloomlab/app/engine"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Page runs the classic measurements in the browser: pick one, set its
// sizes, run it with a progress bar and a cancel button, then read the
// table, the chart and the notes, and download them as CSV or JSON. The
// choice and the sizes live in the URL like the lab's settings; a run
// starts only on the Run button, never from a link, so the prerendered
// page and a shared link cost nothing until asked.
//
// The page holds what the link says and wires the parts that show it,
// each with one job: the form edits the selection, the runner runs it,
// and the result shows the table the session holds for it.
type Page struct {
	app.Compo

	sel     settings.Experiment
	large   bool
	notices []string
	// live is set once the page runs in the browser, so a test can tell
	// the prerendered page from the working one.
	live bool

	form   form
	runner runner
	result resultView

	// mounts counts the page's mounts and dismounts, so that the watch
	// of the workers' news ends with the mount that started it.
	mounts atomic.Int64
}

func New() *Page {
	p := &Page{sel: settings.DefaultExperiment()}
	p.form.page, p.runner.page, p.result.page = p, p, p
	return p
}

// The formPage, runnerPage and resultPage the parts see.

func (p *Page) selection() settings.Experiment { return p.sel }
func (p *Page) largeType() bool                { return p.large }

func (p *Page) notify(notice string) {
	if notice != "" {
		p.notices = []string{notice}
	}
}

// OnNav reads the selection from the URL. It only parses: measuring the
// work the sizes plan (a few milliseconds) waits for the browser, and the
// experiment itself for the Run button.
func (p *Page) OnNav(ctx app.Context) {
	ctx.Page().SetTitle("Experiments · Bloom Lab")
	q := ctx.Page().URL().Query()
	sel, notices := settings.ExperimentFromQuery(q)
	p.large = settings.LargeType(q)
	p.sel, p.notices = sel, append(p.form.carried(), notices...)
	if app.IsClient {
		ctx.Defer(p.form.learnUnits)
	}
}

func (p *Page) OnMount(ctx app.Context) {
	p.live = app.IsClient
	p.result.measure()
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

func (p *Page) OnResize(ctx app.Context) { p.result.measure() }

// OnDismount stops a run in flight: the tables already measured stay in
// the session for a return to the page.
func (p *Page) OnDismount() {
	p.runner.runs.Cancel()
	p.mounts.Add(1)
}

func (p *Page) state(res *expResult) string {
	switch {
	case !p.live:
		return "static"
	case p.runner.running():
		return "running"
	case res != nil:
		return "done"
	}
	return p.runner.ending()
}

func (p *Page) Render() app.UI {
	res := expSession.result(p.sel)
	return ui.NewShell().Route(ui.RouteExperiments).LargeType(p.large).Body(
		app.Div().ID("experiments").Class("experiments").DataSet("state", p.state(res)).Body(
			app.Div().Class("exp-head").Body(
				app.H1().Text("Experiments"),
				app.P().Class("lede").Text("The classic Bloom filter measurements, run here in your browser with the same code and seeds as the command line: theory against millions of queries, RocksDB's 10 bits per key, the best k, round against ceil, hashing schemes, overfilling, probes, counting filters, memory, the blocked layout, the alternatives, and two attacks: keys crafted with a known hash key, and members recovered from a filter's bits."),
				p.form.renderLarge(),
			),
			ui.Notices("exp-notices", "clamp-notice", "Some settings were changed to legal values:", p.notices),
			// The form and the results render as they mount, each in a
			// task of its own after the shell's pause (ui.Yield): built
			// with the page's tree, they fell in go-app's start, and their
			// mount in one task of 255 to 331 ms at a slow laptop's pace.
			app.Div().Class("exp-grid").Body(
				ui.Part(func() app.UI { return p.form.render(p.runner.renderButton()) }),
				&ui.Yield{},
				ui.Part(func() app.UI {
					return app.Div().Class("exp-out").Body(
						p.runner.renderProgress(),
						p.runner.renderStatus(res),
						p.result.renderCLI(p.sel),
						p.result.renderMemoryNote(p.sel),
						app.If(res != nil, func() app.UI { return p.result.render(res) }),
					)
				}),
			),
		),
	)
}
