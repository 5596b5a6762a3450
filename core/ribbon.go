package core

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
)

// Ribbon is the standard Ribbon filter (Dillinger and Walzer, "Ribbon
// filter: practically smaller than Bloom and Xor", 2021; the filter RocksDB
// ships as NewRibbonFilterPolicy): a solution Z of m rows of r bits to a
// banded linear system over GF(2) with one equation a key.
//
// A key's equation is a start s in [0, m - w], a w-bit coefficient row c
// with its lowest bit set, and an r-bit result, its fingerprint: the rows
// Z[s + j] for the set bits j of c xor to the fingerprint. Every
// equation's ones lie within w columns of its start, so the
// system is a ribbon of width w along the diagonal, and Gaussian
// elimination can run as the keys come, each row reduced against the
// pivot rows already in place until it finds a free pivot column (on-the-
// fly banding); back-substitution from the last
// row to the first then gives Z.
//
// The filter is static, as the binary fuse filter: Add collects the keys'
// 64-bit SipHash and Seal builds. Banding fails when a row reduces to zero
// with a nonzero result; the chance of it falls steeply with the slack ε of
// m = ceil((1 + ε) n) rows, and at RibbonOverhead it is small enough
// (TestRibbonFailureRate measures it) that a retry under the next seed of a
// SplitMix64 chain rooted at the lab's seed almost never happens; retries
// are counted and bounded by RibbonMaxRetries.
//
// An absent key matches when its rows xor to its fingerprint, which for a
// solution of random results happens with probability 2^-r (RibbonRate), in
// about (1 + ε) r bits per key. Any r from 1 to 32 is allowed; 7 bits,
// 2^-7 = 0.78%, is RocksDB's choice for the 1% a Bloom filter reaches in
// 9.6 bits per key.
//
// The width w is 64 (RibbonWidth, a coefficient in one machine word) or
// 128 (RibbonWideWidth, two words: the paper's and RocksDB's choice). The
// wider band fails far less at the same slack, so it needs a much smaller
// ε (RibbonOverhead) and takes fewer bits a key (7.49 against 7.84 at
// r = 7 and a million keys), for a query that reads twice the rows and a
// build that reduces pairs of words (BenchmarkRibbonAgainstBloom). Z is stored row
// by row, r bits a row packed as the fuse filter's cells, so the lab draws
// it as it draws those; a query reads the rows its coefficient selects,
// 1 + (w-1)/2 of them on average (up to w: 128 is past the MaxK = 64
// probes of the Bloom layouts, which the key panel's culprit scan takes
// into account), each as two words funnelled together. RocksDB stores Z
// column by column in blocks of w rows instead, which reads r words a
// query rather than w/2 rows.
type Ribbon struct {
	keyCollector // Seal sorts the mixed hashes and counts their repeats in sealDups
	packedCells  // Z, row i the r-bit cell i

	width int    // w, 64 or 128
	mix   uint64 // the construction seed that built the solution

	rows uint64 // tests only: m to use instead of RibbonRows
}

// RibbonWidth and RibbonWideWidth are the spans w a key's coefficient
// row may have: 64 bits, one machine word (the ribbon variant), or 128,
// two (ribbon-128).
const (
	RibbonWidth     = 64
	RibbonWideWidth = 128
)

// RibbonOverhead is ε for n keys at width w, the share of rows beyond one
// a key: m = n + ceil(ε n), never fewer than w. Standard Ribbon's chance
// to fail grows with n at a fixed ε (a long band meets a long run of
// crowded starts somewhere), so ε grows with the decimal digits d of n.
// At w = 64 it is 0.05 + 0.01 d: 0.09 at a thousand keys, 0.12 at a
// million, where 7-bit results take 7.84 bits a key. At w = 128 it is
// 0.01 d, 0.05 less at every n: 0.04 at a thousand keys, 0.07 at a
// million, where 7-bit results take 7.49 bits a key. Both rules keep a
// build attempt's chance to fail at a few percent where it is worst, for
// small n and just below a power of ten, where ε is smallest for its n:
// 2.5% at 200 keys and w = 128, 3% at 99,999 keys and w = 64; at 0.005
// less, w = 128 failed 6% of attempts at 200 keys
// (TestRibbonFailureRate measures both rules). It is given in
// thousandths so that every platform sizes alike.
func RibbonOverhead(n uint64, w int) (thousandths uint64) {
	d := uint64(1)
	for x := n; x >= 10; x /= 10 {
		d++
	}
	if w == RibbonWideWidth {
		return 10 * d
	}
	return 50 + 10*d
}

