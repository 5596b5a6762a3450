package core

import (
	"fmt"
	"math"
	"slices"
)

// Cuckoo is a cuckoo filter (Fan, Andersen, Kaminsky and Mitzenmacher,
// "Cuckoo Filter: Practically Better Than Bloom", CoNEXT 2014): buckets of
// CuckooSlots f-bit fingerprints packed into []uint64, one key in one slot,
// so keys can be removed and at rates below about 3% it needs fewer bits per
// key than a Bloom filter.
//
// A key is hashed once with SipHash-2-4. h1 picks its bucket i1 = Reduce(h1,
// B); the high bits of h2 give its fingerprint fp, uniform on [1, 2^f) since
// 0 marks an empty slot. Its other bucket is i2 = (g(fp) - i1) mod B with
// g(fp) = Reduce(splitmix(fp ^ salt), B). That map is an involution,
// alt(alt(i)) = i, found from a slot and its fingerprint alone as the paper's
// partial-key cuckoo hashing needs (section 3.1), and unlike the paper's
// i1 xor hash(fp) it works for every B, not only powers of two, so a memory
// budget is used to the bucket.
//
// An insert that finds both buckets full moves fingerprints to their other
// bucket, at most CuckooMaxKicks times, taking the first bucket and each
// victim slot from a SplitMix64 stream kept in the filter: the same keys in
// the same order give the same table on every platform. A fingerprint still
// homeless after that waits in a one-entry stash, as the victim of the
// authors' reference implementation does, so no key is lost; that insert
// reports failure all the same, since the table is full. While the stash is
// occupied, an insert that would have to move fingerprints fails at once and
// changes nothing. Removing a key moves the stash back into the table when
// one of its buckets has room.
//
// Remove must only be given keys that were inserted: an absent key whose
// fingerprint collides removes a member's copy and makes that member a false
// negative (section 3.3).
//
// NewSemiSortedCuckoo returns the same filter with semi-sorted buckets
// (section 5.2): a bucket stores its four fingerprints in ascending order, so
// their leading 4-bit prefixes form a sorted multiset, one of C(19,4) = 3876,
// which fits 12 bits instead of 16. A bucket then takes 4(f-1) bits, one bit
// a slot less. Only the bucket's encoding differs: hashing, relocation, the
// stash and removal are the plain filter's, and slot j of a bucket is its
// j-th fingerprint in ascending order.
type Cuckoo struct {
	f        uint // fingerprint bits
	bw       uint // bucket bits: 4f, or 4(f-1) semi-sorted
	semi     *semiCodec
	buckets  uint64
	k0, k1   uint64
	salt     uint64 // keys g, the other-bucket hash
	stream   uint64 // the relocation stream's SplitMix64 state
	words    []uint64
	set      uint64 // occupied slots
	stash    uint16 // a homeless fingerprint, 0 if none
	stashAt  uint64 // one of the stashed fingerprint's buckets
	kicks    uint64
	failures uint64
}

// CuckooSlots is the number of slots per bucket (b = 4 in the paper).
const CuckooSlots = 4

// CuckooMaxKicks bounds the relocations of one insert (500, as the paper).
const CuckooMaxKicks = 500

// CuckooFingerprints lists the fingerprint widths allowed: 8, 12, 16.
var CuckooFingerprints = []int{8, 12, 16}

// SemiSortedFingerprints lists the semi-sorted filter's widths, 5 to 16:
// every width with bits left after the 4-bit prefix (at 4 a bucket would
// be its 12-bit code alone, a rate over 50%), up to the plain filter's
// widest. Every width, not three, because the bit it saves matters most
// where a budget falls between widths.
var SemiSortedFingerprints = []int{5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}

var _ Membership = (*Cuckoo)(nil)

// NewCuckoo returns an empty cuckoo filter in a memory budget of m bits:
// floor(m / (4f)) buckets, at least 1 (so a budget under 4f bits is rounded
// up to one bucket), of 4 slots of f-bit fingerprints, keyed by seed. It
// rejects f not in CuckooFingerprints and m outside [1, MaxM].
func NewCuckoo(m uint64, fingerprintBits int, seed uint64) (*Cuckoo, error) {
	if !slices.Contains(CuckooFingerprints, fingerprintBits) {
		return nil, fmt.Errorf("core: fingerprint bits must be 8, 12 or 16, got %d", fingerprintBits)
	}
	return buildCuckoo(m, fingerprintBits, seed, nil)
}

