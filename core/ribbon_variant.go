package core

import "fmt"

// RibbonVariant is the standard Ribbon filter's variant: built once from
// the whole key set, sized by n alone, with RibbonDefaultBits-bit results
// unless asked for another width from 1 to 32.
var RibbonVariant = Variant{&kind{
	name: "ribbon", label: fmt.Sprintf("Ribbon (static, w = %d)", RibbonWidth), unit: "row",
	about:        fmt.Sprintf("built once from the whole key set: the rows a key's %d-bit coefficient selects xor to its fingerprint (Dillinger and Walzer, 2021)", RibbonWidth),
	static:       true,
	ownSize:      true,
	positions:    fmt.Sprintf("selects its rows by a %d-bit coefficient from a start drawn from one hash", RibbonWidth),
	places:       fmt.Sprintf("a key selects about half the %d rows from its start", RibbonWidth),
	sizes:        "the Ribbon filter sizes itself from n, about 1.1 n rows of r bits",
	formula:      "2^-r: the rows an absent key selects xor to its r-bit fingerprint by chance",
	fingerprints: RibbonFingerprints,
	build: func(s Spec) (Membership, error) {
		if s.FingerprintBits == 0 {
			s.FingerprintBits = RibbonDefaultBits
		}
		f, err := NewRibbon(s.FingerprintBits, s.Seed)
		if err == nil {
			f.hashes = make([]uint64, 0, min(s.N, MaxItems))
		}
		return f, err
	},
	memoryBits: func(f Membership) uint64 { return f.(*Ribbon).MemoryBits() },
	theory:     ribbonTheory,
}}

// ribbonTheory is RibbonRate, which does not vary from filter to filter
// (the fuse filter's theory says the same). Each distinct key is the pivot
// of one row, nonzero unless its solved value is zero (one chance in 2^r),
// and the free rows stay zero; a query reads its coefficient's set bits,
// the lowest always and each of the other w - 1 one time in two.
func ribbonTheory(f Membership, n uint64) Theory {
	rb := f.(*Ribbon)
	rate := RibbonRate(rb.FingerprintBits())
	if rb.Keys() > 0 {
		n = rb.Keys()
	}
	return Theory{Rate: rate, ExpectedSet: float64(n) * (1 - rate), ExpectedProbes: 1 + float64(RibbonWidth-1)/2}
}
