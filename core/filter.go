package core

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
)

// Limits on a filter's shape, checked by New and the constructors.
const (
	MaxK = 64      // hashes per key
	MaxM = 1 << 34 // bits (2 GiB of memory)
)

// Membership is what the lab asks of every filter variant: add and test,
// and the positions and storage the lab draws, digests and audits.
// Positions are the variant's unit (Variant.Unit): bits, counters, slots or
// cells. What only some variants have the lab asks for where present:
// Remover, Counters, Sealer, and the figures Result copies (fingerprint
// width, load, relocations, failed inserts, construction retries).
type Membership interface {
	// Add inserts key.
	Add(key []byte)
	// Contains reports whether key may be a member and how many positions it
	// read before answering; an absent key usually stops at the first zero.
	Contains(key []byte) (maybe bool, probes int)
	// Positions appends the k positions key maps to onto dst[:0].
	Positions(dst []uint64, key []byte) []uint64
	// M is the number of positions, K the number of probes per key.
	M() uint64
	K() int
	// SetBits is the count of nonzero positions, kept up to date by Add;
	// Popcount counts them again from storage, so the two can be compared.
	SetBits() uint64
	Popcount() uint64
	// IsSet reports whether position i is nonzero.
	IsSet(i uint64) bool
	// Words is the raw storage, for digests and byte-for-byte comparisons.
	Words() []uint64
}

// Remover is a filter that removes keys: the counting and cuckoo filters.
// Remove reports whether key was there to remove.
type Remover interface {
	Remove(key []byte) bool
}

// Counters is a filter whose positions are counters: the counting filter.
// Counter is counter i's value, MaxCounter the largest value held now,
// Overflows the increments lost to a full counter, and CounterBits the
// width of one counter in storage: it holds at most 2^CounterBits - 1.
type Counters interface {
	Counter(i uint64) uint8
	MaxCounter() uint8
	Overflows() uint64
	CounterBits() int
}

// Filter is the standard Bloom filter: m bits in []uint64, k probes by
// double hashing over one SipHash-2-4 call, or by another Hashing.
type Filter struct {
	m       uint64
	k       int
	k0, k1  uint64
	words   []uint64
	set     uint64
	hashing Hashing
	seed    uint64
	added   uint64 // Add calls, repeats included
}

// NewFilter returns an empty standard filter of m bits and k hashes, keyed
// by seed, with double hashing. It rejects m outside [1, MaxM] and k
// outside [1, MaxK].
func NewFilter(m uint64, k int, seed uint64) (*Filter, error) {
	return NewFilterHashed(DoubleHashing, m, k, seed)
}

// NewFilterHashed is NewFilter with positions found by scheme h.
func NewFilterHashed(h Hashing, m uint64, k int, seed uint64) (*Filter, error) {
	if err := checkShape(m, k); err != nil {
		return nil, err
	}
	if _, err := ParseHashing(string(h)); err != nil {
		return nil, err
	}
	k0, k1 := SipKey(seed)
	return &Filter{m: m, k: k, k0: k0, k1: k1, words: make([]uint64, (m+63)/64), hashing: h, seed: seed}, nil
}

func checkShape(m uint64, k int) error {
	if m < 1 || m > MaxM {
		return fmt.Errorf("core: m must be in [1, %d] bits, got %d", uint64(MaxM), m)
	}
	if k < 1 || k > MaxK {
		return fmt.Errorf("core: k must be in [1, %d], got %d", MaxK, k)
	}
	return nil
}

// Add sets the k bits of key, as setBits does: without a branch on the
// bits' old values, which in a half-full filter are a coin flip the CPU
// cannot predict.
func (f *Filter) Add(key []byte) {
	f.added++
	if f.hashing != DoubleHashing {
		var buf [MaxK]uint64
		for _, j := range f.hashing.positions(buf[:0], f.k0, f.k1, key, f.k, f.m) {
			w := &f.words[j>>6]
			f.set += ^*w >> (j & 63) & 1
			*w |= 1 << (j & 63)
		}
		return
	}
	h1, h2 := Sip128(f.k0, f.k1, key)
	f.set += setBits(f.words, f.m, f.k, []uint64{h1}, []uint64{h2})
}

// Contains reports whether all k bits of key are set, stopping at the first
// zero. The first two probes are loaded and tested together: in a half-full
// filter an absent key needs the second one half the time, so the two
// loads overlap instead of waiting on each other, and one branch taken
// three times in four replaces a coin flip the CPU cannot predict.
func (f *Filter) Contains(key []byte) (bool, int) {
	if f.hashing != DoubleHashing {
		var buf [MaxK]uint64
		for i, j := range f.hashing.positions(buf[:0], f.k0, f.k1, key, f.k, f.m) {
			if f.words[j>>6]&(1<<(j&63)) == 0 {
				return false, i + 1
			}
		}
		return true, f.k
	}
	h1, h2 := Sip128(f.k0, f.k1, key)
	g, step, m, words := h1, h2|1, f.m, f.words
	first := 0
	if f.k >= 2 {
		j0, j1 := Reduce(g, m), Reduce(g+step, m)
		miss := ^words[j0>>6]>>(j0&63)&1 | (^words[j1>>6]>>(j1&63)&1)<<1
		if miss != 0 {
			return false, bits.TrailingZeros64(miss) + 1
		}
		g, first = g+2*step, 2
	}
	for i := first; i < f.k; i++ {
		j := Reduce(g, m)
		g += step
		if words[j>>6]&(1<<(j&63)) == 0 {
			return false, i + 1
		}
	}
	return true, f.k
}

