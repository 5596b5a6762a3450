package core

import (
	"fmt"
	"slices"
)

// packedCells is the array the static filters solve for: m cells of r bits,
// 1 to 32, cell i at bits [i r, i r + r) of words, each packed right after
// the one before it, so widths that do not divide 64 have cells straddling
// two words and memory is exactly m r bits (rounded up to whole words).
// The binary fuse filter calls them cells and the Ribbon filter rows; the
// lab draws both alike.
type packedCells struct {
	bits  int // r, the width of a cell
	m     uint64
	words []uint64
	set   uint64 // nonzero cells, counted when the array was built
}

// cell reads cell i: the r bits at bit offset i r, from two words when the
// cell straddles them. Offsets fit: i r < 2^37 for the filters' key limits.
func (p *packedCells) cell(i uint64) uint64 {
	off := i * uint64(p.bits)
	w, sh := off>>6, off&63
	v := p.words[w] >> sh
	if sh+uint64(p.bits) > 64 {
		v |= p.words[w+1] << (64 - sh)
	}
	return v & (1<<p.bits - 1)
}

// put ors v, which fits r bits, into cell i, which must be 0.
func (p *packedCells) put(i, v uint64) {
	off := i * uint64(p.bits)
	w, sh := off>>6, off&63
	p.words[w] |= v << sh
	if sh+uint64(p.bits) > 64 {
		p.words[w+1] |= v >> (64 - sh)
	}
}

// alloc makes room for m zero cells.
func (p *packedCells) alloc(m uint64) {
	p.m = m
	p.words = make([]uint64, (m*uint64(p.bits)+63)/64)
}

// Cell returns the value stored in cell i, or 0 for i >= M().
func (p *packedCells) Cell(i uint64) uint32 {
	if i >= p.m {
		return 0
	}
	return uint32(p.cell(i))
}

// M is the number of cells.
func (p *packedCells) M() uint64 { return p.m }

// SetBits is the number of nonzero cells.
func (p *packedCells) SetBits() uint64 { return p.set }

// IsSet reports whether cell i is nonzero; false for i >= M().
func (p *packedCells) IsSet(i uint64) bool { return p.Cell(i) != 0 }

// Words is the packed array itself, for drawing and digests.
func (p *packedCells) Words() []uint64 { return p.words }

// FingerprintBits is r, the width of a cell.
func (p *packedCells) FingerprintBits() int { return p.bits }

// MemoryBits is m r, the array's size without the rounding to words.
func (p *packedCells) MemoryBits() uint64 { return p.m * uint64(p.bits) }

// Popcount counts the nonzero cells again from storage.
func (p *packedCells) Popcount() uint64 {
	n := uint64(0)
	for i := uint64(0); i < p.m; i++ {
		if p.cell(i) != 0 {
			n++
		}
	}
	return n
}

// keyCollector gathers the keys a static filter is built from: Add keeps
// each key's 64-bit SipHash under the lab's seed (8 bytes a key, beyond
// MemoryBits) so that a later Seal builds from every key added so far.
type keyCollector struct {
	seed     uint64 // the lab's seed, root of the construction seeds
	k0, k1   uint64
	hashes   []uint64 // every key's SipHash, deduplicated when the collection fills
	dirty    bool     // keys were added since the last Seal
	n        uint64   // distinct keys at the last Seal
	dups     uint64   // repeats dropped while collecting
	sealDups uint64   // repeats the last Seal dropped without compacting hashes
	retries  uint64
	err      error
}

func newKeyCollector(seed uint64) keyCollector {
	k0, k1 := SipKey(seed)
	return keyCollector{seed: seed, k0: k0, k1: k1}
}

// Add collects key's 64-bit SipHash; the filter is built at the next Seal,
// or lazily at the next Contains or Positions. When the collection is full
// it drops its duplicates before it grows, so keys added many times over
// take the memory of the distinct ones (at most twice it), not of every Add.
func (c *keyCollector) Add(key []byte) {
	h, _ := Sip128(c.k0, c.k1, key)
	if len(c.hashes) == cap(c.hashes) && len(c.hashes) >= fuseCompactFrom {
		c.compact()
	}
	c.hashes = append(c.hashes, h)
	c.dirty = true
}

// fuseCompactFrom is the collection size from which a full one is
// deduplicated before it grows: below it, growing costs less.
const fuseCompactFrom = 1 << 12

// compact sorts the collected hashes and drops their duplicates, counting
// them.
func (c *keyCollector) compact() {
	slices.Sort(c.hashes)
	uniq := slices.Compact(c.hashes)
	c.dups += uint64(len(c.hashes) - len(uniq))
	c.hashes = uniq
}

// Keys is the number of distinct keys the last Seal built from.
func (c *keyCollector) Keys() uint64 { return c.n }

// Duplicates counts the Adds dropped as repeats, while collecting and at
// the last Seal, which builds from every key added so far: Keys() +
// Duplicates() is the number of Adds.
func (c *keyCollector) Duplicates() uint64 { return c.dups + c.sealDups }

// Retries counts the failed attempts of the last Seal: those before the one
// that built, or all of them (the filter's bound plus one) if none did.
func (c *keyCollector) Retries() uint64 { return c.retries }

// Err is the last Seal's error, if any.
func (c *keyCollector) Err() error { return c.err }

// retry is a static filter's build loop: it calls attempt under the
// construction seed mix and, while attempt fails, under each next seed of
// the SplitMix64 chain, at most maxRetries more times, counting the failed
// attempts in Retries. It returns the seed that built; when none did it
// sets Err to an error naming the filter, its m units and the attempts, and
// returns it. attempt is given its number, from 0, so that a filter can
// vary more than the seed between attempts.
func (c *keyCollector) retry(name, unit string, m uint64, maxRetries int, mix uint64, attempt func(i int, mix uint64) bool) (uint64, error) {
	for i := 0; i <= maxRetries; i++ {
		if attempt(i, mix) {
			return mix, nil
		}
		c.retries++
		mix = SplitMix(mix)
	}
	c.err = fmt.Errorf("core: %s filter of %d keys in %d %s did not build in %d attempts", name, c.n, m, unit, maxRetries+1)
	return 0, c.err
}

// Value is cell i's value, as a Valued layout shows it.
func (p *packedCells) Value(i uint64) (uint32, bool) { return p.Cell(i), true }

// staticNoMerge is why a static filter cannot merge.
const staticNoMerge = "its cells solve one system of equations for the keys it was built from, so the cells of two filters combined answer for neither set; build one filter from both key sets"
