package lab

import (
	"fmt"
	"strings"

	"github.com/bloomlab/bloomlab/app/ui/format"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"
)

// The sizes from which each scheme's measured rate agrees with what one
// filter of independent positions expects, as the small-m experiment
// measured them (10 bits per key, k = 7, 200 filters a size, the 95%
// interval over the seeds): below them the page says why its rate leaves
// the formula.
const (
	doubleAgreesFrom   = 5000
	enhancedAgreesFrom = 1000
)

// rateNote says, beside the measured rate, what the formula leaves out at
// this shape, or "" where the measurement should follow it: a double-
// hashed filter's positions in a small array, a small filter's varying
// fill, and any theory value outside the whole-measurement interval. The
// page never shows a disagreement without a word. The first two are about
// the Bloom formulas and the layouts that take a hashing scheme; the
// others (cuckoo, fuse) are judged by their own theory alone, which is
// TheoryFPRVariant for every layout.
func rateNote(r *sim.Result) string {
	if r == nil || r.AbsentQueries == 0 {
		return ""
	}
	var parts []string
	if r.Variant.Hashings() {
		h := r.Hashing
		if (h == core.DoubleHashing && r.M < doubleAgreesFrom) || (h == core.EnhancedDoubleHashing && r.M < enhancedAgreesFrom) {
			parts = append(parts, fmt.Sprintf("At m = %s, %s hashing measures above the formula: one key's positions fall too evenly in a small array "+
				"(1.28 times it at m = 200 with double hashing, 1.12 with enhanced); independent hashes do not.", format.Int(r.M), h))
		}
		if expect, _ := core.FilterSpread(r.M, r.N, r.K); expect > 1.02*r.TheoryFPRExact {
			parts = append(parts, fmt.Sprintf("A filter this small expects %.2f times the formula even with independent positions: its fill varies from one filter to the next.",
				expect/r.TheoryFPRExact))
		}
	}
	if th := r.TheoryFPRVariant; th < r.WholeCILow || th > r.WholeCIHigh {
		switch {
		case r.BuildError != "":
			parts = append(parts, "The theory value is outside the whole-measurement interval: the filter could not be built, so it answers yes to every key.")
		case r.Fault != core.NoFault:
			parts = append(parts, "The theory value is outside the whole-measurement interval: the "+string(r.Fault)+" fault is on.")
		case len(parts) == 0:
			parts = append(parts, "The theory value is outside the whole-measurement interval, as it is by chance in about one run in twenty.")
		default:
			parts = append(parts, "The theory value is outside the whole-measurement interval.")
		}
	}
	return strings.Join(parts, " ")
}