// RibbonFingerprints lists the result widths allowed, 1 to 32 bits as the
// fuse filter's: memory is exactly m r bits (rounded up to whole words).
var RibbonFingerprints = FuseFingerprints

// RibbonDefaultBits is the width taken when none is asked for: 7 bits,
// 2^-7 = 0.78%, RocksDB's Ribbon for a 1% filter.
const RibbonDefaultBits = 7

// RibbonMaxRetries bounds construction: Seal tries the first construction
// seed and at most this many more, then returns an error.
const RibbonMaxRetries = 100

// ribbonMaxKeys keeps m within MaxM rows, so row offsets fit: i r < 2^39.
const ribbonMaxKeys = 1 << 31

// ribbonSalt separates the construction seeds from the SipHash key and
// from the fuse filter's (the third SHA-512 initial word); ribbonSaltHigh,
// the fourth, draws a 128-bit coefficient's high word apart from its low.
const (
	ribbonSalt     = 0x3c6ef372fe94f82b
	ribbonSaltHigh = 0xa54ff53a5f1d36f1
)

// NewRibbon returns an empty Ribbon filter of width w = RibbonWidth, 64,
// with r-bit results keyed by seed; NewRibbonWidth takes another width.
func NewRibbon(resultBits int, seed uint64) (*Ribbon, error) {
	return NewRibbonWidth(resultBits, RibbonWidth, seed)
}

// NewRibbonWidth returns an empty Ribbon filter of width w with r-bit
// results keyed by seed. It is built once from the whole key set: Add
// collects keys, Seal solves. It rejects r outside [FuseMinBits,
// FuseMaxBits], 1 to 32, and w other than RibbonWidth or RibbonWideWidth.
func NewRibbonWidth(resultBits, width int, seed uint64) (*Ribbon, error) {
	if resultBits < FuseMinBits || resultBits > FuseMaxBits {
		return nil, fmt.Errorf("core: ribbon fingerprint bits must be %d to %d, got %d", FuseMinBits, FuseMaxBits, resultBits)
	}
	if width != RibbonWidth && width != RibbonWideWidth {
		return nil, fmt.Errorf("core: ribbon width must be %d or %d, got %d", RibbonWidth, RibbonWideWidth, width)
	}
	return &Ribbon{keyCollector: newKeyCollector(seed), packedCells: packedCells{bits: resultBits}, width: width}, nil
}

// RibbonRows is m, the rows of a Ribbon filter of width w holding n keys:
// n + ceil(ε n) with ε = RibbonOverhead(n, w), at least w.
func RibbonRows(n uint64, w int) uint64 {
	return max(uint64(w), n+(n*RibbonOverhead(n, w)+999)/1000)
}

// Seal solves for every key added so far. Z depends on the set of keys,
// not on the order or repetition of Adds: the pivot columns are the
// leading columns of the row space, whatever order rows come in, and the
// free rows are 0 (TestRibbonBandOrder). The keys' hashes are still mixed
// with the construction seed, sorted and deduplicated: repeats are counted
// (two keys with the same 64-bit hash count as one), and the rows are
// banded in the order of their starts, which keeps banding's writes close
// together. A failed
// attempt is retried under the next seed; past RibbonMaxRetries Seal
// returns an error and the filter answers true for every key. Sealing
// again with no new keys does nothing.
func (f *Ribbon) Seal() error {
	if !f.dirty {
		return f.err
	}
	f.dirty = false
	f.mix, f.m, f.words, f.set, f.retries, f.err = 0, 0, nil, 0, 0, nil
	mix := SplitMix(f.seed ^ ribbonSalt)
	xs, tmp := make([]uint64, len(f.hashes)), make([]uint64, len(f.hashes))
	rows := ribbonSorted(xs, tmp, f.hashes, mix)
	f.n = uint64(len(rows))
	f.sealDups = uint64(len(f.hashes) - len(rows))
	if f.n > ribbonMaxKeys {
		f.err = fmt.Errorf("core: a ribbon filter holds at most %d keys, got %d", uint64(ribbonMaxKeys), f.n)
		return f.err
	}
	if f.n == 0 {
		return nil
	}
	m := RibbonRows(f.n, f.width)
	if f.rows != 0 {
		m = f.rows
	}
	b := newRibbonBand(m, f.width)
	mix, err := f.retry("ribbon", "rows", m, RibbonMaxRetries, mix, func(attempt int, mix uint64) bool {
		if attempt > 0 {
			rows = ribbonSorted(xs, tmp, f.hashes, mix)
		}
		return b.band(rows, m, f.bits)
	})
	if err != nil {
		return err
	}
	f.mix = mix
	f.alloc(m)
	f.solve(&b)
	return nil
}

