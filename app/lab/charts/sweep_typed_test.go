package charts

import (
	"fmt"
	"math"
	"testing"

	"github.com/bloomlab/bloomlab/app/ui"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"
)

// TestSweepCountsTypedKeys: the charts' points are measured on filters
// holding the typed keys too, as the theory drawn beside them counts them
// in n. In a filter of 100 bits with 20 generated keys, 12 typed keys are
// more than half as many again: left out, the points fall far under the
// curve at every k.
func TestSweepCountsTypedKeys(t *testing.T) {
	p := sim.Defaults()
	p.Items, p.BitsPerKey, p.Hashes, p.Queries = 20, 5, 3, 10_000
	typed := make([]string, 12)
	for i := range typed {
		typed[i] = fmt.Sprintf("typed-%d", i)
	}
	r, err := sim.RunTyped(p, typed, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.N != 32 || r.M != 100 {
		t.Fatalf("run of %d keys in %d bits", r.N, r.M)
	}
	kPts, bpkPts, err := sweepOf(p, r, typed, false).measure(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Each point is one filter of 32 keys, whose fill varies by several
	// bits from filter to filter; the mean of the log ratios over the
	// points evens that out. Bits per key counts the generated keys.
	logRatio := func(pts []ui.Point, theory func(x float64) float64) float64 {
		sum := 0.0
		for _, pt := range pts {
			sum += math.Log(max(pt.Y, 1e-4) / theory(pt.X))
		}
		return sum / float64(len(pts))
	}
	k := logRatio(kPts, func(x float64) float64 { return core.Rate(r.M, r.N, int(x)) })
	bpk := logRatio(bpkPts, func(x float64) float64 {
		return core.Rate(uint64(math.Ceil(x*20)), r.N, r.K)
	})
	// Measured: -0.19 and +0.04 with the typed keys, -1.02 and -0.98
	// (rates under half the theory's) without them.
	if math.Abs(k) > 0.5 || math.Abs(bpk) > 0.5 {
		t.Errorf("mean log(measured/theory): against k %.3f, against bits per key %.3f; want within ±0.5", k, bpk)
	}
}
