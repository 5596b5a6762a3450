package auditpage

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/bloomlab/bloomlab/app/engine"
	"github.com/bloomlab/bloomlab/app/ui"
	"github.com/bloomlab/bloomlab/audit"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The checks are listed by group, in audit.Groups' order, each group a
// <details> whose summary counts its verdicts: a group with a failure is
// open with its failures on top, a group that passed is closed to one
// line, so the failures come first on a phone's screen and the page is a screen or two tall rather
// than forty. The filter (a text box over IDs and contracts, and the
// verdict buttons) opens every group with a match and hides the rest.
//
// Every check keeps its row from the first frame (the prerendered page's
// included): a check not yet run shows its contract and "pending", and its
// outcome fills the same row, so the list keeps its places as the audit
// runs.

// view is which verdicts the list shows.
type view string

const (
	viewAll     view = ""
	viewFailed  view = "failed"
	viewSkipped view = "skipped"
)

// views are the verdict buttons, in order, with their element IDs.
var views = []struct {
	view      view
	id, label string
}{
	{viewAll, "audit-show-all", "All"},
	{viewFailed, "audit-show-failed", "Failed"},
	{viewSkipped, "audit-show-skipped", "Skipped"},
}

// row is one check as the page lists it: its outcome once it has run,
// else the check with pending set.
type row struct {
	audit.Outcome
	pending bool
}

func (r row) failed() bool { return !r.pending && !r.Pass && !r.Skipped }

// failedN is 1 for a failure, 0 otherwise: the key of the failures-first
// order.
func (r row) failedN() int {
	if r.failed() {
		return 1
	}
	return 0
}

func (r row) is(v view) bool {
	switch v {
	case viewFailed:
		return r.failed()
	case viewSkipped:
		return !r.pending && r.Skipped
	}
	return true
}

// group is one group's rows and the count of each verdict among them.
type group struct {
	name                             string
	rows                             []row
	passed, failed, skipped, pending int
}

// rowsOf are every check, in the audit's order, as far as run has come.
func rowsOf(run engine.AuditRun) []row {
	checks := auditChecks()
	rows := make([]row, len(checks))
	for i, c := range checks {
		if i < len(run.Checks) && run.Checks[i].ID == c.ID {
			rows[i] = row{Outcome: run.Checks[i]}
			continue
		}
		rows[i] = row{Outcome: audit.Outcome{ID: c.ID, Group: c.Group, Contract: c.Contract}, pending: true}
	}
	return rows
}

// groups sorts rows into audit.Groups, in its order, and counts them.
func groups(rows []row) []group {
	gs := make([]group, len(audit.Groups))
	at := map[string]int{}
	for i, name := range audit.Groups {
		gs[i].name, at[name] = name, i
	}
	for _, r := range rows {
		i, ok := at[r.Group]
		if !ok {
			// A group the list does not name still shows, last.
			gs = append(gs, group{name: r.Group})
			i = len(gs) - 1
			at[r.Group] = i
		}
		g := &gs[i]
		g.rows = append(g.rows, r)
		switch {
		case r.pending:
			g.pending++
		case r.Skipped:
			g.skipped++
		case r.Pass:
			g.passed++
		default:
			g.failed++
		}
	}
	return gs
}

func filtering(filter string, show view) bool {
	return show != viewAll || strings.TrimSpace(filter) != ""
}

func matches(r row, filter string, show view) bool {
	if !r.is(show) {
		return false
	}
	f := strings.ToLower(strings.TrimSpace(filter))
	return f == "" || strings.Contains(strings.ToLower(r.ID), f) || strings.Contains(strings.ToLower(r.Contract), f)
}

func (p *Page) onFilter(ctx app.Context, e app.Event) {
	p.filter = e.Get("target").Get("value").String()
}

func (p *Page) onView(v view) app.EventHandler {
	return func(ctx app.Context, e app.Event) { p.show = v }
}

