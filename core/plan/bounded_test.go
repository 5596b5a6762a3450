package plan

import (
	"math"
	"testing"

	"github.com/bloomlab/bloomlab/core"
)

// maxWork is the most work one plan may do, in the blocked searches' units
// of about 100 ns: 0.4 s. The worst of 3,000 random plans did about a
// million. Before the sums were bounded, n = 10^8 keys in one 512-bit block
// summed 10^8 terms for each k the search tried.
const maxWork = 4_000_000

// The inputs that once ran away, each as a regression test: the work is
// counted, not timed.
func TestSolveWorkIsBounded(t *testing.T) {
	t.Parallel()
	for _, in := range []Input{
		{Find: FindP, N: 100_000_000, M: 512},
		{Find: FindP, N: MaxN, M: 512},
		{Find: FindP, N: 99999951, M: 17},
		{Find: FindP, N: MaxN, M: 1024},
		{Find: FindM, N: MaxN, P: 1e-300},
		{Find: FindN, M: MaxBits, P: 0.5},
		{Find: FindP, N: 1_000_000, M: 64 * 1_000_000, K: 1},
	} {
		pl, work, err := solve(in)
		if err != nil {
			t.Logf("%+v: %v", in, err)
			continue
		}
		if work > maxWork {
			t.Errorf("%+v: %d terms, at most %d allowed", in, work, maxWork)
		}
		for _, a := range pl.Alternatives {
			if math.IsNaN(a.Rate) || a.Rate < 0 || a.Rate > 1 {
				t.Errorf("%+v: %s rate %v", in, a.ID, a.Rate)
			}
		}
	}
}

// One key per many blocks' worth of load saturates every block: the rate
// is 1, reached in one term.
func TestBlockedRateSaturates(t *testing.T) {
	t.Parallel()
	for _, n := range []uint64{100_000_000, MaxN} {
		r, terms := core.BlockedRateCounted(512, n, 3)
		if r != 1 || terms != 1 {
			t.Errorf("n = %d in one block: rate %v in %d terms, want 1 in 1", n, r, terms)
		}
	}
}

func FuzzSolve(f *testing.F) {
	f.Add("p", uint64(99999951), 0.0, uint64(17), 0)
	f.Add("p", uint64(100_000_000), 0.0, uint64(512), 0)
	f.Add("m", uint64(1_000_000), 0.01, uint64(0), 0)
	f.Add("n", uint64(0), 1e-6, uint64(1<<40), 7)
	f.Fuzz(func(t *testing.T, find string, n uint64, p float64, m uint64, k int) {
		pl, work, err := solve(Input{Find: Unknown(find), N: n, P: p, M: m, K: k})
		if work > maxWork {
			t.Fatalf("find %s, n %d, p %v, m %d, k %d: %d terms, at most %d allowed", find, n, p, m, k, work, maxWork)
		}
		if err != nil {
			return
		}
		if pl.M == 0 || pl.N == 0 || !(pl.Rate >= 0 && pl.Rate <= 1) {
			t.Fatalf("find %s, n %d, p %v, m %d, k %d: plan m %d n %d rate %v", find, n, p, m, k, pl.M, pl.N, pl.Rate)
		}
	})
}
