package core

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"
)

// Shape is what decides where a filter puts a key: its layout, m, k, the
// hashing scheme and the seed. Two filters of one Shape set the same
// positions for the same key, which is what a merge needs and what a file
// must carry for a filter to answer the same after it is read back.
type Shape struct {
	Variant Variant
	M       uint64
	K       int
	Hashing Hashing
	Seed    uint64
}

// Errors of a merge, for errors.Is: ErrIncompatible when the two filters
// differ in Shape (the message names every field that differs),
// ErrCannotMerge when the layout has no merge.
var (
	ErrIncompatible = errors.New("core: cannot merge")
	ErrCannotMerge  = errors.New("core: the layout cannot merge")
)

// Differences lists the fields where s and o differ, each with both
// values: "seeds differ (7 and 8)". It is empty for one Shape.
func (s Shape) Differences(o Shape) []string {
	var d []string
	if s.Variant != o.Variant {
		d = append(d, fmt.Sprintf("layouts differ (%s and %s)", s.Variant, o.Variant))
	}
	if s.M != o.M {
		d = append(d, fmt.Sprintf("m differs (%d and %d)", s.M, o.M))
	}
	if s.K != o.K {
		d = append(d, fmt.Sprintf("k differs (%d and %d)", s.K, o.K))
	}
	if s.Hashing != o.Hashing {
		d = append(d, fmt.Sprintf("hashings differ (%s and %s)", s.Hashing, o.Hashing))
	}
	if s.Seed != o.Seed {
		d = append(d, fmt.Sprintf("seeds differ (%d and %d)", s.Seed, o.Seed))
	}
	return d
}

// Compatible is nil when s and o are one Shape, and otherwise an
// ErrIncompatible that names what differs: "core: cannot merge: seeds
// differ (7 and 8)".
func (s Shape) Compatible(o Shape) error {
	if d := s.Differences(o); len(d) > 0 {
		return fmt.Errorf("%w: %s", ErrIncompatible, strings.Join(d, "; "))
	}
	return nil
}

// partner is other as a filter of a's own type and Shape, for a layout's
// Merge: ErrIncompatible when it is not.
func partner[T interface {
	Membership
	Shaped
}](a T, other Membership) (T, error) {
	o, ok := other.(T)
	if !ok {
		want := a.Shape().Variant
		if s, ok := other.(Shaped); ok && s.Shape().Variant != want {
			return o, a.Shape().Compatible(s.Shape())
		}
		return o, fmt.Errorf("%w: a %s filter and a filter of another kind", ErrIncompatible, want)
	}
	return o, a.Shape().Compatible(o.Shape())
}

// cannotMerge is a layout's refusal, for the Merge of a layout without one.
func cannotMerge(v Variant, why string) error {
	return fmt.Errorf("%w: %s filters cannot merge: %s", ErrCannotMerge, v, why)
}

// Merged is a union or intersection: the new filter and the positions that
// reached their largest value on the way (a counting filter's counters
// whose sum passed CounterMax and were kept at it; 0 for bits).
type Merged struct {
	Filter    Membership
	Saturated uint64
}

// Union returns a new filter holding the keys of a and b, which must be
// of one Shape (ErrIncompatible names what differs) and of a layout that
// merges (ErrCannotMerge says why not). Neither a nor b changes. For the
// standard and blocked filters it is the OR of the bits, the very filter
// built from both key sets; for the counting filter the sum of the
// counters, saturated at CounterMax.
func Union(a, b Membership) (Merged, error) { return merge(a, b, false) }

// UnionIsWhole reports whether filters of layout v built with fault from
// parts of a key set and merged by Union are, position for position, the
// filter built from the whole set: the standard and blocked filters' OR;
// the counting filter's sum, which saturates at CounterMax as Add does, so
// that min(a, 15) + min(b, 15) kept at 15 is min(a + b, 15), the counters
// and the increments lost alike. A fault breaks it (a counter that wraps
// forgets what a sum keeps), except KFromCeil, which only chooses k.
func (v Variant) UnionIsWhole(fault Fault) bool {
	return v.record().unionWhole && (fault == NoFault || fault == KFromCeil)
}

// Intersect returns a new filter answering yes for every key of both a
// and b, as Union, with the AND of the bits (the smaller counter for the
// counting filter). It answers yes more often than the filter built from
// the keys the two share: a bit set in both by keys of each alone is set
// in the AND, not in that filter (IntersectionFill has the figure).
func Intersect(a, b Membership) (Merged, error) { return merge(a, b, true) }

func merge(a, b Membership, intersect bool) (Merged, error) {
	m, ok := a.(Merger)
	if !ok {
		return Merged{}, fmt.Errorf("%w: this filter has no merge", ErrCannotMerge)
	}
	f, saturated, err := m.Merge(b, intersect)
	return Merged{Filter: f, Saturated: saturated}, err
}

// IntersectionFill is the share of bits set in the AND of two standard
// filters of m bits and k hashes holding na and nb keys, nboth of them in
// both, and in the filter built from the nboth keys alone (Broder and
// Mitzenmacher, "Network Applications of Bloom Filters", 2004, section
// 2.2). It panics if nboth exceeds na or nb. With q(x) = (1 - 1/m)^(kx), the chance a bit is still zero after x
// keys:
//
//	and  = 1 - q(na) - q(nb) + q(na + nb - nboth)
//	own  = 1 - q(nboth)
//	and - own = q(nboth) (1 - q(na - nboth)) (1 - q(nb - nboth))
//
// the bits no shared key set but a key of each side alone did. The rates
// are and^k and own^k: the AND answers yes at least as often as the
// filter of the intersection, by that excess in every one of its k probes.
func IntersectionFill(m uint64, k int, na, nb, nboth uint64) (and, own float64) {
	if nboth > na || nboth > nb {
		panic(fmt.Sprintf("core: the keys in both (%d) cannot outnumber either side (%d and %d)", nboth, na, nb))
	}
	own = Fill(m, nboth, k)
	return own + (1-own)*Fill(m, na-nboth, k)*Fill(m, nb-nboth, k), own
}

// mergeBits is the OR (or AND) of two bit arrays of one length, in a new
// array, and its set bits, counted as each word is written rather than
// in a second pass over an array that no longer fits a cache.
func mergeBits(a, b []uint64, intersect bool) ([]uint64, uint64) {
	out := make([]uint64, len(a))
	b = b[:len(a)]
	set := 0
	if intersect {
		for i := range out {
			out[i] = a[i] & b[i]
			set += bits.OnesCount64(out[i])
		}
	} else {
		for i := range out {
			out[i] = a[i] | b[i]
			set += bits.OnesCount64(out[i])
		}
	}
	return out, uint64(set)
}

// mergedInserted is the Add calls a merged filter counts: the sum for a
// union; for an intersection, the smaller count, the most keys the two
// can share.
func mergedInserted(a, b uint64, intersect bool) uint64 {
	if intersect {
		return min(a, b)
	}
	return a + b
}
