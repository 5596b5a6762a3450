package experiment

import (
	"math"
	"testing"

	"github.com/bloomlab/bloomlab/core"
)

// rowsWhere returns the rows of tab whose column key reads text.
func rowsWhere(t *testing.T, tab Table, key, text string) []int {
	t.Helper()
	c := tab.Column(key)
	if c < 0 {
		t.Fatalf("%s has no column %q", tab.Name, key)
	}
	var out []int
	for i, row := range tab.Rows {
		if row[c].Text == text {
			out = append(out, i)
		}
	}
	return out
}

// TestForgeTriesMatchTheory: the tries to a first false positive, with the
// key offline or without it online, average 1/p within 99.9% bounds for the
// whole table. A filter's tries are geometric at its own rate p_i, which
// varies from filter to filter (core.RateVariance): their mean is about
// 1/p + Var(p_i)/p^3 and their variance (1-p)/p^2 + Var(p_i)/p^4.
func TestForgeTriesMatchTheory(t *testing.T) {
	t.Parallel()
	s := Sizes{Items: 2000, Queries: 1000, Replicates: 100, Seed: 11}
	tab := run(t, adversarial, s)
	searches := append(rowsWhere(t, tab, "measure", measureKnown), rowsWhere(t, tab, "measure", measureSecret)...)
	if len(searches) != 2*len(forgeBits) {
		t.Fatalf("%d search rows, want %d", len(searches), 2*len(forgeBits))
	}
	bound := zFor(0.001, len(searches))
	n := uint64(s.Items)
	for _, i := range searches {
		sh := newForgeShape(uint64(value(t, tab, i, "bitsPerKey")), n)
		if got := value(t, tab, i, "theory"); got != 1/sh.p {
			t.Errorf("row %d: theory %v, 1/p is %v", i, got, 1/sh.p)
		}
		v := core.RateVariance(core.Standard, sh.m, sh.n, sh.k)
		mean := 1/sh.p + v/math.Pow(sh.p, 3)
		sd := math.Sqrt(((1-sh.p)/(sh.p*sh.p) + v/math.Pow(sh.p, 4)) / float64(s.Replicates))
		got := value(t, tab, i, "measured")
		if z := (got - mean) / sd; math.Abs(z) > bound {
			t.Errorf("seed %d row %d (%s, %v bits per key): %.1f tries, theory %.1f: z = %.2f, bound %.2f",
				s.Seed, i, tab.Rows[i][tab.Column("measure")].Text, value(t, tab, i, "bitsPerKey"), got, mean, z, bound)
		}
	}
	for _, i := range rowsWhere(t, tab, "measure", measureOneShot) {
		if got := value(t, tab, i, "measured"); got != 1 {
			t.Errorf("row %d: %v queries with the key, want 1", i, got)
		}
	}
}

// TestWeakTwinNeedsOneQuery: under the weak hash a member's twin is a false
// positive of every filter, whatever its seed, which the twin's maker never
// saw: one query, no search.
func TestWeakTwinNeedsOneQuery(t *testing.T) {
	t.Parallel()
	tab := run(t, adversarial, Sizes{Items: 500, Queries: 100, Replicates: 10, Seed: 12})
	twins := rowsWhere(t, tab, "measure", measureTwin)
	if len(twins) != len(forgeBits) {
		t.Fatalf("%d twin rows, want %d", len(twins), len(forgeBits))
	}
	for _, i := range twins {
		ci := tab.Rows[i][tab.Column("ci95")]
		if value(t, tab, i, "measured") != 1 || ci.Value != 1 || ci.High != 1 {
			t.Errorf("row %d: %v queries %v, want 1 in every filter", i, value(t, tab, i, "measured"), ci)
		}
	}
	for _, seed := range []uint64{1, 2, 0xdecafbad, math.MaxUint64} {
		x, err := forgeOne(&runner{}, newForgeShape(20, 300), seed, 7)
		if err != nil {
			t.Fatal(err)
		}
		if !x.TwinHit || x.Twin != 1 {
			t.Errorf("seed %d: the twin of a member took %d queries (hit %t)", seed, x.Twin, x.TwinHit)
		}
	}
}

// occupancySD is the standard deviation of the share of m bits set by w
// uniform writes, from the variance of the empty bins' count (the
// occupancy problem: Feller, vol. 1, section IV.2).
func occupancySD(m uint64, w float64) float64 {
	mf := float64(m)
	e1, e2 := math.Pow(1-1/mf, w), math.Pow(1-2/mf, w)
	variance := mf*(mf-1)*e2 + mf*e1 - mf*mf*e1*e1
	return math.Sqrt(max(0, variance)) / mf
}

