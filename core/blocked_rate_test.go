package core

import (
	"fmt"
	"math"
	"math/bits"
	"testing"
)

// inclusionExclusion is an independent route to one block's rate after w
// writes: k probes cover d distinct bits with a probability built probe by
// probe, and all d are set with probability sum_i (-1)^i C(d,i) (1-i/512)^w.
// It cancels badly for large k, so it only checks small ones.
func inclusionExclusion(w, k int) float64 {
	const b = float64(BlockSize)
	pd := make([]float64, k+1)
	pd[0] = 1
	for i := 0; i < k; i++ {
		next := make([]float64, k+1)
		for d := 0; d <= i; d++ {
			next[d] += pd[d] * float64(d) / b
			next[d+1] += pd[d] * (b - float64(d)) / b
		}
		pd = next
	}
	total := 0.0
	for d := 1; d <= k; d++ {
		s, c := 0.0, 1.0
		for i := 0; i <= d; i++ {
			s += math.Pow(-1, float64(i)) * c * math.Pow(1-float64(i)/b, float64(w))
			c = c * float64(d-i) / float64(i+1)
		}
		total += pd[d] * s
	}
	return total
}

func TestBlockedRateExact(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		bpk uint64
		k   int
	}{{10, 6}, {16, 11}, {8, 4}} {
		t.Run(fmt.Sprintf("%d bits per key, k = %d", tc.bpk, tc.k), func(t *testing.T) {
			n := uint64(500_000)
			m := (tc.bpk*n + BlockSize - 1) / BlockSize * BlockSize
			lambda := float64(n) / float64(m/BlockSize)
			want, mass := 0.0, 0.0
			for j := 0; j <= int(lambda+12*math.Sqrt(lambda)+40); j++ {
				lg, _ := math.Lgamma(float64(j) + 1)
				pj := math.Exp(float64(j)*math.Log(lambda) - lambda - lg)
				mass += pj
				want += pj * inclusionExclusion(j*tc.k, tc.k)
			}
			want /= mass
			got := BlockedRateExact(m, n, tc.k)
			if math.Abs(got-want) > 1e-9*want {
				t.Errorf("BlockedRateExact = %.9f, inclusion-exclusion gives %.9f", got, want)
			}
			if approx := BlockedRate(m, n, tc.k); got <= approx {
				t.Errorf("exact %.6f not above the (E f)^k form %.6f", got, approx)
			}
		})
	}
	if got := fmt.Sprintf("%.4f%%", 100*BlockedRateExact(5_000_192, 500_000, 6)); got != "0.9663%" {
		t.Errorf("10 bits per key, k = 6: %s, want 0.9663%%", got)
	}
	for _, tc := range []struct {
		m, n uint64
		k    int
		want float64
	}{{100, 10, 3, RateExact(100, 10, 3)}, {5120, 0, 3, 0}, {5120, 10, 0, 0}} {
		if got := BlockedRateExact(tc.m, tc.n, tc.k); got != tc.want {
			t.Errorf("BlockedRateExact(%d, %d, %d) = %v, want %v", tc.m, tc.n, tc.k, got, tc.want)
		}
	}
}

// The spread of the blocks' rates in a built filter matches the computed
// variance: the blocks of one large filter sample it tens of thousands of
// times, so their sample variance is within a few percent of the truth; the
// test allows 15%.
func TestBlockedMomentsMatchABuiltFilter(t *testing.T) {
	t.Parallel()
	const n, k = 1_000_000, 6
	f, err := NewBlocked(10*n, k, 21)
	if err != nil {
		t.Fatal(err)
	}
	key := make([]byte, 0, 16)
	for i := uint64(0); i < n; i++ {
		key = Key(key, Members, i, 21, 16)
		f.Add(key)
	}
	per := BlockSize / 64
	blocks := len(f.Words()) / per
	sum, sq := 0.0, 0.0
	for b := 0; b < blocks; b++ {
		pop := 0
		for _, w := range f.Words()[b*per : (b+1)*per] {
			pop += bits.OnesCount64(w)
		}
		r := math.Pow(float64(pop)/BlockSize, k)
		sum += r
		sq += r * r
	}
	mean, variance := blockedMoments(f.M(), n, k)
	gotMean, gotVar := sum/float64(blocks), sq/float64(blocks)-sum*sum/float64(blocks*blocks)
	if r := gotVar / variance; r < 0.85 || r > 1.15 {
		t.Errorf("blocks' rates vary by %.3g, computed %.3g (ratio %.3f)", gotVar, variance, r)
	}
	if z := (gotMean - mean) / math.Sqrt(variance/float64(blocks)); math.Abs(z) > Z999 {
		t.Errorf("blocks' mean rate %.6f, computed %.6f: z = %.2f", gotMean, mean, z)
	}
}

// poissonWeight returns P(J = j) for J ~ Poisson(lambda), term by term, as
// the reference sums below take it.
func poissonWeight(lambda float64, j int) float64 {
	lg, _ := math.Lgamma(float64(j) + 1)
	return math.Exp(float64(j)*math.Log(lambda) - lambda - lg)
}

// The bounded sums give what the whole window gives: stopping where a
// block saturates and starting at the window's low end change nothing a
// reader can see, at any load per block.
func TestBlockedRateBoundedSumsAgree(t *testing.T) {
	t.Parallel()
	naive := func(m, n uint64, k int) float64 {
		lambda := float64(n) / float64(m/BlockSize)
		rate, mass := 0.0, 0.0
		for j := 0; j <= int(lambda+12*math.Sqrt(lambda)+40); j++ {
			w := poissonWeight(lambda, j)
			mass += w
			rate += w * RateExact(BlockSize, uint64(j), k)
		}
		return rate / mass
	}
	const m = 512 * 1000
	for _, n := range []uint64{500, 51_200, 500_000, 5_000_000, 20_000_000} {
		for _, k := range []int{1, 7, 64} {
			got, terms := BlockedRateCounted(m, n, k)
			if want := naive(m, n, k); math.Abs(got-want) > 1e-12*want {
				t.Errorf("n = %d, k = %d: %v, whole window %v", n, k, got, want)
			}
			if terms > 4000 {
				t.Errorf("n = %d, k = %d: %d terms", n, k, terms)
			}
		}
	}
	// The exact mixture saturates too, so a block holding 10^8 keys or
	// 2^53 costs no more than one holding a few hundred.
	for _, n := range []uint64{100_000_000, 1 << 53} {
		if got := BlockedRateExact(512, n, 3); got != 1 {
			t.Errorf("BlockedRateExact(512, %d, 3) = %v, want 1", n, got)
		}
	}
	if a, b := BlockedRateExact(m, 2_000_000, 4), naive(m, 2_000_000, 4); !(a >= b && a < 1) {
		t.Errorf("exact %v below the (E f)^k form %v at 2,000 keys a block", a, b)
	}
}
