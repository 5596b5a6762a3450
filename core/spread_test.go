package core

import (
	"math"
	"testing"
)

// One key in 10 bits with k = 7: S distinct bits of 7 writes, counted by
// hand from the Stirling numbers, E[(S/10)^7] = 0.0174706; the formula
// (E S/10)^7 gives 0.0105187.
func TestFilterSpreadByHand(t *testing.T) {
	t.Parallel()
	// P(S = s) = C(10, s) S(7, s) s! / 10^7 for s = 1..7.
	stirling := []float64{0, 1, 63, 301, 350, 140, 21, 1}
	want, c := 0.0, 1.0
	for s := 1; s <= 7; s++ {
		c = c * float64(10-s+1) / float64(s)
		fact := 1.0
		for i := 2; i <= s; i++ {
			fact *= float64(i)
		}
		want += c * stirling[s] * fact / 1e7 * math.Pow(float64(s)/10, 7)
	}
	got, _ := FilterSpread(10, 1, 7)
	if math.Abs(got-want) > 1e-12 || math.Abs(got-0.0174706) > 1e-7 {
		t.Errorf("FilterSpread(10, 1, 7) = %.9f, by hand %.9f", got, want)
	}
}

// The exact walk and the delta method agree where the budget hands one to
// the other, and better beyond.
func TestFilterSpreadMethodsAgree(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		m, n   uint64
		k      int
		varTol float64
	}{{1000, 100, 7, 0.015}, {4000, 400, 7, 0.004}, {1000, 250, 2, 0.001}} {
		me, ve := spreadExact(int(c.m), int(c.n)*c.k, c.k)
		ma, va := approxSpread(c.m, c.n, c.k)
		if math.Abs(ma/me-1) > 1e-4 || math.Abs(va/ve-1) > c.varTol {
			t.Errorf("m %d, n %d, k %d: exact %.6g (variance %.4g), delta method %.6g (%.4g)", c.m, c.n, c.k, me, ve, ma, va)
		}
	}
}
