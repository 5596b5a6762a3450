package calculator

import (
	"maps"
	"sync"

	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/core/plan"
)

// solveAndMeasure solves the form and, when it solves, builds and queries
// the alternatives and finds the cheapest of each structure. The default
// form, the page most often opened, is measured once per process
// (defaultSolved): its tables, a tenth of a second of building and
// querying, depend on no link, and the server prerendered them on every
// request.
func solveAndMeasure(f settings.Calculator) settings.Solved {
	if d := settings.DefaultCalculator(); f.Find == d.Find && maps.Equal(f.Values, d.Values) {
		return defaultSolved()
	}
	return measure(f)
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

// solveDefault solves and measures the default form once; every page
// reads the result and none writes to it (each change of the form solves
// anew).
func solveDefault() func() settings.Solved {
	return sync.OnceValue(func() settings.Solved { return measure(settings.DefaultCalculator()) })
}

var defaultSolved = solveDefault()
