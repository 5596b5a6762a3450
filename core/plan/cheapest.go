package plan

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"bloomlab/core"
)

// Sized is one of the lab's structures at the fewest bits its own theory
// needs for n keys at rate p: the frontier experiment builds and measures
// these, and the calculator prices them by what a user needs.
type Sized struct {
	Name    string       `json:"name"`
	Variant core.Variant `json:"variant"`
	Spec    core.Spec    `json:"-"`
	// Settings are the choices in words ("k = 7", "f = 12, 264 buckets").
	Settings string `json:"settings"`
	// Bits is the memory the theory sizes (a fuse filter's array from its
	// size factor, which the built filter matches to a fraction of a
	// percent), and Rate the theory's rate at that size, at most p.
	Bits uint64  `json:"bits"`
	Rate float64 `json:"fpr"`
	// Reaches is false when no filter of the structure reaches p, and Why
	// then says why.
	Reaches bool   `json:"reaches"`
	Why     string `json:"why,omitempty"`
}

// BitsPerKey is s's memory over n keys.
func (s Sized) BitsPerKey(n uint64) float64 { return float64(s.Bits) / float64(n) }

// builtLoad is the load the lab's cuckoo filter is built for: inserts into
// 4-slot buckets start to fail near 95% (Fan et al. 2014, section 5.1).
const builtLoad = 0.95

// Cheapest sizes n keys at rate p in each of the lab's structures: the
// standard filter (m from the formula at the rounded optimal k), the blocked
// filter (whole 512-bit blocks, its best k by the exact mixture of block
// fills), the counting filter (the standard shape, 4-bit counters), the
// cuckoo filter, plain and semi-sorted (the narrowest of its fingerprints
// that reaches p at full load), the binary fuse filter (f = ceil(log2(1/p)))
// and the Ribbon filter (r = ceil(log2(1/p))). The work is a few
// hundred evaluations of the blocked rate, whatever n and p.
func Cheapest(n uint64, p float64) []Sized {
	std := cheapestStandard(n, p)
	counting := std
	counting.Name, counting.Variant = "counting", core.CountingVariant
	if counting.Reaches {
		counting.Settings += ", 4-bit counters"
		counting.Bits = satMul(std.Bits, countingBits)
	}
	return []Sized{std, cheapestBlocked(n, p), counting, cheapestCuckoo(core.CuckooVariant, n, p),
		cheapestCuckoo(core.SemiSortedVariant, n, p), cheapestFuse(n, p), cheapestRibbon(n, p)}
}

// notWithin is the Sized of a structure that no size up to MaxBitsPerKey,
// the plan's own bound, brings to p.
func notWithin(name string, v core.Variant) Sized {
	return Sized{Name: name, Variant: v, Why: "not within " + strconv.Itoa(MaxBitsPerKey) + " bits per key"}
}

