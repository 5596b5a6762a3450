package experiment

import (
	"math"
	"slices"
	"testing"

	"github.com/bloomlab/bloomlab/core"
)

// TestEstimateClaims reads the estimate's promise back from its table: at
// every fill, for both layouts, the mean error in SDs is within the noise of
// its filters (a normal bound for the table at 99.9%), and the filters'
// errors in SDs have a sum of squares a chi-square with one degree a
// filter allows (Wilson-Hilferty, both tails at 99.9% for the table): the
// SD the estimate gives is the spread its errors show.
func TestEstimateClaims(t *testing.T) {
	t.Parallel()
	// Many small filters: 400 of them tell an SD 20% off from the right one.
	s := Sizes{Items: 2000, Replicates: 400, Seed: 11}
	tab := run(t, estimate, s)
	if len(tab.Rows) != len(estimateLayouts)*len(estimateFills) {
		t.Fatalf("%d rows", len(tab.Rows))
	}
	reps := float64(s.Replicates)
	z := zFor(0.001, 2*len(tab.Rows))
	lo, hi := core.ChiSquareBound(s.Replicates, -z), core.ChiSquareBound(s.Replicates, z)
	for i := range tab.Rows {
		layout := tab.Rows[i][tab.Column("layout")].Text
		fill, n := value(t, tab, i, "fill"), value(t, tab, i, "n")
		meanZ, rms := value(t, tab, i, "errorSDs"), value(t, tab, i, "rmsSDs")
		if math.Abs(meanZ)*math.Sqrt(reps) > z {
			t.Errorf("seed %d, %s at fill %v: mean error %.3f SDs over %v filters, past %.2f/sqrt(%v)", s.Seed, layout, fill, meanZ, reps, z, reps)
		}
		if sq := rms * rms * reps; sq < lo || sq > hi {
			t.Errorf("seed %d, %s at fill %v: the errors' sum of squares in SDs %.1f outside [%.1f, %.1f]", s.Seed, layout, fill, sq, lo, hi)
		}
		if got := value(t, tab, i, "measuredFill"); math.Abs(got-fill) > 0.02 {
			t.Errorf("%s at fill %v: %v keys filled %v of the bits", layout, fill, n, got)
		}
	}
}

// TestMergeClaims reads the merge table back: the union's rate is that of
// one filter over both sets and the shared keys' filter's that of its keys
// (zScore, the table at 99.9%); the intersection answers yes wherever the
// shared keys' filter does, query for query, and at 100% shared all three
// are one filter; the estimates lie within their SDs.
func TestMergeClaims(t *testing.T) {
	t.Parallel()
	s := Sizes{Items: 20_000, Queries: 400_000, Seed: 11}
	tab := run(t, merge, s)
	n, m, q := uint64(s.Items), uint64(s.Items)*systemBitsPerKey, uint64(s.Queries)
	bound := zFor(0.001, 2*len(tab.Rows))
	for i, share := range mergeShares {
		both := mergeShared(n, share)
		nu := uint64(value(t, tab, i, "unionKeys"))
		unionFP := uint64(math.Round(value(t, tab, i, "unionObserved") * float64(q)))
		if z := zScore(unionFP, q, 1, m, nu, systemK); math.Abs(z) > bound {
			t.Errorf("seed %d, %v shared: the union's %d false positives in %d queries lie %.2f SDs from one filter of %d keys", s.Seed, share, unionFP, q, z, nu)
		}
		andFP, ownFP := uint64(value(t, tab, i, "andFP")), uint64(value(t, tab, i, "ownFP"))
		if andFP < ownFP {
			t.Errorf("seed %d, %v shared: the AND has %d false positives, fewer than the %d of the filter of the shared keys", s.Seed, share, andFP, ownFP)
		}
		if both > 0 {
			if z := zScore(ownFP, q, 1, m, both, systemK); math.Abs(z) > bound {
				t.Errorf("seed %d, %v shared: the shared keys' filter's %d false positives lie %.2f SDs from theory", s.Seed, share, ownFP, z)
			}
		}
		// The AND's rate against and^k, the noise of its fill (at most a
		// binomial's, carried to the rate by the delta method) beside the
		// queries'.
		f, _ := core.IntersectionFill(m, systemK, n, n, both)
		p, slope := math.Pow(f, systemK), systemK*math.Pow(f, systemK-1)
		if th := value(t, tab, i, "andTheory"); math.Abs(th-p) > 1e-15 {
			t.Errorf("%v shared: AND theory %v, want and^k = %v", share, th, p)
		}
		qf := float64(q)
		if sd := math.Sqrt(qf*p*(1-p) + qf*qf*slope*slope*f*(1-f)/float64(m)); math.Abs(float64(andFP)-qf*p) > bound*sd {
			t.Errorf("seed %d, %v shared: the AND's %d false positives in %d queries, theory %.1f ± %.1f", s.Seed, share, andFP, q, qf*p, sd)
		}
		if share == 1 && (andFP != ownFP || unionFP != ownFP) {
			t.Errorf("seed %d, all shared: union %d, AND %d and own %d false positives, want one filter's", s.Seed, unionFP, andFP, ownFP)
		}
		// The union's estimate: its SD at this fill is under 0.25% of
		// n∪ here, so 1% is past 4 SDs. The intersection's SD is in the
		// table (a bound: the sum of three).
		if est := value(t, tab, i, "unionEstimate"); math.Abs(est-float64(nu)) > 0.01*float64(nu) {
			t.Errorf("seed %d, %v shared: union estimated at %.1f keys, holds %d", s.Seed, share, est, nu)
		}
		if est, sd := value(t, tab, i, "interEstimate"), value(t, tab, i, "interSD"); math.Abs(est-float64(both)) > 3*sd {
			t.Errorf("seed %d, %v shared: intersection estimated at %.1f ± %.1f keys, holds %d", s.Seed, share, est, sd, both)
		}
	}
}

