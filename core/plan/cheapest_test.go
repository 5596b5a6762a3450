package plan

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/coretest"
)

// TestCheapestFor: at 10^6 keys the static Ribbon filter at w = 128, fewer
// rows than at 64, is the cheapest of all; at 1% the semi-sorted cuckoo filter, a bit a slot under the plain one's,
// the cheapest that takes inserts and removes; at 10^-5 no cuckoo filter
// of the lab reaches the rate, the standard filter is the cheapest that
// takes inserts and the counting filter the one that removes. Growth past
// n is the scalable chain's alone, down to 10^-12, where its chain would
// pass the plan's bits per key and no structure offers it.
func TestCheapestFor(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		p    float64
		want []string
	}{
		{0.01, []string{"ribbon-128", "cuckoo-ss", "cuckoo-ss", "scalable"}},
		{1e-5, []string{"ribbon-128", "standard", "counting", "scalable"}},
		{0.1, []string{"ribbon-128", "standard", "cuckoo-ss", "scalable"}},
		{1e-12, []string{"standard", "standard", "counting", "none"}},
	} {
		sized := Cheapest(1_000_000, tc.p)
		for ni, i := range CheapestFor(sized) {
			got := "none"
			if i >= 0 {
				got = sized[i].Name
				if !Needs[ni].Offers(sized[i].Variant) || sized[i].Rate > tc.p {
					t.Errorf("p = %g, %s: %s does not offer it or reach p", tc.p, Needs[ni].Name, got)
				}
			}
			if got != tc.want[ni] {
				t.Errorf("p = %g, %s: cheapest %s, want %s", tc.p, Needs[ni].Name, got, tc.want[ni])
			}
		}
	}
}

// TestCheapestIsBounded: every rate a plan takes sizes in bounded work and
// gives a reason for each structure that cannot reach it.
func TestCheapestIsBounded(t *testing.T) {
	t.Parallel()
	for _, n := range []uint64{1, 7, 1 << 20, MaxN} {
		for _, p := range []float64{0.999, 0.5, 1e-3, 1e-12, MinP} {
			for _, s := range Cheapest(n, p) {
				if s.Reaches == (s.Why != "") || s.Reaches && (s.Bits == 0 || s.Rate > p) {
					t.Errorf("n = %d, p = %g: %+v", n, p, s)
				}
				if s.Variant == core.Standard && !s.Reaches && p >= 1e-12 {
					t.Errorf("n = %d, p = %g: the standard filter does not reach it: %s", n, p, s.Why)
				}
			}
		}
	}
}

