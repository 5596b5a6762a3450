package core

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
)

// Fuse is a 3-wise binary fuse filter (Graf and Lemire, "Binary Fuse
// Filters: Fast and Smaller Than Xor Filters", ACM JEA 27, 2022): an array
// of f-bit cells in which a key's three cells xor to its fingerprint. The
// array is cut into segments of a power-of-two length; a key's first cell
// falls anywhere but in the last two segments and its other two in the next
// two segments. Coupling the segments so (after Dietzfelbinger and Walzer's
// spatially coupled hypergraphs, 2019) lets the array shrink to about
// 1.125 n cells for large n, from the xor filter's 1.23 n, and keeps a
// key's cells close.
//
// The filter is static: the array is solved for the whole key set at once
// by peeling the 3-uniform hypergraph of keys over cells, so Add only
// collects the keys' 64-bit SipHash and Seal builds. Peeling fails with a
// small probability; each retry uses the next construction seed of a
// SplitMix64 chain rooted at the lab's seed, so the same keys give the same
// array on every platform, and the attempts are counted and bounded by
// FuseMaxRetries.
//
// An absent key matches when its three cells xor to its fingerprint, which
// for a well-mixed array happens with probability 2^-f (FuseRate), at
// about 1.125 f bits per key for large n. Any f from 1 to 32 bits is
// allowed (FuseFingerprints), so the rate can be chosen a halving at a time:
// 7 bits, 2^-7 = 0.78%, near the 1% a Bloom filter reaches in 9.6 bits.
type Fuse struct {
	keyCollector // hashes are sorted and deduplicated at Seal
	packedCells  // f-bit cells

	lay fuseLayout // of the array that was built
	mix uint64     // the construction seed that built it

	segments uint64 // tests only: segments to use instead of the paper's count
}

// FuseFingerprints lists the fingerprint widths allowed: every f from
// FuseMinBits to FuseMaxBits. A cell of f bits is packed right after the
// one before it, so widths that do not divide 64 have cells straddling two
// words; memory is exactly m f bits (rounded up to whole words). Written
// out rather than counted at the program's start (TestFuseFingerprints
// holds it to the bounds).
var FuseFingerprints = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
	17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32}

// FuseMinBits and FuseMaxBits bound the fingerprint width. 32 bits is the
// widest the reference implementation offers (its uint32 filter); the
// fingerprint is the low f bits of the mixed hash folded to 32 bits.
const (
	FuseMinBits = 1
	FuseMaxBits = 32
)

// FuseDefaultBits is the width the fuse filter takes when asked for none:
// 2^-8 = 0.39% in about 9 bits a key for large n.
const FuseDefaultBits = 8

// FuseMaxRetries bounds construction: Seal tries the first construction
// seed and at most this many more, then returns an error. With the paper's
// sizes about one attempt in fifteen fails at n = 20 and fewer at larger n,
// so a hundred retries failing means a bug or a broken hash, not bad luck.
const FuseMaxRetries = 100

// fuseMaxKeys keeps every cell index in a uint32 during construction.
const fuseMaxKeys = 1 << 31

// fuseSalt separates the construction seeds from the SipHash key (SipKey
// and fuseSalt are the first two SHA-512 initial words).
const fuseSalt = 0xbb67ae8584caa73b

// NewFuse returns an empty binary fuse filter with f-bit fingerprints keyed
// by seed. It is built once from the whole key set: Add collects keys, Seal
// builds the array. It rejects f outside [FuseMinBits, FuseMaxBits].
func NewFuse(fingerprintBits int, seed uint64) (*Fuse, error) {
	if fingerprintBits < FuseMinBits || fingerprintBits > FuseMaxBits {
		return nil, fmt.Errorf("core: fuse fingerprint bits must be %d to %d, got %d", FuseMinBits, FuseMaxBits, fingerprintBits)
	}
	return &Fuse{keyCollector: newKeyCollector(seed), packedCells: packedCells{bits: fingerprintBits}}, nil
}

