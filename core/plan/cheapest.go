package plan

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/bloomlab/bloomlab/core"
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
// the Ribbon filter at both widths (r = ceil(log2(1/p))) and the scalable filter (the
// chain a user who does not know n up front sets up, see
// cheapestScalable). The work is a few hundred evaluations of the blocked
// rate and a dozen or so of the chain's plan, whatever n and p.
func Cheapest(n uint64, p float64) []Sized {
	std := cheapestStandard(n, p)
	counting := std
	counting.Name, counting.Variant = "counting", core.CountingVariant
	if counting.Reaches {
		counting.Settings += ", 4-bit counters"
		counting.Bits = satMul(std.Bits, countingBits)
	}
	return []Sized{std, cheapestBlocked(n, p), counting, cheapestCuckoo(core.CuckooVariant, n, p),
		cheapestCuckoo(core.SemiSortedVariant, n, p), cheapestFuse(n, p), cheapestRibbon(core.RibbonVariant, core.RibbonWidth, n, p),
		cheapestRibbon(core.RibbonWideVariant, core.RibbonWideWidth, n, p), cheapestScalable(n, p)}
}

// cheapestScalable is the scalable chain for a user who expects about n
// keys but cannot bound them, set up as Redis's BF.RESERVE does by default
// and as the lab builds it: growth 2 and tightening 0.5, an initial
// capacity n0 of n/ScalableShare (rounded up), since the keys to come are
// not known, and the first link's k optimal for its bits. Its first link
// has the fewest whole words (to within 1/edgeShare) whose chain, by the
// chain's own theory (core.ScalableOutlook: the links it grows to and
// their fill once given n keys), reaches p at n keys. The search starts
// from the first link that alone reaches p/2, where the paper's bound
// p0/(1 - r) holds p, doubles it until the chain reaches p, then closes in
// on an edge by interpolating log(rate/p), which is nearly straight in
// the first link's bits. The theory lets p0 be about p/1.75: at n keys
// the first three links are full, at p0, p0/2 and p0/4, and the fourth,
// sized for n keys at p0/8, holds an eighth of them.
//
// Its bits are every link the chain has grown to at n keys, the last
// whole however little of it is filled: at least 15/8 of a standard
// filter's for n keys, since the links hold capacity for 15n/8 keys, each
// at a rate below p. The work is a dozen plans of a few thousand steps
// or fewer: the doubling stops at the plan's bits, and every other step
// of the search at least halves the bracket, whatever n and p; a chain that
// would pass the lab's bounds (its links, core.MaxM bits, BitsPerKeyAtMaxK)
// does not reach p, and says why.
func cheapestScalable(n uint64, p float64) Sized {
	s, _ := cheapestScalableCounted(n, p)
	return s
}

// cheapestScalableCounted is cheapestScalable and the chain plans it made.
func cheapestScalableCounted(n uint64, p float64) (Sized, int) {
	cs := newChainSearch(n, p)
	bits, err := core.BitsFor(cs.n0, p/2)
	if err != nil || bits > 64*cs.most {
		return notWithin("scalable", core.ScalableVariant), 0
	}
	lo, hi, refused := cs.bracket(max(1, (bits+63)/64))
	if refused != nil {
		return *refused, len(cs.seen)
	}
	s := cs.sized(cs.edge(lo, hi))
	return s, len(cs.seen)
}

// chainSearch is cheapestScalable's search over the first link's words
// for a chain of n keys at rate p. Each plan is made once and kept, since
// the guesses and the edge tests meet.
type chainSearch struct {
	n, n0 uint64
	p     float64
	limit uint64 // the chain's most bits, BitsPerKeyAtMaxK a key
	most  uint64 // the first link's most words
	seen  map[uint64]chainTried
}

// chainTried is one plan of chainSearch: the chain's outlook with the
// first link's k.
type chainTried struct {
	core.ChainOutlook
	k0 int
}

// newChainSearch is the search for n keys at rate p, with an initial
// capacity of n/ScalableShare, rounded up.
func newChainSearch(n uint64, p float64) *chainSearch {
	limit := satMul(BitsPerKeyAtMaxK, n)
	return &chainSearch{
		n: n, n0: max(1, (n+core.ScalableShare-1)/core.ScalableShare), p: p,
		limit: limit, most: min(core.MaxM, limit) / 64, seen: map[uint64]chainTried{},
	}
}

