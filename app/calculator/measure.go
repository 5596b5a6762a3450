package calculator

import (
	"bloomlab/app/settings"
	"bloomlab/core/plan"
)

// solveAndMeasure is solveForm and, for a plan, the alternatives' measured
// column: a few tens of milliseconds of filters built and queried, which
// the page spends on every change and the link fuzzer is spared.
func solveAndMeasure(f settings.Calculator) settings.Solved {
	r := f.Solve()
	if r.OK {
		r.Measured = plan.Measure(r.Plan)
	}
	return r
}