// NewSemiSortedCuckoo returns an empty semi-sorted cuckoo filter in a
// memory budget of m bits: floor(m / (4(f-1))) buckets, at least 1, keyed
// by seed. It rejects f not in SemiSortedFingerprints and m outside
// [1, MaxM].
func NewSemiSortedCuckoo(m uint64, fingerprintBits int, seed uint64) (*Cuckoo, error) {
	if !slices.Contains(SemiSortedFingerprints, fingerprintBits) {
		return nil, fmt.Errorf("core: fingerprint bits must be 5 to 16, got %d", fingerprintBits)
	}
	return buildCuckoo(m, fingerprintBits, seed, semiTable())
}

func buildCuckoo(m uint64, fingerprintBits int, seed uint64, semi *semiCodec) (*Cuckoo, error) {
	if err := checkShape(m, 1); err != nil {
		return nil, err
	}
	bw := cuckooBucketBits(fingerprintBits, semi != nil)
	buckets := max(1, m/bw)
	k0, k1 := SipKey(seed)
	return &Cuckoo{
		f: uint(fingerprintBits), bw: uint(bw), semi: semi, buckets: buckets, k0: k0, k1: k1,
		salt:   SplitMix(seed ^ 0xbb67ae8584caa73b),
		stream: SplitMix(seed ^ 0x3c6ef372fe94f82b),
		words:  make([]uint64, (buckets*bw+63)/64),
	}, nil
}

// cuckooBucketBits is a bucket's storage: 4f bits, 4(f-1) semi-sorted.
func cuckooBucketBits(f int, semi bool) uint64 {
	if semi {
		return CuckooSlots * uint64(f-1)
	}
	return CuckooSlots * uint64(f)
}

// locate returns key's fingerprint and its two buckets. The fingerprint is
// 1 + Reduce(h2, 2^f - 1), uniform on the nonzero values to within 2^-64
// (so a match has probability 1/(2^f - 1), not the 2/2^f a "0 becomes 1"
// rule would give fingerprint 1), and independent of i1, which uses h1.
func (c *Cuckoo) locate(key []byte) (fp uint16, i1, i2 uint64) {
	h1, h2 := Sip128(c.k0, c.k1, key)
	fp = uint16(1 + Reduce(h2, 1<<c.f-1))
	i1 = Reduce(h1, c.buckets)
	return fp, i1, c.alt(i1, fp)
}

// alt is the other bucket of fingerprint fp in bucket i: g(fp) - i mod B.
func (c *Cuckoo) alt(i uint64, fp uint16) uint64 {
	g := Reduce(SplitMix(uint64(fp)^c.salt), c.buckets)
	if g >= i {
		return g - i
	}
	return g + c.buckets - i
}

// read returns the width bits at bit offset off. A field may straddle two
// words: 12-bit slots and 48-bit buckets do.
func (c *Cuckoo) read(off uint64, width uint) uint64 {
	w, sh := off>>6, off&63
	v := c.words[w] >> sh
	if sh+uint64(width) > 64 {
		v |= c.words[w+1] << (64 - sh)
	}
	return v & (^uint64(0) >> (64 - width))
}

// write stores v, which must fit width bits, at bit offset off.
func (c *Cuckoo) write(off uint64, width uint, v uint64) {
	w, sh := off>>6, off&63
	mask := ^uint64(0) >> (64 - width)
	c.words[w] = c.words[w]&^(mask<<sh) | v<<sh
	if sh+uint64(width) > 64 {
		c.words[w+1] = c.words[w+1]&^(mask>>(64-sh)) | v>>(64-sh)
	}
}

// bucket returns bucket i's four fingerprints, slot j at bits j·f: one
// read, then for a semi-sorted bucket its decoding.
func (c *Cuckoo) bucket(i uint64) uint64 {
	b := c.read(i*uint64(c.bw), c.bw)
	if c.semi != nil {
		return c.semi.decode(b, c.f)
	}
	return b
}

