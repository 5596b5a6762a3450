package core

import "math"

// A measured rate varies for two reasons: the queries are a sample (the
// binomial noise a Wilson interval counts), and the filter itself is one
// draw of many: its keys set a random number S of its m bits, and its own
// rate is (S/m)^k, above or below the formula's. Over the seed 001 grid
// (k in {2, 4, 6, 8}, 4 to 20 bits per key) an interval of the queries'
// noise alone misses the theory value about twice as often as it says.
// FilterSpread gives the filter's part, so an interval can cover both.

// spreadDPBudget bounds the exact computation: m states for each of kn
// writes, about a millisecond. Past it the delta method is within 0.01% of
// the exact mean and 1.5% of the exact variance (m = 1000, k = 7, 10 bits
// per key, where the budget falls), and closer as m grows.
const spreadDPBudget = 1_000_000

// FilterSpread returns the mean and the variance, over filters of m bits
// holding n keys with k independent uniform positions each, of a filter's
// rate (S/m)^k. The mean is the rate a learner should expect from one
// filter: above RateExact = (E S/m)^k by Jensen's inequality, 1.7 times it
// for one key in 10 bits with k = 7, and indistinguishable from it in
// large filters. Small shapes are computed exactly from the distribution
// of S (one write at a time); large ones from the mean and variance of S
// (the occupancy moments) by the delta method.
func FilterSpread(m, n uint64, k int) (mean, variance float64) {
	if m == 0 {
		return 1, 0
	}
	if n == 0 || k <= 0 {
		return 0, 0
	}
	writes := float64(n) * float64(k)
	if float64(m)*writes <= spreadDPBudget {
		return spreadExact(int(m), int(writes), k)
	}
	return approxSpread(m, n, k)
}

// approxSpread is FilterSpread from the occupancy moments by the delta
// method.
func approxSpread(m, n uint64, k int) (mean, variance float64) {
	mf, wf := float64(m), float64(n)*float64(k)
	// E S and Var S after w writes into m cells.
	q1 := math.Exp(wf * math.Log1p(-1/mf))
	q2 := math.Exp(wf * math.Log1p(-2/mf))
	es := mf * (1 - q1)
	vs := max(0, mf*(mf-1)*q2+mf*q1-mf*mf*q1*q1)
	f := es / mf
	kf := float64(k)
	// (S/m)^k around f: first and second derivatives k f^(k-1), k(k-1) f^(k-2).
	vf := vs / (mf * mf)
	mean = math.Pow(f, kf) + 0.5*kf*(kf-1)*math.Pow(f, kf-2)*vf
	d := kf * math.Pow(f, kf-1)
	return clamp01(mean), d * d * vf
}

// spreadExact follows the distribution of S write by write.
func spreadExact(m, writes, k int) (mean, variance float64) {
	occ := make([]float64, m+1)
	occ[0] = 1
	top := 0 // occ[s] is zero above top
	mf := float64(m)
	for w := 0; w < writes; w++ {
		if top < m {
			top++
		}
		for s := top; s > 0; s-- {
			occ[s] = occ[s]*float64(s)/mf + occ[s-1]*float64(m-s+1)/mf
		}
		occ[0] = 0
	}
	second := 0.0
	for s := 0; s <= top; s++ {
		r := math.Pow(float64(s)/mf, float64(k))
		mean += occ[s] * r
		second += occ[s] * r * r
	}
	return clamp01(mean), max(0, second-mean*mean)
}

// RateVariance returns the variance, over filters of Bloom layout v with
// m positions, n keys and k probes, of a filter's own rate (see
// Variant.Theory); 0 for a layout the Bloom formulas do not describe.
func RateVariance(v Variant, m, n uint64, k int) float64 {
	if v.record().moments == nil {
		return 0
	}
	_, variance := v.record().moments(m, n, k)
	return variance
}

// bloomMoments is the theory of the standard and counting filters:
// RateExact, and FilterSpread's variance of a filter's own rate.
func bloomMoments(m, n uint64, k int) (rate, variance float64) {
	_, variance = FilterSpread(m, n, k)
	return RateExact(m, n, k), variance
}

// WholeInterval returns the 95% interval of a measured rate, fp false
// positives in queries absent queries of one filter of layout v, for the
// measurement as a whole: the queries' Wilson interval widened on each
// side, in quadrature, by the filter's own spread (RateVariance). It is the
// interval to judge a theory value by.
func WholeInterval(v Variant, m, n uint64, k int, fp, queries uint64) (lo, hi float64) {
	return Widen(fp, queries, RateVariance(v, m, n, k))
}

// Widen is WholeInterval for a filter whose rate varies by variance: a
// layout's own Theory.Variance where the Bloom formulas do not hold.
func Widen(fp, queries uint64, variance float64) (lo, hi float64) {
	lo, hi = Wilson(fp, queries, Z95)
	if queries == 0 {
		return lo, hi
	}
	x := float64(fp) / float64(queries)
	s := Z95 * math.Sqrt(variance)
	return clamp01(x - math.Hypot(x-lo, s)), clamp01(x + math.Hypot(hi-x, s))
}
