package calculator

import (
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"maps"
	"sync"

	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/plan"
)

// solveAndMeasure solves the form and, when it solves, builds and queries
// the alternatives and finds the cheapest of each structure. The default
// form, the page most often opened, is never measured in the page: its
// tables depend on no link, and building them took a tenth of a second
// natively and over a second at the start of the page on a slow laptop's
// browser, so they come with the program (defaultSolved).
func solveAndMeasure(f settings.Calculator) settings.Solved {
	if isDefault(f) {
		return defaultSolved()
	}
	return measure(f)
}

// isDefault reports whether f is the form the page opens with.
func isDefault(f settings.Calculator) bool {
	d := settings.DefaultCalculator()
	return f.Find == d.Find && maps.Equal(f.Values, d.Values)
}

// measure is solveAndMeasure's work; a test counts its calls.
var measure = func(f settings.Calculator) settings.Solved {
	r := f.Solve()
	if r.OK {
		r.Measured = plan.Measure(r.Plan)
		r.Cheapest = plan.Cheapest(r.Plan.N, r.Plan.P)
		r.CheapestFor = plan.CheapestFor(r.Cheapest)
	}
	return r
}

// defaultTablesJSON is the default form's measured tables, written by
// `go test ./app/calculator -run TestDefaultTables -update`;
// TestDefaultTables fails when they are no longer what measure gives.
//
//go:embed default_tables.json
var defaultTablesJSON []byte

// tables are the measured parts of a solved form (the slow ones: building
// and querying each alternative, and searching each structure's cheapest
// size), as default_tables.json keeps them.
type tables struct {
	Measured    []plan.Measured `json:"measured"`
	Cheapest    []sizedSpec     `json:"cheapest"`
	CheapestFor []int           `json:"cheapestFor"`
}

// sizedSpec is a plan.Sized with its Spec, which plan.Sized leaves out of
// its JSON.
type sizedSpec struct {
	plan.Sized
	Spec core.Spec `json:"spec"`
}

func tablesOf(r settings.Solved) tables {
	t := tables{Measured: r.Measured, CheapestFor: r.CheapestFor}
	for _, s := range r.Cheapest {
		t.Cheapest = append(t.Cheapest, sizedSpec{Sized: s, Spec: s.Spec})
	}
	return t
}

// with is r with t's tables.
func (t tables) with(r settings.Solved) settings.Solved {
	r.Measured, r.CheapestFor = t.Measured, t.CheapestFor
	r.Cheapest = make([]plan.Sized, len(t.Cheapest))
	for i, s := range t.Cheapest {
		r.Cheapest[i] = s.Sized
		r.Cheapest[i].Spec = s.Spec
	}
	return r
}

// solveDefault solves the default form (a few milliseconds of formulas)
// and takes its tables from default_tables.json; every page reads the
// result and none writes to it (each change of the form solves anew).
// Should the file not read, the tables are measured.
func solveDefault() settings.Solved {
	f := settings.DefaultCalculator()
	r := f.Solve()
	var t tables
	if err := json.Unmarshal(defaultTablesJSON, &t); err != nil || !r.OK || len(t.Measured) != len(r.Plan.Alternatives) || len(t.Cheapest) == 0 {
		return measure(f)
	}
	return t.with(r)
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

// firstView is the tables of the form whose link is form, as the first
// view carries them.
type firstView struct {
	Form   string `json:"form"`
	Tables tables `json:"tables"`
}

// firstViewJSON is what the first view carries for the solved form f: ""
// for the default form (the program has its tables) or a form that did
// not solve.
func firstViewJSON(f settings.Calculator, r settings.Solved) string {
	if isDefault(f) || !r.OK {
		return ""
	}
	b, err := json.Marshal(firstView{Form: f.Query().Encode(), Tables: tablesOf(r)})
	if err != nil {
		return ""
	}
	// In base64: go-app writes an attribute's value Go-quoted, which an
	// HTML reader would cut at the JSON's first quote.
	return base64.StdEncoding.EncodeToString(b)
}

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
		if err == nil && len(b) > 0 && json.Unmarshal(b, &v) == nil {
			taken.view = v
		}
	})
}

// solveTaking is solveAndMeasure for the live page: a form whose tables
// the first view carried takes them over instead of measuring them. It
// says where the tables came from: "program", "first view" or
// "measured".
func solveTaking(f settings.Calculator) (settings.Solved, string) {
	if isDefault(f) {
		return defaultSolved(), "program"
	}
	if v := taken.view; v.Form != "" && v.Form == f.Query().Encode() {
		if r := f.Solve(); r.OK && len(v.Tables.Measured) == len(r.Plan.Alternatives) {
			return v.Tables.with(r), "first view"
		}
	}
	return measure(f), "measured"
}