// setBucket stores four fingerprints laid out as bucket returns them; a
// semi-sorted bucket sorts and encodes them.
func (c *Cuckoo) setBucket(i, b uint64) {
	if c.semi != nil {
		b = c.semi.encode(b, c.f)
	}
	c.write(i*uint64(c.bw), c.bw, b)
}

// setSlot stores fp in slot s.
func (c *Cuckoo) setSlot(s uint64, fp uint16) {
	if c.semi == nil {
		c.write(s*uint64(c.f), c.f, uint64(fp))
		return
	}
	c.swap(s, fp)
}

// swap stores fp in slot s and returns the fingerprint it held. A
// semi-sorted bucket is decoded once and rewritten whole, which may reorder
// its slots.
func (c *Cuckoo) swap(s uint64, fp uint16) uint16 {
	if c.semi == nil {
		old := c.Fingerprint(s)
		c.setSlot(s, fp)
		return old
	}
	i, sh := s/CuckooSlots, s%CuckooSlots*uint64(c.f)
	mask := uint64(1)<<c.f - 1
	b := c.bucket(i)
	c.setBucket(i, b&^(mask<<sh)|uint64(fp)<<sh)
	return uint16(b >> sh & mask)
}

// find returns the slot of bucket i holding fp (0 for an empty one), or -1;
// the whole bucket is one read.
func (c *Cuckoo) find(i uint64, fp uint16) int {
	b := c.bucket(i)
	mask := uint64(1)<<c.f - 1
	for j := range CuckooSlots {
		if b>>(uint(j)*c.f)&mask == uint64(fp) {
			return j
		}
	}
	return -1
}

// put stores fp in the first empty slot of bucket i, if there is one. A
// semi-sorted bucket has one exactly when its smallest fingerprint, slot
// 0, is 0, so one decoding answers and the same one is rewritten.
func (c *Cuckoo) put(i uint64, fp uint16) bool {
	if c.semi != nil {
		b := c.bucket(i)
		if b&(1<<c.f-1) != 0 {
			return false
		}
		c.setBucket(i, b|uint64(fp))
		c.set++
		return true
	}
	j := c.find(i, 0)
	if j < 0 {
		return false
	}
	c.setSlot(i*CuckooSlots+uint64(j), fp)
	c.set++
	return true
}

// take empties one slot of bucket i holding fp, if there is one.
func (c *Cuckoo) take(i uint64, fp uint16) bool {
	j := c.find(i, fp)
	if j < 0 {
		return false
	}
	c.setSlot(i*CuckooSlots+uint64(j), 0)
	c.set--
	return true
}

// draw advances the relocation stream (SplitMix64: a counter stepped by the
// golden gamma, then mixed).
func (c *Cuckoo) draw() uint64 {
	c.stream += 0x9e3779b97f4a7c15
	return SplitMix(c.stream)
}

// Insert adds key and reports whether the table had room. False means the
// filter is full: either the relocations ran out and a fingerprint (this
// key's or one it displaced) went to the stash, so every key, this one
// included, is still found; or the stash was already occupied and the key
// was not inserted, and nothing changed. Both count in Failures.
func (c *Cuckoo) Insert(key []byte) bool {
	fp, i1, i2 := c.locate(key)
	if c.put(i1, fp) || c.put(i2, fp) {
		return true
	}
	if c.stash != 0 {
		c.failures++
		return false
	}
	i := i1
	if c.draw()>>63 != 0 {
		i = i2
	}
	for range CuckooMaxKicks {
		s := i*CuckooSlots + c.draw()>>62
		victim := c.swap(s, fp)
		fp, i = victim, c.alt(i, victim)
		c.kicks++
		if c.put(i, fp) {
			return true
		}
	}
	c.stash, c.stashAt = fp, i
	c.failures++
	return false
}

// Add is Insert without the result; failures are counted in Failures.
func (c *Cuckoo) Add(key []byte) { c.Insert(key) }

