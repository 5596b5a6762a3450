package plan

import (
	"testing"

	"bloomlab/core"
)

// TestCheapestFor: at 1% the static Ribbon filter is the cheapest of all
// and the semi-sorted cuckoo filter, a bit a slot under the plain one's,
// the cheapest that takes inserts and removes; at 10^-5 no cuckoo filter
// of the lab reaches the rate, the standard filter is the cheapest that
// takes inserts and the counting filter the one that removes.
func TestCheapestFor(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		p    float64
		want []string
	}{
		{0.01, []string{"ribbon", "cuckoo-ss", "cuckoo-ss"}},
		{1e-5, []string{"ribbon", "standard", "counting"}},
		{0.1, []string{"ribbon", "standard", "cuckoo-ss"}},
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
