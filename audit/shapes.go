package audit

import (
	"errors"
	"fmt"
	"math/bits"
	"strconv"

	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"
)

// shape is one filter configuration a check builds. It is a sim.Params, so
// m and k come from the same rules as in the lab (Params.Shape: k = 0 means
// the k the lab would choose under the fault, round((m/n) ln 2) for other
// targets). An empty Variant means the target's own filter; a named one is
// that layout of the lab's, which only the lab's targets have.
type shape sim.Params

// standard returns the shape of the target's own filter with m positions
// (or bits per key times n when m is 0), k hashes (0 for the target's
// choice), n keys, one pass, seed 1 and 16-byte keys.
func standard(m uint64, bitsPerKey float64, k, n int) shape {
	return shape{M: m, BitsPerKey: bitsPerKey, Hashes: k, Items: n,
		DuplicatePasses: 1, Seed: 1, KeyBytes: 16}
}

// needs is what building the shape asks of a target: a layout of the
// lab's own needs the lab.
func (s shape) needs() []Need {
	if !s.Variant.IsZero() {
		return []Need{NeedLab, layoutNeed(s.Variant)}
	}
	return nil
}

// needsAs is what building the shape asks of a target, and own besides
// when the shape is the target's own filter: a check of a named layout
// of the lab's knows what that layout is.
func (s shape) needsAs(own ...Need) []Need {
	if !s.Variant.IsZero() {
		return s.needs()
	}
	return own
}

// dims returns m and k of shape s for target t.
func (t Target) dims(s shape) (uint64, int) {
	if t.lab != nil {
		return s.dims(t.lab)
	}
	p := sim.Params(s)
	p.Variant, p.Fault = core.Standard, core.NoFault
	return p.Shape()
}

// build returns the empty filter of shape s from target t, or from the
// lab's layout the shape names.
func (t Target) build(s shape) (Filter, error) {
	if !s.Variant.IsZero() {
		if t.lab == nil {
			return nil, fmt.Errorf("the %s layout is the lab's own, and %s is not the lab", s.Variant, t.Name)
		}
		flt, err := s.build(t.lab)
		if err != nil {
			return nil, err
		}
		return labFilter(flt, labSystemViews{}), nil
	}
	m, k := t.dims(s)
	flt, err := t.New(Shape{M: m, K: k, N: s.Items, Seed: t.seedOf(s.Seed)})
	if err == nil && flt == nil {
		err = fmt.Errorf("%s built a nil filter for m = %d, k = %d", t.Name, m, k)
	}
	if r := (Refusal{}); errors.As(err, &r) {
		panic(refused{fmt.Sprintf("%s refuses m = %d, k = %d, n = %d: %s", t.Name, m, k, s.Items, r.Reason)})
	}
	if u := (Unavailable{}); errors.As(err, &u) {
		panic(u)
	}
	return flt, err
}

// fill builds the filter of shape s and inserts the n members,
// DuplicatePasses times.
func (t Target) fill(s shape) (Filter, error) { return t.fillKeyed(s, s.Seed) }

// fillKeyed is fill with the filter keyed by seed instead of the shape's
// own, over the shape's members: a check of the seed changes nothing else.
func (t Target) fillKeyed(s shape, seed uint64) (Filter, error) {
	flt, err := t.build(s.seed(seed))
	if err != nil {
		return nil, err
	}
	s.insert(flt, s.DuplicatePasses)
	return flt, nil
}

// eachPosition calls fn with every position flt reports for the shape's
// members, key by key, each key's in probe order: flt is a target's
// Positioner or one of the lab's own filters.
func (s shape) eachPosition(flt interface {
	Positions(dst []uint64, key []byte) []uint64
}, fn func(j uint64)) {
	var key []byte
	var pos []uint64
	for i := 0; i < s.Items; i++ {
		key = s.key(key, i)
		pos = flt.Positions(pos, key)
		for _, j := range pos {
			fn(j)
		}
	}
}

// describe names shape s of target t in a detail line.
func (t Target) describe(s shape) string {
	if t.lab != nil {
		return s.describe(t.lab)
	}
	m, k := t.dims(s)
	return fmt.Sprintf("%s, m = %d, k = %d, n = %d, %s, seed %d", t.Name, m, k, s.Items,
		plural(uint64(s.DuplicatePasses), "pass", "passes"), s.Seed)
}

// variant is the lab's layout shape s has under lab target t, the zero Variant for
// other targets.
func (t Target) variant(s shape) core.Variant {
	if t.lab == nil {
		return core.Variant{}
	}
	return s.under(t.lab).Variant
}

// rate is target t's theory for shape s after its n keys.
func (t Target) rate(s shape) float64 {
	m, k := t.dims(s)
	if t.lab != nil && s.FingerprintBits != 0 {
		// Shape carries no width: the theory of a width the shape
		// names is read off a filter of that width.
		flt, err := s.build(t.lab)
		if err != nil {
			return 0
		}
		return s.under(t.lab).Variant.Theory(flt, uint64(s.Items)).Rate
	}
	if t.Rate != nil {
		return t.Rate(Shape{M: m, K: k, N: s.Items, Seed: s.Seed})
	}
	return core.RateExact(m, uint64(s.Items), k)
}

func (s shape) with(v core.Variant) shape    { s.Variant = v; return s }
func (s shape) width(bits int) shape         { s.FingerprintBits = bits; return s }
func (s shape) passes(p int) shape           { s.DuplicatePasses = p; return s }
func (s shape) seed(seed uint64) shape       { s.Seed = seed; return s }
func (s shape) keyBytes(b int) shape         { s.KeyBytes = b; return s }
func (s shape) under(f *labSetup) sim.Params { return withFault(sim.Params(s), f) }

