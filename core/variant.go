package core

import (
	"fmt"
	"slices"
	"strings"
)

// Variant is one filter layout of the lab's registry. It is parsed once, at
// the edge (a flag, a link, JSON), into a handle on its record, so the
// layers above ask the record what the layout is instead of switching on
// its name. Variants compare with ==. The zero Variant names no layout:
// core reads it as the standard filter, and the audit as "the target's
// own".
type Variant struct{ kind *kind }

// kind is a variant's record: everything the product knows about one
// layout, in one place.
type kind struct {
	name  string
	label string // the lab's name for it
	unit  string // what one position is: bit, counter, slot, cell
	about string // one line: what it is and whose it is

	// deletes: the filter removes keys (Remover). static: it is built
	// once from the whole key set (Sealer). usesK: the hashes control
	// means something. hashings: positions can come from another
	// Hashing than double hashing.
	deletes, static, usesK, hashings bool

	// ownSize: the layout sizes itself from n, so m (bits per key) means
	// nothing to it. bounded: it holds a fixed number of entries, keeps
	// every copy of a key, and places them by the order keys came in, so
	// an insert can fail.
	ownSize, bounded bool

	// chain: the layout is a chain of Bloom filters, each link described
	// by the Bloom formulas for the keys it holds, so its positions are
	// bits that keys set, as in the Bloom layouts. slots: each position
	// holds one key's fingerprint, so only keys of that fingerprint are
	// behind it (a cuckoo filter's slots).
	chain, slots bool

	// terms is what the lab calls the layout's positions and says of them.
	terms Terms

	// positions says, for a layout without hashings, how it finds a
	// key's positions instead; places, for one k does not apply to, where
	// a key goes; sizes, for one that sizes itself, how; formula, its
	// theory rate's formula in words.
	positions, places, sizes, formula string

	// faults lists the zoo's faults this layout has; a fault it lacks
	// lives in the first registered layout that has it.
	faults []Fault

	// fingerprints lists the fingerprint widths allowed; nil for a
	// layout without fingerprints. A width of 0 asks build to choose,
	// and width, where the choice depends on the shape, says what it
	// chooses for m and n.
	fingerprints []int
	width        func(m, n uint64) int

	// build returns an empty filter of spec s.
	build func(s Spec) (Membership, error)

	// memoryBits is the storage of filter f in bits.
	memoryBits func(f Membership) uint64

	// moments, for the layouts the Bloom formulas of m, n and k describe,
	// is the layout's rate and the variance of a filter's own rate over
	// filters of its shape. theory, for the others, is the layout's own
	// theory for filter f holding n keys.
	moments func(m, n uint64, k int) (rate, variance float64)
	theory  func(f Membership, n uint64) Theory

	// file, for a layout that can be saved, is its code in a file and how
	// its storage is read back (file.go, FORMAT.md).
	file *fileLayout

	// estimate, for a layout whose nonzero positions tell how many keys
	// set them, is that count's estimate and standard deviation from x
	// nonzero positions of m, x < m (estimate.go).
	estimate func(m uint64, k int, x uint64) (n, sd float64)

	// unionWhole, for a layout whose Union of two filters of one Shape is,
	// position for position, the filter built from both key sets (bits
	// ORed, counters added), says so: such a filter can be built in parts
	// and merged (Variant.UnionIsWhole).
	unionWhole bool

	// rounds, for a layout that builds whole units (blocks, words), is
	// how many positions a filter built for m has; nil where it has m.
	rounds func(m uint64) uint64

	// cheapest sizes n keys at rate p by the layout's own theory (see
	// Variant.Cheapest); nil for a layout sized from its theory alone.
	cheapest func(n uint64, p float64) Sizing
}

// Spec is what a layout is built from: m positions or, for layouts with
// fingerprints, a memory budget of m bits; k probes where the layout uses
// them; n, the keys it is meant to hold; the fingerprint width (0 for the
// layout's choice); the seed; the fault (NoFault for the real filter); and
// the hashing scheme. Capacity, for the scalable filter, is its first
// link's capacity when it is not the n/8 it takes from n (the player's
// stops keep the design's).
type Spec struct {
	M               uint64
	K               int
	N               uint64
	Capacity        uint64
	FingerprintBits int
	Seed            uint64
	Fault           Fault
	Hashing         Hashing
}

// Theory is what a layout's theory says of one filled filter: its rate,
// the variance of a filter's own rate over filters of its shape (the
// spread the whole-measurement interval widens by), the positions expected
// nonzero and the positions an absent query is expected to read.
type Theory struct {
	Rate, Variance, ExpectedSet, ExpectedProbes float64
}

// Variants lists the registered layouts in the order the lab shows them.
var Variants = []Variant{Standard, BlockedVariant, CountingVariant, CuckooVariant, SemiSortedVariant, FuseVariant, RibbonVariant, RibbonWideVariant, ScalableVariant}

