package plan

import (
	"encoding/json"
	"testing"
)

// TestBlockedAtTinyRates: keys pile up unevenly across 512-bit blocks, so
// at tiny rates a blocked filter needs several times the memory, and past
// 64 times (or 2^63 bits) the search gives up and says so rather than
// spinning. The plan still encodes as JSON (no NaN).
func TestBlockedAtTinyRates(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n           uint64
		p           float64
		unreachable bool
	}{{1_000_000, 1e-6, false}, {1_000_000, 1e-12, false}, {1_000_000, 1e-19, false}, {MaxN, 1e-19, true}}
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
			switch {
			case a.Unreachable != tt.unreachable:
				t.Errorf("p = %v: unreachable %v, want %v", tt.p, a.Unreachable, tt.unreachable)
			case a.Unreachable && (a.Bits != 0 || a.Rate != 0):
				t.Errorf("p = %v: unreachable row has bits %d rate %v", tt.p, a.Bits, a.Rate)
			case !a.Unreachable && !(a.Bits > pl.M && a.Bits < 64*pl.M && a.Rate <= tt.p):
				t.Errorf("p = %v: %d bits at %v for m = %d", tt.p, a.Bits, a.Rate, pl.M)
			}
		}
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
