package plan

import (
	"math"
	"strconv"

	"bloomlab/core"
)

// Alternative is what one structure costs for the same n and p, from its
// paper's formula alone: nothing here is built or measured.
type Alternative struct {
	ID         string  `json:"id"`
	Name       string  `json:"name"`
	Bits       uint64  `json:"bits"`
	BitsPerKey float64 `json:"bitsPerKey"`
	// Rate is the false-positive rate the structure reaches at this size,
	// which for fingerprint filters is set by the whole fingerprint bits.
	Rate float64 `json:"fpr"`
	// K is the hashes per key of the Bloom rows; Fingerprint the bits per
	// fingerprint of the others.
	K           int  `json:"k,omitempty"`
	Fingerprint int  `json:"fingerprintBits,omitempty"`
	Deletes     bool `json:"deletes"`
	Static      bool `json:"static"` // built once from the whole set; no inserts after
	// Unreachable marks a structure that cannot reach p at any size tried;
	// Bits and Rate are then zero.
	Unreachable bool   `json:"unreachable,omitempty"`
	Note        string `json:"note"`
	Source      string `json:"source"`
}

// Constants from the papers.
const (
	// A cuckoo filter with 4-slot buckets fills to 95.5% before an insert
	// fails (Fan et al. 2014, section 5.1), and its rate is at most 2b/2^f
	// for b slots per bucket and f-bit fingerprints (section 4, eq. 6).
	cuckooBucket = 4
	cuckooLoad   = 0.955
	// An xor filter has 1.23 n + 32 fingerprint slots (Graf and Lemire
	// 2020, section 3).
	xorFactor = 1.23
	xorExtra  = 32
	// countingBits is the counter width that makes overflow negligible
	// (Fan, Cao, Almeida and Broder 2000, section 5.2).
	countingBits = 4
)

// Sources, named in every row so an engineer can check the formula.
const (
	srcBloom    = "Bloom 1970; Broder and Mitzenmacher, Network Applications of Bloom Filters, 2004"
	srcBlocked  = "Putze, Sanders and Singler, Cache-, Hash- and Space-Efficient Bloom Filters, 2007"
	srcCounting = "Fan, Cao, Almeida and Broder, Summary Cache, 2000"
	srcCuckoo   = "Fan, Andersen, Kaminsky and Mitzenmacher, Cuckoo Filter: Practically Better Than Bloom, 2014"
	srcXor      = "Graf and Lemire, Xor Filters: Faster and Smaller Than Bloom and Cuckoo Filters, 2020"
	srcFuse     = "Graf and Lemire, Binary Fuse Filters: Fast and Smaller Than Xor Filters, 2022"
)

// Alternatives prices n keys at rate p (the plan's m bits for the Bloom
// filter itself) in a standard, blocked and counting Bloom filter, a cuckoo
// filter (fingerprints for p, and fixed 8 and 12 bits), an xor filter and
// 3- and 4-wise binary fuse filters.
// A k of 0 is the optimal one, (m/n) ln 2 rounded.
func Alternatives(n, m uint64, p float64, k int) []Alternative {
	alts, _ := alternatives(n, m, p, k)
	return alts
}

// alternatives is Alternatives with the blocked searches' work, counted in
// terms of core.BlockedRateCounted.
func alternatives(n, m uint64, p float64, k int) ([]Alternative, int) {
	var search blockedSearch
	note := "k = " + itoa(k) + ", as given"
	if k == 0 || k == core.OptimalK(m, n) {
		k = core.OptimalK(m, n)
		note = "k = " + itoa(k) + ", rounded from (m/n) ln 2"
	}
	out := []Alternative{{
		ID: "bloom", Name: "Bloom filter (this plan)", Bits: m, Rate: core.Rate(m, n, k), K: k,
		Note: note, Source: srcBloom,
	}}

	bk, brate := search.best(m, n)
	out = append(out, Alternative{
		ID: "blocked-same-m", Name: "Blocked Bloom, 512-bit blocks, same memory", Bits: m, Rate: brate, K: bk,
		Note: "best k = " + itoa(bk) + "; each query reads one cache line", Source: srcBlocked,
	})
	if bm, bk, brate, ok := search.bitsFor(n, p, m); ok {
		out = append(out, Alternative{
			ID: "blocked-same-p", Name: "Blocked Bloom, 512-bit blocks, same rate", Bits: bm, Rate: brate, K: bk,
			Note: "k = " + itoa(bk) + "; the smallest whole number of blocks that reaches p", Source: srcBlocked,
		})
	} else {
		out = append(out, Alternative{
			ID: "blocked-same-p", Name: "Blocked Bloom, 512-bit blocks, same rate", Unreachable: true,
			Note: "cannot reach p within 64 times the memory (or 2^63 bits): keys pile up in some blocks", Source: srcBlocked,
		})
	}

	out = append(out, Alternative{
		ID: "counting", Name: "Counting Bloom, 4-bit counters", Bits: satMul(m, countingBits), Rate: core.Rate(m, n, k), K: k,
		Deletes: true, Note: "the same rate, four bits per position; supports removal", Source: srcCounting,
	})

	fp := int(math.Ceil(math.Log2(2 * cuckooBucket / p)))
	out = append(out,
		cuckoo(n, max(fp, 1), "cuckoo-p", "Cuckoo filter, fingerprint for p"),
		cuckoo(n, 8, "cuckoo-8", "Cuckoo filter, 8-bit fingerprints"),
		cuckoo(n, 12, "cuckoo-12", "Cuckoo filter, 12-bit fingerprints"),
	)

	f := max(1, int(math.Ceil(core.InfoFloor(p))))
	fpRate := math.Ldexp(1, -f)
	xorBits := math.Ceil((xorFactor*float64(n) + xorExtra) * float64(f))
	out = append(out, Alternative{
		ID: "xor", Name: "Xor filter", Bits: uint64(xorBits), Rate: fpRate, Static: true, Fingerprint: f,
		Note: itoa(f) + "-bit fingerprints in 1.23 n + 32 slots; built once from the whole set", Source: srcXor,
	})
	for _, fuse := range []struct {
		id, name string
		arity    int
	}{{"fuse-3", "Binary fuse filter, 3-wise", 3}, {"fuse-4", "Binary fuse filter, 4-wise", 4}} {
		factor := FuseSizeFactor(fuse.arity, n)
		bits := math.Ceil(factor * float64(n) * float64(f))
		out = append(out, Alternative{
			ID: fuse.id, Name: fuse.name, Bits: uint64(bits), Rate: fpRate, Static: true, Fingerprint: f,
			Note: itoa(f) + "-bit fingerprints in " + trim3(factor) + " n slots; built once from the whole set", Source: srcFuse,
		})
	}
	for i := range out {
		if out[i].Bits > 0 {
			out[i].BitsPerKey = float64(out[i].Bits) / float64(n)
		}
	}
	return out, search.terms
}