// outlook is the chain whose first link has words 64-bit words, its k0,
// and whether it reaches p within the lab's bounds.
func (cs *chainSearch) outlook(words uint64) (core.ChainOutlook, int, bool) {
	t, ok := cs.seen[words]
	if !ok {
		m0 := 64 * words
		t.k0 = min(core.OptimalK(m0, cs.n0), core.MaxK)
		var err error
		if t.ChainOutlook, err = core.ScalableOutlook(m0, t.k0, cs.n0, cs.n); err != nil {
			t.Limit = strings.TrimPrefix(err.Error(), "core: ")
		}
		cs.seen[words] = t
	}
	o := t.ChainOutlook
	return o, t.k0, o.Limit == "" && o.M <= cs.limit && o.Rate <= cs.p
}

// gap is log(rate/p) for a first link of words words: nearly straight in
// them, so the edge search interpolates it.
func (cs *chainSearch) gap(words uint64) float64 {
	o, _, _ := cs.outlook(words)
	return math.Log(o.Rate / cs.p)
}

// bracket doubles the first link from start words until its chain
// reaches p, and returns the last words that did not (0 for none) and the
// first that did; or, refused, why no chain within the bounds reaches p.
func (cs *chainSearch) bracket(start uint64) (lo, hi uint64, refused *Sized) {
	hi = start
	for {
		o, _, ok := cs.outlook(hi)
		if ok {
			return lo, hi, nil
		}
		if o.Limit != "" {
			return 0, 0, &Sized{Name: "scalable", Variant: core.ScalableVariant, Why: "its chain for " + strconv.FormatUint(cs.n, 10) + " keys cannot grow: " + o.Limit}
		}
		if o.M > cs.limit || hi >= cs.most {
			s := notWithin("scalable", core.ScalableVariant)
			return 0, 0, &s
		}
		lo, hi = hi, min(2*hi, cs.most)
	}
}

// edge closes in on the fewest words that reach p, to within
// 1/edgeShare, between lo (0 or words that do not) and hi (words that
// do), by interpolating the bracket's ends, each guess confirmed by the
// tolerance below it, with a bisection step whenever a guess fails to
// halve the bracket (the rate is a little ragged in m0, as k is
// rounded).
func (cs *chainSearch) edge(lo, hi uint64) uint64 {
	if lo == 0 {
		if first, _ := core.BitsFor(cs.n0, cs.p); first/64 > 0 && first/64 < hi {
			if _, _, ok := cs.outlook(first / 64); !ok {
				lo = first / 64
			}
		}
	}
	glo, ghi := math.NaN(), cs.gap(hi)
	if lo > 0 {
		glo = cs.gap(lo)
	}
	tol := max(1, hi/edgeShare)
	for hi-lo > tol { // hi reaches, and lo is 0 or does not
		width, mid, guess := hi-lo, lo+(hi-lo)/2, false
		if x := float64(hi) - ghi*float64(hi-lo)/(ghi-glo); glo > 0 && ghi <= 0 && !math.IsInf(ghi, 0) && x > float64(lo) && x < float64(hi) {
			mid, guess = min(max(uint64(math.Ceil(x)), lo+1), hi-1), true
		}
		if _, _, ok := cs.outlook(mid); ok {
			hi, ghi = mid, cs.gap(mid)
		} else {
			lo, glo = mid, cs.gap(mid)
		}
		if guess && hi == mid && hi-lo > tol { // a guess just above the edge, confirmed by the one tol below
			if _, _, ok := cs.outlook(hi - tol); ok {
				hi, ghi = hi-tol, cs.gap(hi-tol)
			} else {
				lo, glo = hi-tol, cs.gap(hi-tol)
			}
		}
		if hi-lo > width/2 { // the guess did not halve the bracket: bisect next
			glo = math.NaN()
		}
	}
	return hi
}

// sized is the Sized of the chain whose first link has words words.
func (cs *chainSearch) sized(words uint64) Sized {
	o, k0, _ := cs.outlook(words)
	m0 := 64 * words
	p0 := core.RateExact(m0, cs.n0, k0)
	return Sized{Name: "scalable", Variant: core.ScalableVariant, Spec: core.Spec{M: core.ScalableShare * m0, K: k0, N: cs.n, Capacity: cs.n0},
		Settings: fmt.Sprintf("n0 = %s, p0 = %s, k0 = %d; growth %d, tightening %v; %d links at n",
			FormatCount(cs.n0), strconv.FormatFloat(p0, 'g', 3, 64), k0, core.ScalableGrowth, core.ScalableTightening, o.Links),
		Bits: o.M, Rate: o.Rate, Reaches: true}
}

