package sim

import (
	"math"
	"testing"

	"github.com/bloomlab/bloomlab/core"
)

// The overlap is a plain count of each key's distinct positions, done
// again here key by key; its histogram and mean follow from the counts.
func TestOverlapCounts(t *testing.T) {
	t.Parallel()
	for _, v := range []core.Variant{core.Standard, core.BlockedVariant, core.CountingVariant} {
		p := Defaults()
		p.Variant, p.Items = v, 1500
		typed := []string{"apple", "pear", "apple"}
		o, err := OverlapOf(p, typed, nil)
		if err != nil {
			t.Fatal(err)
		}
		r, _ := p.Start()
		m := r.Filter.M()
		want := make([]int, m)
		add := func(key []byte) {
			seen := map[uint64]bool{}
			for _, i := range r.Filter.Positions(nil, key) {
				if !seen[i] {
					seen[i] = true
					want[i]++
				}
			}
		}
		for i := range uint64(p.Items) {
			add(core.Key(nil, core.Members, i, p.Seed, p.KeyBytes))
		}
		add([]byte("apple"))
		add([]byte("pear"))
		hist := make([]uint64, OverlapTop+1)
		sum := 0
		for i, c := range want {
			if int(o.Counts[i]) != c {
				t.Fatalf("%s: position %d counted %d, want %d", v.Name(), i, o.Counts[i], c)
			}
			hist[min(c, OverlapTop)]++
			sum += c
		}
		for c := range hist {
			if o.Histogram[c] != hist[c] {
				t.Errorf("%s: %d positions hold %d keys, want %d", v.Name(), o.Histogram[c], c, hist[c])
			}
		}
		if o.Keys != uint64(p.Items)+2 || math.Abs(o.Mean-float64(sum)/float64(m)) > 1e-12 {
			t.Errorf("%s: %d keys, mean %v", v.Name(), o.Keys, o.Mean)
		}
	}
}

// The standard filter's counts follow Poisson with mean kn/m: each class
// within a binomial bound (five standard deviations, fixed seed) of its
// expected share of m positions.
func TestOverlapPoisson(t *testing.T) {
	t.Parallel()
	p := Defaults()
	p.Hashing = core.IndependentHashing
	o, err := OverlapOf(p, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, k := p.Shape()
	mean := float64(k) * float64(p.Items) / float64(m)
	if math.Abs(o.Mean-mean) > 0.01 {
		t.Errorf("mean %v, want about kn/m = %v", o.Mean, mean)
	}
	for c, share := range PoissonShares(mean) {
		exp := share * float64(m)
		if got := float64(o.Histogram[c]); math.Abs(got-exp) > 5*math.Sqrt(exp*(1-share))+1 {
			t.Errorf("%d positions hold %d keys, Poisson expects %.0f", int(got), c, exp)
		}
	}
}

// Layouts that store fingerprints have no overlap, and the counts are
// bounded: a filter past MaxOverlapM positions is refused.
func TestOverlapRefuses(t *testing.T) {
	t.Parallel()
	p := Defaults()
	p.Variant = core.CuckooVariant
	if _, err := OverlapOf(p, nil, nil); err == nil {
		t.Error("a cuckoo filter's overlap was counted")
	}
	p = Defaults()
	p.M, p.Items = MaxOverlapM+1, 10
	if _, err := OverlapOf(p, nil, nil); err == nil {
		t.Error("an overlap past MaxOverlapM was counted")
	}
}