// withFault sets lab target f's fault on p and the layout it lives in
// (f's own layout when p names none), which a simulation requires (the
// counter fault runs in the counting filter, the index and insert faults in
// the standard one), and f's hashing where the filter has it.
func withFault(p sim.Params, f *labSetup) sim.Params {
	if p.Variant.IsZero() {
		p.Variant = f.variant
	}
	p.Fault, p.Variant = f.Fault, p.Variant.Effective(f.Fault)
	p.Hashing = f.hashing(p.Variant)
	return p
}

// defaults is the lab's default simulation for lab target f: its own
// layout, fault and hashing.
func defaults(f *labSetup) sim.Params {
	p := sim.Defaults()
	p.Variant = core.Variant{}
	return withFault(p, f)
}

// dims returns m and k under fault f.
func (s shape) dims(f *labSetup) (uint64, int) { return s.under(f).Shape() }

// describe names the shape under fault f in a detail line.
func (s shape) describe(f *labSetup) string {
	m, k := s.dims(f)
	pass := "passes"
	if s.DuplicatePasses == 1 {
		pass = "pass"
	}
	v := s.under(f).Variant
	hashing := ""
	if h := f.hashing(v); h != core.DoubleHashing {
		hashing = ", " + string(h) + " hashing"
	}
	dims := fmt.Sprintf("m = %d, k = %d", m, k)
	switch {
	case !v.UsesM():
		dims = "sized by n"
	case !v.UsesK():
		dims = fmt.Sprintf("%d bits", m)
	}
	if s.FingerprintBits != 0 {
		dims += fmt.Sprintf(", %d-bit fingerprints", s.FingerprintBits)
	}
	return fmt.Sprintf("%s, %s, n = %d, %d %s, seed %d%s", v, dims, s.Items, s.DuplicatePasses, pass, s.Seed, hashing)
}

// key returns member i of the shape's key set.
func (s shape) key(dst []byte, i int) []byte {
	return core.Key(dst, core.Members, uint64(i), s.Seed, s.KeyBytes)
}

// absent returns absent query i, from a namespace disjoint from the members.
func (s shape) absent(dst []byte, i int) []byte {
	return core.Key(dst, core.Absent, uint64(i), s.Seed, s.KeyBytes)
}

// build returns the empty filter of the shape under fault f.
func (s shape) build(f *labSetup) (core.Membership, error) {
	m, k := s.dims(f)
	v := s.under(f).Variant
	return v.Build(core.Spec{M: m, K: k, N: uint64(s.Items), FingerprintBits: s.FingerprintBits, Seed: s.Seed, Fault: f.Fault, Hashing: f.hashing(v)})
}

// fill builds the filter and inserts the n members, DuplicatePasses times,
// then builds a static filter from them, as the simulation does.
func (s shape) fill(f *labSetup) (core.Membership, error) { return s.fillKeyed(f, s.Seed) }

// fillKeyed is fill with the filter keyed by seed instead of the shape's
// own, over the shape's members.
func (s shape) fillKeyed(f *labSetup, seed uint64) (core.Membership, error) {
	flt, err := s.seed(seed).build(f)
	if err != nil {
		return nil, err
	}
	s.insert(flt, s.DuplicatePasses)
	if st, ok := flt.(core.Sealer); ok {
		if err := st.Seal(); err != nil {
			return nil, err
		}
	}
	return flt, nil
}

// insert adds the n members to flt, passes times over.
func (s shape) insert(flt interface{ Add([]byte) }, passes int) {
	var key []byte
	for p := 0; p < passes; p++ {
		for i := 0; i < s.Items; i++ {
			key = s.key(key, i)
			flt.Add(key)
		}
	}
}

// counter is the counting filter's extra view of its positions.
type counter interface {
	Counter(i uint64) uint8
	MaxCounter() uint8
	Overflows() uint64
	Remove(key []byte) bool
}

// bitset is a set of positions below m.
type bitset []uint64

func newBitset(m uint64) bitset    { return make(bitset, (m+63)/64) }
func (b bitset) add(i uint64)      { b[i>>6] |= 1 << (i & 63) }
func (b bitset) has(i uint64) bool { return b[i>>6]&(1<<(i&63)) != 0 }
func (b bitset) count() (n uint64) {
	for _, w := range b {
		n += uint64(bits.OnesCount64(w))
	}
	return n
}

// nonzero returns the set of positions of flt that are nonzero: the bits of
// a standard or blocked filter, the live counters of a counting filter.
func nonzero(flt core.Membership) bitset {
	b := newBitset(flt.M())
	for i := uint64(0); i < flt.M(); i++ {
		if flt.IsSet(i) {
			b.add(i)
		}
	}
	return b
}

// equalWords reports whether two word slices are the same, and the first
// word that differs.
func equalWords(a, b []uint64) (bool, int) {
	if len(a) != len(b) {
		return false, min(len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			return false, i
		}
	}
	return true, -1
}

// hamming counts the bits in which two equal-length word slices differ.
func hamming(a, b []uint64) uint64 {
	n := uint64(0)
	for i := range min(len(a), len(b)) {
		n += uint64(bits.OnesCount64(a[i] ^ b[i]))
	}
	return n
}

// plural returns "1 key" or "2 keys".
func plural(n uint64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func popcount64(x uint64) int { return bits.OnesCount64(x) }
func itoa(x uint64) string    { return strconv.FormatUint(x, 10) }
