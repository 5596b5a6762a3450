package core

import (
	"fmt"
	"math"
)

// BlockedRateExact returns the blocked filter's rate without BlockedRate's
// shortcut. BlockedRate raises a block's expected fill to the k-th power,
// (E f)^k; but a 512-bit block's fill varies a good deal from block to
// block, and the chance that k independent probes all find set bits is
// E[f^k], which is larger (Jensen). Here, for each Poisson load j of a block,
// the distribution of its set bits after j*k uniform writes is computed
// exactly (occupancy, one write at a time) and E[(s/512)^k] taken over it.
// At 10 bits per key and k = 6 this gives 0.966% where BlockedRate gives
// 0.957%; the gap grows with k (3% at 16 bits per key, 5% at 20).
//
// Like BlockedRate it falls back to RateExact for m below one block.
func BlockedRateExact(m, n uint64, k int) float64 {
	mean, _, _ := blockedExact(m, n, k)
	return mean
}

// BlockedRateExactCounted is BlockedRateExact with its work, in the units
// of BlockedRateCounted's terms (about 100 ns each): each write it follows
// updates 513 occupancy states, which costs about eight terms.
func BlockedRateExactCounted(m, n uint64, k int) (rate float64, work int) {
	mean, _, writes := blockedExact(m, n, k)
	return mean, 1 + writes*8
}

// blockedMoments returns the mean and the variance, over blocks, of a
// block's rate (s/512)^k. A filter's rate is the average over its m/512
// blocks, so it varies from filter to filter by about variance/(m/512),
// which honest tests of a measured rate must count. (A little less in fact:
// the loads of a filter's blocks sum to n, so they are not independent.)
func blockedMoments(m, n uint64, k int) (mean, variance float64) {
	mean, variance, _ = blockedExact(m, n, k)
	return mean, variance
}

// blockedExact computes blockedMoments and counts the writes it followed.
func blockedExact(m, n uint64, k int) (mean, variance float64, writes int) {
	if m < BlockSize {
		return RateExact(m, n, k), 0, 0
	}
	if n == 0 || k <= 0 {
		return 0, 0, 0
	}
	lambda := float64(n) / float64(m/BlockSize)
	if lo, _ := poissonWindow(lambda); lo > 0 && func() float64 { r, _ := blockedMixture(m, n, k); return r }() >= saturated {
		// The exact rate lies between the cheap one and 1 (Jensen), so a
		// saturated cheap rate settles it without following 20,000 writes.
		return 1, 0, 0
	}
	_, hi := poissonWindow(lambda)
	weights := newPoissonWeights(lambda, 0)
	// occ[s] is the probability that s of the block's bits are set.
	occ := make([]float64, BlockSize+1)
	occ[0] = 1
	hit := make([]float64, BlockSize+1) // (s/512)^k
	for s := range hit {
		hit[s] = math.Pow(float64(s)/BlockSize, float64(k))
	}
	// The occupancy evolves one write at a time, so the sum starts at load
	// 0; it stops where a block's rate saturates (see blockedMixture), which
	// bounds the work at about 21,000 writes whatever n is. Only the states
	// [lo, top] carry probability above 1e-30 (a block's fill is
	// concentrated, a few dozen states wide), and the rest are dropped: a
	// fraction of the work for an error far below 10^-12.
	const negligible = 1e-30
	lo, top := 0, 0
	rate, square, mass := 0.0, 0.0, 0.0
	for j := 0; j <= hi; j++ {
		if j > 0 {
			writes += k
			for w := 0; w < k; w++ {
				top = min(top+1, BlockSize)
				for s := top; s > lo; s-- {
					occ[s] = occ[s]*float64(s)/BlockSize + occ[s-1]*float64(BlockSize-s+1)/BlockSize
				}
				occ[lo] *= float64(lo) / BlockSize
				for lo < top && occ[lo] < negligible {
					occ[lo] = 0
					lo++
				}
				for top > lo && occ[top] < negligible {
					occ[top] = 0
					top--
				}
			}
		}
		first, second := 0.0, 0.0
		for s := lo; s <= top; s++ {
			p := occ[s]
			first += p * hit[s]
			second += p * hit[s] * hit[s]
		}
		if first >= saturated {
			rest := max(0, 1-mass)
			rate, square, mass = rate+rest, square+rest, max(mass, 1)
			break
		}
		pj := weights.next()
		mass += pj
		rate += pj * first
		square += pj * second
	}
	mean = clamp01(rate / mass)
	return mean, max(0, square/mass-mean*mean), writes
}

// cheapestBlocked is the fewest whole blocks whose exact rate at its best
// k reaches p, found by bisection: the best rate falls as blocks are added.
func cheapestBlocked(n uint64, p float64) Sizing {
	reaches := func(b uint64) bool {
		m := b * BlockSize
		return BlockedRateExact(m, n, BlockedBestK(m, n)) <= p
	}
	lo, hi := uint64(1), max(1, satMul(BitsPerKeyAtMaxK, n)/BlockSize)
	if !reaches(hi) {
		return notWithin()
	}
	for lo < hi {
		mid := lo + (hi-lo)/2
		if reaches(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	m := hi * BlockSize
	k := BlockedBestK(m, n)
	return Sizing{Spec: Spec{M: m, K: k, N: n}, Settings: fmt.Sprintf("k = %d, %s blocks", k, FormatCount(hi)),
		Bits: m, Rate: BlockedRateExact(m, n, k), Reaches: true}
}

// BlockedBestK is the k whose exact blocked rate (BlockedRateExact) is
// lowest at m bits for n keys: the rate is unimodal in k and its optimum
// sits at or a little below the standard filter's, so the walk starts there.
func BlockedBestK(m, n uint64) int {
	k := OptimalK(m, n)
	best := BlockedRateExact(m, n, k)
	for _, step := range []int{-1, 1} {
		for next := k + step; next >= 1 && next <= MaxK; next += step {
			r := BlockedRateExact(m, n, next)
			if r >= best {
				break
			}
			k, best = next, r
		}
	}
	return k
}
