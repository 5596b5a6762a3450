package plan

import (
	"math"
	"math/rand/v2"
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

// maxChainPlans is the most chain plans one scalable sizing may make. By
// construction it is bounded: the doubling takes at most log2 of the first
// link's words, and every other step of the search at least halves the
// bracket. In practice the first guess reaches p and the interpolation
// finds the edge in a few plans: the most seen over these inputs was 15,
// where a search by bisection to the word took 23.
const maxChainPlans = 20

// TestCheapestScalableIsBounded: the scalable sizing makes a bounded
// number of chain plans whatever n and p, the edges of the calculator's
// inputs and a fixed-seed sample between them.
func TestCheapestScalableIsBounded(t *testing.T) {
	t.Parallel()
	type in struct {
		n uint64
		p float64
	}
	ins := []in{{1, 0.999}, {1, MinP}, {MaxN, 0.5}, {MaxN, MinP}, {1 << 27, 0.01}, {1 << 30, 0.999}, {3, 0.5}}
	rng := rand.New(rand.NewPCG(7, 7))
	for range 40 {
		ins = append(ins, in{1 + rng.Uint64N(1<<uint(rng.IntN(34))), math.Pow(10, -19*rng.Float64())})
	}
	most := 0
	defer func() { t.Logf("at most %d plans", most) }()
	for _, c := range ins {
		s, plans := cheapestScalableCounted(c.n, c.p)
		most = max(most, plans)
		if plans > maxChainPlans || s.Reaches == (s.Why != "") || s.Reaches && s.Rate > c.p {
			t.Errorf("n = %d, p = %g (seed 7): %d plans, at most %d allowed; %+v", c.n, c.p, plans, maxChainPlans, s)
		}
	}
}