// cheapestStandard is the smallest m whose formula rate at the rounded
// optimal k reaches p: from n log2(1/p) / ln 2 it steps up 0.1% at a time
// until the rate reaches p, then bisects down to the edge (the rounding of
// k makes the rate a little ragged in m, so the edge found is one where m
// reaches p and m - 1 does not). A few thousand rates at most.
func cheapestStandard(n uint64, p float64) Sized {
	reaches := func(m uint64) bool { return core.Rate(m, n, core.OptimalK(m, n)) <= p }
	hi := max(1, uint64(math.Ceil(float64(n)*core.InfoFloor(p)/math.Ln2)))
	limit := satMul(MaxBitsPerKey, n)
	for hi <= limit && !reaches(hi) {
		hi += max(1, hi/1000)
	}
	if hi > limit {
		return notWithin("standard", core.Standard)
	}
	lo := hi / 2
	if lo < 1 || reaches(lo) {
		lo = 0
	}
	for hi-lo > 1 { // reaches(hi), and lo is 0 or does not reach
		mid := lo + (hi-lo)/2
		if reaches(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	m := hi
	k := core.OptimalK(m, n)
	return Sized{Name: "standard", Variant: core.Standard, Spec: core.Spec{M: m, K: k, N: n}, Settings: "k = " + itoa(k),
		Bits: m, Rate: core.Rate(m, n, k), Reaches: true}
}

// cheapestBlocked is the fewest whole blocks whose exact rate at its best
// k reaches p, found by bisection: the best rate falls as blocks are added.
func cheapestBlocked(n uint64, p float64) Sized {
	reaches := func(b uint64) bool {
		m := b * core.BlockSize
		return core.BlockedRateExact(m, n, BlockedBestK(m, n)) <= p
	}
	lo, hi := uint64(1), max(1, satMul(MaxBitsPerKey, n)/core.BlockSize)
	if !reaches(hi) {
		return notWithin("blocked", core.BlockedVariant)
	}
	for lo < hi {
		mid := lo + (hi-lo)/2
		if reaches(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	m := hi * core.BlockSize
	k := BlockedBestK(m, n)
	return Sized{Name: "blocked", Variant: core.BlockedVariant, Spec: core.Spec{M: m, K: k, N: n},
		Settings: fmt.Sprintf("k = %d, %d blocks", k, hi), Bits: m, Rate: core.BlockedRateExact(m, n, k), Reaches: true}
}

// BlockedBestK is the k whose exact blocked rate (core.BlockedRateExact) is
// lowest at m bits for n keys: the rate is unimodal in k and its optimum
// sits at or a little below the standard filter's, so the walk starts there.
func BlockedBestK(m, n uint64) int {
	k := core.OptimalK(m, n)
	best := core.BlockedRateExact(m, n, k)
	for _, step := range []int{-1, 1} {
		for next := k + step; next >= 1 && next <= core.MaxK; next += step {
			r := core.BlockedRateExact(m, n, next)
			if r >= best {
				break
			}
			k, best = next, r
		}
	}
	return k
}

// cheapestCuckoo is the narrowest of v's fingerprints whose rate at the
// load it is built for, 1 - (1 - load/(2^f - 1))^8, reaches p, in the
// fewest buckets that hold n keys at that load: f bits a slot for the plain
// filter, f - 1 for the semi-sorted one (Fan et al. 2014, section 5.2).
func cheapestCuckoo(v core.Variant, n uint64, p float64) Sized {
	widths := slices.Clone(v.Fingerprints())
	slices.Sort(widths)
	for _, f := range widths {
		if core.CuckooRate(f, builtLoad) > p {
			continue
		}
		slot := uint64(f)
		if v == core.SemiSortedVariant {
			slot--
		}
		buckets := uint64(math.Ceil(float64(n) / (core.CuckooSlots * builtLoad)))
		bits := buckets * core.CuckooSlots * slot
		return Sized{Name: v.Name(), Variant: v, Spec: core.Spec{M: bits, N: n, FingerprintBits: f},
			Settings: fmt.Sprintf("f = %d, %d buckets", f, buckets), Bits: bits, Rate: core.CuckooRate(f, builtLoad), Reaches: true}
	}
	f := widths[len(widths)-1]
	return Sized{Name: v.Name(), Variant: v,
		Why: fmt.Sprintf("its widest fingerprint, %d bits, gives %.3g%% at full load", f, 100*core.CuckooRate(f, builtLoad))}
}

// cheapestRibbon is the Ribbon filter with the fewest result bits whose
// rate, 2^-r, reaches p, in the rows it builds for n keys.
func cheapestRibbon(n uint64, p float64) Sized {
	r := int(math.Ceil(core.InfoFloor(p) - 1e-9))
	if core.RibbonVariant.CheckFingerprintBits(r) != nil {
		return Sized{Name: "ribbon", Variant: core.RibbonVariant,
			Why: fmt.Sprintf("needs %d-bit results, past its %s", r, core.RibbonVariant.FingerprintWidths("and"))}
	}
	rows := core.RibbonRows(n, core.RibbonWidth)
	return Sized{Name: "ribbon", Variant: core.RibbonVariant, Spec: core.Spec{N: n, FingerprintBits: r},
		Settings: fmt.Sprintf("r = %d, %d rows", r, rows), Bits: satMul(rows, uint64(r)), Rate: core.RibbonRate(r), Reaches: true}
}

// cheapestFuse is the fuse filter with the narrowest fingerprint whose
// rate, 2^-f, reaches p.
func cheapestFuse(n uint64, p float64) Sized {
	f := int(math.Ceil(core.InfoFloor(p) - 1e-9))
	if core.FuseVariant.CheckFingerprintBits(f) != nil {
		return Sized{Name: "fuse", Variant: core.FuseVariant,
			Why: fmt.Sprintf("needs %d-bit fingerprints, past its %s", f, core.FuseVariant.FingerprintWidths("and"))}
	}
	bits := uint64(math.Ceil(FuseSizeFactor(3, n)*float64(n))) * uint64(f)
	return Sized{Name: "fuse", Variant: core.FuseVariant, Spec: core.Spec{N: n, FingerprintBits: f},
		Settings: "f = " + itoa(f), Bits: bits, Rate: core.FuseRate(f), Reaches: true}
}

// Need is what a user needs of a structure besides answering membership.
type Need struct {
	Name   string
	Offers func(v core.Variant) bool
}

// Needs are the needs the calculator prices, the least demanding first: a
// set known in advance may go into a static filter; keys that come over
// time need inserts; keys that leave need removal.
var Needs = []Need{
	{"a set known in advance, built once", func(core.Variant) bool { return true }},
	{"inserts at any time", func(v core.Variant) bool { return !v.Static() }},
	{"inserts and removal", func(v core.Variant) bool { return !v.Static() && v.Deletes() }},
}

// CheapestFor returns, for each of Needs in order, the index in sized of
// the structure that reaches p in the fewest bits and offers the need, or
// -1 when none does.
func CheapestFor(sized []Sized) []int {
	out := make([]int, len(Needs))
	for ni, need := range Needs {
		out[ni] = -1
		for i, s := range sized {
			if s.Reaches && need.Offers(s.Variant) && (out[ni] < 0 || s.Bits < sized[out[ni]].Bits) {
				out[ni] = i
			}
		}
	}
	return out
}
