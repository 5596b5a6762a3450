package plan

import (
	"math"
	"strconv"

	"github.com/bloomlab/bloomlab/core"
)

// Alternative is what one structure costs for the same n and p, from theory
// alone (each paper's formula; for the blocked rows the exact mixture of
// block fills the simulation measures against): nothing here is built or
// measured; Measure builds the ones the lab has.
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

	// Lab is the lab's layout for this structure and Spec the filter it
	// would build for the plan's n (Measure builds it at fewer keys), or
	// Unbuilt says why the lab cannot build it: it has no such filter, or
	// not with these fingerprints.
	Lab     core.Variant `json:"variant,omitzero"`
	Spec    core.Spec    `json:"-"`
	Unbuilt string       `json:"unbuilt,omitempty"`
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
		Note: note, Source: srcBloom, Lab: core.Standard, Spec: core.Spec{M: m, K: k, N: n},
	}}

	bk, brate := search.bestExact(m, n)
	out = append(out, Alternative{
		ID: "blocked-same-m", Name: "Blocked Bloom, 512-bit blocks, same memory", Bits: m, Rate: brate, K: bk,
		Note: "best k = " + itoa(bk) + "; each query reads one cache line", Source: srcBlocked,
		Lab: core.BlockedVariant, Spec: core.Spec{M: m, K: bk, N: n},
	})
	if bm, bk, brate, ok := search.bitsFor(n, p, m); ok {
		out = append(out, Alternative{
			ID: "blocked-same-p", Name: "Blocked Bloom, 512-bit blocks, same rate", Bits: bm, Rate: brate, K: bk,
			Note: "k = " + itoa(bk) + "; the smallest whole number of blocks that reaches p", Source: srcBlocked,
			Lab: core.BlockedVariant, Spec: core.Spec{M: bm, K: bk, N: n},
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
		Lab: core.CountingVariant, Spec: core.Spec{M: m, K: k, N: n},
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
		Unbuilt: "the lab has no xor filter; its binary fuse filter is the xor filter's successor",
	})
	for _, fuse := range []struct {
		id, name string
		arity    int
	}{{"fuse-3", "Binary fuse filter, 3-wise", 3}, {"fuse-4", "Binary fuse filter, 4-wise", 4}} {
		factor := core.FuseSizeFactor(fuse.arity, n)
		bits := math.Ceil(factor * float64(n) * float64(f))
		a := Alternative{
			ID: fuse.id, Name: fuse.name, Bits: uint64(bits), Rate: fpRate, Static: true, Fingerprint: f,
			Note: itoa(f) + "-bit fingerprints in " + trim3(factor) + " n slots; built once from the whole set", Source: srcFuse,
		}
		if fuse.arity == 3 {
			a.Lab, a.Spec = core.FuseVariant, core.Spec{N: n, FingerprintBits: f}
			a.Unbuilt = unbuilt(a)
		} else {
			a.Unbuilt = "the lab's binary fuse filter is 3-wise only"
		}
		out = append(out, a)
	}
	for i := range out {
		if out[i].Bits > 0 {
			out[i].BitsPerKey = float64(out[i].Bits) / float64(n)
		}
	}
	return out, search.work
}

// cuckoo prices a cuckoo filter with f-bit fingerprints: n/α slots of f bits,
// rate 2b/2^f (capped at 1).
func cuckoo(n uint64, f int, id, name string) Alternative {
	bits := math.Ceil(float64(n) * float64(f) / cuckooLoad)
	a := Alternative{
		ID: id, Name: name, Bits: uint64(bits), Rate: math.Min(1, 2*cuckooBucket*math.Ldexp(1, -f)), Deletes: true, Fingerprint: f,
		Note: itoa(f) + "-bit fingerprints, 4-slot buckets at 95.5% load; supports removal", Source: srcCuckoo,
		Lab: core.CuckooVariant, Spec: core.Spec{M: uint64(bits), N: n, FingerprintBits: f},
	}
	a.Unbuilt = unbuilt(a)
	return a
}

