package core

import (
	"math"
	"math/rand/v2"
	"testing"
)

// minP and maxN are the calculator's bounds on p and n (plan.MinP and
// plan.MaxN), the edges of the inputs a sizing is asked for.
const (
	minP = 1e-19
	maxN = 1 << 53
)

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
	ins := []in{{1, 0.999}, {1, minP}, {maxN, 0.5}, {maxN, minP}, {1 << 27, 0.01}, {1 << 30, 0.999}, {3, 0.5}}
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
