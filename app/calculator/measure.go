package calculator

import (
	"encoding/base64"
	"encoding/json"
	"maps"
	"sync"

	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/plan"
)

// A solved form's tables build and query the alternatives and find the
// cheapest of each structure. The default form, the page most often
// opened, is never measured: its tables depend on no link, and building
// them took a tenth of a second natively and over a second at a slow
// laptop's pace, so they come with the program (defaultSolved).

// isDefault reports whether f is the form the page opens with.
func isDefault(f settings.Calculator) bool {
	d := settings.DefaultCalculator()
	return f.Find == d.Find && maps.Equal(f.Values, d.Values)
}

// measure solves f and measures its tables in place: the server's, for
// the first view, and a test's; the live page measures on the lab's
// worker (Page.measureTables). A test counts its calls.
var measure = func(f settings.Calculator) settings.Solved {
	r := f.Solve()
	if r.OK {
		t, _ := plan.MeasureTables(r.Plan, nil) // no step, so no error
		r = withTables(r, t)
	}
	return r
}

// tablesOf is the measured parts of a solved form (the slow ones:
// building and querying each alternative, and searching each structure's
// cheapest size).
func tablesOf(r settings.Solved) plan.Tables {
	return plan.Tables{Measured: r.Measured, Cheapest: r.Cheapest, CheapestFor: r.CheapestFor}
}

// withTables is r with t's tables.
func withTables(r settings.Solved, t plan.Tables) settings.Solved {
	r.Measured, r.Cheapest, r.CheapestFor = t.Measured, t.Cheapest, t.CheapestFor
	return r
}

// solveDefault solves the default form's figures (microseconds of
// formulas) and takes its alternatives and tables from defaultView, a Go
// literal (default_tables.go), so the live page's first render has them
// without decoding anything; every page reads the result and none writes
// to it (each change of the form solves anew).
func solveDefault() settings.Solved {
	return withView(settings.DefaultCalculator().SolveFigures(), defaultView())
}

// variant is the layout named name, for defaultView; a name no layout has
// gives the zero Variant, which TestDefaultTables would catch.
func variant(name string) core.Variant {
	v, _ := core.ParseVariant(name)
	return v
}

// defaultSolved is solveDefault's result, made on the first default form
// shown rather than at every page's start.
var defaultSolved = sync.OnceValue(solveDefault)

// The first view's tables: for a link other than the default, the server
// measured the form's tables to draw the page's first view, and writes
// them into it (data-tables on #calculator, as JSON with the form's link,
// in base64);
// the live page takes them over as it starts rather than measure the same
// form again, a second or more at a slow laptop's pace. They are read
// once, before the live page replaces the first view (New runs first).

// firstView is the alternatives and tables of the form whose link is
// form, as the first view carries them: the parts of a solved form that
// take the page's thread from milliseconds to a second and more (see
// plan.SolveFigures). The alternatives come without their Spec, which
// the page never reads once the tables are measured.
type firstView struct {
	Form         string             `json:"form"`
	Alternatives []plan.Alternative `json:"alternatives"`
	Tables       plan.Tables        `json:"tables"`
}

// viewOf is what a first view carries of the solved form f.
func viewOf(f settings.Calculator, r settings.Solved) firstView {
	return firstView{Form: f.Query().Encode(), Alternatives: r.Plan.Alternatives, Tables: tablesOf(r)}
}

// whole reports whether v has a form's alternatives, each measured, and
// its cheapest structures.
func (v firstView) whole() bool {
	return len(v.Alternatives) > 0 && len(v.Tables.Measured) == len(v.Alternatives) && len(v.Tables.Cheapest) > 0
}

// withView is the figures r (settings.Calculator.SolveFigures) with v's
// alternatives and tables.
func withView(r settings.Solved, v firstView) settings.Solved {
	r.Plan.Alternatives = v.Alternatives
	return withTables(r, v.Tables)
}

// firstViewJSON is what the first view carries for the solved form f: ""
// for the default form (the program has its tables) or a form that did
// not solve.
func firstViewJSON(f settings.Calculator, r settings.Solved) string {
	if isDefault(f) || !r.OK {
		return ""
	}
	b, err := json.Marshal(viewOf(f, r))
	if err != nil {
		return ""
	}
	// In base64: go-app writes an attribute's value Go-quoted, which an
	// HTML reader would cut at the JSON's first quote.
	return base64.StdEncoding.EncodeToString(b)
}

// decodeView is json.Unmarshal, for a first view's tables, the page's
// only decoding; a test counts its calls.
var decodeView = func(b []byte, v *firstView) error { return json.Unmarshal(b, v) }

// taken is the first view's tables once read (see readFirstView).
var taken struct {
	once sync.Once
	view firstView
}

// readFirstView keeps the tables the first view carries, if any, once.
func readFirstView(raw func() string) {
	taken.once.Do(func() {
		var v firstView
		b, err := base64.StdEncoding.DecodeString(raw())
		if err == nil && len(b) > 0 && decodeView(b, &v) == nil {
			taken.view = v
		}
	})
}

// known solves f's figures and takes its alternatives and tables where
// they need no work: the default form's come with the program, and the
// form of the first view from there. It says where they came from,
// "program" or "first view", or "" when f's alternatives and tables are
// still to be found (Plan.Alternatives is nil) or f did not solve.
func known(f settings.Calculator) (settings.Solved, string) {
	if isDefault(f) {
		return defaultSolved(), "program"
	}
	r := f.SolveFigures()
	if v := taken.view; r.OK && v.Form != "" && v.Form == f.Query().Encode() && v.whole() {
		return withView(r, v), "first view"
	}
	return r, ""
}

// solveTaking solves f for the server's first view (and a test): a form
// whose tables are known (see known) takes them; another is measured in
// place, "measured".
func solveTaking(f settings.Calculator) (settings.Solved, string) {
	if r, from := known(f); from != "" {
		return r, from
	}
	return measure(f), "measured"
}