// Seal builds the array from every key added so far. Hashes are sorted and
// deduplicated first, so the array depends on the set of keys, not on the
// order or repetition of Adds (two keys with the same 64-bit hash, about
// n^2/2^65 of a chance, count as one). A failed attempt is retried under
// the next seed; past FuseMaxRetries Seal returns an error and the filter
// answers true for every key. Sealing again with no new keys does nothing.
func (f *Fuse) Seal() error {
	if !f.dirty {
		return f.err
	}
	f.dirty = false
	f.compact()
	f.n = uint64(len(f.hashes))
	f.lay, f.mix, f.m, f.words, f.set, f.retries, f.err = fuseLayout{}, 0, 0, nil, 0, 0, nil
	if f.n > fuseMaxKeys {
		f.err = fmt.Errorf("core: a fuse filter holds at most %d keys, got %d", uint64(fuseMaxKeys), f.n)
		return f.err
	}
	segLen, segments := fuseSize(f.n)
	if f.segments != 0 {
		segments = f.segments
	}
	m := segLen * segments
	b := fuseBuild{count: make([]uint8, m), xor: make([]uint64, m), xs: make([]uint64, f.n),
		queue: make([]uint32, 0, m), order: make([]uint32, 0, f.n)}
	var lay fuseLayout
	mix, err := f.retry("fuse", "cells", m, FuseMaxRetries, SplitMix(f.seed^fuseSalt), func(attempt int, mix uint64) bool {
		lay = fuseLayout{segLen, segments - 2}
		// Every fourth attempt from the second halves the segments, keeping
		// m: the empirical length is too long for some n (the reference's
		// TestBinaryFuseBoundarySizes).
		if attempt%4 == 1 && f.n > 4 && f.n < 1_000_000 {
			lay = fuseLayout{segLen / 2, 2*segments - 2}
		}
		return b.peel(f.hashes, lay, mix)
	})
	if err != nil {
		return err
	}
	f.lay, f.mix = lay, mix
	f.alloc(m)
	f.assign(&b)
	return nil
}

// fuseSteps[e-3] is the least n whose segment length is 2^e by the paper's
// 2^floor(log(n)/log(3.33) + 2.25): ceil(3.33^(e-2.25)), worked out to 60
// digits once, so that no platform's math.Log decides the length. The
// nearest a threshold comes to an integer is 3.5e-10 in the exponent (e = 17).
var fuseSteps = [...]uint64{3, 9, 28, 92, 304, 1010, 3362, 11193, 37273, 124118,
	413310, 1376322, 4583150, 15261887, 50822082, 169237530}

// fuseSize returns the segment length and the number of segments for n
// keys, as the reference implementation does for arity 3: the length is
// capped at 2^18 and the array holds round(n * max(1.125, 0.875 + 0.25
// ln(10^6)/ln(n))) cells rounded up to whole segments, at least three.
// Below 10^6 keys, moving n times the factor by 10^-6 never changes the
// segment count (TestFuseSizeMargin), so math.Log differing in its last
// bits between amd64 and wasm cannot either; from 10^6 keys on the factor
// is 9/8 and the rounding is done in integers.
func fuseSize(n uint64) (segLen, segments uint64) {
	e := 2
	for e < 18 && n >= fuseSteps[e-2] {
		e++
	}
	segLen = 1 << e
	var c uint64
	switch {
	case n >= 1_000_000:
		c = (9*n + 4) / 8
	case n > 1:
		c = uint64(math.Round(float64(n) * fuseFactor(n)))
	}
	return segLen, max(3, (c+segLen-1)/segLen)
}

func fuseFactor(n uint64) float64 {
	return math.Max(1.125, 0.875+0.25*math.Log(1e6)/math.Log(float64(n)))
}

