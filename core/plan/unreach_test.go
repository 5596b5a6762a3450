package plan

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"github.com/bloomlab/bloomlab/core"
)

// TestBlockedAtTinyRates: keys pile up unevenly across 512-bit blocks, so
// at tiny rates a blocked filter needs several times the memory: 9.5 times
// at 10^-19, the smallest rate a plan takes. The plan meets p by the exact
// rate and still encodes as JSON (no NaN).
func TestBlockedAtTinyRates(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n        uint64
		p        float64
		min, max float64 // the blocked plan's bits over the standard's
	}{{1_000_000, 1e-6, 1.3, 1.5}, {1_000_000, 1e-12, 2.5, 3}, {1_000_000, 1e-19, 9, 10}, {MaxN, 1e-19, 9, 10}}
	for _, tt := range tests {
		pl, err := Solve(Input{Find: FindM, N: tt.n, P: tt.p})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := json.Marshal(pl); err != nil {
			t.Errorf("p = %v: %v", tt.p, err)
		}
		for _, a := range pl.Alternatives {
			if a.ID != "blocked-same-p" {
				continue
			}
			ratio := float64(a.Bits) / float64(pl.M)
			if a.Unreachable || ratio < tt.min || ratio > tt.max || a.Rate > tt.p || a.Rate != core.BlockedRateExact(a.Bits, tt.n, a.K) {
				t.Errorf("n = %d, p = %v: %d bits (%.2fx) at %v with k = %d, unreachable %v", tt.n, tt.p, a.Bits, ratio, a.Rate, a.K, a.Unreachable)
			}
		}
	}
}

// The searches give up at their limit rather than spinning, and find the
// first block count that reaches however far off the guess is.
func TestSearchesStopAtTheirLimit(t *testing.T) {
	t.Parallel()
	const answer = 1_234_567
	rate := func(blocks uint64) float64 { return math.Exp(-float64(blocks) / 1e5) }
	p := rate(answer)
	calls := 0
	counted := func(blocks uint64) float64 { calls++; return rate(blocks) }
	for _, guess := range []uint64{answer - 100_000, answer - 1, answer, answer + 1, answer + 400_000} {
		calls = 0
		got, ok := smallestBelow(p, 1000, rate(1000), guess, 10_000_000, counted)
		if !ok || got != answer || calls > 40 {
			t.Errorf("guess %d: %d (%v) in %d rates, want %d in at most 40", guess, got, ok, calls, answer)
		}
	}
	if got, ok := smallestBelow(p, 1000, rate(1000), 2000, answer-1, rate); ok {
		t.Errorf("limit below the answer: found %d", got)
	}
	if got, ok := smallestReaching(1000, answer-1, func(b uint64) bool { return rate(b) <= p }); ok {
		t.Errorf("smallestReaching past its limit: found %d", got)
	}
}

func BenchmarkSolve100M(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Solve(Input{Find: FindM, N: 100_000_000, P: 0.01})
	}
}

func BenchmarkSolveTinyRate1M(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Solve(Input{Find: FindM, N: 1_000_000, P: 1e-19})
	}
}

// TestSolveFigures: SolveFigures is Solve without the alternatives, and a
// plan's shape finds the same alternatives again (Shape.Plan), so a page
// can show the figures at once and have the alternatives found elsewhere.
func TestSolveFigures(t *testing.T) {
	t.Parallel()
	for _, in := range []Input{
		{Find: FindM, N: 100_000_000, P: 0.01},
		{Find: FindM, N: 1_000_000, P: 1e-19},
		{Find: FindP, N: 500_000, M: 4_000_000, K: 3},
		{Find: FindN, M: 1 << 20, P: 0.05},
	} {
		full, err := Solve(in)
		if err != nil {
			t.Fatal(in, err)
		}
		figs, err := SolveFigures(in)
		if err != nil {
			t.Fatal(in, err)
		}
		if figs.Alternatives != nil {
			t.Errorf("%+v: SolveFigures found %d alternatives, want none", in, len(figs.Alternatives))
		}
		alts := full.Alternatives
		full.Alternatives = nil
		if !reflect.DeepEqual(figs, full) {
			t.Errorf("%+v: SolveFigures\n%+v\nwant Solve's figures\n%+v", in, figs, full)
		}
		if got := figs.Shape().Plan().Alternatives; !reflect.DeepEqual(got, alts) {
			t.Errorf("%+v: the shape's alternatives differ from Solve's", in)
		}
	}
}