// edgeShare sets how close the scalable sizing comes to the edge: within
// 1/edgeShare of the first link's bits, which are about a twentieth of
// the chain's, so the chain it finds is within a few thousandths of a
// percent of the fewest bits.
const edgeShare = 2000

// notWithin is the Sized of a structure that no size up to BitsPerKeyAtMaxK,
// the plan's own bound, brings to p.
func notWithin(name string, v core.Variant) Sized {
	return Sized{Name: name, Variant: v, Why: "not within " + strconv.Itoa(BitsPerKeyAtMaxK) + " bits per key"}
}

// cheapestStandard is the smallest m whose formula rate at the rounded
// optimal k reaches p: from n log2(1/p) / ln 2 it steps up 0.1% at a time
// until the rate reaches p, then bisects down to the edge (the rounding of
// k makes the rate a little ragged in m, so the edge found is one where m
// reaches p and m - 1 does not). A few thousand rates at most.
func cheapestStandard(n uint64, p float64) Sized {
	reaches := func(m uint64) bool { return core.Rate(m, n, core.OptimalK(m, n)) <= p }
	hi := max(1, uint64(math.Ceil(float64(n)*core.InfoFloor(p)/math.Ln2)))
	limit := satMul(BitsPerKeyAtMaxK, n)
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
	lo, hi := uint64(1), max(1, satMul(BitsPerKeyAtMaxK, n)/core.BlockSize)
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
		Settings: fmt.Sprintf("k = %d, %s blocks", k, FormatCount(hi)), Bits: m, Rate: core.BlockedRateExact(m, n, k), Reaches: true}
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
			Settings: fmt.Sprintf("f = %d, %s buckets", f, FormatCount(buckets)), Bits: bits, Rate: core.CuckooRate(f, builtLoad), Reaches: true}
	}
	f := widths[len(widths)-1]
	return Sized{Name: v.Name(), Variant: v,
		Why: fmt.Sprintf("its widest fingerprint, %d bits, gives %.3g%% at full load", f, 100*core.CuckooRate(f, builtLoad))}
}

// cheapestRibbon is the Ribbon filter v of width w with the fewest result
// bits whose rate, 2^-r, reaches p, in the rows it builds for n keys.
func cheapestRibbon(v core.Variant, w int, n uint64, p float64) Sized {
	r := int(math.Ceil(core.InfoFloor(p) - 1e-9))
	if v.CheckFingerprintBits(r) != nil {
		return Sized{Name: v.Name(), Variant: v,
			Why: fmt.Sprintf("needs %d-bit results, past its %s", r, v.FingerprintWidths("and"))}
	}
	rows := core.RibbonRows(n, w)
	return Sized{Name: v.Name(), Variant: v, Spec: core.Spec{N: n, FingerprintBits: r},
		Settings: fmt.Sprintf("r = %d, %s rows", r, FormatCount(rows)), Bits: satMul(rows, uint64(r)), Rate: core.RibbonRate(r), Reaches: true}
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

// Need is what a user needs of a structure besides answering membership;
// Note, if any, is what the calculator says beside the structure that is
// cheapest for it.
type Need struct {
	Name   string
	Note   string
	Offers func(v core.Variant) bool
}

// Needs are the needs the calculator prices, the least demanding first: a
// set known in advance may go into a static filter; keys that come over
// time need inserts; keys that leave need removal; keys that keep coming
// past the n planned for need a structure that grows, which of the lab's
// only the scalable chain does: every other one is sized for n and must
// be rebuilt larger (with every key again) once n is exceeded.
var Needs = []Need{
	{"a set known in advance, built once", "", func(core.Variant) bool { return true }},
	{"inserts at any time", "", func(v core.Variant) bool { return !v.Static() }},
	{"inserts and removal", "", func(v core.Variant) bool { return !v.Static() && v.Deletes() }},
	{"growth past the planned n", "it grows as keys come; the others must be rebuilt when n is exceeded",
		func(v core.Variant) bool { return v.Chain() }},
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
