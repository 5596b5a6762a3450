package core

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// cheapestScalable is the scalable chain for a user who expects about n
// keys but cannot bound them, set up as Redis's BF.RESERVE does by default
// and as the lab builds it: growth 2 and tightening 0.5, an initial
// capacity n0 of n/ScalableShare (rounded up), since the keys to come are
// not known, and the first link's k optimal for its bits. Its first link
// has the fewest whole words (to within 1/edgeShare) whose chain, by the
// chain's own theory (ScalableOutlook: the links it grows to and
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
// would pass the lab's bounds (its links, MaxM bits, BitsPerKeyAtMaxK)
// does not reach p, and says why.
func cheapestScalable(n uint64, p float64) Sizing {
	s, _ := cheapestScalableCounted(n, p)
	return s
}

// cheapestScalableCounted is cheapestScalable and the chain plans it made.
func cheapestScalableCounted(n uint64, p float64) (Sizing, int) {
	cs := newChainSearch(n, p)
	bits, err := BitsFor(cs.n0, p/2)
	if err != nil || bits > 64*cs.most {
		return notWithin(), 0
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
	ChainOutlook
	k0 int
}

// newChainSearch is the search for n keys at rate p, with an initial
// capacity of n/ScalableShare, rounded up.
func newChainSearch(n uint64, p float64) *chainSearch {
	limit := satMul(BitsPerKeyAtMaxK, n)
	return &chainSearch{
		n: n, n0: max(1, (n+ScalableShare-1)/ScalableShare), p: p,
		limit: limit, most: min(MaxM, limit) / 64, seen: map[uint64]chainTried{},
	}
}

// outlook is the chain whose first link has words 64-bit words, its k0,
// and whether it reaches p within the lab's bounds.
func (cs *chainSearch) outlook(words uint64) (ChainOutlook, int, bool) {
	t, ok := cs.seen[words]
	if !ok {
		m0 := 64 * words
		t.k0 = min(OptimalK(m0, cs.n0), MaxK)
		var err error
		if t.ChainOutlook, err = ScalableOutlook(m0, t.k0, cs.n0, cs.n); err != nil {
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
func (cs *chainSearch) bracket(start uint64) (lo, hi uint64, refused *Sizing) {
	hi = start
	for {
		o, _, ok := cs.outlook(hi)
		if ok {
			return lo, hi, nil
		}
		if o.Limit != "" {
			return 0, 0, &Sizing{Why: "its chain for " + strconv.FormatUint(cs.n, 10) + " keys cannot grow: " + o.Limit}
		}
		if o.M > cs.limit || hi >= cs.most {
			s := notWithin()
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
		if first, _ := BitsFor(cs.n0, cs.p); first/64 > 0 && first/64 < hi {
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

// sized is the Sizing of the chain whose first link has words words.
func (cs *chainSearch) sized(words uint64) Sizing {
	o, k0, _ := cs.outlook(words)
	m0 := 64 * words
	p0 := RateExact(m0, cs.n0, k0)
	return Sizing{Spec: Spec{M: ScalableShare * m0, K: k0, N: cs.n, Capacity: cs.n0},
		Settings: fmt.Sprintf("n0 = %s, p0 = %s, k0 = %d; growth %d, tightening %v; %d links at n",
			FormatCount(cs.n0), strconv.FormatFloat(p0, 'g', 3, 64), k0, ScalableGrowth, ScalableTightening, o.Links),
		Bits: o.M, Rate: o.Rate, Reaches: true}
}

// edgeShare sets how close the scalable sizing comes to the edge: within
// 1/edgeShare of the first link's bits, which are about a twentieth of
// the chain's, so the chain it finds is within a few thousandths of a
// percent of the fewest bits.
const edgeShare = 2000