// Positions appends key's k bit positions onto dst[:0].
func (f *Filter) Positions(dst []uint64, key []byte) []uint64 {
	return f.hashing.positions(dst, f.k0, f.k1, key, f.k, f.m)
}

func (f *Filter) M() uint64           { return f.m }
func (f *Filter) K() int              { return f.k }
func (f *Filter) SetBits() uint64     { return f.set }
func (f *Filter) Popcount() uint64    { return popcount(f.words) }
func (f *Filter) IsSet(i uint64) bool { return i < f.m && f.words[i>>6]&(1<<(i&63)) != 0 }
func (f *Filter) Words() []uint64     { return f.words }
func (f *Filter) Inserted() uint64    { return f.added }

// Shape is the filter's layout, m, k, hashing and seed.
func (f *Filter) Shape() Shape {
	return Shape{Variant: Standard, M: f.m, K: f.k, Hashing: f.hashing, Seed: f.seed}
}

// Merge ORs (or ANDs) the bits of f and other, a standard filter of f's
// Shape, into a new filter: the union is the filter built from both key
// sets, bit for bit.
func (f *Filter) Merge(other Membership, intersect bool) (Membership, uint64, error) {
	o, err := partner(f, other)
	if err != nil {
		return nil, 0, err
	}
	g := *f
	g.words, g.set = mergeBits(f.words, o.words, intersect)
	g.added = mergedInserted(f.added, o.added, intersect)
	return &g, 0, nil
}

// restoreFilter is a standard filter of Shape s read from a file: the bits
// past m in the last word must be zero, as a filter leaves them.
func restoreFilter(s Shape, added uint64, words []uint64) (Membership, error) {
	if err := paddingClear(words, s.M, 1); err != nil {
		return nil, err
	}
	k0, k1 := SipKey(s.Seed)
	return &Filter{m: s.M, k: s.K, k0: k0, k1: k1, words: words, set: popcount(words),
		hashing: s.Hashing, seed: s.Seed, added: added}, nil
}

func popcount(words []uint64) uint64 {
	n := 0
	for _, w := range words {
		n += bits.OnesCount64(w)
	}
	return uint64(n)
}

// Standard is the standard Bloom filter's variant: Filter, or Broken with a
// fault of the zoo switched on.
var Standard = Variant{&kind{
	name: "standard", label: "standard", unit: "bit",
	about: "m bits, k probes anywhere in the array (Bloom, 1970)",
	usesK: true, hashings: true, formula: "(1 - e^(-kn/m))^k",
	terms:  bitTerms,
	faults: []Fault{NegativeIndex, KFromCeil, WeakHash, ClearOnDuplicate, OffByOne, OneHash, ShortRange},
	build: func(s Spec) (Membership, error) {
		if s.Fault == NoFault || s.Fault == KFromCeil {
			return NewFilterHashed(s.Hashing, s.M, s.K, s.Seed)
		}
		return NewBroken(s.Fault, s.M, s.K, s.Seed)
	},
	memoryBits: func(f Membership) uint64 { return f.M() },
	moments:    bloomMoments,
	file:       &fileLayout{code: 1, words: func(m uint64) (uint64, bool) { return (m + 63) / 64, true }, restore: restoreFilter},
	estimate:   bloomEstimate,
	unionWhole: true,
	cheapest:   cheapestStandard,
}}

// cheapestStandard is the smallest m whose formula rate at the rounded
// optimal k reaches p: from n log2(1/p) / ln 2 it steps up 0.1% at a time
// until the rate reaches p, then bisects down to the edge (the rounding of
// k makes the rate a little ragged in m, so the edge found is one where m
// reaches p and m - 1 does not). A few thousand rates at most.
func cheapestStandard(n uint64, p float64) Sizing {
	reaches := func(m uint64) bool { return Rate(m, n, OptimalK(m, n)) <= p }
	hi := max(1, uint64(math.Ceil(float64(n)*InfoFloor(p)/math.Ln2)))
	limit := satMul(BitsPerKeyAtMaxK, n)
	for hi <= limit && !reaches(hi) {
		hi += max(1, hi/1000)
	}
	if hi > limit {
		return notWithin()
	}
	lo := hi / 2
	if lo < 1 || reaches(lo) {
		lo = 0
	}
	for hi-lo > 1 { // reaches(hi), and lo is 0 or does not reach
		mid := lo + (hi-lo)/2
		if reaches(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	m := hi
	k := OptimalK(m, n)
	return Sizing{Spec: Spec{M: m, K: k, N: n}, Settings: "k = " + strconv.Itoa(k),
		Bits: m, Rate: Rate(m, n, k), Reaches: true}
}

// Arithmetic shows the filter's k probes under its hashing scheme.
func (f *Filter) Arithmetic(e *Explanation, key []byte) {
	e.K0, e.K1 = f.k0, f.k1
	e.explainBloom(f.hashing, key, f.k, f.m)
}