// TestCraftedKeysFillFaster: at every load crafted keys fill more of the
// array than random ones, beyond both intervals, and stay under the bound
// min(1, kn/m), within 5% of it up to the design load; random keys' fill
// is the occupancy theory's; and the honest queries' rate is each fill to
// the k, within binomial bounds.
func TestCraftedKeysFillFaster(t *testing.T) {
	t.Parallel()
	s := Sizes{Items: 2000, Queries: 20_000, Replicates: 40, Seed: 13}
	tab := run(t, adversarial, s)
	m, k, keys := fillShape(uint64(s.Items))
	fills := float64(fillFilters(s.Replicates))
	bound := zFor(0.001, 4*len(keys))
	for j, l := range fillLoads {
		name := func(who string) string { return who + ", " + fixed(l, 2) + " x design" }
		cr, ra := rowsWhere(t, tab, "measure", name(measureCrafted)), rowsWhere(t, tab, "measure", name(measureRandom))
		if len(cr) != 1 || len(ra) != 1 {
			t.Fatalf("load %v: rows %v and %v", l, cr, ra)
		}
		c, r := cr[0], ra[0]
		crafted, random := value(t, tab, c, "measured"), value(t, tab, r, "measured")
		if tab.Rows[c][tab.Column("ci95")].Value <= tab.Rows[r][tab.Column("ci95")].High {
			t.Errorf("seed %d load %v: crafted fill %.4f, random %.4f: the intervals meet", s.Seed, l, crafted, random)
		}
		top := min(1, float64(k)*float64(keys[j])/float64(m))
		if crafted > top+1e-12 || (l <= 1 && crafted < 0.95*top) {
			t.Errorf("seed %d load %v: crafted fill %.4f, bound %.4f", s.Seed, l, crafted, top)
		}
		theory := core.Fill(m, uint64(keys[j]), k)
		if z := (random - theory) / (occupancySD(m, float64(k*keys[j])) / math.Sqrt(fills)); math.Abs(z) > bound {
			t.Errorf("seed %d load %v: random fill %.5f, theory %.5f: z = %.2f", s.Seed, l, random, theory, z)
		}
		queries := fills * float64(s.Queries)
		for _, i := range []int{c, r} {
			want := math.Pow(value(t, tab, i, "measured"), float64(k))
			fp := value(t, tab, i, "rate") * queries
			sd := math.Sqrt(queries*want*(1-want)) + 1
			if z := (fp - queries*want) / sd; math.Abs(z) > bound {
				t.Errorf("seed %d row %d: %.0f false positives, %.1f expected at the fill to the k: z = %.2f", s.Seed, i, fp, queries*want, z)
			}
		}
	}
}

// TestInferenceFindsEveryMember: recall is 1 in every row, the false
// positives among the candidates are p(C - M) within 99.9% bounds (the
// candidates' noise and the filters' own, zScore), and the precision's
// interval, widened to the same bounds, holds M / (M + p(C - M)).
func TestInferenceFindsEveryMember(t *testing.T) {
	t.Parallel()
	s := Sizes{Items: 2000, Replicates: 20, Seed: 14}
	tab := run(t, membershipInference, s)
	n := uint64(s.Items)
	bound := zFor(0.001, 2*len(tab.Rows))
	for i, p := range inferTargets {
		if got := value(t, tab, i, "recall"); got != 1 {
			t.Errorf("seed %d row %d: recall %v, want 1", s.Seed, i, got)
		}
		m, k, _ := sized(n, p)
		c, members := value(t, tab, i, "candidates"), value(t, tab, i, "members")
		tests := uint64(s.Replicates) * uint64(c-members)
		fp := uint64(math.Round(value(t, tab, i, "falsePositives") * float64(s.Replicates)))
		if z := zScore(fp, tests, s.Replicates, m, n, k); math.Abs(z) > bound {
			t.Errorf("seed %d row %d: %d false positives in %d candidates: z = %.2f, bound %.2f", s.Seed, i, fp, tests, z, bound)
		}
		ci := tab.Rows[i][tab.Column("precisionCI95")]
		mean, theory := value(t, tab, i, "precision"), value(t, tab, i, "precisionTheory")
		half := (ci.High - ci.Value) / 2 * bound / core.Z95
		if math.Abs(mean-theory) > half {
			t.Errorf("seed %d row %d: precision %.4f, theory %.4f, more than %.4f apart", s.Seed, i, mean, theory, half)
		}
	}
}

// TestInferencePrecisionIsMembersOverPositives: with one filter a row the
// precision is the members over the positives, and every member tests
// positive.
func TestInferencePrecisionIsMembersOverPositives(t *testing.T) {
	t.Parallel()
	tab := run(t, membershipInference, Sizes{Items: 3000, Replicates: 1, Seed: 15})
	for i := range tab.Rows {
		members, positives := value(t, tab, i, "members"), value(t, tab, i, "positives")
		if got := value(t, tab, i, "precision"); got != members/positives {
			t.Errorf("row %d: precision %v, members over positives %v / %v", i, got, members, positives)
		}
		if value(t, tab, i, "recall") != 1 || value(t, tab, i, "falsePositives") != positives-members {
			t.Errorf("row %d: recall %v, %v false positives of %v positives", i, value(t, tab, i, "recall"), value(t, tab, i, "falsePositives"), positives)
		}
	}
	cands, err := inferList()
	if err != nil {
		t.Fatal(err)
	}
	for _, seed := range []uint64{3, 4} {
		chosen := drawDistinct(300, len(cands), seed)
		if len(chosen) != 300 {
			t.Fatalf("seed %d: drew %d distinct candidates of 300", seed, len(chosen))
		}
		x, err := inferOne(&runner{}, 30_000, 7, 3000, cands, 300, seed)
		if err != nil {
			t.Fatal(err)
		}
		if x.Members != 300 || x.Positives < 300 {
			t.Errorf("seed %d: %d of 300 members among %d positives", seed, x.Members, x.Positives)
		}
	}
}
