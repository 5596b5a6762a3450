package calculator

import (
	_ "embed"
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
// and takes its tables from default_tables.json, once; every page reads
// the result and none writes to it (each change of the form solves anew).
// Should the file not read, the tables are measured.
func solveDefault() func() settings.Solved {
	return sync.OnceValue(func() settings.Solved {
		f := settings.DefaultCalculator()
		r := f.Solve()
		var t tables
		if err := json.Unmarshal(defaultTablesJSON, &t); err != nil || !r.OK || len(t.Measured) != len(r.Plan.Alternatives) || len(t.Cheapest) == 0 {
			return measure(f)
		}
		return t.with(r)
	})
}

var defaultSolved = solveDefault()
