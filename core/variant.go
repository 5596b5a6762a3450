package core

import "fmt"

// Variant names a filter layout.
type Variant string

const (
	Standard        Variant = "standard" // m bits, k probes anywhere
	BlockedVariant  Variant = "blocked"  // all k probes inside one 512-bit block
	CountingVariant Variant = "counting" // 4-bit counters with removal
)

// Variants lists the layouts in a stable order.
var Variants = []Variant{Standard, BlockedVariant, CountingVariant}

// ParseVariant accepts a variant name; "" means standard.
func ParseVariant(s string) (Variant, error) {
	switch Variant(s) {
	case "", Standard:
		return Standard, nil
	case BlockedVariant, CountingVariant:
		return Variant(s), nil
	}
	return "", fmt.Errorf("core: unknown variant %q, want standard, blocked or counting", s)
}

// Effective is the variant a filter with fault f really has: the counter
// fault lives in the counting filter, the index and insert faults in the
// standard one, and k-ceil in any.
func (v Variant) Effective(f Fault) Variant {
	switch f {
	case NoFault, KFromCeil:
		return v
	case WrapCounters:
		return CountingVariant
	}
	return Standard
}

// Accepts reports whether fault f exists in layout v, and if not, which
// layout it lives in: a simulation refuses the pair rather than run another
// filter than the one asked for.
func (v Variant) Accepts(f Fault) error {
	if e := v.Effective(f); e != v {
		return fmt.Errorf("core: the %s fault lives in the %s filter and has no %s form; use the %s variant or another fault", f, e, v, e)
	}
	return nil
}

// New returns an empty filter of variant v (see Effective) with fault f, m
// positions and k probes, keyed by seed, with double hashing.
func New(v Variant, f Fault, m uint64, k int, seed uint64) (Membership, error) {
	return NewHashed(v, f, DoubleHashing, m, k, seed)
}

// HashedBy reports whether filters of layout v with fault f can find their
// positions by scheme h: the blocked filter draws its in-block positions
// from a stream of its own, and the faults that break indexing break
// double hashing, so for those only the default scheme exists.
func (v Variant) HashedBy(f Fault, h Hashing) error {
	if h == DoubleHashing || h == "" {
		return nil
	}
	if v.Effective(f) == BlockedVariant {
		return fmt.Errorf("core: the blocked filter draws its positions inside one block from a stream of its own; %s hashing applies to the standard and counting filters", h)
	}
	if f != NoFault && f != KFromCeil && f != WrapCounters {
		return fmt.Errorf("core: the %s fault breaks double hashing itself, so it runs only with double hashing", f)
	}
	return nil
}

// NewHashed is New with positions found by scheme h (see HashedBy).
func NewHashed(v Variant, f Fault, h Hashing, m uint64, k int, seed uint64) (Membership, error) {
	if h == "" {
		h = DoubleHashing
	}
	if err := v.HashedBy(f, h); err != nil {
		return nil, err
	}
	switch v.Effective(f) {
	case BlockedVariant:
		return NewBlocked(m, k, seed)
	case CountingVariant:
		c, err := NewCounting(m, k, seed)
		if err == nil {
			c.wrap, c.hashing = f == WrapCounters, h
		}
		return c, err
	}
	if f == NoFault || f == KFromCeil {
		return NewFilterHashed(h, m, k, seed)
	}
	return NewBroken(f, m, k, seed)
}
