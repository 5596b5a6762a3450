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
//
// Its work is bounded whatever the shape: a few thousand terms at most,
// since loads far from the mean carry no weight and loads that fill a block
// add their weight as a rate of 1.
func BlockedRate(m, n uint64, k int) float64 {
	rate, _ := BlockedRateCounted(m, n, k)
	return rate
}

// BlockedRateCounted is BlockedRate with the number of terms it summed, so
// that a search can count its work and its tests can bound it without a
// clock.
func BlockedRateCounted(m, n uint64, k int) (rate float64, terms int) {
	if m < BlockSize {
		return RateExact(m, n, k), 1
	}
	if n == 0 || k <= 0 {
		return 0, 1
	}
	return blockedMixture(m, n, k)
}

// saturated is where a block's rate counts as 1: past it, every heavier
// load adds its Poisson weight whole, and the sum stops. The error this
// makes is below 10^-15.
const saturated = 1 - 1e-15

// poissonWindow returns the loads [lo, hi] outside which a Poisson(lambda)
// load has weight below e^-70 on either side.
func poissonWindow(lambda float64) (lo, hi int) {
	spread := 12*math.Sqrt(lambda) + 40
	return int(max(0, lambda-spread)), int(lambda + spread)
}

// poissonWeights walks P(J = j) upward from j = from, one multiplication
// by lambda/j a step in log space: a sum over loads pays one log-gamma, not
// one a term.
type poissonWeights struct {
	logLambda, log float64
	j              int
}

func newPoissonWeights(lambda float64, from int) poissonWeights {
	lg, _ := math.Lgamma(float64(from) + 1)
	return poissonWeights{logLambda: math.Log(lambda), log: float64(from)*math.Log(lambda) - lambda - lg, j: from}
}

// next returns P(J = j) for the walk's j, then moves to j + 1.
func (w *poissonWeights) next() float64 {
	p := math.Exp(w.log)
	w.j++
	w.log += w.logLambda - math.Log(float64(w.j))
	return p
}

// blockedMixture sums BlockedRate's Poisson mixture and counts its terms.
// A block's rate rises with its load, so the sum walks up from the window's
// low end and stops where the rate saturates: about 21,000/k loads above a
// block's empty state at most, and one term when the mean load is already
// past that.
func blockedMixture(m, n uint64, k int) (rate float64, terms int) {
	lambda := float64(n) / float64(m/BlockSize)
	lo, hi := poissonWindow(lambda)
	weights := newPoissonWeights(lambda, lo)
	// A block with load j keeps each bit clear with probability q^j, q =
	// (1 - 1/512)^k: its rate is (1 - q^j)^k, stepped without a log a term.
	q := math.Pow(1-1.0/BlockSize, float64(k))
	clear := math.Pow(q, float64(lo))
	mass := 0.0
	for j := lo; j <= hi; j++ {
		terms++
		g := math.Pow(1-clear, float64(k))
		clear *= q
		if g >= saturated {
			rate += max(0, 1-mass)
			mass = max(mass, 1)
			break
		}
		w := weights.next()
		mass += w
		rate += w * g
	}
	return clamp01(rate / mass), terms
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

// ExactSetBytes estimates the heap of a Go map[string]struct{} holding n
// distinct keys of keyBytes each: MapTableBytes(n) for the table plus
// KeyHeapBytes(keyBytes) per key. The memory experiment measures the real
// figure natively; in the browser this estimate is all there is.
func ExactSetBytes(n uint64, keyBytes int) uint64 {
	return MapTableBytes(n) + n*KeyHeapBytes(keyBytes)
}

// MapTableBytes estimates the table of a Go (1.24 and later, swiss table)
// map[string]struct{} with n entries. A slot is 24 bytes (the 16-byte string
// header, padded for the empty value) plus one control byte; the table keeps
// a power-of-two number of slots at most 7/8 full, so its load swings
// between 7/16 and 7/8 as n grows; and a group array of 1024 slots is a
// 25,600-byte allocation in a 27,264-byte size class. Measured at 16-byte
// keys with runtime.MemStats, the model lands within 5% (51.0 and 71.8
// bytes per key at 100,000 and 500,000 keys, against 48.8 and 68.4).
func MapTableBytes(n uint64) uint64 {
	slots := uint64(8)
	for slots*7/8 < n {
		slots *= 2
	}
	const perSlot = 25.0 * 27264 / 25600
	return uint64(math.Ceil(float64(slots) * perSlot))
}

// KeyHeapBytes is the heap a key of keyBytes bytes takes as a string: its
// bytes rounded up to the Go allocator's size class (Go's
// runtime/sizeclasses.go).
func KeyHeapBytes(keyBytes int) uint64 {
	for _, c := range sizeClasses {
		if keyBytes <= c {
			return uint64(c)
		}
	}
	return uint64(keyBytes+8191) / 8192 * 8192
}

var sizeClasses = []int{0, 8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256,
	288, 320, 352, 384, 416, 448, 480, 512, 576, 640, 704, 768, 896, 1024, 1152, 1280, 1408, 1536, 1792, 2048,
	2304, 2688, 3072, 3200, 3456, 4096, 4864, 5376, 6144, 6528, 6784, 6912, 8192}
