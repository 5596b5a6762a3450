package core

import (
	"math/bits"

	"github.com/dchest/siphash"
)

// SipKey derives the 128-bit SipHash key from the lab's 64-bit seed with
// SplitMix64, so neighbouring seeds give unrelated keys.
func SipKey(seed uint64) (k0, k1 uint64) {
	return SplitMix(seed), SplitMix(seed ^ 0x6a09e667f3bcc909)
}

// Sip128 hashes key with SipHash-2-4 and returns the two 64-bit halves of its
// 128-bit output, the bases of double hashing.
func Sip128(k0, k1 uint64, key []byte) (h1, h2 uint64) {
	return siphash.Hash128(k0, k1, key)
}

// Sip64 is SipHash-2-4 with its 64-bit output, for the reference vectors.
func Sip64(k0, k1 uint64, key []byte) uint64 {
	return siphash.Hash(k0, k1, key)
}

// Reduce maps a 64-bit hash into [0, m) as floor(h*m / 2^64) (Lemire, "Fast
// Random Integer Generation in an Interval", 2019). The result is below m for
// every m >= 1 by construction: h < 2^64 gives h*m < m*2^64. For m = 0 it
// returns 0.
func Reduce(h, m uint64) uint64 {
	hi, _ := bits.Mul64(h, m)
	return hi
}

// Probe returns the i-th of k probe positions in [0, m): Reduce(h1 + i*h2).
// h2 is forced odd so that the k positions stay distinct modulo 2^64.
func Probe(h1, h2 uint64, i int, m uint64) uint64 {
	return Reduce(h1+uint64(i)*(h2|1), m)
}

// SplitMix is SplitMix64's output function (Steele, Lea and Flood, 2014):
// a bijection on uint64 with full avalanche.
func SplitMix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
