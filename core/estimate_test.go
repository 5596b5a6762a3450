package core_test

import (
	"errors"
	"math"
	"testing"

	"github.com/bloomlab/bloomlab/core"
)

// TestEstimateWithinItsBound fills filters to 10% through 90% and checks
// the estimate against the true count: within 4 of its stated standard
// deviations each time, and the deviations, over every fill and seed,
// spread as a standard deviation says: their mean within 4 standard errors
// of 0, their root mean square between 0.6 and 1.5, so a biased estimate
// and an SD stated too wide fail as well as an estimate far off.
func TestEstimateWithinItsBound(t *testing.T) {
	t.Parallel()
	const m, k = 1 << 17, 6
	for _, v := range []core.Variant{core.Standard, core.BlockedVariant, core.CountingVariant} {
		t.Run(v.Name(), func(t *testing.T) {
			t.Parallel()
			var sumZ, sumZ2 float64
			var trials int
			for seed := uint64(1); seed <= 6; seed++ {
				for fill := 0.1; fill < 0.95; fill += 0.1 {
					n := int(math.Round(-m / k * math.Log1p(-fill)))
					f := built(t, v, core.Spec{M: m, K: k, Seed: seed}, keyRange(0, n, seed))
					e, err := core.EstimateKeys(f)
					if err != nil {
						t.Fatal(err)
					}
					z := (e.N - float64(n)) / e.SD
					if math.Abs(z) > 4 || e.Counted {
						t.Errorf("fill %.0f%%, seed %d: %d keys estimated %.1f ± %.1f (%.1f sd off)", 100*fill, seed, n, e.N, e.SD, z)
					}
					sumZ, sumZ2 = sumZ+z, sumZ2+z*z
					trials++
				}
			}
			mean, rms := sumZ/float64(trials), math.Sqrt(sumZ2/float64(trials))
			t.Logf("%s: off by %.2f SD on average, %.2f in root mean square, over %d fills", v, mean, rms, trials)
			if math.Abs(mean) > 4/math.Sqrt(float64(trials)) {
				t.Errorf("the estimates are off by %.2f of their stated SD on average over %d fills: biased", mean, trials)
			}
			if rms < 0.6 || rms > 1.5 {
				t.Errorf("the estimates are off by %.2f of their stated SD in root mean square over %d fills, want about 1", rms, trials)
			}
		})
	}
}

func TestEstimateCountsAndRefuses(t *testing.T) {
	t.Parallel()
	// A full filter has no estimate.
	f := built(t, core.Standard, core.Spec{M: 64, K: 3, Seed: 1}, keyRange(0, 500, 1))
	if _, err := core.EstimateKeys(f); !errors.Is(err, core.ErrFull) {
		t.Errorf("full filter: %v, want ErrFull", err)
	}
	// An empty one holds none, surely.
	e, err := core.EstimateKeys(built(t, core.Standard, core.Spec{M: 64, K: 3, Seed: 1}, nil))
	if err != nil || e.N != 0 || e.SD != 0 {
		t.Errorf("empty filter: %+v, %v", e, err)
	}
	// A cuckoo filter counts its fingerprints: a repeat is there twice.
	c := built(t, core.CuckooVariant, core.Spec{M: 8192, Seed: 1}, append(keyRange(0, 100, 1), keyRange(0, 1, 1)...))
	if e, err := core.EstimateKeys(c); err != nil || !e.Counted || e.N != 101 || e.SD != 0 {
		t.Errorf("cuckoo: %+v, %v, want 101 counted", e, err)
	}
}

func TestEstimateUnionAndIntersection(t *testing.T) {
	t.Parallel()
	const seed, m, k = 31, 1 << 16, 5
	s := core.Spec{M: m, K: k, Seed: seed}
	a := built(t, core.Standard, s, keyRange(0, 6000, seed))
	b := built(t, core.Standard, s, keyRange(2000, 5000, seed)) // 4000 shared
	u, err := core.EstimateUnion(a, b)
	if err != nil || math.Abs(u.N-7000) > 4*u.SD {
		t.Errorf("union: %.0f ± %.0f, want 7000 (%v)", u.N, u.SD, err)
	}
	in, err := core.EstimateIntersection(a, b)
	if err != nil || math.Abs(in.N-4000) > 3*in.SD {
		t.Errorf("intersection: %.0f ± %.0f, want 4000 (%v)", in.N, in.SD, err)
	}
	t.Logf("union %.0f ± %.0f of 7000, intersection %.0f ± %.0f of 4000", u.N, u.SD, in.N, in.SD)
}

// TestEstimateFromCountsAlone: the estimate from a filter's counts alone
// (what a page holding only its picture has) is EstimateKeys' to the bit,
// and Describe gives the same beside the shape, the inserts and the fill.
func TestEstimateFromCountsAlone(t *testing.T) {
	t.Parallel()
	spec := core.Spec{M: 1 << 14, K: 5, Seed: 7}
	for _, v := range []core.Variant{core.Standard, core.BlockedVariant, core.CountingVariant} {
		t.Run(v.Name(), func(t *testing.T) {
			t.Parallel()
			f := built(t, v, spec, keyRange(0, 1500, 7))
			want, err := core.EstimateKeys(f)
			if err != nil {
				t.Fatal(err)
			}
			got, err := v.EstimateFrom(f.M(), f.K(), f.SetBits())
			if err != nil || got != want || !v.Estimates() {
				t.Errorf("EstimateFrom = %+v, %v; EstimateKeys = %+v", got, err, want)
			}
			d := core.Describe(f)
			if d.Estimate != want || d.EstimateErr != nil || d.Inserted != 1500 || d.Nonzero != f.SetBits() ||
				d.Fill != float64(f.SetBits())/float64(f.M()) || d.Shape.Variant != v || d.Shape.K != 5 || d.Shape.Seed != 7 {
				t.Errorf("Describe = %+v", d)
			}
		})
	}
	if _, err := core.Standard.EstimateFrom(64, 3, 64); !errors.Is(err, core.ErrFull) {
		t.Errorf("every position set: %v, want ErrFull", err)
	}
	if _, err := core.CuckooVariant.EstimateFrom(64, 2, 10); !errors.Is(err, core.ErrNoEstimate) || core.CuckooVariant.Estimates() {
		t.Errorf("cuckoo from counts: %v, want ErrNoEstimate", err)
	}
}