// ParseVariant accepts a variant name; "" means standard.
func ParseVariant(s string) (Variant, error) {
	if s == "" {
		return Standard, nil
	}
	for _, v := range Variants {
		if v.kind.name == s {
			return v, nil
		}
	}
	return Variant{}, fmt.Errorf("core: unknown variant %q, want %s", s, VariantNames())
}

// VariantNames lists the variant names for messages and help: "standard,
// blocked, ... or fuse".
func VariantNames() string {
	names := make([]string, len(Variants))
	for i, v := range Variants {
		names[i] = v.Name()
	}
	return joinList(names, "or")
}

// joinList joins words for a message: "a", "a or b", "a, b or c".
func joinList(words []string, conj string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " " + conj + " " + words[len(words)-1]
}

func (v Variant) record() *kind {
	if v.kind == nil {
		return Standard.kind
	}
	return v.kind
}

// IsZero reports whether v names no layout.
func (v Variant) IsZero() bool { return v.kind == nil }

func (v Variant) Name() string   { return v.record().name }
func (v Variant) String() string { return v.Name() }

// Label is the lab's name for the layout, About a line on it, and Unit
// what one of its positions is.
func (v Variant) Label() string { return v.record().label }
func (v Variant) About() string { return v.record().about }
func (v Variant) Unit() string  { return v.record().unit }

// Deletes reports whether the layout removes keys, Static whether it is
// built once from the whole key set, UsesK whether k means something to it,
// and Bloom whether the classic Bloom formulas describe it.
func (v Variant) Deletes() bool { return v.record().deletes }
func (v Variant) Static() bool  { return v.record().static }
func (v Variant) UsesK() bool   { return v.record().usesK }
func (v Variant) Bloom() bool   { return v.record().moments != nil }

// Chain reports whether the layout is a chain of Bloom filters (the
// scalable filter), and SetsBits whether its positions are bits or
// counters keys set, as in a Bloom layout or a chain of them.
func (v Variant) Chain() bool    { return v.record().chain }
func (v Variant) SetsBits() bool { return v.Bloom() || v.record().chain }

// Slots reports whether each position holds one key's fingerprint, so
// that only keys of that fingerprint are behind it.
func (v Variant) Slots() bool { return v.record().slots }

// Terms is what the lab calls the layout's positions and says of them.
func (v Variant) Terms() Terms { return v.record().terms }

// Bounded reports whether the layout holds a fixed number of entries, one
// for every copy of a key, so that inserts can fail.
func (v Variant) Bounded() bool { return v.record().bounded }

// UsesM reports whether m, the bits per key, sizes the layout; a layout
// that sizes itself from n ignores it.
func (v Variant) UsesM() bool { return !v.record().ownSize }

// Places says where a key goes in a layout k does not apply to, Sizes how
// a layout that ignores m sizes itself, and Formula its theory rate's
// formula, for the words the lab shows beside its controls.
func (v Variant) Places() string  { return v.record().places }
func (v Variant) Sizes() string   { return v.record().sizes }
func (v Variant) Formula() string { return v.record().formula }

// Hashings reports whether the layout's positions can come from another
// Hashing scheme than double hashing.
func (v Variant) Hashings() bool { return v.record().hashings }

// Fingerprints lists the fingerprint widths the layout allows, or nil.
func (v Variant) Fingerprints() []int { return v.record().fingerprints }

// MarshalText writes the name; UnmarshalText parses one, so JSON carries
// the name and rejects an unknown one where it is read.
func (v Variant) MarshalText() ([]byte, error) { return []byte(v.Name()), nil }

func (v *Variant) UnmarshalText(b []byte) (err error) {
	*v, err = ParseVariant(string(b))
	return err
}

// has reports whether fault f exists in layout v.
func (v Variant) has(f Fault) bool {
	return f == NoFault || slices.Contains(v.record().faults, f)
}

// Effective is the variant a filter with fault f really has: v if the
// fault exists in v, else the first layout that has it (the counter fault
// lives in the counting filter, the index and insert faults in the
// standard one).
func (v Variant) Effective(f Fault) Variant {
	if v.has(f) {
		return Variant{v.record()}
	}
	for _, l := range Variants {
		if l.has(f) {
			return l
		}
	}
	return Variant{v.record()}
}

// Accepts reports whether fault f exists in layout v, and if not, which
// layout it lives in: a simulation refuses the pair rather than run another
// filter than the one asked for.
func (v Variant) Accepts(f Fault) error {
	if e := v.Effective(f); e != v.Effective(NoFault) {
		return fmt.Errorf("core: the %s fault lives in the %s filter and has no %s form; use the %s variant or another fault", f, e, v, e)
	}
	return nil
}