// unbuilt says why the lab cannot build a's fingerprints, or "" if it can.
func unbuilt(a Alternative) string {
	if a.Lab.CheckFingerprintBits(a.Fingerprint) == nil {
		return ""
	}
	return "the lab's " + a.Lab.Name() + " filter's fingerprints are " + a.Lab.FingerprintWidths("or") + " bits wide, not " + itoa(a.Fingerprint)
}

// blockedSearch finds blocked plans. Its searches walk core.BlockedRate,
// the paper's formula, which is a hundred times cheaper than the exact
// mixture but a little optimistic (about 1% low at 10 bits per key, a few
// percent at 20); the plans they land on are then priced, and for a target
// rate corrected, with core.BlockedRateExact, the figure the simulation
// measures against. It counts its work in terms of core.BlockedRateCounted
// (about 100 ns each): a few thousand a rate at most, a few hundred rates a
// plan.
type blockedSearch struct{ work int }

func (s *blockedSearch) rate(m, n uint64, k int) float64 {
	r, terms := core.BlockedRateCounted(m, n, k)
	s.work += terms
	return r
}

func (s *blockedSearch) exactRate(m, n uint64, k int) float64 {
	r, work := core.BlockedRateExactCounted(m, n, k)
	s.work += work
	return r
}

// best returns the k that minimizes the cheap rate at m bits, and that
// rate. The rate is unimodal in k, so the walk starts at the standard
// filter's optimum (the blocked optimum sits at or below it) and goes
// whichever way improves.
func (s *blockedSearch) best(m, n uint64) (int, float64) {
	return bestK(m, n, core.OptimalK(m, n), s.rate)
}

// bestExact returns the k that minimizes the exact rate at m bits, and that
// rate, walking from the cheap optimum: a step or two.
func (s *blockedSearch) bestExact(m, n uint64) (int, float64) {
	k, _ := s.best(m, n)
	return bestK(m, n, k, s.exactRate)
}

func bestK(m, n uint64, k int, rate func(m, n uint64, k int) float64) (int, float64) {
	k = min(max(k, 1), core.MaxK)
	best := rate(m, n, k)
	for _, step := range []int{-1, 1} {
		for next := k + step; next >= 1 && next <= core.MaxK; next += step {
			r := rate(m, n, next)
			if r >= best {
				break
			}
			k, best = next, r
		}
	}
	return k, best
}

// bitsFor finds the fewest whole 512-bit blocks whose best exact rate is
// at most p, giving up past 64 times the standard filter's m. The cheap
// rate does the searching: its answer, lo, is a lower bound, since the
// exact rate is never below it (Jensen). Then the cheap search runs again
// for p tightened by the exact rate's excess at lo, which lands within a
// fraction of a percent of the exact answer, and a few exact rates, placed
// by the secant of the log rate, settle it to the block.
func (s *blockedSearch) bitsFor(n uint64, p float64, m uint64) (uint64, int, float64, bool) {
	start := max(1, m/core.BlockSize)
	limit := min(64*start, MaxBits/core.BlockSize)
	cheap := func(target float64) (uint64, bool) {
		return smallestReaching(start, limit, func(blocks uint64) bool {
			_, r := s.best(blocks*core.BlockSize, n)
			return r <= target
		})
	}
	lo, ok := cheap(p)
	if !ok {
		return 0, 0, 0, false
	}
	k, r := s.bestExact(lo*core.BlockSize, n)
	if r <= p {
		return lo * core.BlockSize, k, r, true
	}
	// The tightened target lies further on, so this search starts at lo.
	start = lo
	guess, ok := cheap(p * p / r)
	if !ok {
		guess = limit
	}
	// The best k changes slowly with the bits, so the search holds the k
	// best at the guess: one exact rate a step instead of three.
	kg, _ := s.bestExact(guess*core.BlockSize, n)
	hi, ok := smallestBelow(p, lo, r, guess, limit, func(blocks uint64) float64 {
		return s.exactRate(blocks*core.BlockSize, n, kg)
	})
	if !ok {
		return 0, 0, 0, false
	}
	// One block fewer must miss with every k; where another k reaches,
	// the search goes on below with every k.
	best := func(blocks uint64) float64 {
		_, r := s.bestExact(blocks*core.BlockSize, n)
		return r
	}
	if hi-1 > lo && best(hi-1) <= p {
		hi, _ = smallestBelow(p, lo, r, hi-1, hi-1, best)
	}
	k, r = s.bestExact(hi*core.BlockSize, n)
	return hi * core.BlockSize, k, r, true
}

