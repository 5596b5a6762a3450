package experiment

import (
	"testing"

	"github.com/bloomlab/bloomlab/core"
)

// BenchmarkQueryAbsent is the inner loop of every rate row: generate an
// absent key, ask the filter. One op is one query.
func BenchmarkQueryAbsent(b *testing.B) {
	for _, n := range []uint64{100_000, 500_000} {
		b.Run(group(int(n))+" keys at 1%", func(b *testing.B) {
			m, k, _ := sized(n, 0.01)
			f, _ := core.NewFilter(m, k, 1)
			if err := insert(&runner{}, f, n, 1); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			if _, err := queryAbsent(&runner{}, f, 1, 0, uint64(b.N)); err != nil {
				b.Fatal(err)
			}
		})
	}
}

// BenchmarkSweep is one replicate of the k-sweep's 16-bits-per-key sizing:
// five filters of 100,000 keys built, then 100,000 queries against all five.
func BenchmarkSweep(b *testing.B) {
	const n = 100_000
	sw := sweep{m: 16 * n, ks: span(9, 13), thin: 1}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := sweepOnce(&runner{}, sw, n, 100_000, 1); err != nil {
			b.Fatal(err)
		}
	}
}
