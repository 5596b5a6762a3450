package core

import (
	"fmt"
	"math"
	"slices"
	"strconv"
)

// FuseVariant is the binary fuse filter's variant: built once from the
// whole key set, sized by n alone, with FuseDefaultBits-bit fingerprints
// unless asked for another width from 1 to 32.
var FuseVariant = Variant{&kind{
	name: "fuse", label: "binary fuse (static, 3-wise)", unit: "cell",
	about:   "built once from the whole key set: a key's three cells xor to its fingerprint (Graf and Lemire, 2022)",
	static:  true,
	ownSize: true,
	terms: Terms{Nonzero: "nonzero cells", Dark: "dark when it is nonzero", Share: "that are nonzero",
		Reads: "cells a query reads", SetBy: "Solved from the keys whose cells include it: %s.", SetByShort: "solved from %s",
		No: "its fingerprint is not where it would be"},
	positions:    "finds its three cells in three consecutive segments from one hash",
	places:       "a key has three cells",
	sizes:        "the fuse filter sizes itself from n, about 1.125 n cells of f bits",
	formula:      "2^-f: an absent key's three cells xor to its f-bit fingerprint by chance",
	fingerprints: FuseFingerprints,
	build: func(s Spec) (Membership, error) {
		if s.FingerprintBits == 0 {
			s.FingerprintBits = FuseDefaultBits
		}
		f, err := NewFuse(s.FingerprintBits, s.Seed)
		if err == nil {
			// Room for the keys it is built for, so collecting them
			// does not reallocate as it grows.
			f.hashes = make([]uint64, 0, min(s.N, MaxItems))
		}
		return f, err
	},
	memoryBits: func(f Membership) uint64 { return f.(*Fuse).MemoryBits() },
	theory:     fuseTheory,
	cheapest:   cheapestFuse,
}}

// cheapestFuse is the fuse filter with the narrowest fingerprint whose
// rate, 2^-f, reaches p, in the array FuseSizeFactor gives n keys.
func cheapestFuse(n uint64, p float64) Sizing {
	f := int(math.Ceil(InfoFloor(p) - 1e-9))
	if f != 0 && !slices.Contains(FuseFingerprints, f) { // 0 asks for the layout's choice, as CheckFingerprintBits reads it
		return Sizing{Why: fmt.Sprintf("needs %d-bit fingerprints, past its %s", f, fingerprintWidths(FuseFingerprints, "and"))}
	}
	bits := uint64(math.Ceil(FuseSizeFactor(3, n)*float64(n))) * uint64(f)
	return Sizing{Spec: Spec{N: n, FingerprintBits: f}, Settings: "f = " + strconv.Itoa(f), Bits: bits, Rate: FuseRate(f), Reaches: true}
}

// FuseSizeFactor is a binary fuse filter's slots per key for n keys: 1.125
// (3-wise) or 1.075 (4-wise) for large n, more for small n, as the authors'
// reference implementation sizes it (Graf and Lemire 2022, section 4).
func FuseSizeFactor(arity int, n uint64) float64 {
	ln := math.Log(float64(max(n, 2)))
	if arity == 4 {
		return math.Max(1.075, 0.77+0.305*math.Log(600000)/ln)
	}
	return math.Max(1.125, 0.875+0.25*math.Log(1000000)/ln)
}

// fuseTheory is FuseRate, which does not vary from filter to filter. Each
// distinct key leaves one of its three cells nonzero unless its
// fingerprint is zero, and the other cells stay zero.
func fuseTheory(f Membership, n uint64) Theory {
	fu := f.(*Fuse)
	rate := FuseRate(fu.FingerprintBits())
	if fu.Keys() > 0 {
		n = fu.Keys()
	}
	return Theory{Rate: rate, ExpectedSet: float64(n) * (1 - rate), ExpectedProbes: 3}
}
