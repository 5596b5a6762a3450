package auditpage

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/engine"
	"github.com/bloomlab/bloomlab/audit"
	"github.com/bloomlab/bloomlab/core"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

func TestAuditPageRenders(t *testing.T) {
	e := app.NewTestEngine()
	p := New()
	if err := e.Load(p); err != nil {
		t.Fatalf("empty: %v", err)
	}
	rep, err := audit.Run(audit.MustLab(core.Variant{}, core.OneHash, ""), nil)
	if err != nil {
		t.Fatal(err)
	}
	p.fault = core.OneHash
	p.run = engine.AuditRun{Fault: core.OneHash, Done: rep.Total, Total: rep.Total, Checks: rep.Checks, Report: &rep}
	if err := e.Load(p); err != nil {
		t.Fatalf("finished: %v", err)
	}
}

// Outside a browser go-app mounts no component (it calls no OnMount) but
// calls OnPreRender: in the tests the page and its list mount there.
// The test keeps the page's context, where a news of its run is
// dispatched.
func (p *Page) OnPreRender(ctx app.Context) {
	pageCtx = ctx
	p.OnMount(ctx)
}
func (l *checkList) OnPreRender(ctx app.Context) { l.OnMount(ctx) }
func (v *liveView) OnPreRender(ctx app.Context)  { v.OnMount(ctx) }

// pageCtx is the context of the page a test loaded last.
var pageCtx app.Context

// listHolder draws a list of checks for the run and the filter it holds;
// loading a new one updates the one mounted, as a news of the audit book
// updates the page.
type listHolder struct {
	app.Compo
	Run    engine.AuditRun
	Filter string
}

func (h *listHolder) Render() app.UI { return &checkList{Run: h.Run, Filter: h.Filter} }

// TestAuditNewsRedrawsItsRows: a news of the run (one more check done)
// redraws that check's row and no other; a change of the filter redraws
// the rows it hides or shows, not all.
func TestAuditNewsRedrawsItsRows(t *testing.T) {
	rep, err := audit.Run(audit.MustLab(core.Variant{}, core.OneHash, ""), nil)
	if err != nil {
		t.Fatal(err)
	}
	e := app.NewTestEngine()
	run := engine.AuditRun{Fault: core.OneHash, Total: rep.Total, Running: true}
	load := func(run engine.AuditRun, filter string) int {
		t.Helper()
		before := rowsDrawn
		if err := e.Load(&listHolder{Run: run, Filter: filter}); err != nil {
			t.Fatal(err)
		}
		e.ConsumeAll()
		return rowsDrawn - before
	}
	if n := load(run, ""); n != len(rep.Checks) {
		t.Fatalf("the list drew %d rows, want one a check, %d", n, len(rep.Checks))
	}
	for done := 1; done <= 3; done++ {
		run.Done, run.Checks = done, rep.Checks[:done]
		if n := load(run, ""); n != 1 {
			t.Errorf("check %d done: %d rows drawn, want 1", done, n)
		}
	}
	if n := load(run, rep.Checks[0].ID); n == 0 || n >= len(rep.Checks) {
		t.Errorf("a filter drew %d rows, want those it hides or shows, fewer than all %d", n, len(rep.Checks))
	}
}

