package experiments

import (
	"errors"
	"strconv"
	"time"

	"github.com/bloomlab/bloomlab/app/engine"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui"
	"github.com/bloomlab/bloomlab/app/ui/format"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/experiment"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// runnerPage is what the runner needs of the page: the selection to run,
// and the type size, for the link to a run that finished elsewhere.
type runnerPage interface {
	selection() settings.Experiment
	largeType() bool
}

// runner runs the selected experiment: the Run and Cancel buttons, the
// progress bar and the status line. A finished run's table joins the
// session, where the page finds it by selection.
type runner struct {
	page runnerPage
	run  *expRun
	// runs stops a run a newer one replaced, or a cancel.
	runs engine.Runs
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

func (rn *runner) running() bool { return rn.run != nil && rn.run.Running }

// ending is the page's state when no run is on and no table is shown.
func (rn *runner) ending() string {
	switch {
	case rn.run != nil && rn.run.Cancelled:
		return "cancelled"
	case rn.run != nil && rn.run.Err != "":
		return "error"
	}
	return "idle"
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
func (rn *runner) onRun(ctx app.Context, e app.Event) {
	if rn.running() {
		return
	}
	ticket := rn.runs.Start()
	sel := rn.page.selection()
	r := &expRun{Sel: sel, Running: true, Start: time.Now()}
	rn.run = r
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
		ctx.Dispatch(func(ctx app.Context) { rn.finish(ctx, ticket, r, res, err, elapsed) })
	})
	ctx.Defer(func(ctx app.Context) { focusID("exp-cancel") })
}

// finish records the run's outcome, unless it was cancelled meanwhile.
func (rn *runner) finish(ctx app.Context, ticket engine.Run, r *expRun, res *expResult, err error, elapsed time.Duration) {
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
func (rn *runner) onCancel(ctx app.Context, e app.Event) {
	r := rn.run
	if r == nil || !r.Running {
		return
	}
	rn.runs.Cancel()
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

// renderButton is Run, or Cancel while a run is on.
func (rn *runner) renderButton() app.UI {
	if rn.running() {
		return app.Button().ID("exp-cancel").Class("exp-cancel").Text("Cancel").OnClick(rn.onCancel)
	}
	sel := rn.page.selection()
	return app.Button().ID("exp-run").Class("exp-run").Aria("describedby", "exp-estimate").
		Text("Run " + sel.Name).OnClick(rn.onRun)
}

func (rn *runner) renderProgress() app.UI {
	r := rn.run
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
// running, finished, cancelled or failed. res is the shown selection's
// table, if it has one.
func (rn *runner) renderStatus(res *expResult) app.UI {
	r := rn.run
	status := app.P().ID("exp-status").Class("exp-status").Role("status").Aria("live", "polite")
	switch {
	case r != nil && r.Running:
		return status.Text("Running " + r.Sel.Name + ". The page stays usable; Cancel stops the run.")
	case r != nil && r.Cancelled:
		return status.Text("Cancelled " + r.Sel.Name + " at " + strconv.Itoa(r.percent()) + "%. Nothing was kept; run it again when you like.")
	case r != nil && r.Err != "":
		return status.Class("notice error").Role("alert").Text(r.Sel.Name + " failed: " + r.Err)
	case r != nil && r.Sel != rn.page.selection() && expSession.result(r.Sel) != nil:
		return status.Body(
			app.Text(r.Sel.Name+" ("+r.Sel.SizesText()+") finished in "+format.Elapsed(r.Elapsed)+": "),
			app.A().ID("exp-finished-link").Href(ui.Href(ui.RouteExperiments)+"?"+expQuery(r.Sel, rn.page.largeType()).Encode()).Text("show its table"),
			app.Text("."),
		)
	case res != nil:
		return status.DataSet("units", res.Units).DataSet("ms", res.Elapsed.Milliseconds()).
			Text("Done in " + format.Elapsed(res.Elapsed) + " in this browser.")
	}
	return status.Text("Press Run to measure. The quick sizes take a few seconds; the table and the chart appear here.")
}