// smallestBelow returns the fewest blocks in (miss, limit] whose rate is
// at most p, for a rate that falls as blocks grow, given one count that
// misses (with its rate) and a guess. A rate falls about exponentially in
// the bits, so each step goes where the line through the last two points
// in log rate meets p: it brackets the answer in a step or two and then
// closes in (regula falsi, with the Illinois halving and a bisection when
// a step gains too little), a handful of rates in all.
func smallestBelow(p float64, miss uint64, rMiss float64, guess, limit uint64, rate func(blocks uint64) float64) (uint64, bool) {
	gap := func(r float64) float64 { return math.Log(r) - math.Log(p) } // > 0 misses
	lo, glo := miss, gap(rMiss)
	b := min(max(guess, lo+1), limit)
	var hi uint64
	var ghi float64
	for {
		g := gap(rate(b))
		if g <= 0 {
			hi, ghi = b, g
			break
		}
		if b >= limit {
			return 0, false
		}
		// Both miss: extend their line to p, a tenth further, and at least
		// one block on.
		next := b + b - lo
		if slope := (glo - g) / float64(b-lo); slope > 0 {
			next = b + uint64(math.Min(1.1*g/slope, float64(limit-b))) + 1
		}
		lo, glo, b = b, g, min(next, limit)
	}
	side := 0 // which end stayed put last step: -1 lo, +1 hi
	for hi-lo > 1 {
		width := hi - lo
		mid := lo + uint64(float64(width)*glo/(glo-ghi))
		mid = min(max(mid, lo+1), hi-1)
		g := gap(rate(mid))
		if g <= 0 {
			hi, ghi = mid, g
			if side == -1 {
				glo /= 2
			}
			side = -1
		} else {
			lo, glo = mid, g
			if side == 1 {
				ghi /= 2
			}
			side = 1
		}
		if hi-lo > width/2 && hi-lo > 2 {
			// A step that did not halve the bracket is followed by one
			// that does.
			mid := lo + (hi-lo)/2
			if g := gap(rate(mid)); g <= 0 {
				hi, ghi = mid, g
			} else {
				lo, glo = mid, g
			}
		}
	}
	return hi, true
}

// smallestReaching returns the fewest blocks in [lo, limit] that reach,
// for a reaches that is monotone in blocks: it gallops up from lo in
// doubling steps, then halves the last gap.
func smallestReaching(lo, limit uint64, reaches func(blocks uint64) bool) (uint64, bool) {
	if reaches(lo) {
		return lo, true
	}
	return nearestReaching(lo+max(1, lo/1024), lo, limit, reaches)
}

// nearestReaching returns the fewest blocks in (miss, limit] that reach,
// for a monotone reaches and a miss known not to: it gallops from guess
// toward the answer in doubling steps, then halves the last gap, so a
// guess d blocks off costs about 2 log2(d) calls.
func nearestReaching(guess, miss, limit uint64, reaches func(blocks uint64) bool) (uint64, bool) {
	guess = min(max(guess, miss+1), limit)
	lo, hi := miss, guess
	if reaches(guess) {
		for step := uint64(1); hi-lo > 1; step *= 2 {
			cand := hi - min(step, hi-lo-1)
			if !reaches(cand) {
				lo = cand
				break
			}
			hi = cand
		}
	} else {
		lo = guess
		for step := uint64(1); ; step *= 2 {
			if lo >= limit {
				return 0, false
			}
			cand := min(lo+step, limit)
			if reaches(cand) {
				hi = cand
				break
			}
			lo = cand
		}
	}
	// Invariant: lo misses (or is the known miss), hi reaches.
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if reaches(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, true
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
