package core

import (
	"fmt"
	"math"
	"slices"
)

// CuckooVariant is the cuckoo filter's variant. Its m is a memory budget in
// bits. Asked for no fingerprint width, it takes the widest of 16, 12 and 8
// bits whose table holds the n keys it is built for within cuckooFull of its
// slots, or 8 bits when none does (and the inserts past the table's
// capacity fail, as they would).
var CuckooVariant = Variant{&kind{
	name: "cuckoo", label: "cuckoo (4-slot buckets)", unit: "slot",
	about:   "fingerprints in buckets of four slots, two buckets a key, with removal (Fan, Andersen, Kaminsky and Mitzenmacher, 2014)",
	deletes: true, bounded: true, terms: cuckooTerms, slots: true,
	positions:    "finds its two buckets and its fingerprint in one SipHash output",
	places:       "a key has two buckets of four slots",
	formula:      "1 - (1 - load/(2^f - 1))^8: a query compares its f-bit fingerprint with the 8 slots of its two buckets",
	fingerprints: CuckooFingerprints,
	width:        func(m, n uint64) int { return cuckooWidth(m, n, CuckooFingerprints, false) },
	cheapest:     func(n uint64, p float64) Sizing { return cheapestCuckoo(CuckooFingerprints, false, n, p) },
	build: func(s Spec) (Membership, error) {
		f := s.FingerprintBits
		if f == 0 {
			f = cuckooWidth(s.M, s.N, CuckooFingerprints, false)
		}
		return NewCuckoo(s.M, f, s.Seed)
	},
	memoryBits: func(f Membership) uint64 { return f.(*Cuckoo).MemoryBits() },
	theory:     cuckooTheory,
}}

// SemiSortedVariant is the cuckoo filter with semi-sorted buckets, 4(f-1)
// bits a bucket. Its m is a memory budget in bits. Asked for no width, it
// takes the widest of 16 down to 5 bits whose table holds the n keys within
// cuckooFull of its slots, or 5 when none does. Semi-sorting changes the
// space, not what a query compares, so its theory is the plain filter's at
// the same f and load.
var SemiSortedVariant = Variant{&kind{
	name: "cuckoo-ss", label: "semi-sorted cuckoo", unit: "slot",
	about:   "a cuckoo filter whose buckets keep their four fingerprints sorted and code the four 4-bit prefixes in 12 bits, one bit a slot less, with removal (Fan, Andersen, Kaminsky and Mitzenmacher, 2014, section 5.2)",
	deletes: true, bounded: true, terms: cuckooTerms, slots: true,
	positions:    "finds its two buckets and its fingerprint in one SipHash output",
	places:       "a key has two buckets of four slots, kept sorted",
	formula:      "1 - (1 - load/(2^f - 1))^8: a query compares its f-bit fingerprint with the 8 slots of its two buckets; semi-sorting saves space, not comparisons",
	fingerprints: SemiSortedFingerprints,
	width:        func(m, n uint64) int { return cuckooWidth(m, n, SemiSortedFingerprints, true) },
	cheapest:     func(n uint64, p float64) Sizing { return cheapestCuckoo(SemiSortedFingerprints, true, n, p) },
	build: func(s Spec) (Membership, error) {
		f := s.FingerprintBits
		if f == 0 {
			f = cuckooWidth(s.M, s.N, SemiSortedFingerprints, true)
		}
		return NewSemiSortedCuckoo(s.M, f, s.Seed)
	},
	memoryBits: func(f Membership) uint64 { return f.(*Cuckoo).MemoryBits() },
	theory:     cuckooTheory,
}}

// cuckooTerms are the cuckoo filters' words: a slot holds one key's
// fingerprint, or none.
var cuckooTerms = Terms{
	Nonzero: "occupied slots", Dark: "dark when it holds a fingerprint", Share: "that hold a fingerprint",
	Reads: "slots a query reads", SetBy: "Its fingerprint is that of %s: one of them is stored here.",
	SetByShort: "matches: stored by one of %s", No: "its fingerprint is not where it would be", Empty: "empty",
}

// cuckooFull is the load a table of 4-slot buckets reaches before inserts
// start to fail: about 95% (the paper, section 5.1).
const cuckooFull = 0.95

// cuckooWidth is the widest of widths (ascending) whose table, in m bits,
// holds n keys at cuckooFull or below; the narrowest when none does.
func cuckooWidth(m, n uint64, widths []int, semi bool) int {
	for _, f := range slices.Backward(widths) {
		if slots := m / cuckooBucketBits(f, semi) * CuckooSlots; float64(slots)*cuckooFull >= float64(n) {
			return f
		}
	}
	return widths[0]
}

// cuckooTheory is CuckooRate at the load the filter holds (at n keys for an
// empty one). Given the load, a filter's rate barely varies: every slot is
// one of eight some absent key reads. An absent key reads its eight slots,
// four when its two buckets coincide (one bucket in B), and the stash when
// it holds a fingerprint, stopping at the first slot that matches, which
// each does with probability q = load/(2^f - 1): sum_{j<s} (1-q)^j slots.
func cuckooTheory(f Membership, n uint64) Theory {
	c := f.(*Cuckoo)
	load := c.Load()
	if c.Count() == 0 {
		load = min(1, float64(n)/float64(c.M()))
	}
	slots := 2*CuckooSlots - float64(CuckooSlots)/float64(c.Buckets())
	if c.Count() > c.SetBits() {
		slots++
	}
	probes := slots
	if q := load / float64(uint64(1)<<c.FingerprintBits()-1); q > 0 {
		probes = (1 - math.Pow(1-q, slots)) / q
	}
	return Theory{Rate: CuckooRate(c.FingerprintBits(), load), ExpectedSet: load * float64(c.M()), ExpectedProbes: probes}
}

// cheapestCuckoo is the narrowest of widths whose rate at the load the
// filter is built for, 1 - (1 - load/(2^f - 1))^8, reaches p, in the
// fewest buckets that hold n keys at that load: f bits a slot for the plain
// filter, f - 1 for the semi-sorted one (Fan et al. 2014, section 5.2).
func cheapestCuckoo(widths []int, semi bool, n uint64, p float64) Sizing {
	widths = slices.Clone(widths)
	slices.Sort(widths)
	for _, f := range widths {
		if CuckooRate(f, cuckooFull) > p {
			continue
		}
		buckets := uint64(math.Ceil(float64(n) / (CuckooSlots * cuckooFull)))
		bits := buckets * cuckooBucketBits(f, semi)
		return Sizing{Spec: Spec{M: bits, N: n, FingerprintBits: f},
			Settings: fmt.Sprintf("f = %d, %s buckets", f, FormatCount(buckets)), Bits: bits, Rate: CuckooRate(f, cuckooFull), Reaches: true}
	}
	f := widths[len(widths)-1]
	return Sizing{Why: fmt.Sprintf("its widest fingerprint, %d bits, gives %.3g%% at full load", f, 100*CuckooRate(f, cuckooFull))}
}