// TestCheapestScalable: the scalable chain the plan sizes reaches p by its
// own theory, which the built filter, filled, confirms: the links and bits
// foreseen are those it grows to. Its memory is that of capacity for 15n/8
// keys at rates below p, so between 15/8 of the standard filter's and 15/8
// of a standard filter's at p/16 (p0 is at least about p/2, so the fourth
// link's rate at least p/16), plus a word a link. The chain's own theory
// lets it spend fewer bits than the paper's bound p0/(1 - r) = p would.
func TestCheapestScalable(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		n uint64
		p float64
	}{{20_000, 0.1}, {20_000, 0.01}, {1_000_000, 0.01}, {1_000_000, 0.001}, {1_000_000, 1e-6}} {
		s, std := sizedIn(core.ScalableVariant, tc.n, tc.p), sizedIn(core.Standard, tc.n, tc.p)
		if !s.Reaches || s.Rate > tc.p || s.Spec.Capacity != tc.n/8 {
			t.Fatalf("n = %d, p = %g: %+v", tc.n, tc.p, s)
		}
		lg := core.InfoFloor(tc.p)
		ratio := float64(s.Bits) / float64(std.Bits)
		hi := 15.0/8*(lg+4)/lg + 4*64/float64(std.Bits)
		if ratio < 1.8 || ratio > hi {
			t.Errorf("n = %d, p = %g: %.3f times the standard filter's bits, want [1.8, %.3f]", tc.n, tc.p, ratio, hi)
		}
		bound := cheapestBound(tc.n, tc.p)
		if s.Bits >= bound {
			t.Errorf("n = %d, p = %g: %d bits, the chain sized by the bound takes %d", tc.n, tc.p, s.Bits, bound)
		}
		f, err := s.Variant.Build(s.Spec)
		if err != nil {
			t.Fatal(err)
		}
		if th := s.Variant.Theory(f, tc.n); th.Rate != s.Rate {
			t.Errorf("n = %d, p = %g: the plan's rate %v, the built filter's theory %v", tc.n, tc.p, s.Rate, th.Rate)
		}
		if tc.n > 100_000 {
			continue
		}
		for i := range tc.n {
			f.Add([]byte(fmt.Sprintf("key %d", i)))
		}
		chain := f.(*core.Scalable)
		if chain.M() != s.Bits || !strings.Contains(s.Settings, fmt.Sprintf("%d links", chain.Links())) {
			t.Errorf("n = %d, p = %g: planned %d bits (%s), the filled chain has %d bits in %d links", tc.n, tc.p, s.Bits, s.Settings, chain.M(), chain.Links())
		}
	}
	// Past the lab's bounds it does not reach p and says why.
	for _, tc := range []struct {
		n    uint64
		p    float64
		want string
	}{{1_000_000, 1e-12, "not within"}, {1 << 30, 0.01, "cannot grow"}, {MaxN, 0.01, "not within"}} {
		if s := sizedIn(core.ScalableVariant, tc.n, tc.p); s.Reaches || !strings.Contains(s.Why, tc.want) {
			t.Errorf("n = %d, p = %g: %+v, want the reason %q", tc.n, tc.p, s, tc.want)
		}
	}
}

// cheapestBound is the bits of the chain whose first link alone reaches
// p/2, the paper's bound p0/(1 - r) = p, at n keys.
func cheapestBound(n uint64, p float64) uint64 {
	n0 := (n + 7) / 8
	m0, _ := core.BitsFor(n0, p/2)
	for core.RateExact((m0+63)&^63, n0, core.OptimalK((m0+63)&^63, n0)) > p/2 {
		m0 += 64
	}
	o, _ := core.ScalableOutlook(m0, core.OptimalK((m0+63)&^63, n0), n0, n)
	return o.M
}

// sizedIn is layout v's line of Cheapest for n keys at rate p.
func sizedIn(v core.Variant, n uint64, p float64) Sized {
	for _, s := range Cheapest(n, p) {
		if s.Variant == v {
			return s
		}
	}
	panic("plan: no line for the " + v.Name() + " filter")
}

// TestCheapestListsTheRegistry: a layout registered from outside core, the
// word filter of core/coretest, which brings no sizing of its own, has its
// line in the calculator's table, sized from its theory: the fewest whole
// words that reach p, where one word fewer does not.
func TestCheapestListsTheRegistry(t *testing.T) {
	v, unregister := coretest.RegisterWord()
	defer unregister()
	const n, p = 100_000, 0.01
	sized := Cheapest(n, p)
	if len(sized) != len(core.Variants) {
		t.Fatalf("%d lines for %d layouts", len(sized), len(core.Variants))
	}
	w := sizedIn(v, n, p)
	f, err := v.Build(w.Spec)
	if err != nil {
		t.Fatal(err)
	}
	fewer := w.Spec
	fewer.M -= 64
	fewer.K = core.OptimalK(fewer.M, n)
	g, err := v.Build(fewer)
	if err != nil {
		t.Fatal(err)
	}
	if !w.Reaches || w.Name != "word" || w.Spec.M%64 != 0 || w.Bits != w.Spec.M || w.Rate > p ||
		v.Theory(f, n).Rate != w.Rate || v.Theory(g, n).Rate <= p || !strings.HasSuffix(w.Settings, " words") {
		t.Errorf("word at n = %d, p = %g: %+v; one word fewer gives %g", n, p, w, v.Theory(g, n).Rate)
	}
	// A rate no filter it builds reaches says why: here, past k = 10.
	if s := sizedIn(v, n, MinP); s.Reaches || !strings.Contains(s.Why, "k in [1, 10]") {
		t.Errorf("word at %g: %+v", MinP, s)
	}
}
