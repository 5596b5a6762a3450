package core

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
}}

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