// ribbonSorted mixes every hash with the construction seed into xs,
// sorts them (tmp is scratch of the same length) and drops repeats,
// returning the distinct mixed hashes in increasing order, which is the
// order of their starts. The mix is a bijection, so repeats are exactly
// the repeated hashes.
func ribbonSorted(xs, tmp, hashes []uint64, mix uint64) []uint64 {
	for i, h := range hashes {
		xs[i] = fuseMix(h, mix)
	}
	return slices.Compact(radixSort(xs, tmp))
}

// radixSort sorts xs and returns it sorted, in xs or in tmp, a slice of
// the same length: least significant byte first, skipping a byte that all
// values share. Below a few thousand values it leaves the work to
// slices.Sort. It sorts 10^6 hashes in about a third of slices.Sort's
// time (BenchmarkRibbonSort).
func radixSort(xs, tmp []uint64) []uint64 {
	if len(xs) < 1<<12 {
		slices.Sort(xs)
		return xs
	}
	for shift := uint(0); shift < 64; shift += 8 {
		var count [257]int
		for _, x := range xs {
			count[x>>shift&255+1]++
		}
		if slices.Contains(count[1:], len(xs)) {
			continue
		}
		for d := 1; d < len(count); d++ {
			count[d] += count[d-1]
		}
		for _, x := range xs {
			d := x >> shift & 255
			tmp[count[d]] = x
			count[d]++
		}
		xs, tmp = tmp, xs
	}
	return xs
}

// ribbonRowOf is a key's equation at w = 64 in m rows, from its mixed hash
// x = fuseMix(SipHash, construction seed), a bijection of the SipHash: the
// start s, the coefficient row c (bit j stands for row s + j; bit 0 is
// always set) and the r-bit result. The high bits of x pick s (by
// multiply-shift, so s grows with x), its low r bits are the result, and
// a second mix of it gives c.
func ribbonRowOf(x, m uint64, r int) (s, c uint64, result uint32) {
	s, _ = bits.Mul64(x, m-RibbonWidth+1)
	c = SplitMix(x^ribbonSalt) | 1
	return s, c, uint32(x & (1<<r - 1))
}

// ribbonWideRowOf is ribbonRowOf at w = 128: the start is drawn from
// m - 127 places, the low word of c is the 64-bit coefficient's and the
// high word (bits 64 to 127) a mix of x under ribbonSaltHigh.
func ribbonWideRowOf(x, m uint64, r int) (s, lo, hi uint64, result uint32) {
	s, _ = bits.Mul64(x, m-RibbonWideWidth+1)
	lo = SplitMix(x^ribbonSalt) | 1
	hi = SplitMix(x ^ ribbonSaltHigh)
	return s, lo, hi, uint32(x & (1<<r - 1))
}

// equation is key hash h's equation in the built filter, at its width:
// the start, the coefficient's low and high words (hi 0 at w = 64) and
// the result.
func (f *Ribbon) equation(h uint64) (s, lo, hi uint64, result uint32) {
	x := fuseMix(h, f.mix)
	if f.width == RibbonWideWidth {
		return ribbonWideRowOf(x, f.m, f.bits)
	}
	s, lo, result = ribbonRowOf(x, f.m, f.bits)
	return s, lo, 0, result
}

// ribbonBand is the banding state, reused across attempts: for each
// column, the pivot row that starts there (0 for none) and its result,
// 12 bytes a row at w = 64; at w = 128 the row's high words are in high,
// 20 bytes a row.
type ribbonBand struct {
	coeff  []uint64
	high   []uint64 // nil at w = 64
	result []uint32
}

func newRibbonBand(m uint64, w int) ribbonBand {
	b := ribbonBand{coeff: make([]uint64, m), result: make([]uint32, m)}
	if w == RibbonWideWidth {
		b.high = make([]uint64, m)
	}
	return b
}

// band inserts the row of every mixed hash of xs by on-the-fly Gaussian elimination: a row
// whose start column holds a pivot is xored with it, which clears its
// lowest bit, and moves on to its next set bit, until it finds a free
// column and becomes that column's pivot. A row that reduces to zero was a
// sum of rows already in: with a zero result it is redundant, with another
// the system has no solution and band reports false. Every pivot row at
// column i has its ones in [i, i + w), so reducing never leaves [0, m).
func (b *ribbonBand) band(xs []uint64, m uint64, r int) bool {
	if b.high != nil {
		return b.bandWide(xs, m, r)
	}
	clear(b.coeff)
	clear(b.result)
	for _, x := range xs {
		s, c, res := ribbonRowOf(x, m, r)
		for {
			p := b.coeff[s]
			if p == 0 {
				b.coeff[s], b.result[s] = c, res
				break
			}
			c ^= p
			res ^= b.result[s]
			if c == 0 {
				if res != 0 {
					return false
				}
				break
			}
			tz := bits.TrailingZeros64(c)
			s += uint64(tz)
			c >>= uint(tz)
		}
	}
	return true
}