// renderFilter is the filter: the text box and the verdict buttons, each
// with its count.
func (p *Page) renderFilter() app.UI {
	rows := rowsOf(p.run)
	counts := map[view]int{}
	for _, r := range rows {
		for _, v := range views {
			if r.is(v.view) {
				counts[v.view]++
			}
		}
	}
	return app.Div().ID("audit-filter-box").Class("audit-filter").Role("search").Body(
		app.Label().For("audit-filter").Text("Find a check by ID or contract"),
		app.Input().ID("audit-filter").Type("search").Value(p.filter).Placeholder("e.g. fpr or seed").
			AutoComplete(false).OnInput(p.onFilter),
		app.Div().Class("audit-views").Role("group").Aria("label", "Show").Body(
			app.Range(views).Slice(func(i int) app.UI {
				v := views[i]
				return app.Button().ID(v.id).Type("button").Class("chip").Aria("pressed", p.show == v.view).
					OnClick(p.onView(v.view)).Text(v.label + " (" + strconv.Itoa(counts[v.view]) + ")")
			}),
		),
	)
}

// renderGroups is the list (see checkList).
func (p *Page) renderGroups() app.UI {
	return &checkList{Run: p.run, Filter: p.filter, Show: p.show, stepping: p.stepping, above: &p.live[liveList]}
}

// checkList is the list of checks, a component of its own: a <details> a
// group, and a line when the filter matches nothing. On the live page it
// draws the closed groups' rows a few at a time after its start
// (drawMoreRows), which a reader cannot see, the groups being closed, and
// which keeps the start's long task short and each step's too; each step
// updates the list alone, not the page around it. The page sets the
// exported fields at each of its renders and of the list's part (see
// Page.news); stepping, above and upTo are the list's own from its first.
type checkList struct {
	app.Compo
	Run    engine.AuditRun
	Filter string
	Show   view

	// stepping says the rows come a step at a time; upTo is how many of
	// them, in the groups' order, are drawn so far.
	stepping bool
	upTo     int
	// above is the context of the part the list is in, which a step
	// leaves alone (ui.DispatchBelow), and the page with it.
	above *app.Context
}

func (l *checkList) OnMount(ctx app.Context) {
	if l.stepping {
		l.afterFrame(ctx)
	}
}

// rowsAStep is the rows drawn a step: a row takes about 8 ms to draw at a
// slow laptop's pace (Lighthouse's 4x slowed CPU), so a step stays near
// the 50 ms past which a click waits.
const rowsAStep = 6

// drawMoreRows draws rowsAStep more rows of the closed groups, then, once
// that frame is drawn and the browser has had its turn, the next ones. It
// updates the list alone.
func (l *checkList) drawMoreRows(ctx app.Context) {
	if l.upTo >= len(auditChecks()) {
		return
	}
	l.upTo += rowsAStep
	l.afterFrame(ctx)
}

// afterFrame calls drawMoreRows in a task of its own after this frame:
// the goroutine runs once the page's has drawn the frame and waits, and
// hands the thread back to the browser (ui.LetBrowserIn), which paints
// and answers what the reader did meanwhile.
func (l *checkList) afterFrame(ctx app.Context) {
	ctx.Async(func() {
		ui.LetBrowserIn()
		ui.DispatchBelow(ctx, l.above, l.drawMoreRows)
	})
}

func (l *checkList) Render() app.UI {
	gs := groups(rowsOf(l.Run))
	shown := 0
	for _, g := range gs {
		for _, r := range g.rows {
			if matches(r, l.Filter, l.Show) {
				shown++
			}
		}
	}
	// data-filter and data-show say what the list shows, and data-rows
	// how many rows it has drawn, for a test to wait on.
	drawn, before := 0, 0
	views := make([]app.UI, len(gs))
	for i, g := range gs {
		rows := len(g.rows)
		if l.stepping {
			rows = min(max(l.upTo-before, 0), rows)
		}
		before += len(g.rows)
		drawn += rows
		views[i] = &groupView{G: g, Filter: l.Filter, Show: l.Show, Rows: rows}
	}
	return app.Div().ID("audit-checks").Class("audit-groups").DataSet("filter", l.Filter).DataSet("show", string(l.Show)).
		DataSet("rows", drawn).Body(
		app.Range(views).Slice(func(i int) app.UI { return views[i] }),
		ui.Hidden(app.P().ID("audit-no-match").Class("muted"), shown > 0).Text("No check matches the filter."),
	)
}