// cuckoo prices a cuckoo filter with f-bit fingerprints: n/α slots of f bits,
// rate 2b/2^f (capped at 1).
func cuckoo(n uint64, f int, id, name string) Alternative {
	bits := math.Ceil(float64(n) * float64(f) / cuckooLoad)
	return Alternative{
		ID: id, Name: name, Bits: uint64(bits), Rate: math.Min(1, 2*cuckooBucket*math.Ldexp(1, -f)), Deletes: true, Fingerprint: f,
		Note: itoa(f) + "-bit fingerprints, 4-slot buckets at 95.5% load; supports removal", Source: srcCuckoo,
	}
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

// blockedSearch finds blocked plans and counts the terms of
// core.BlockedRateCounted it sums: a few thousand a rate at most, a few
// hundred rates a plan.
type blockedSearch struct{ terms int }

func (s *blockedSearch) rate(m, n uint64, k int) float64 {
	r, terms := core.BlockedRateCounted(m, n, k)
	s.terms += terms
	return r
}

// best returns the k that minimizes the blocked filter's rate at m bits,
// and that rate. It uses core.BlockedRate, the paper's formula, which is a
// little optimistic (about 1% low at 10 bits per key, a few percent at 20;
// core.BlockedRateExact has the exact figure) but a hundred times cheaper,
// and the search below calls it a hundred times per plan. The rate is
// unimodal in k, so the walk starts at the standard filter's optimum (the
// blocked optimum sits at or below it) and goes whichever way improves.
func (s *blockedSearch) best(m, n uint64) (int, float64) {
	k := min(core.OptimalK(m, n), core.MaxK)
	best := s.rate(m, n, k)
	for _, step := range []int{-1, 1} {
		for next := k + step; next >= 1 && next <= core.MaxK; next += step {
			r := s.rate(m, n, next)
			if r >= best {
				break
			}
			k, best = next, r
		}
	}
	return k, best
}

// bitsFor finds the fewest whole 512-bit blocks whose best rate is at most
// p, starting from the standard filter's m (a blocked filter never does
// better) and giving up past 64 times it.
func (s *blockedSearch) bitsFor(n uint64, p float64, m uint64) (uint64, int, float64, bool) {
	const limit = 64
	start := max(1, m/core.BlockSize)
	lo := start
	reaches := func(blocks uint64) bool {
		_, r := s.best(blocks*core.BlockSize, n)
		return r <= p
	}
	if reaches(lo) {
		k, r := s.best(lo*core.BlockSize, n)
		return lo * core.BlockSize, k, r, true
	}
	hi := lo
	for !reaches(hi) {
		if hi >= limit*start || hi > MaxBits/core.BlockSize/2 {
			return 0, 0, 0, false
		}
		lo, hi = hi, hi*2
	}
	// Invariant: lo does not reach p, hi does.
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if reaches(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	k, r := s.best(hi*core.BlockSize, n)
	return hi * core.BlockSize, k, r, true
}

func satMul(a, b uint64) uint64 {
	if a > math.MaxUint64/b {
		return math.MaxUint64
	}
	return a * b
}

func itoa(v int) string { return strconv.Itoa(v) }

// trim3 writes v with up to three decimals and no trailing zeros.
func trim3(v float64) string {
	s := []byte(formatFixed(v, 3))
	for len(s) > 1 && s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	if s[len(s)-1] == '.' {
		s = s[:len(s)-1]
	}
	return string(s)
}
