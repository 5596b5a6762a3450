package sim

import "github.com/bloomlab/bloomlab/core"

// At is the filter of p as the lab's player stops on it: the same filter,
// with m, k, the fingerprint width and the first link's capacity of p's
// design, holding only p's first at members (at in [1, Items]; it is
// clamped there). Generated keys are
// numbered, so those are the first at keys Run(p) inserts, and
// Run(p.At(at)) measures the filter as it stood after them, with
// the same absent queries.
func (p Params) At(at int) Params {
	m, k := p.Shape()
	q := p
	q.M, q.Hashes, q.Items = m, k, min(max(at, 1), p.Items)
	if q.FingerprintBits == 0 {
		q.FingerprintBits = p.Variant.Effective(p.Fault).Width(m, uint64(p.Items))
	}
	if p.Variant.Chain() && q.Capacity == 0 {
		_, q.Capacity = core.ScalableShape(m, k, uint64(p.Items))
	}
	return q
}