// groupView is one group as a component of its own, and rowView one
// check's row: while the audit runs, the list re-renders at each news of
// it (see Page.news), and go-app redraws a component only when its
// fields changed, so each news redraws the groups and rows it changed
// rather than every row of the list (a second and more a news at a slow
// laptop's pace, with a hundred and more rows).
//
// Rows is how many of its rows a closed group draws (see checkList); an
// open group draws them all.
type groupView struct {
	app.Compo
	G      group
	Filter string
	Show   view
	Rows   int
}

func (v *groupView) matches(r row) bool { return matches(r, v.Filter, v.Show) }

// Render is the group: its name and counts, then its rows, those the
// filter leaves out hidden.
func (v *groupView) Render() app.UI {
	g := v.G
	shown := 0
	for _, r := range g.rows {
		if v.matches(r) {
			shown++
		}
	}
	narrowed := filtering(v.Filter, v.Show)
	open := g.failed > 0 || narrowed
	d := app.Details().ID("group-" + strings.ReplaceAll(g.name, " ", "-")).Class("audit-group")
	if open || app.IsClient {
		d = d.Open(open)
	}
	if g.failed > 0 {
		d = d.Class("has-fail")
	}
	rows := g.rows
	if !narrowed && g.failed > 0 {
		// Within an open group, its failures first.
		rows = slices.Clone(rows)
		slices.SortStableFunc(rows, func(a, b row) int { return cmp.Compare(b.failedN(), a.failedN()) })
	}
	return ui.Hidden(d, shown == 0).Body(
		app.Summary().Body(
			app.H2().Class("group-title").Text(g.name),
			app.Span().Class("group-counts").Text(groupCounts(g)),
		),
		app.Table().Class("checks").Body(
			app.THead().Body(app.Tr().Body(
				app.Th().Scope("col").Text("Check"),
				app.Th().Scope("col").Text("Contract"),
				app.Th().Scope("col").Text("Verdict"),
				app.Th().Scope("col").Text("Detail"),
			)),
			app.TBody().Body(
				app.Range(rows).Slice(func(i int) app.UI {
					if !open && i >= v.Rows {
						return nil
					}
					return &rowView{R: rows[i], Hidden: !v.matches(rows[i])}
				}),
			),
		),
	)
}

// rowView is a check's row (see groupView).
type rowView struct {
	app.Compo
	R      row
	Hidden bool
}

func (v *rowView) Render() app.UI {
	rowsDrawn++
	return ui.Hidden(checkRow(v.R), v.Hidden)
}

// rowsDrawn counts the rows drawn since the program started, for a test.
var rowsDrawn int

// groupCounts is a group's summary line: "12 passed · 1 failed · 0
// skipped", and how many are still to run.
func groupCounts(g group) string {
	s := strconv.Itoa(g.passed) + " passed · " + strconv.Itoa(g.failed) + " failed · " + strconv.Itoa(g.skipped) + " skipped"
	if g.pending > 0 {
		s += " · " + strconv.Itoa(g.pending) + " to run"
	}
	return s
}

// checkRow is a check's row: its outcome once it has run, "pending" before.
func checkRow(r row) app.HTMLTr {
	verdict, class, detail := "✓ pass", "pass", r.Detail
	switch {
	case r.pending:
		verdict, class, detail = "… pending", "pending", "not run yet"
	case r.Skipped:
		verdict, class = "– skipped", "skip"
	case !r.Pass:
		verdict, class = "✗ FAIL", "fail"
	}
	tr := app.Tr().ID("check-" + r.ID).Class(class)
	if !r.pending {
		tr = tr.DataSet("pass", r.Pass)
	}
	return tr.Body(
		app.Td().Class("check-id").Body(app.Code().Body(breakable(r.ID)...)),
		app.Td().Text(r.Contract),
		app.Td().Class("verdict").Text(verdict),
		app.Td().Class("detail").Text(detail),
	)
}

// breakable is an ID that a narrow screen breaks only after a '/' or a
// '-': a <wbr> after each, and CSS that never breaks inside a word.
func breakable(id string) []app.UI {
	var parts []app.UI
	start := 0
	for i := 0; i < len(id); i++ {
		if id[i] == '/' || id[i] == '-' {
			parts = append(parts, app.Text(id[start:i+1]), app.Wbr())
			start = i + 1
		}
	}
	return append(parts, app.Text(id[start:]))
}