// bandWide is band at w = 128, a row two words: the same elimination on
// (lo, hi) pairs. It is a loop of its own, not band over pairs with a zero
// high word, so that w = 64 builds pay nothing for the wider band.
func (b *ribbonBand) bandWide(xs []uint64, m uint64, r int) bool {
	clear(b.coeff)
	clear(b.high)
	clear(b.result)
	for _, x := range xs {
		s, lo, hi, res := ribbonWideRowOf(x, m, r)
		for {
			p := b.coeff[s]
			if p == 0 {
				b.coeff[s], b.high[s], b.result[s] = lo, hi, res
				break
			}
			lo ^= p
			hi ^= b.high[s]
			res ^= b.result[s]
			if lo == 0 {
				if hi == 0 {
					if res != 0 {
						return false
					}
					break
				}
				s, lo, hi = s+64, hi, 0 // the low word is spent
			}
			tz := uint(bits.TrailingZeros64(lo))
			s += uint64(tz)
			lo = lo>>tz | hi<<(64-tz) // a shift by 64 gives 0
			hi >>= tz
		}
	}
	return true
}

// solve back-substitutes from the last row to the first. Row i of Z is
// its pivot's result xor the rows its pivot selects above i, which are
// already solved; a column without a pivot is free and left 0. Each result
// bit is a column of Z, kept as a w-bit window of the rows just solved, so
// a row's every bit costs one AND and one parity (as RocksDB's
// SimpleSolutionStorage back-substitution does).
func (f *Ribbon) solve(b *ribbonBand) {
	if b.high != nil {
		f.solveWide(b)
		return
	}
	var window [FuseMaxBits]uint64 // bit j of window[k]: bit k of row i + j
	r := f.bits
	for i := f.m; i > 0; {
		i--
		c, res := b.coeff[i], b.result[i]
		var row uint64
		for k := 0; k < r; k++ {
			w := window[k] << 1
			bit := uint64(bits.OnesCount64(c&w)&1) ^ uint64(res>>k&1)
			window[k] = w | bit
			row |= bit << k
		}
		if c != 0 && row != 0 {
			f.put(i, row)
		}
	}
	f.set = f.Popcount()
}

// solveWide is solve at w = 128: each result bit's window holds the 128
// rows just solved in two words, bit j of hi standing for row i + 64 + j.
func (f *Ribbon) solveWide(b *ribbonBand) {
	var lows, highs [FuseMaxBits]uint64
	r := f.bits
	for i := f.m; i > 0; {
		i--
		lo, hi, res := b.coeff[i], b.high[i], b.result[i]
		var row uint64
		for k := 0; k < r; k++ {
			wl, wh := lows[k]<<1, highs[k]<<1|lows[k]>>63
			bit := uint64((bits.OnesCount64(lo&wl)+bits.OnesCount64(hi&wh))&1) ^ uint64(res>>k&1)
			lows[k], highs[k] = wl|bit, wh
			row |= bit << k
		}
		if lo != 0 && row != 0 {
			f.put(i, row)
		}
	}
	f.set = f.Popcount()
}

// Contains reports whether the rows key's coefficient selects xor to its
// fingerprint; it reads those rows, 1 + (w-1)/2 on average: 32.5 at
// w = 64, 64.5 at w = 128. It
// seals first if keys were added since the last Seal, so it is not safe
// for concurrent use until sealed. An empty filter answers false and a
// filter whose Seal failed answers true (0 rows read).
func (f *Ribbon) Contains(key []byte) (bool, int) {
	if f.dirty {
		f.Seal()
	}
	if f.err != nil || f.m == 0 {
		return f.err != nil, 0
	}
	h, _ := Sip128(f.k0, f.k1, key)
	s, lo, hi, res := f.equation(h)
	r := uint64(f.bits)
	acc := ribbonXor(f.words, s*r, r, lo)
	if hi != 0 {
		acc ^= ribbonXor(f.words, (s+64)*r, r, hi)
	}
	return acc&(1<<r-1) == uint64(res), bits.OnesCount64(lo) + bits.OnesCount64(hi)
}