// TestMergeAndAgainstIntersectionFill measures the AND itself: its share
// of bits set within a binomial bound (the occupancy of a Bloom filter
// varies less than a binomial) of IntersectionFill's prediction, and its
// false positives within a Wilson bound of its fill^k; its union equals
// the filter built from both key sets, word for word.
func TestMergeAndAgainstIntersectionFill(t *testing.T) {
	t.Parallel()
	const n, q, seed = 20_000, 400_000, 11
	m := uint64(n * systemBitsPerKey)
	z := zFor(0.001, 2*len(mergeShares))
	for i, share := range mergeShares {
		both := mergeShared(n, share)
		tr, err := mergeOnce(&runner{workers: 1}, m, n, both, q, derive(seed, saltMerge, uint64(i)))
		if err != nil {
			t.Fatal(err)
		}
		want, _ := core.IntersectionFill(m, systemK, n, n, both)
		got := float64(tr.AndSet) / float64(m)
		if sd := math.Sqrt(want * (1 - want) / float64(m)); math.Abs(got-want) > z*sd {
			t.Errorf("seed %d, %v shared: the AND sets %.5f of its bits, IntersectionFill says %.5f (bound %.5f)", seed, share, got, want, z*sd)
		}
		lo, hi := core.Wilson(tr.AndFP, q, z)
		if p := math.Pow(got, systemK); p < lo || p > hi {
			t.Errorf("seed %d, %v shared: the AND's rate %d/%d [%v, %v] against its fill^k %v", seed, share, tr.AndFP, q, lo, hi, p)
		}
	}
	fa, _ := core.NewFilter(m, systemK, seed)
	fb, _ := core.NewFilter(m, systemK, seed)
	fw, _ := core.NewFilter(m, systemK, seed)
	r := &runner{workers: 1}
	for _, x := range []struct {
		f      *core.Filter
		lo, hi uint64
	}{{fa, 0, n}, {fb, n / 2, n / 2 * 3}, {fw, 0, n / 2 * 3}} {
		if err := insertTimed(r, x.f, x.lo, x.hi, seed, nil); err != nil {
			t.Fatal(err)
		}
	}
	u, err := core.Union(fa, fb)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(u.Filter.Words(), fw.Words()) {
		t.Error("the union of A and B is not the filter of both key sets")
	}
}