// fuseLayout places a key's cells: the first in [0, segCount*segLen), the
// second in the next segment, the third in the one after.
type fuseLayout struct{ segLen, segCount uint64 }

// cells returns the three cells of mixed hash x, as the reference does:
// the high bits pick the first cell, and two groups of low bits offset the
// others within their segments.
func (l fuseLayout) cells(x uint64) (c0, c1, c2 uint64) {
	c0, _ = bits.Mul64(x, l.segCount*l.segLen)
	c1 = (c0 + l.segLen) ^ (x>>18)&(l.segLen-1)
	c2 = (c0 + 2*l.segLen) ^ x&(l.segLen-1)
	return c0, c1, c2
}

// fuseMix mixes a key's SipHash with the construction seed; it is a
// bijection on hashes, so distinct hashes stay distinct under every seed.
func fuseMix(h, seed uint64) uint64 { return SplitMix(h + seed) }

// fuseBuild is the peeling state, O(n) and reused across attempts: about
// 13 bytes a cell and 12 a key.
type fuseBuild struct {
	count []uint8  // keys in the cell << 2 | xor of the cell's slots (0, 1, 2)
	xor   []uint64 // xor of the mixed hashes in the cell
	xs    []uint64 // the mixed hashes, grouped by first segment
	queue []uint32 // cells holding one key
	order []uint32 // peeled cells, in peeling order
}

// peel counts every key into its cells, then repeatedly removes a key that
// is alone in a cell. It reports whether every key was removed. A peeled
// cell keeps its key's hash and slot, which assign reads back. The counts
// do not depend on the order the keys are counted in; counting them by
// first segment, as the reference does, keeps the writes within a few
// segments at a time: a build of 10^6 keys took 360 ns a key, not 465.
func (b *fuseBuild) peel(hashes []uint64, l fuseLayout, mix uint64) bool {
	clear(b.count)
	clear(b.xor)
	b.queue, b.order = b.queue[:0], b.order[:0]
	shift := 64 - max(1, bits.Len64(l.segCount-1)) // at least as many groups as segments
	start := make([]uint32, 1<<(64-shift)+1)
	for _, h := range hashes {
		start[fuseMix(h, mix)>>shift+1]++
	}
	for i := 1; i < len(start); i++ {
		start[i] += start[i-1]
	}
	for _, h := range hashes {
		x := fuseMix(h, mix)
		b.xs[start[x>>shift]] = x
		start[x>>shift]++
	}
	for _, x := range b.xs {
		c0, c1, c2 := l.cells(x)
		for slot, c := range [3]uint64{c0, c1, c2} {
			b.count[c] = (b.count[c] + 4) ^ uint8(slot)
			b.xor[c] ^= x
			if b.count[c] < 4 {
				return false // 64 keys in one cell overflow the six-bit count
			}
		}
	}
	for c, k := range b.count {
		if k>>2 == 1 {
			b.queue = append(b.queue, uint32(c))
		}
	}
	for len(b.queue) > 0 {
		i := b.queue[len(b.queue)-1]
		b.queue = b.queue[:len(b.queue)-1]
		if b.count[i]>>2 != 1 {
			continue // its key was peeled from another cell
		}
		b.order = append(b.order, i)
		x, alone := b.xor[i], b.count[i]&3
		c0, c1, c2 := l.cells(x)
		for slot, c := range [3]uint64{c0, c1, c2} {
			if uint8(slot) == alone {
				continue
			}
			b.count[c] = (b.count[c] - 4) ^ uint8(slot)
			b.xor[c] ^= x
			if b.count[c]>>2 == 1 {
				b.queue = append(b.queue, uint32(c))
			}
		}
	}
	return len(b.order) == len(hashes)
}

