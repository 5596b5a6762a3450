package core

import (
	"encoding/hex"
	"fmt"
	"strings"
)

// Explanation is the arithmetic that takes one key to its positions in a
// filter, every intermediate number shown, so a learner can follow it by
// hand: the SipHash-2-4 of the key under the filter's 128-bit key (derived
// from the lab's seed), its two 64-bit halves h1 and h2, and then each
// probe's value and its reduction into the array. Positions is what the
// filter itself gives for the key: the steps end in exactly these.
type Explanation struct {
	Key    string `json:"key"`
	KeyHex string `json:"keyHex"`
	// K0 and K1 are the SipHash key; H1 and H2 the two halves of the
	// key's 128-bit SipHash-2-4.
	K0 uint64 `json:"k0"`
	K1 uint64 `json:"k1"`
	H1 uint64 `json:"h1"`
	H2 uint64 `json:"h2"`
	// Scheme names the arithmetic below, Formula gives it in one line.
	Scheme  string `json:"scheme"`
	Formula string `json:"formula"`
	// M is the filter's positions; Steps go from the hash to each one.
	M     uint64        `json:"m"`
	Steps []ExplainStep `json:"steps"`
	// Blocked, Cuckoo, Fuse and Ribbon are the choices their layouts make
	// first.
	Blocked *ExplainBlocked `json:"blocked,omitempty"`
	Cuckoo  *ExplainCuckoo  `json:"cuckoo,omitempty"`
	Fuse    *ExplainFuse    `json:"fuse,omitempty"`
	Ribbon  *ExplainRibbon  `json:"ribbon,omitempty"`
	// Links are a scalable filter's links, each with a SipHash key of its
	// own; K0 to H2 above are the first link's.
	Links []ExplainLink `json:"links,omitempty"`
	// Positions are the filter's own positions for the key.
	Positions []uint64 `json:"positions"`
}

// ExplainStep is one probe: its index from 0, the 64-bit value the scheme
// computes for it (G), and the position G is reduced to. For enhanced
// double hashing, A and B are the running position and step, already in
// [0, m); for the blocked filter Shift is the bit offset of the 9-bit slot
// in G.
type ExplainStep struct {
	I        int    `json:"i"`
	G        uint64 `json:"g"`
	A        uint64 `json:"a,omitempty"`
	B        uint64 `json:"b,omitempty"`
	Shift    uint   `json:"shift,omitempty"`
	Position uint64 `json:"position"`
}

// ExplainBlocked is the blocked filter's block choice: block
// floor(h1·blocks / 2^64), whose first bit is Base.
type ExplainBlocked struct {
	Blocks uint64 `json:"blocks"`
	Block  uint64 `json:"block"`
	Base   uint64 `json:"base"`
}

// ExplainCuckoo is the cuckoo filter's fingerprint and buckets:
// fp = 1 + floor(h2·(2^f - 1) / 2^64), i1 = floor(h1·B / 2^64), and
// i2 = g(fp) - i1 mod B with g(fp) = floor(splitmix(fp xor salt)·B / 2^64).
type ExplainCuckoo struct {
	FingerprintBits int    `json:"fingerprintBits"`
	Fingerprint     uint64 `json:"fingerprint"`
	Buckets         uint64 `json:"buckets"`
	Bucket1         uint64 `json:"bucket1"`
	G               uint64 `json:"g"`
	Bucket2         uint64 `json:"bucket2"`
}

// ExplainLink is one link of a scalable filter's chain: its SipHash key
// (from the lab's seed plus i times 0x9e3779b97f4a7c15 for link i), the
// key's two halves under it, its first position, bits and hashes. Its
// probes are the Steps whose positions fall in [Start, Start+M).
type ExplainLink struct {
	K0    uint64 `json:"k0"`
	K1    uint64 `json:"k1"`
	H1    uint64 `json:"h1"`
	H2    uint64 `json:"h2"`
	Start uint64 `json:"start"`
	M     uint64 `json:"m"`
	K     int    `json:"k"`
}