// Contains reports whether key's fingerprint is in one of its buckets or the
// stash. probes counts the fingerprints compared: up to 4 in i1, then 4 in
// i2 unless i2 == i1, then 1 for the stash if it is occupied, stopping at
// the first match.
func (c *Cuckoo) Contains(key []byte) (maybe bool, probes int) {
	fp, i1, i2 := c.locate(key)
	if j := c.find(i1, fp); j >= 0 {
		return true, j + 1
	}
	probes = CuckooSlots
	if i2 != i1 {
		if j := c.find(i2, fp); j >= 0 {
			return true, probes + j + 1
		}
		probes += CuckooSlots
	}
	if c.stash != 0 {
		return c.stashed(fp, i1, i2), probes + 1
	}
	return false, probes
}

// stashed reports whether the stash holds fp for the bucket pair (i1, i2);
// a bucket and a fingerprint determine the pair, so one bucket in common
// suffices.
func (c *Cuckoo) stashed(fp uint16, i1, i2 uint64) bool {
	return c.stash == fp && (c.stashAt == i1 || c.stashAt == i2)
}

// Remove deletes one copy of key's fingerprint, from i1, else i2, else the
// stash, and reports whether there was one; then a stashed fingerprint
// moves into its buckets if they have room. Copies of one fingerprint in one
// bucket pair are interchangeable, so which copy goes does not matter.
func (c *Cuckoo) Remove(key []byte) bool {
	fp, i1, i2 := c.locate(key)
	switch {
	case c.take(i1, fp) || c.take(i2, fp):
	case c.stash != 0 && c.stashed(fp, i1, i2):
		c.stash = 0
		return true
	default:
		return false
	}
	if c.stash != 0 && (c.put(c.stashAt, c.stash) || c.put(c.alt(c.stashAt, c.stash), c.stash)) {
		c.stash = 0
	}
	return true
}

// Positions appends the 8 slots key may live in onto dst[:0]: i1's four,
// then i2's four (the same four twice when i1 == i2).
func (c *Cuckoo) Positions(dst []uint64, key []byte) []uint64 {
	_, i1, i2 := c.locate(key)
	dst = dst[:0]
	for _, i := range [2]uint64{i1, i2} {
		for j := range uint64(CuckooSlots) {
			dst = append(dst, i*CuckooSlots+j)
		}
	}
	return dst
}

// Fingerprint returns the fingerprint in slot i, 0 if it is empty. i must be
// below M() (beyond it this reads padding or panics); IsSet checks.
func (c *Cuckoo) Fingerprint(i uint64) uint16 {
	if c.semi != nil {
		return uint16(c.bucket(i/CuckooSlots) >> (i % CuckooSlots * uint64(c.f)) & (1<<c.f - 1))
	}
	return uint16(c.read(i*uint64(c.f), c.f))
}

// SemiSorted reports whether the buckets are semi-sorted.
func (c *Cuckoo) SemiSorted() bool { return c.semi != nil }

// Slots returns the slots laid out as a plain filter's words: slot i's
// fingerprint at bits i·f. For a plain filter that is Words itself; a
// semi-sorted filter's storage is encoded, so it decodes a copy, for the
// picture, which reads slots.
func (c *Cuckoo) Slots() []uint64 {
	if c.semi == nil {
		return c.words
	}
	out := make([]uint64, (c.M()*uint64(c.f)+63)/64)
	d := Cuckoo{f: c.f, bw: CuckooSlots * c.f, words: out}
	for i := range c.buckets {
		d.setBucket(i, c.bucket(i))
	}
	return out
}

// M is the number of slots, the cuckoo filter's positions.
func (c *Cuckoo) M() uint64 { return c.buckets * CuckooSlots }

// K is the number of slots a key may live in: two buckets.
func (c *Cuckoo) K() int { return 2 * CuckooSlots }

// SetBits is the number of occupied slots (the stash is not a slot).
func (c *Cuckoo) SetBits() uint64 { return c.set }

// Popcount counts the occupied slots again from storage.
func (c *Cuckoo) Popcount() uint64 {
	n := uint64(0)
	for i := range c.M() {
		if c.Fingerprint(i) != 0 {
			n++
		}
	}
	return n
}

func (c *Cuckoo) IsSet(i uint64) bool  { return i < c.M() && c.Fingerprint(i) != 0 }
func (c *Cuckoo) Words() []uint64      { return c.words }
func (c *Cuckoo) FingerprintBits() int { return int(c.f) }
func (c *Cuckoo) Buckets() uint64      { return c.buckets }