// assign fills the cells in reverse peeling order: each key's own cell is
// set so that its three cells xor to its fingerprint, and no later key
// touches it again.
func (f *Fuse) assign(b *fuseBuild) {
	for _, i := range slices.Backward(b.order) {
		x := b.xor[i]
		c0, c1, c2 := f.lay.cells(x)
		v := f.fingerprint(x) ^ f.cell(c0) ^ f.cell(c1) ^ f.cell(c2) // the own cell is still 0
		f.put(uint64(i), v)
	}
	f.set = f.Popcount()
}

func (f *Fuse) fingerprint(x uint64) uint64 { return (x ^ x>>32) & (1<<f.bits - 1) }

// Contains reports whether key's three cells xor to its fingerprint, with 3
// probes. If keys were added since the last Seal it seals first, so it is
// not safe for concurrent use until sealed. An empty filter answers false
// and a filter whose Seal failed answers true, since a filter that did not
// build must not give false negatives; both read no cells (0 probes).
func (f *Fuse) Contains(key []byte) (bool, int) {
	if f.dirty {
		f.Seal()
	}
	if f.err != nil || f.m == 0 {
		return f.err != nil, 0
	}
	h, _ := Sip128(f.k0, f.k1, key)
	x := fuseMix(h, f.mix)
	c0, c1, c2 := f.lay.cells(x)
	return f.cell(c0)^f.cell(c1)^f.cell(c2) == f.fingerprint(x), 3
}

// Positions appends key's three cells onto dst[:0], sealing first as
// Contains does; it appends none when there is no array.
func (f *Fuse) Positions(dst []uint64, key []byte) []uint64 {
	if f.dirty {
		f.Seal()
	}
	if f.m == 0 {
		return dst[:0]
	}
	h, _ := Sip128(f.k0, f.k1, key)
	c0, c1, c2 := f.lay.cells(fuseMix(h, f.mix))
	return append(dst[:0], c0, c1, c2)
}

// K is 3, the cells a key reads.
func (f *Fuse) K() int { return 3 }

// FuseRate is the fuse filter's theory: an absent key matches when the xor
// of its three cells equals its f-bit fingerprint, probability 2^-f.
func FuseRate(fingerprintBits int) float64 {
	return math.Ldexp(1, -fingerprintBits)
}

// Arithmetic shows the fuse filter's mixed hash, fingerprint and three cells.
func (f *Fuse) Arithmetic(e *Explanation, key []byte) {
	if f.dirty {
		f.Seal()
	}
	e.K0, e.K1 = f.k0, f.k1
	e.H1, e.H2 = Sip128(e.K0, e.K1, key)
	e.Scheme = "fuse"
	e.Formula = "x = splitmix(h1 + construction seed); c0 = floor(x·segments·L / 2^64); c1 = (c0 + L) xor ((x >> 18) mod L); c2 = (c0 + 2L) xor (x mod L); fingerprint = (x xor x >> 32) mod 2^f"
	if f.m == 0 {
		return
	}
	x := fuseMix(e.H1, f.mix)
	e.Fuse = &ExplainFuse{ConstructionSeed: f.mix, X: x, Fingerprint: f.fingerprint(x), FingerprintBits: f.bits,
		SegmentLength: f.lay.segLen, Segments: f.lay.segCount}
	c0, c1, c2 := f.lay.cells(x)
	for i, c := range [3]uint64{c0, c1, c2} {
		e.Steps = append(e.Steps, ExplainStep{I: i, G: x, Position: c})
	}
}

// KeyFingerprint is key's fingerprint, which its three cells xor to if it
// is a member; false before the filter is built.
func (f *Fuse) KeyFingerprint(key []byte) (uint32, bool) {
	if f.m == 0 {
		return 0, false
	}
	h, _ := Sip128(f.k0, f.k1, key)
	return uint32(f.fingerprint(fuseMix(h, f.mix))), true
}

// Merge refuses: see the error.
func (f *Fuse) Merge(Membership, bool) (Membership, uint64, error) {
	return nil, 0, cannotMerge(FuseVariant, staticNoMerge)
}