// ExplainFuse is the fuse filter's mixed hash x = splitmix(h1 + seed) for
// the construction seed that built the array, its fingerprint
// (x xor x >> 32) mod 2^f, and its segments.
type ExplainFuse struct {
	ConstructionSeed uint64 `json:"constructionSeed"`
	X                uint64 `json:"x"`
	Fingerprint      uint64 `json:"fingerprint"`
	FingerprintBits  int    `json:"fingerprintBits"`
	SegmentLength    uint64 `json:"segmentLength"`
	Segments         uint64 `json:"segments"`
}

// ExplainRibbon is the Ribbon filter's mixed hash x = splitmix(h1 + seed)
// for the construction seed that solved Z, its start
// s = floor(x·(m - w + 1) / 2^64), its coefficient c = splitmix(x xor
// 0x3c6ef372fe94f82b) | 1, at w = 128 with the high word
// CoefficientHigh = splitmix(x xor 0xa54ff53a5f1d36f1) (bits 64 to 127),
// and its fingerprint x mod 2^r. Its rows are s + j for the set bits j of
// c; each step's Shift is j.
type ExplainRibbon struct {
	ConstructionSeed uint64 `json:"constructionSeed"`
	X                uint64 `json:"x"`
	Start            uint64 `json:"start"`
	Width            int    `json:"width"`
	Coefficient      uint64 `json:"coefficient"`
	CoefficientHigh  uint64 `json:"coefficientHigh,omitempty"`
	Fingerprint      uint64 `json:"fingerprint"`
	FingerprintBits  int    `json:"fingerprintBits"`
}

// Explain works out the arithmetic of key in f. It explains the lab's real
// filters, each layout in its own file; a filter of the fault zoo, which
// computes its positions its own broken way, has none to explain (false).
func Explain(f Membership, key []byte) (Explanation, bool) {
	e := Explanation{Key: string(key), KeyHex: hex.EncodeToString(key), M: f.M()}
	x, ok := f.(Explainer)
	if !ok {
		return Explanation{}, false
	}
	x.Arithmetic(&e, key)
	e.Positions = f.Positions(nil, key)
	return e, true
}

// explainBloom is a standard or counting filter's k probes under hashing.
func (e *Explanation) explainBloom(h Hashing, key []byte, k int, m uint64) {
	e.H1, e.H2 = Sip128(e.K0, e.K1, key)
	switch h {
	case IndependentHashing:
		e.Scheme = string(IndependentHashing)
		e.Formula = "g_i = SipHash-2-4 of the key under (k0, k1 xor probe key i); position = floor(g_i·m / 2^64)"
		for i := range k {
			g := Sip64(e.K0, e.K1^probeKey(i), key)
			e.Steps = append(e.Steps, ExplainStep{I: i, G: g, Position: Reduce(g, m)})
		}
	case EnhancedDoubleHashing:
		e.Scheme = string(EnhancedDoubleHashing)
		e.Formula = "a = floor(h1·m / 2^64), b = floor(h2·m / 2^64); position_i = a; then a = a + b mod m, b = b + (i + 1) mod m"
		a, b := Reduce(e.H1, m), Reduce(e.H2, m)
		for i := range k {
			e.Steps = append(e.Steps, ExplainStep{I: i, A: a, B: b, Position: a})
			a = (a + b) % m
			b = (b + uint64(i+1)) % m
		}
	default:
		e.Scheme = string(DoubleHashing)
		e.Formula = "g_i = h1 + i·(h2 | 1) mod 2^64; position = floor(g_i·m / 2^64)"
		for i := range k {
			g := e.H1 + uint64(i)*(e.H2|1)
			e.Steps = append(e.Steps, ExplainStep{I: i, G: g, Position: Reduce(g, m)})
		}
	}
}

