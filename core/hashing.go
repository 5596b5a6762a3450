package core

import "fmt"

// Hashing names how a filter turns a key into its k positions. The
// formula p = (1 - e^(-kn/m))^k assumes k independent uniform positions;
// the schemes below trade hashing work against how closely they follow it.
type Hashing string

const (
	// DoubleHashing is g_i = h1 + i*h2 from one SipHash-2-4 call (Kirsch
	// and Mitzenmacher, "Less Hashing, Same Performance", 2006): the
	// lab's default. Its rate matches the formula asymptotically, but in
	// a small filter the k positions of a key are too evenly spread (i*h2
	// steps through the array like a ruler) and the measured rate runs
	// above the formula: about 1.25 times at m = 200, k = 7.
	DoubleHashing Hashing = "double"
	// EnhancedDoubleHashing works in the array's own arithmetic, as its
	// authors give it (Dillinger and Manolios, "Bloom Filters in
	// Probabilistic Verification", 2004): a = h1 and b = h2 reduced into
	// [0, m), then g_i = a + i*b + (i^3 - i)/6 mod m, so the steps between
	// positions differ. (The cubic term added before the reduction would
	// move no position: the reduction keeps only the top bits.)
	EnhancedDoubleHashing Hashing = "enhanced"
	// IndependentHashing computes one SipHash-2-4 a probe, each keyed
	// apart: the independent positions the formula assumes, at k times the
	// hashing cost.
	IndependentHashing Hashing = "independent"
)

// Hashings lists the schemes in a stable order, the default first.
var Hashings = []Hashing{DoubleHashing, EnhancedDoubleHashing, IndependentHashing}

// ParseHashing accepts a scheme's name; "" means double hashing.
func ParseHashing(s string) (Hashing, error) {
	if s == "" {
		return DoubleHashing, nil
	}
	for _, h := range Hashings {
		if string(h) == s {
			return h, nil
		}
	}
	return "", fmt.Errorf("core: unknown hashing %q, want double, enhanced or independent", s)
}

// Describe says in a line how the scheme finds a key's positions.
func (h Hashing) Describe() string {
	switch h {
	case EnhancedDoubleHashing:
		return "enhanced double hashing: a + i*b + (i^3 - i)/6 mod m, one SipHash a key"
	case IndependentHashing:
		return "independent hashes: one SipHash a probe, the positions the formula assumes"
	}
	return "double hashing: h1 + i*h2, one SipHash a key"
}

// positions appends the k positions in [0, m) of key under scheme h onto
// dst[:0]. Double hashing gives what Probe gives.
func (h Hashing) positions(dst []uint64, k0, k1 uint64, key []byte, k int, m uint64) []uint64 {
	dst = dst[:0]
	switch h {
	case IndependentHashing:
		for i := 0; i < k; i++ {
			dst = append(dst, Reduce(Sip64(k0, k1^probeKey(i), key), m))
		}
	case EnhancedDoubleHashing:
		h1, h2 := Sip128(k0, k1, key)
		x, y := Reduce(h1, m), Reduce(h2, m)
		for i := 0; i < k; i++ {
			dst = append(dst, x)
			x = (x + y) % m
			y = (y + uint64(i+1)) % m
		}
	default:
		h1, h2 := Sip128(k0, k1, key)
		for i := 0; i < k; i++ {
			dst = append(dst, Probe(h1, h2, i, m))
		}
	}
	return dst
}

// probeKey keys probe i's SipHash apart from every other probe's.
func probeKey(i int) uint64 { return SplitMix(uint64(i) + 0x243f6a8885a308d3) }
