package lab

import (
	"errors"
	"math"

	"github.com/bloomlab/bloomlab/app/ui/format"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"
)

// idEstimate is the counter of the estimated keys, beside n.
const idEstimate = "out-estimate"

// EstimateSDs is how many standard deviations the estimate's interval
// spans either side: about 95% of filters hold a count inside it.
const EstimateSDs = 2

// estimateTitle says where the counter's figure comes from.
const estimateTitle = "n̂ = -(m/k) ln(1 - x/m) from the x nonzero positions of m, ± 2 standard deviations (the delta method): how many keys the filter holds, read off its fill by one who never counted them"

// estimateOf is the estimate of the keys in r's filter from its counts
// alone: the page has them however the run was made, on the page or on
// the lab's worker, which keeps the filter.
func estimateOf(r *sim.Result) (core.Estimate, error) {
	return r.Variant.EstimateFrom(r.M, r.K, r.SetBits)
}

// estimateWords writes an estimate as the page shows it, "1,003 ± 18",
// or why there is none: a full filter's, or a layout's that counts
// otherwise.
func estimateWords(e core.Estimate, err error) string {
	switch {
	case errors.Is(err, core.ErrFull):
		return "full: cannot estimate"
	case err != nil:
		return "none for this layout"
	}
	// An intersection's estimate, by inclusion and exclusion, can fall
	// below zero.
	n := format.Int(uint64(math.Round(math.Abs(e.N))))
	if math.Round(e.N) < 0 {
		n = "−" + n
	}
	return n + " ± " + format.Int(uint64(math.Round(EstimateSDs*e.SD)))
}
