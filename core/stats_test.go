package core

import (
	"fmt"
	"math"
	"testing"
)

func TestWilson(t *testing.T) {
	t.Parallel()
	// The 1% row of the classic table: 100,560 false positives in 10^7
	// queries gives [0.009994, 0.010118].
	lo, hi := Wilson(100_560, 10_000_000, Z95)
	if got := fmt.Sprintf("%.6f %.6f", lo, hi); got != "0.009994 0.010118" {
		t.Errorf("Wilson = %s", got)
	}
	if lo, hi := Wilson(0, 100, Z95); lo != 0 || hi <= 0 || hi > 0.04 {
		t.Errorf("Wilson(0, 100) = [%v, %v]", lo, hi)
	}
}

func TestChiSquare(t *testing.T) {
	t.Parallel()
	if s, dof := ChiSquare([]uint64{10, 10, 10, 10}); s != 0 || dof != 3 {
		t.Errorf("uniform counts: %v, %d", s, dof)
	}
	if s, _ := ChiSquare([]uint64{40, 0, 0, 0}); s != 120 {
		t.Errorf("all in one bucket: %v, want 120", s)
	}
	// Z999 is the 99.95% normal point; chi-square's with 100 dof is 153.17.
	if b := ChiSquareBound(100, Z999); math.Abs(b-153.17) > 0.5 {
		t.Errorf("ChiSquareBound(100) = %v, want about 153.17", b)
	}
}

func ExampleBitsFor() {
	m, _ := BitsFor(100_000_000, 0.01)
	fmt.Println(m, OptimalK(m, 100_000_000))
	// Output: 958505838 7
}