// Lines writes the explanation as the CLI and the key panel show it:
// the scheme and its formula first, then every number in hex and in
// decimal, so it can be checked by hand or with any SipHash.
func (e Explanation) Lines() []string {
	num := func(v uint64) string { return fmt.Sprintf("%#x (%d)", v, v) }
	out := []string{e.Scheme + ": " + e.Formula,
		"key bytes    " + e.KeyHex,
		fmt.Sprintf("SipHash key  k0 = %s, k1 = %s", num(e.K0), num(e.K1)),
		fmt.Sprintf("SipHash-2-4  h1 = %s", num(e.H1)),
		fmt.Sprintf("             h2 = %s", num(e.H2)),
		fmt.Sprintf("m = %d", e.M),
	}
	add := func(format string, a ...any) { out = append(out, fmt.Sprintf(format, a...)) }
	switch {
	case e.Blocked != nil:
		b := e.Blocked
		add("block = floor(h1 * %d / 2^64) = %d, its first bit %d", b.Blocks, b.Block, b.Base)
		for _, s := range e.Steps {
			add("probe %-2d g = %s, bits %d..%d = %d -> bit %d", s.I+1, num(s.G), s.Shift, s.Shift+8, s.Position-b.Base, s.Position)
		}
	case e.Cuckoo != nil:
		c := e.Cuckoo
		add("fingerprint = 1 + floor(h2 * (2^%d - 1) / 2^64) = %s", c.FingerprintBits, num(c.Fingerprint))
		add("bucket i1 = floor(h1 * %d / 2^64) = %d", c.Buckets, c.Bucket1)
		add("bucket i2 = g(fp) - i1 mod %d = %d - %d mod %d = %d", c.Buckets, c.G, c.Bucket1, c.Buckets, c.Bucket2)
		add("slots %d..%d and %d..%d", CuckooSlots*c.Bucket1, CuckooSlots*c.Bucket1+CuckooSlots-1, CuckooSlots*c.Bucket2, CuckooSlots*c.Bucket2+CuckooSlots-1)
	case e.Fuse != nil:
		f := e.Fuse
		add("x = splitmix(h1 + %s) = %s", num(f.ConstructionSeed), num(f.X))
		add("fingerprint = (x xor x >> 32) mod 2^%d = %s", f.FingerprintBits, num(f.Fingerprint))
		add("%d segments of L = %d cells", f.Segments, f.SegmentLength)
		for _, s := range e.Steps {
			add("cell %d = %d", s.I, s.Position)
		}
	case e.Ribbon != nil:
		r := e.Ribbon
		add("x = splitmix(h1 + %s) = %s", num(r.ConstructionSeed), num(r.X))
		add("start s = floor(x * %d / 2^64) = %d", e.M-uint64(r.Width)+1, r.Start)
		if r.Width == RibbonWideWidth {
			add("coefficient c = splitmix(x xor %#x) << 64 | splitmix(x xor %#x) | 1 = 0x%016x%016x, %d bits set",
				uint64(ribbonSaltHigh), uint64(ribbonSalt), r.CoefficientHigh, r.Coefficient, len(e.Steps))
		} else {
			add("coefficient c = splitmix(x xor %#x) | 1 = %#016x, %d bits set", uint64(ribbonSalt), r.Coefficient, len(e.Steps))
		}
		add("fingerprint = x mod 2^%d = %s", r.FingerprintBits, num(r.Fingerprint))
		rows := make([]string, len(e.Steps))
		for i, s := range e.Steps {
			rows[i] = fmt.Sprint(s.Position)
		}
		add("rows s + j for the set bits j of c: %s", strings.Join(rows, ", "))
	case e.Links != nil:
		steps := e.Steps
		for i, l := range e.Links {
			add("link %d: bits %d..%d, m = %d, k = %d", i, l.Start, l.Start+l.M-1, l.M, l.K)
			if i > 0 {
				add("  SipHash key  k0 = %s, k1 = %s", num(l.K0), num(l.K1))
				add("  SipHash-2-4  h1 = %s, h2 = %s", num(l.H1), num(l.H2))
			}
			for _, s := range steps[:l.K] {
				add("  probe %-2d j = %d: g = %s -> %d + floor(g * %d / 2^64) = %d", s.I+1, s.I, num(s.G), l.Start, l.M, s.Position)
			}
			steps = steps[l.K:]
		}
	case e.Scheme == string(EnhancedDoubleHashing):
		for _, s := range e.Steps {
			add("probe %-2d a = %d, b = %d -> %d", s.I+1, s.A, s.B, s.Position)
		}
	default:
		for _, s := range e.Steps {
			add("probe %-2d i = %d: g = %s -> floor(g * %d / 2^64) = %d", s.I+1, s.I, num(s.G), e.M, s.Position)
		}
	}
	return out
}
