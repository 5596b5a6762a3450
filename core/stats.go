package core

import "math"

// Z95 and Z999 are the two-sided normal quantiles for 95% and 99.9%.
const (
	Z95  = 1.959963984540054
	Z999 = 3.290526731491926
)

// Wilson returns the Wilson score interval for x successes in n trials at
// normal quantile z (Wilson, 1927). Unlike the normal interval it stays in
// [0, 1] and is honest at x = 0, which matters for small rates. For n = 0 it
// returns [0, 1].
func Wilson(x, n uint64, z float64) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	nf := float64(n)
	p := float64(x) / nf
	z2 := z * z
	centre := (p + z2/(2*nf)) / (1 + z2/nf)
	half := z / (1 + z2/nf) * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	lo, hi = clamp01(centre-half), clamp01(centre+half)
	if x == 0 {
		lo = 0 // exact: rounding must not lift the bound off zero
	}
	if x == n {
		hi = 1
	}
	return lo, hi
}

// ChiSquare returns Pearson's statistic for counts against a uniform
// expectation, and its degrees of freedom, len(counts) - 1. A uniform hash
// gives a statistic near its degrees of freedom.
func ChiSquare(counts []uint64) (stat float64, dof int) {
	if len(counts) < 2 {
		return 0, 0
	}
	total := uint64(0)
	for _, c := range counts {
		total += c
	}
	if total == 0 {
		return 0, len(counts) - 1
	}
	want := float64(total) / float64(len(counts))
	for _, c := range counts {
		d := float64(c) - want
		stat += d * d / want
	}
	return stat, len(counts) - 1
}

// ChiSquareBound returns a one-sided upper bound for a chi-square statistic
// with dof degrees of freedom at normal quantile z, by the Wilson-Hilferty
// cube-root approximation (1931).
func ChiSquareBound(dof int, z float64) float64 {
	d := float64(dof)
	c := 2 / (9 * d)
	t := 1 - c + z*math.Sqrt(c)
	return d * t * t * t
}