// TestAuditRowsAFewAtATime: the live page starts with the closed groups'
// rows left out, and each step of its list draws the next rowsAStep rows
// in the groups' order and no other, without drawing the page again,
// until every row is drawn; a group the filter opens draws its rows at
// once.
func TestAuditRowsAFewAtATime(t *testing.T) {
	run := engine.AuditRun{Fault: core.NoFault, Total: len(audit.Checks()), Running: true}
	e := app.NewTestEngine()
	before := rowsDrawn
	if err := e.Load(&Page{stepping: true, run: run}); err != nil {
		t.Fatal(err)
	}
	// The page mounts, then its live parts (see Page.news), then its list,
	// which starts its steps.
	for range 1 + liveParts + 1 {
		e.ConsumeNext()
	}
	if n := rowsDrawn - before; n != 0 {
		t.Fatalf("the live page's first frame drew %d rows, want none", n)
	}
	all := len(audit.Checks())
	total, steps := 0, 0
	for total < all {
		rows, pages := rowsDrawn, pageRenders
		e.ConsumeNext()
		n := rowsDrawn - rows
		if want := min(rowsAStep, all-total); n != want {
			t.Errorf("step %d drew %d rows, want %d", steps+1, n, want)
		}
		if pageRenders != pages {
			t.Errorf("step %d drew the page again, %d times, want only its list", steps+1, pageRenders-pages)
		}
		total += n
		if steps++; steps > all {
			t.Fatal("the steps never end")
		}
	}
	if steps != (all+rowsAStep-1)/rowsAStep {
		t.Errorf("%d steps for %d rows", steps, all)
	}
	e.ConsumeNext() // the last step finds every row drawn and stops

	e = app.NewTestEngine()
	before = rowsDrawn
	if err := e.Load(&Page{stepping: true, run: run, filter: "fpr"}); err != nil {
		t.Fatal(err)
	}
	if n := rowsDrawn - before; n != all {
		t.Errorf("with a filter the first frame drew %d rows, want every open group's, %d", n, all)
	}
}

// TestAuditNewsRendersItsParts: while the audit runs, each news of it
// (a batch of checks done) renders the progress, the filter's counts and
// the rows it changed, not the page; the page renders once more, at the
// run's end, for its summary.
func TestAuditNewsRendersItsParts(t *testing.T) {
	rep, err := audit.Run(audit.MustLab(core.Variant{}, core.OneHash, ""), nil)
	if err != nil {
		t.Fatal(err)
	}
	e := app.NewTestEngine()
	p := New()
	p.fault = core.OneHash
	run := engine.AuditRun{Fault: core.OneHash, Total: rep.Total, Running: true}
	p.run = run
	if err := e.Load(p); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	news := func(run engine.AuditRun) (pages, rows int, html string) {
		t.Helper()
		p0, r0 := pageRenders, rowsDrawn
		pageCtx.Dispatch(func(ctx app.Context) { p.news(ctx, run) })
		e.ConsumeAll()
		return pageRenders - p0, rowsDrawn - r0, app.HTMLString(p)
	}
	const batches = 5
	for b := 1; b <= batches; b++ {
		done := rep.Total * b / (batches + 1)
		before := run.Done
		run.Done, run.Checks = done, rep.Checks[:done]
		pages, rows, html := news(run)
		if pages != 0 {
			t.Errorf("news %d (%d checks done): the page rendered %d times, want none", b, done, pages)
		}
		if want := done - before; rows != want {
			t.Errorf("news %d: %d rows drawn, want the %d checks it brought", b, rows, want)
		}
		if want := fmt.Sprintf("Checks run: %d of %d", done, rep.Total); !strings.Contains(html, want) {
			t.Errorf("news %d: the page does not say %q", b, want)
		}
		failed := 0
		for _, o := range run.Checks {
			if !o.Pass && !o.Skipped {
				failed++
			}
		}
		if want := fmt.Sprintf("Failed (%d)", failed); !strings.Contains(html, want) {
			t.Errorf("news %d: the filter does not say %q", b, want)
		}
		if last := `id="check-` + rep.Checks[done-1].ID + `" class="pending"`; strings.Contains(html, last) {
			t.Errorf("news %d: its last check is still pending: %s", b, last)
		}
	}
	run.Done, run.Checks, run.Report, run.Running = rep.Total, rep.Checks, &rep, false
	pages, _, html := news(run)
	if pages != 1 {
		t.Errorf("the run's end: the page rendered %d times, want 1", pages)
	}
	for _, want := range []string{`data-state="done"`, rep.Digest, "was caught by " + strconv.Itoa(rep.Failed) + " checks"} {
		if !strings.Contains(html, want) {
			t.Errorf("the run's end: the page does not say %q", want)
		}
	}
}
