package calculator

import (
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/core/plan"
)

// solveAndMeasure is solveForm and, for a plan, the alternatives' measured
// column (a few tens of milliseconds of filters built and queried, which
// the page spends on every change and the link fuzzer is spared) and the
// lab's structures priced for the plan's n and p.
func solveAndMeasure(f settings.Calculator) settings.Solved {
	r := f.Solve()
	if r.OK {
		r.Measured = plan.Measure(r.Plan)
		r.Cheapest = plan.Cheapest(r.Plan.N, r.Plan.P)
		r.CheapestFor = plan.CheapestFor(r.Cheapest)
	}
	return r
}
