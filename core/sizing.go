package core

import (
	"fmt"
	"math"
)

// ln2sq is (ln 2)^2, the constant in m = -n ln p / (ln 2)^2.
const ln2sq = math.Ln2 * math.Ln2

// BitsFor returns m = ceil(-n ln p / (ln 2)^2), the bits that n keys need for
// a false-positive rate p with the optimal k. It rejects n = 0 and p outside
// (0, 1).
func BitsFor(n uint64, p float64) (uint64, error) {
	if n == 0 {
		return 0, fmt.Errorf("core: n must be at least 1, got 0")
	}
	if !(p > 0 && p < 1) {
		return 0, fmt.Errorf("core: p must be in (0, 1), got %v", p)
	}
	m := math.Ceil(-float64(n) * math.Log(p) / ln2sq)
	if m > math.MaxUint64/2 {
		return 0, fmt.Errorf("core: %d keys at p = %v need more than 2^63 bits", n, p)
	}
	return uint64(m), nil
}

// OptimalK returns max(1, round((m/n) ln 2)), the integer k that minimizes
// the approximate rate. For n = 0 it returns 1.
func OptimalK(m, n uint64) int {
	if n == 0 {
		return 1
	}
	return max(1, int(math.Round(float64(m)/float64(n)*math.Ln2)))
}

// CeilK returns max(1, ceil((m/n) ln 2)): the common mistake, kept so the lab
// can show what it costs.
func CeilK(m, n uint64) int {
	if n == 0 {
		return 1
	}
	return max(1, int(math.Ceil(float64(m)/float64(n)*math.Ln2)))
}

// Rate returns the approximate false-positive rate (1 - e^(-kn/m))^k. It is
// 1 for m = 0 and 0 for n = 0.
func Rate(m, n uint64, k int) float64 {
	if m == 0 {
		return 1
	}
	if n == 0 || k <= 0 {
		return 0
	}
	x := float64(k) * float64(n) / float64(m)
	return clamp01(math.Pow(-math.Expm1(-x), float64(k)))
}

// RateExact returns (1 - (1 - 1/m)^(kn))^k, the rate with the exact expected
// fill of m bits after kn uniform writes.
func RateExact(m, n uint64, k int) float64 {
	if m == 0 {
		return 1
	}
	if n == 0 || k <= 0 {
		return 0
	}
	return clamp01(math.Pow(Fill(m, n, k), float64(k)))
}

// Fill returns the expected share of set bits, 1 - (1 - 1/m)^(kn), computed
// as -expm1(kn log1p(-1/m)) so that it stays accurate for huge m.
func Fill(m, n uint64, k int) float64 {
	if m == 0 {
		return 1
	}
	if m == 1 {
		if n == 0 || k <= 0 {
			return 0
		}
		return 1
	}
	return clamp01(-math.Expm1(float64(k) * float64(n) * math.Log1p(-1/float64(m))))
}

// ExpectedSetBits returns m (1 - (1 - 1/m)^(kn)).
func ExpectedSetBits(m, n uint64, k int) float64 {
	return float64(m) * Fill(m, n, k)
}

// ExpectedProbes returns sum_{i<k} f^i, the mean number of bits a query for
// an absent key reads before it meets a zero, when a share f of bits is set.
func ExpectedProbes(k int, f float64) float64 {
	sum, term := 0.0, 1.0
	for i := 0; i < k; i++ {
		sum += term
		term *= f
	}
	return sum
}

// InfoFloor returns log2(1/p), the bits per key below which no structure
// answering membership with rate p can go (Carter et al., 1978).
func InfoFloor(p float64) float64 {
	return -math.Log2(p)
}

// BlockSize is the blocked filter's block: one 64-byte cache line.
const BlockSize = 512

// BlockedRate returns the blocked filter's rate as Putze, Sanders and
// Singler ("Cache-, Hash- and Space-Efficient Bloom Filters", 2007, section
// 3) give it: a query lands in one block, whose load is Poisson with mean
// n*512/m, and inside it the standard formula applies with m = 512. It
// raises a block's expected fill to the k-th power and so runs about 1% low
// at 10 bits per key (0.957% where BlockedRateExact gives 0.966%); it is a
// hundred times cheaper, which the calculator's searches need.
func BlockedRate(m, n uint64, k int) float64 {
	if m < BlockSize {
		return RateExact(m, n, k)
	}
	blocks := m / BlockSize
	lambda := float64(n) / float64(blocks)
	// Sum the Poisson mixture outwards from its mode until terms vanish.
	rate, mass := 0.0, 0.0
	pj := func(j int) float64 {
		lg, _ := math.Lgamma(float64(j) + 1)
		return math.Exp(float64(j)*math.Log(lambda) - lambda - lg)
	}
	if lambda == 0 {
		return 0
	}
	hi := int(lambda + 12*math.Sqrt(lambda) + 40)
	for j := 0; j <= hi; j++ {
		w := pj(j)
		mass += w
		rate += w * RateExact(BlockSize, uint64(j), k)
	}
	return clamp01(rate / mass)
}

func clamp01(x float64) float64 {
	switch {
	case x < 0:
		return 0
	case x > 1:
		return 1
	}
	return x
}
