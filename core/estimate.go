package core

import (
	"errors"
	"fmt"
	"math"
)

// Estimate is how many distinct keys a filter holds: N, with its standard
// deviation SD, or, where the layout counts its keys itself (KeyCounter),
// that count with Counted set and SD 0.
type Estimate struct {
	N, SD   float64
	Counted bool
}

// ErrFull is EstimateKeys' answer for a filter whose every position is
// set: any number of keys past the point of filling it could be behind it.
var ErrFull = errors.New("core: every position is set, so the filter's keys cannot be estimated")

// ErrNoEstimate is EstimateKeys' answer for a filter that neither counts
// its keys nor sets positions a count can be read from.
var ErrNoEstimate = errors.New("core: cannot estimate this filter's keys")

// EstimateKeys estimates the distinct keys in f from its x nonzero
// positions of m (Swamidass and Baldi, "Mathematical correction for
// fingerprint similarity measures to improve chemical retrieval", 2007):
// each key sets k positions, so a position is still zero after n keys with
// chance e^(-kn/m), and x/m = 1 - e^(-kn/m) solved for n is
//
//	n̂ = -(m/k) ln(1 - x/m)
//
// Its uncertainty is the delta method's: with c = kn/m, the zero positions
// of m after kn probes have variance m e^(-c) (1 - (1 + c) e^(-c)) (the
// occupancy variance for m large), and dn̂/dx = m / (k (m - x)) =
// e^c / k, so
//
//	sd(n̂) = (sqrt(m) / k) sqrt(e^c - 1 - c),  e^c = m / (m - x)
//
// the variance of linear counting (Whang, Vander-Zanden and Taylor, 1990)
// divided by k². The true n is within 3 sd of n̂ but about three times in a
// thousand. The blocked filter has its own form of both (blockedEstimate).
// A layout that counts its keys (a cuckoo filter its fingerprints) gives
// that count. The estimate is undefined, and ErrFull returned, when every
// position is set.
func EstimateKeys(f Membership) (Estimate, error) {
	if c, ok := f.(KeyCounter); ok {
		return Estimate{N: float64(c.Keys()), Counted: true}, nil
	}
	s, ok := f.(Shaped)
	if !ok {
		return Estimate{}, ErrNoEstimate
	}
	return s.Shape().Variant.EstimateFrom(f.M(), f.K(), f.SetBits())
}

// EstimateFrom is EstimateKeys from the counts alone: the keys behind x
// nonzero positions of m in a filter of layout v whose keys set k each.
// It serves a view that holds a filter's counts and not the filter (the
// lab's, kept on its worker for a large run), and a chart of the
// estimate's spread at every fill. ErrNoEstimate for a layout whose
// nonzero positions tell no count (a cuckoo filter counts its keys
// instead, which only the filter knows); ErrFull for x >= m.
func (v Variant) EstimateFrom(m uint64, k int, x uint64) (Estimate, error) {
	if v.IsZero() || v.record().estimate == nil {
		return Estimate{}, ErrNoEstimate
	}
	if x >= m {
		return Estimate{}, fmt.Errorf("%w (%d of %d)", ErrFull, x, m)
	}
	n, sd := v.record().estimate(m, k, x)
	return Estimate{N: n, SD: sd}, nil
}

// Estimates reports whether the keys of a filter of layout v are
// estimated from its nonzero positions (EstimateFrom).
func (v Variant) Estimates() bool { return v.record().estimate != nil }

// bloomEstimate is EstimateKeys' formula for the layouts whose k probes
// fall anywhere in m positions.
func bloomEstimate(m uint64, k int, x uint64) (n, sd float64) {
	mf, kf := float64(m), float64(k)
	c := -math.Log1p(-float64(x) / mf)
	// e^c - 1 = x/(m-x), exact in the counts.
	return mf / kf * c, math.Sqrt(mf) / kf * math.Sqrt(max(float64(x)/float64(m-x)-c, 0))
}

// EstimateUnion estimates the distinct keys of a and b together from
// their union, by EstimateKeys.
func EstimateUnion(a, b Membership) (Estimate, error) {
	u, err := Union(a, b)
	if err != nil {
		return Estimate{}, err
	}
	return EstimateKeys(u.Filter)
}

// EstimateIntersection estimates the keys a and b share by inclusion and
// exclusion, n̂(A) + n̂(B) - n̂(A ∪ B), never below 0; not from the AND of
// the two, whose bits include those set by a key of each side alone
// (IntersectionFill). Its SD is the sum of the three SDs, a bound that
// holds however the three estimates are correlated (the SD of a sum is at
// most the sum of the SDs).
func EstimateIntersection(a, b Membership) (Estimate, error) {
	ea, err := EstimateKeys(a)
	if err != nil {
		return Estimate{}, err
	}
	eb, err := EstimateKeys(b)
	if err != nil {
		return Estimate{}, err
	}
	eu, err := EstimateUnion(a, b)
	if err != nil {
		return Estimate{}, err
	}
	return Estimate{N: max(ea.N+eb.N-eu.N, 0), SD: ea.SD + eb.SD + eu.SD}, nil
}