// Count is the number of fingerprints stored, the stashed one included.
func (c *Cuckoo) Count() uint64 {
	if c.stash != 0 {
		return c.set + 1
	}
	return c.set
}

// Load is Count / M, the fraction of slots in use.
func (c *Cuckoo) Load() float64 { return float64(c.Count()) / float64(c.M()) }

// Relocations counts the fingerprints moved over all inserts.
func (c *Cuckoo) Relocations() uint64 { return c.kicks }

// Failures counts the inserts that returned false.
func (c *Cuckoo) Failures() uint64 { return c.failures }

// MemoryBits is the table's storage, M·f bits, or M·(f-1) semi-sorted.
// The stash (a fingerprint and a bucket) and the up to 63 bits padding the
// last word are not counted.
func (c *Cuckoo) MemoryBits() uint64 { return c.buckets * uint64(c.bw) }

// CuckooRate is the false-positive rate of a cuckoo filter at a load: a
// query compares its fingerprint with the 2b = 8 slots of its two buckets,
// each occupied with probability load and then matching with probability
// 1/(2^f - 1) (fingerprints are uniform and nonzero), so
//
//	p = 1 - (1 - load/(2^f - 1))^(2b) ≈ 2b·load/2^f.
//
// At load 1 this is the paper's 1 - (1 - 1/2^f)^(2b) ≈ 2b/2^f (section 5.1,
// "Optimal bucket size") with the empty value left out; the stash and the
// rare key with i1 == i2 are ignored. It is computed with Log1p and Expm1
// so that f = 16 keeps its digits.
func CuckooRate(fingerprintBits int, load float64) float64 {
	x := load / float64(uint64(1)<<fingerprintBits-1)
	return -math.Expm1(2 * CuckooSlots * math.Log1p(-x))
}

// Arithmetic shows the cuckoo filter's fingerprint and two buckets, and
// the four slots of each.
func (c *Cuckoo) Arithmetic(e *Explanation, key []byte) {
	e.K0, e.K1 = c.k0, c.k1
	e.H1, e.H2 = Sip128(e.K0, e.K1, key)
	e.Scheme = "cuckoo"
	e.Formula = "fp = 1 + floor(h2·(2^f - 1) / 2^64); i1 = floor(h1·B / 2^64); i2 = g(fp) - i1 mod B; slots 4·i + 0..3 of each bucket"
	fp := 1 + Reduce(e.H2, 1<<c.f-1)
	i1 := Reduce(e.H1, c.buckets)
	g := Reduce(SplitMix(fp^c.salt), c.buckets)
	i2 := c.alt(i1, uint16(fp))
	e.Cuckoo = &ExplainCuckoo{FingerprintBits: int(c.f), Fingerprint: fp, Buckets: c.buckets, Bucket1: i1, G: g, Bucket2: i2}
	for n, b := range [2]uint64{i1, i2} {
		for j := range uint64(CuckooSlots) {
			e.Steps = append(e.Steps, ExplainStep{I: n*CuckooSlots + int(j), G: b, Position: b*CuckooSlots + j})
		}
	}
}

// Value is the fingerprint slot j holds (0 for an empty slot), false past
// the slots.
func (c *Cuckoo) Value(j uint64) (uint32, bool) {
	if j >= c.M() {
		return 0, false
	}
	return uint32(c.Fingerprint(j)), true
}

// KeyFingerprint is key's fingerprint, the one its slots would hold.
func (c *Cuckoo) KeyFingerprint(key []byte) (uint32, bool) {
	fp, _, _ := c.locate(key)
	return uint32(fp), true
}

// Keys is the count of fingerprints stored, the KeyCounter view: a key
// added twice is there twice.
func (c *Cuckoo) Keys() uint64 { return c.Count() }

// Merge refuses: see the error.
func (c *Cuckoo) Merge(Membership, bool) (Membership, uint64, error) {
	v := CuckooVariant
	if c.SemiSorted() {
		v = SemiSortedVariant
	}
	return nil, 0, cannotMerge(v, "a fingerprint sits in whichever of its two buckets the relocations left it, so two tables do not line up slot by slot; "+
		"merging means inserting one filter's fingerprints into the other, which fails once the table fills")
}