// HashedBy reports whether filters of layout v with fault f can find their
// positions by scheme h: the layouts that draw their positions their own
// way (the blocked filter's in-block stream, fingerprints and buckets) have
// only their own scheme, and the faults that break indexing break double
// hashing, so for those only the default scheme exists.
func (v Variant) HashedBy(f Fault, h Hashing) error {
	if h == DoubleHashing || h == "" {
		return nil
	}
	if e := v.Effective(f); !e.record().hashings {
		var with []string
		for _, l := range Variants {
			if l.record().hashings {
				with = append(with, l.Name())
			}
		}
		return fmt.Errorf("core: the %s filter %s; %s hashing applies to the %s filters", e, e.record().positions, h, strings.Join(with, " and "))
	}
	if f != NoFault && f != KFromCeil && f != WrapCounters {
		return fmt.Errorf("core: the %s fault breaks double hashing itself, so it runs only with double hashing", f)
	}
	return nil
}

// Width is the fingerprint width layout v chooses for m and n when asked
// for none (0: a layout whose choice does not depend on them, or that has
// no fingerprints).
func (v Variant) Width(m, n uint64) int {
	if w := v.record().width; w != nil {
		return w(m, n)
	}
	return 0
}

// CheckFingerprintBits checks a fingerprint width for layout v: one it
// allows, or 0 for the layout's choice. A layout without fingerprints takes
// only 0.
func (v Variant) CheckFingerprintBits(bits int) error {
	allowed := v.Fingerprints()
	switch {
	case bits == 0 || slices.Contains(allowed, bits):
		return nil
	case allowed == nil:
		return fmt.Errorf("core: the %s filter has no fingerprints, so fingerprint bits must be 0, got %d", v, bits)
	}
	return fmt.Errorf("core: the %s filter's fingerprints are %s bits wide (or 0 for its choice), got %d", v, v.FingerprintWidths("or"), bits)
}

// FingerprintWidths writes the widths layout v allows for messages and
// help, a run of three or more as a range and the last two joined by conj:
// "8, 12 or 16", "1 to 32". It is "" for a layout without fingerprints.
func (v Variant) FingerprintWidths(conj string) string {
	return fingerprintWidths(v.Fingerprints(), conj)
}

// fingerprintWidths writes widths as FingerprintWidths does, for a
// layout's record that cannot name its own Variant.
func fingerprintWidths(widths []int, conj string) string {
	w := slices.Clone(widths)
	slices.Sort(w)
	var parts []string
	for i := 0; i < len(w); {
		j := i
		for j+1 < len(w) && w[j+1] == w[j]+1 {
			j++
		}
		if j-i >= 2 {
			parts = append(parts, fmt.Sprintf("%d to %d", w[i], w[j]))
		} else {
			for _, x := range w[i : j+1] {
				parts = append(parts, fmt.Sprint(x))
			}
		}
		i = j + 1
	}
	return joinList(parts, conj)
}

// Build returns an empty filter of layout v (see Effective) for spec s.
func (v Variant) Build(s Spec) (Membership, error) {
	s.Fault, s.Hashing = WithDefaults(s.Fault, s.Hashing)
	if err := v.HashedBy(s.Fault, s.Hashing); err != nil {
		return nil, err
	}
	e := v.Effective(s.Fault)
	if err := e.CheckFingerprintBits(s.FingerprintBits); err != nil {
		return nil, err
	}
	return e.record().build(s)
}

// WithDefaults reads an unset fault as no fault and an unset scheme as
// double hashing: the one place a build's defaults are set.
func WithDefaults(f Fault, h Hashing) (Fault, Hashing) {
	if f == "" {
		f = NoFault
	}
	if h == "" {
		h = DoubleHashing
	}
	return f, h
}

// BuiltM is how many positions a filter of layout v built for m has: m,
// or m rounded up to the layout's whole units (the blocked filter's 512-bit
// blocks), so a run can be matched to the settings that asked for it.
func (v Variant) BuiltM(m uint64) uint64 {
	if r := v.record().rounds; r != nil {
		return r(m)
	}
	return m
}

// MemoryBits is the storage of filter f of layout v in bits.
func (v Variant) MemoryBits(f Membership) uint64 { return v.record().memoryBits(f) }

// Theory is layout v's own theory for filter f holding n keys.
func (v Variant) Theory(f Membership, n uint64) Theory {
	r := v.record()
	if r.moments == nil {
		return r.theory(f, n)
	}
	m, k := f.M(), f.K()
	rate, variance := r.moments(m, n, k)
	return Theory{Rate: rate, Variance: variance, ExpectedSet: ExpectedSetBits(m, n, k),
		ExpectedProbes: ExpectedProbes(k, float64(f.SetBits())/float64(m))}
}

// New returns an empty filter of variant v (see Effective) with fault f, m
// positions and k probes, keyed by seed, with double hashing.
func New(v Variant, f Fault, m uint64, k int, seed uint64) (Membership, error) {
	return NewHashed(v, f, DoubleHashing, m, k, seed)
}

// NewHashed is New with positions found by scheme h (see HashedBy).
func NewHashed(v Variant, f Fault, h Hashing, m uint64, k int, seed uint64) (Membership, error) {
	return v.Build(Spec{M: m, K: k, Seed: seed, Fault: f, Hashing: h})
}
