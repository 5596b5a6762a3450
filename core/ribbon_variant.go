package core

import (
	"fmt"
	"math"
	"slices"
)

// RibbonVariant is the standard Ribbon filter's variant at w = 64: built
// once from the whole key set, sized by n alone, with RibbonDefaultBits-bit
// results unless asked for another width from 1 to 32. Its texts name the
// width as written (TestRibbonTextsNameWidth holds them to RibbonWidth), so
// the record is a literal, not built at the program's start.
var RibbonVariant = Variant{&kind{
	name: "ribbon", label: "Ribbon (static, w = 64)", unit: "row",
	about:        "built once from the whole key set: the rows a key's 64-bit coefficient selects xor to its fingerprint (Dillinger and Walzer, 2021)",
	static:       true,
	ownSize:      true,
	terms:        ribbonTerms,
	positions:    "selects its rows by a 64-bit coefficient from a start drawn from one hash",
	places:       "a key selects about half the 64 rows from its start",
	sizes:        "the Ribbon filter sizes itself from n, about 1.1 n rows of r bits",
	formula:      ribbonFormula,
	fingerprints: RibbonFingerprints,
	build:        func(s Spec) (Membership, error) { return ribbonFor(s, RibbonWidth) },
	memoryBits:   ribbonMemoryBits,
	theory:       ribbonTheory,
	cheapest:     func(n uint64, p float64) Sizing { return cheapestRibbon(RibbonWidth, n, p) },
}}

// RibbonWideVariant is the same filter at w = 128, RocksDB's width: about
// 0.05 n fewer rows (RibbonOverhead) for queries that read twice the rows.
var RibbonWideVariant = Variant{&kind{
	name: "ribbon-128", label: "Ribbon (static, w = 128)", unit: "row",
	about:        "built once from the whole key set: the rows a key's 128-bit coefficient selects xor to its fingerprint (Dillinger and Walzer, 2021)",
	static:       true,
	ownSize:      true,
	terms:        ribbonTerms,
	positions:    "selects its rows by a 128-bit coefficient from a start drawn from one hash",
	places:       "a key selects about half the 128 rows from its start",
	sizes:        "the Ribbon filter sizes itself from n, about 1.05 n rows of r bits",
	formula:      ribbonFormula,
	fingerprints: RibbonFingerprints,
	build:        func(s Spec) (Membership, error) { return ribbonFor(s, RibbonWideWidth) },
	memoryBits:   ribbonMemoryBits,
	theory:       ribbonTheory,
	cheapest:     func(n uint64, p float64) Sizing { return cheapestRibbon(RibbonWideWidth, n, p) },
}}

// ribbonTerms is what the lab says of a Ribbon filter's rows. A query reads
// the rows its coefficient selects, about half of the w in its window.
var ribbonTerms = Terms{Nonzero: "nonzero rows", Dark: "dark when it is nonzero", Share: "that are nonzero",
	Reads: "rows a query may read", SetBy: "Solved from the keys whose coefficients select it: %s.", SetByShort: "solved from %s",
	No: "its rows do not xor to its fingerprint"}

const ribbonFormula = "2^-r: the rows an absent key selects xor to its r-bit fingerprint by chance"

// ribbonFor is the Ribbon filter of width w for s, with room for s.N
// keys' hashes.
func ribbonFor(s Spec, w int) (Membership, error) {
	if s.FingerprintBits == 0 {
		s.FingerprintBits = RibbonDefaultBits
	}
	f, err := NewRibbonWidth(s.FingerprintBits, w, s.Seed)
	if err == nil {
		f.hashes = make([]uint64, 0, min(s.N, MaxItems))
	}
	return f, err
}

func ribbonMemoryBits(f Membership) uint64 { return f.(*Ribbon).MemoryBits() }

// cheapestRibbon is the Ribbon filter of width w with the fewest result
// bits whose rate, 2^-r, reaches p, in the rows it builds for n keys.
func cheapestRibbon(w int, n uint64, p float64) Sizing {
	r := int(math.Ceil(InfoFloor(p) - 1e-9))
	if r != 0 && !slices.Contains(RibbonFingerprints, r) { // 0 asks for the layout's choice, as CheckFingerprintBits reads it
		return Sizing{Why: fmt.Sprintf("needs %d-bit results, past its %s", r, fingerprintWidths(RibbonFingerprints, "and"))}
	}
	rows := RibbonRows(n, w)
	return Sizing{Spec: Spec{N: n, FingerprintBits: r}, Settings: fmt.Sprintf("r = %d, %s rows", r, FormatCount(rows)),
		Bits: satMul(rows, uint64(r)), Rate: RibbonRate(r), Reaches: true}
}

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
	return Theory{Rate: rate, ExpectedSet: float64(n) * (1 - rate), ExpectedProbes: 1 + float64(rb.Width()-1)/2}
}