// ribbonXor xors the rows the set bits j of c select, row j at bit offset
// base + j r of words, unmasked. Each selected row is read as its word and
// the next funnelled together (a shift by 64 gives 0, so a row inside one
// word needs no branch); the caller masks the sum to r bits once.
func ribbonXor(words []uint64, base, r, c uint64) uint64 {
	last := uint64(len(words) - 1)
	acc := uint64(0)
	for ; c != 0; c &= c - 1 {
		off := base + uint64(bits.TrailingZeros64(c))*r
		w, sh := off>>6, off&63
		v := words[w] >> sh
		if w < last {
			v |= words[w+1] << (64 - sh)
		}
		acc ^= v
	}
	return acc
}

// Positions appends the rows key's coefficient selects, in increasing
// order, onto dst[:0], sealing first as Contains does; none when there is
// no solution. There are at most w of them.
func (f *Ribbon) Positions(dst []uint64, key []byte) []uint64 {
	if f.dirty {
		f.Seal()
	}
	dst = dst[:0]
	if f.m == 0 {
		return dst
	}
	h, _ := Sip128(f.k0, f.k1, key)
	s, lo, hi, _ := f.equation(h)
	for ; lo != 0; lo &= lo - 1 {
		dst = append(dst, s+uint64(bits.TrailingZeros64(lo)))
	}
	for ; hi != 0; hi &= hi - 1 {
		dst = append(dst, s+64+uint64(bits.TrailingZeros64(hi)))
	}
	return dst
}

// fingerprint is key's r-bit result, false when there is no solution.
func (f *Ribbon) fingerprint(key []byte) (uint32, bool) {
	if f.m == 0 {
		return 0, false
	}
	h, _ := Sip128(f.k0, f.k1, key)
	_, _, _, res := f.equation(h)
	return res, true
}

// K is w, the rows a key's coefficient can select (it selects about half
// of them); M() is the rows of Z and Cell(i) row i's value.
func (f *Ribbon) K() int { return f.width }

// Width is w, 64 or 128.
func (f *Ribbon) Width() int { return f.width }

// RibbonRate is the Ribbon filter's theory: an absent key's selected rows
// xor to its r-bit result by chance, probability 2^-r.
func RibbonRate(resultBits int) float64 {
	return math.Ldexp(1, -resultBits)
}

// Arithmetic shows the Ribbon filter's mixed hash, start, coefficient,
// fingerprint and the rows the coefficient selects.
func (f *Ribbon) Arithmetic(e *Explanation, key []byte) {
	if f.dirty {
		f.Seal()
	}
	e.K0, e.K1 = f.k0, f.k1
	e.H1, e.H2 = Sip128(e.K0, e.K1, key)
	e.Scheme = "ribbon"
	c := fmt.Sprintf("c = splitmix(x xor %#x) | 1", uint64(ribbonSalt))
	if f.width == RibbonWideWidth {
		c = fmt.Sprintf("c = (splitmix(x xor %#x) << 64) | splitmix(x xor %#x) | 1", uint64(ribbonSaltHigh), uint64(ribbonSalt))
	}
	e.Formula = fmt.Sprintf("x = splitmix(h1 + construction seed); s = floor(x·(m - %d) / 2^64); %s; rows s + j for each set bit j of c; fingerprint = x mod 2^r",
		f.width-1, c)
	if f.m == 0 {
		return
	}
	s, lo, hi, res := f.equation(e.H1)
	e.Ribbon = &ExplainRibbon{ConstructionSeed: f.mix, X: fuseMix(e.H1, f.mix), Start: s, Width: f.width,
		Coefficient: lo, CoefficientHigh: hi, Fingerprint: uint64(res), FingerprintBits: f.bits}
	i := 0
	for half, word := range [2]uint64{lo, hi} {
		for b := word; b != 0; i, b = i+1, b&(b-1) {
			j := 64*half + bits.TrailingZeros64(b)
			e.Steps = append(e.Steps, ExplainStep{I: i, G: word, Shift: uint(j), Position: s + uint64(j)})
		}
	}
}

// KeyFingerprint is key's r-bit result, which its selected rows xor to if
// it is a member; false before the filter is built.
func (f *Ribbon) KeyFingerprint(key []byte) (uint32, bool) { return f.fingerprint(key) }

// Merge refuses: see the error.
func (f *Ribbon) Merge(Membership, bool) (Membership, uint64, error) {
	v := RibbonVariant
	if f.width == RibbonWideWidth {
		v = RibbonWideVariant
	}
	return nil, 0, cannotMerge(v, staticNoMerge)
}
