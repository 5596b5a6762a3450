package core

import (
	"fmt"
	"math"
	"slices"
)

// Scalable is a scalable Bloom filter (Almeida, Baquero, Preguiça and
// Hutchison, "Scalable Bloom Filters", Information Processing Letters
// 101(6), 2007): a chain of standard filters for a key count not known in
// advance. Link i holds up to n0·s^i keys at rate p0·r^i; a new link is
// added when the last one is full; a query asks every link, and any maybe
// is maybe. The rate compounds to 1 - Π(1 - p0·r^i), below p0/(1 - r)
// however long the chain grows (the paper, section 4).
//
// The lab builds it as Redis does by default (BF.RESERVE with EXPANSION 2):
// growth s = ScalableGrowth and tightening r = ScalableTightening. The lab's
// shape gives the first link: it holds a share 1/ScalableShare of the
// items, with the lab's bits per key and hashes, and its rate is p0. Each
// later link is sized by BitsFor and OptimalK for its own capacity and
// rate, every link rounded up to whole 64-bit words and keyed by a seed of
// its own derived from the lab's (link 0 uses the lab's seed itself).
//
// As in Redis, Add first asks the chain and inserts a key only if the
// answer is no, so a duplicate (or a key the chain already says maybe to)
// takes no room and does not make the chain grow.
//
// The chain is bounded: it stops growing at ScalableMaxLinks links or when
// the next link would take its storage past MaxM bits. Keys past that go
// into the last link beyond its capacity and are counted (PastCapacity);
// the theory, which uses every link's own key count, shows what they cost.
type Scalable struct {
	n0     uint64  // the first link's capacity
	p0     float64 // the first link's rate at its capacity
	growth uint64
	tight  float64
	seed   uint64
	words  []uint64
	links  []link
	m      uint64 // positions in all links
	k      int    // probes of all links
	past   uint64 // keys added past the last link's capacity
	adds   uint64 // Add calls, each a turn
	limit  string // why the chain stopped growing, "" while it can grow
}

// link is one filter of the chain: a standard filter whose words are a
// window onto the chain's, starting at position start.
type link struct {
	f     Filter
	start uint64
	from  uint64  // the turn (Add call) it was added in
	n     uint64  // keys it holds
	cap   uint64  // keys it is sized for
	p     float64 // its rate at capacity
}

// The scalable filter's fixed choices: Redis's defaults for growth and
// tightening, the share of the items the first link holds, and the most
// links a chain has.
const (
	ScalableGrowth     = 2
	ScalableTightening = 0.5
	ScalableShare      = 8
	ScalableMaxLinks   = 32
)

// ScalableShape is the first link of the chain the lab builds from m bits,
// k hashes and n keys: an eighth of each (1/ScalableShare), rounded up, so
// the first link has the lab's bits per key and k. For n = 0 it takes n as
// the keys m bits hold at the fill where k is optimal, round(m ln 2 / k).
func ScalableShape(m uint64, k int, n uint64) (m0, n0 uint64) {
	if n == 0 {
		n = max(1, uint64(math.Round(float64(m)*math.Ln2/float64(max(k, 1)))))
	}
	return max((m+ScalableShare-1)/ScalableShare, 1), (n + ScalableShare - 1) / ScalableShare
}

// NewScalable returns an empty scalable filter whose first link has m0
// bits (rounded up to whole words), k0 hashes and capacity n0, growing by
// growth at tightening ratio tight, keyed by seed. Its target rate p0 is
// the first link's rate at capacity, RateExact(m0, n0, k0). It rejects m0
// or k0 out of range (see NewFilter), n0 = 0, growth below 1 or above 16
// and tight outside (0, 1).
func NewScalable(m0 uint64, k0 int, n0 uint64, growth uint64, tight float64, seed uint64) (*Scalable, error) {
	if err := checkShape(m0, k0); err != nil {
		return nil, err
	}
	switch {
	case n0 == 0:
		return nil, fmt.Errorf("core: the scalable filter's initial capacity must be at least 1, got 0")
	case growth < 1 || growth > 16:
		return nil, fmt.Errorf("core: the scalable filter's growth must be in [1, 16], got %d", growth)
	case !(tight > 0 && tight < 1):
		return nil, fmt.Errorf("core: the scalable filter's tightening ratio must be in (0, 1), got %v", tight)
	}
	m0 = (m0 + 63) &^ 63
	s := &Scalable{n0: n0, growth: growth, tight: tight, seed: seed}
	s.p0 = RateExact(m0, n0, k0)
	s.push(m0, k0, n0, s.p0)
	return s, nil
}

// push appends a link of m bits (a multiple of 64), k hashes, capacity n
// and rate p, and points every link at the grown storage.
func (s *Scalable) push(m uint64, k int, n uint64, p float64) {
	i := len(s.links)
	k0, k1 := SipKey(s.seed + uint64(i)*0x9e3779b97f4a7c15)
	s.links = append(s.links, link{f: Filter{m: m, k: k, k0: k0, k1: k1, hashing: DoubleHashing}, start: s.m, from: s.adds, cap: n, p: p})
	s.words = slices.Grow(s.words, int(m/64))[:len(s.words)+int(m/64)]
	s.m += m
	s.k += k
	for j := range s.links {
		l := &s.links[j]
		l.f.words = s.words[l.start/64 : (l.start+l.f.m)/64]
	}
}

// nextLink is the shape of link i of a chain with first link capacity n0 and
// rate p0, or why the chain cannot have it after m bits: link i holds
// n0·s^i keys at rate p0·r^i, in BitsFor bits rounded up to whole words,
// with OptimalK hashes (at most MaxK). A rate above 1/2, which a first link
// of a fraction of a bit per key has, is sized as 1/2: BitsFor takes rates
// below 1, and a link sized for more than 1/2 would be one of a few bits.
func nextLink(i int, n0 uint64, p0 float64, growth uint64, tight float64, m uint64) (mi uint64, ki int, ni uint64, pi float64, limit string) {
	if i >= ScalableMaxLinks {
		return 0, 0, 0, 0, fmt.Sprintf("the chain has its most links, %d", ScalableMaxLinks)
	}
	ni = n0
	for range i {
		if ni > math.MaxUint64/growth/2 {
			return 0, 0, 0, 0, "the next link's capacity overflows"
		}
		ni *= growth
	}
	pi = p0 * math.Pow(tight, float64(i))
	bits, err := BitsFor(ni, min(pi, 0.5))
	if err != nil {
		return 0, 0, 0, 0, "the next link cannot be sized: " + err.Error()
	}
	if bits > MaxM || m+(bits+63)&^63 > MaxM {
		return 0, 0, 0, 0, fmt.Sprintf("the next link would take the chain past %d bits", uint64(MaxM))
	}
	mi = (bits + 63) &^ 63
	return mi, min(OptimalK(mi, ni), MaxK), ni, pi, ""
}

// Add inserts key into the last link unless the chain already says maybe,
// first adding a link if the last is full and the chain may grow.
func (s *Scalable) Add(key []byte) {
	defer func() { s.adds++ }()
	if maybe, _ := s.Contains(key); maybe {
		return
	}
	last := &s.links[len(s.links)-1]
	if last.n >= last.cap && s.limit == "" {
		m, k, n, p, limit := nextLink(len(s.links), s.n0, s.p0, s.growth, s.tight, s.m)
		if limit == "" {
			s.push(m, k, n, p)
		}
		s.limit = limit
		last = &s.links[len(s.links)-1]
	}
	if last.n >= last.cap {
		s.past++
	}
	last.f.Add(key)
	last.n++
}

// Contains asks the links from the newest, which holds the most keys, to
// the first, as Redis does, and stops at the first maybe. The probes are
// those of every link asked.
func (s *Scalable) Contains(key []byte) (bool, int) {
	probes := 0
	for i := len(s.links) - 1; i >= 0; i-- {
		maybe, p := s.links[i].f.Contains(key)
		probes += p
		if maybe {
			return true, probes
		}
	}
	return false, probes
}

// Positions appends the positions a query for key reads: each link's k_i,
// first link first, offset by where the link starts in the chain.
func (s *Scalable) Positions(dst []uint64, key []byte) []uint64 {
	dst = dst[:0]
	for i := range s.links {
		l := &s.links[i]
		h1, h2 := Sip128(l.f.k0, l.f.k1, key)
		for j := range l.f.k {
			dst = append(dst, l.start+Probe(h1, h2, j, l.f.m))
		}
	}
	return dst
}

func (s *Scalable) M() uint64 { return s.m }
func (s *Scalable) K() int    { return s.k }
func (s *Scalable) SetBits() uint64 {
	var set uint64
	for i := range s.links {
		set += s.links[i].f.set
	}
	return set
}
func (s *Scalable) Popcount() uint64    { return popcount(s.words) }
func (s *Scalable) IsSet(i uint64) bool { return i < s.m && s.words[i>>6]&(1<<(i&63)) != 0 }
func (s *Scalable) Words() []uint64     { return s.words }

// ChainLink is one link of a scalable filter's chain as the lab shows it:
// its first position in the chain, bits, hashes, keys held, capacity and
// rate at capacity.
type ChainLink struct {
	Start    uint64  `json:"start"`
	M        uint64  `json:"m"`
	K        int     `json:"k"`
	N        uint64  `json:"n"`
	Capacity uint64  `json:"capacity"`
	Rate     float64 `json:"rate"`
}

// Links is how many links the chain has, and Chain its links.
func (s *Scalable) Links() int { return len(s.links) }
func (s *Scalable) Chain() []ChainLink {
	out := make([]ChainLink, len(s.links))
	for i := range s.links {
		l := &s.links[i]
		out[i] = ChainLink{Start: l.start, M: l.f.m, K: l.f.k, N: l.n, Capacity: l.cap, Rate: l.p}
	}
	return out
}

// TurnLink is the link that was last at Add call number turn (from 0),
// the one a key given then went into unless the chain already said maybe
// to it; LinkAt is the link position j belongs to.
func (s *Scalable) TurnLink(turn uint64) int {
	i := len(s.links) - 1
	for i > 0 && s.links[i].from > turn {
		i--
	}
	return i
}
func (s *Scalable) LinkAt(j uint64) int {
	i := len(s.links) - 1
	for i > 0 && s.links[i].start > j {
		i--
	}
	return i
}

// Keys is how many keys the chain holds (not counting those it already
// said maybe to), PastCapacity how many of them went into the last link
// past its capacity because the chain reached its bound, and Limit why it
// stopped growing ("" while it can grow).
func (s *Scalable) Keys() uint64 {
	var n uint64
	for i := range s.links {
		n += s.links[i].n
	}
	return n
}
func (s *Scalable) PastCapacity() uint64 { return s.past }
func (s *Scalable) Limit() string        { return s.limit }

// Bound is the paper's bound on the compounded rate, p0/(1 - r).
func (s *Scalable) Bound() float64 { return s.p0 / (1 - s.tight) }

// Target is p0, the first link's rate at capacity.
func (s *Scalable) Target() float64 { return s.p0 }

// chainTerms are a chain's words: its positions are bits, and a query
// reads every link.
var chainTerms = Terms{Nonzero: bitTerms.Nonzero, Dark: bitTerms.Dark, Share: bitTerms.Share,
	SetBy: bitTerms.SetBy, SetByShort: bitTerms.SetByShort, No: "every link has a zero among its probes"}

// ScalableVariant is the scalable Bloom filter's variant.
var ScalableVariant = Variant{&kind{
	name: "scalable", label: "scalable (a growing chain)", unit: "bit",
	about: "a chain of Bloom filters, each twice the last at half its rate, that grows as keys come (Almeida, Baquero, Preguiça and Hutchison, 2007)",
	usesK: true, chain: true, terms: chainTerms,
	positions: "has a seed of its own in each link of its chain",
	// Written out, not formatted at the program's start;
	// TestScalableSizesNamesItsConstants holds it to them.
	sizes: "the scalable filter's first link holds 1/8 of the items in 1/8 of m (the lab's bits per key) with the lab's k; " +
		"each next link holds 2 times the last's keys at 0.5 times its rate, sized for that rate",
	formula: "1 - Π(1 - f_i^k_i) over the links, f_i a link's share of bits set; at most p0/(1 - r)",
	build: func(s Spec) (Membership, error) {
		if err := checkShape(s.M, s.K); err != nil {
			return nil, err
		}
		m0, n0 := ScalableShape(s.M, s.K, s.N)
		if s.Capacity > 0 {
			n0 = s.Capacity
		}
		return NewScalable(m0, s.K, n0, ScalableGrowth, ScalableTightening, s.Seed)
	},
	memoryBits: func(f Membership) uint64 { return f.M() },
	cheapest:   cheapestScalable,
	theory:     scalableTheory,
}}

// linkShape is one link as the theory sees it: bits, hashes, keys held
// and the share of its bits set.
type linkShape struct {
	m    uint64
	k    int
	n    uint64
	fill float64
}

// ChainFill is the expected share of set bits in a link of m bits and k
// hashes once it holds n keys of a chain that inserts a key only where
// it says no. Such a key has at least one of its k bits still clear in
// the link, so it sets more new bits than a random key: at fill f it
// sets k(1 - f)/(1 - f^k) of them on average, and dn/df = (m/k)(1 - f^k)/(1 - f)
// = (m/k) Σ_{j<k} f^j integrates to
//
//	n = (m/k) Σ_{j=1..k} f^j / j,
//
// the series of the standard filter's n = -(m/k) ln(1 - f) cut at k
// terms. With k = 1 every key sets a new bit and f = n/m. ChainFill
// solves for f by bisection; past the n that fills every bit it is 1.
func ChainFill(m, n uint64, k int) float64 { return chainFill(float64(m), float64(n), k) }

func chainFill(m, n float64, k int) float64 {
	if m == 0 || n <= 0 || k <= 0 {
		return 0
	}
	keys := func(f float64) float64 {
		sum, pow := 0.0, 1.0
		for j := 1; j <= k; j++ {
			pow *= f
			sum += pow / float64(j)
		}
		return m / float64(k) * sum
	}
	if n >= keys(1) {
		return 1
	}
	lo, hi := 0.0, 1.0
	for range 64 {
		mid := (lo + hi) / 2
		if keys(mid) < n {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// planSteps is how many steps scalablePlan takes over the keys given.
const planSteps = 4096

// scalablePlan is the chain a scalable filter whose first link has m0 bits,
// k0 hashes and capacity n0 grows to when given n distinct keys, each
// link at its ChainFill. A key is held only if the chain says no to it,
// which it does with probability 1 - R for the chain's rate R at that
// moment, so the plan steps through the keys given, n/planSteps at a
// time, and each step adds (1 - R) of its keys to the last link (a new
// one when the last is full and the chain may grow).
func scalablePlan(m0 uint64, k0 int, n0, growth uint64, tight float64, n uint64) ([]linkShape, string) {
	p0 := RateExact(m0, n0, k0)
	type planned struct {
		m    uint64
		k    int
		cap  float64
		held float64
	}
	links := []planned{{m: m0, k: k0, cap: float64(n0)}}
	total, keep, open, why := m0, 1.0, true, "" // keep: Π (1 - p_i) over the links before the last
	step := max(1, float64(n)/planSteps)
	for given := float64(n); given > 0; {
		last := &links[len(links)-1]
		if last.held >= last.cap && open {
			m, k, c, _, limit := nextLink(len(links), n0, p0, growth, tight, total)
			if open, why = limit == "", limit; open {
				keep *= 1 - math.Pow(chainFill(float64(last.m), last.held, last.k), float64(last.k))
				links = append(links, planned{m: m, k: k, cap: float64(c)})
				total += m
				last = &links[len(links)-1]
			}
		}
		rate := 1 - keep*(1-math.Pow(chainFill(float64(last.m), last.held, last.k), float64(last.k)))
		g := min(step, given)
		add := g * (1 - rate)
		if open && last.held+add > last.cap {
			add = last.cap - last.held
			g = min(g, add/max(1-rate, 1e-300))
		}
		last.held += add
		given -= max(g, 1e-9)
	}
	out := make([]linkShape, len(links))
	for i, l := range links {
		held := uint64(math.Round(l.held))
		out[i] = linkShape{m: l.m, k: l.k, n: held, fill: chainFill(float64(l.m), l.held, l.k)}
	}
	return out, why
}

// ChainOutlook is what the theory expects of a scalable filter once given
// n distinct keys: its rate, its bits (every link it has added, the last
// one whole however little it holds), its links, and why it stopped
// growing ("" if it did not have to).
type ChainOutlook struct {
	Rate  float64
	M     uint64
	Links int
	Limit string
}

// ScalableOutlook is the outlook of the chain NewScalable(m0, k0, n0,
// ScalableGrowth, ScalableTightening, seed) grows to when given n distinct
// keys, by the same plan and rate as the filter's theory (scalableTheory
// of an empty chain), without building it: m0 is rounded up to whole
// words as NewScalable does. The work is a few thousand steps whatever n.
// It rejects what NewScalable rejects.
func ScalableOutlook(m0 uint64, k0 int, n0, n uint64) (ChainOutlook, error) {
	if err := checkShape(m0, k0); err != nil {
		return ChainOutlook{}, err
	}
	if n0 == 0 {
		return ChainOutlook{}, fmt.Errorf("core: the scalable filter's initial capacity must be at least 1, got 0")
	}
	m0 = (m0 + 63) &^ 63
	links, why := scalablePlan(m0, k0, n0, ScalableGrowth, ScalableTightening, n)
	out := ChainOutlook{Links: len(links), Limit: why}
	keep := 1.0
	for _, l := range links {
		keep *= 1 - math.Pow(l.fill, float64(l.k))
		out.M += l.m
	}
	out.Rate = clamp01(1 - keep)
	return out, nil
}

// scalableTheory is the compounded rate of the chain's links, 1 - Π(1 - p_i),
// each link's p_i = f_i^k_i at its share f_i of bits set: the chain's own
// fill once it holds keys, and for an empty chain the plan for n distinct
// keys given (scalablePlan). The links are independent, and given its bits a
// chain's rate does not vary, so the variance is that of the prediction
// alone: to first order Σ Var_i Π_{j≠i} (1 - p_j)^2, with Var_i the
// standard filter's spread of a link's rate (FilterSpread), for the empty
// chain, and 0 for a filled one. The expected set bits are Σ m_i ChainFill
// for the keys each link holds. An absent key reads every link, sum_{j<k_i}
// f_i^j bits in each.
func scalableTheory(f Membership, n uint64) Theory {
	s := f.(*Scalable)
	var links []linkShape
	own := s.Keys() > 0 || n == 0
	if own {
		for i := range s.links {
			l := &s.links[i]
			links = append(links, linkShape{l.f.m, l.f.k, l.n, float64(l.f.set) / float64(l.f.m)})
		}
	} else {
		first := &s.links[0]
		links, _ = scalablePlan(first.f.m, first.f.k, s.n0, s.growth, s.tight, n)
	}
	var th Theory
	keep := 1.0
	rates, vars := make([]float64, len(links)), make([]float64, len(links))
	for i, l := range links {
		rates[i] = math.Pow(l.fill, float64(l.k))
		if !own {
			_, vars[i] = FilterSpread(l.m, l.n, l.k)
		}
		keep *= 1 - rates[i]
		th.ExpectedSet += float64(l.m) * ChainFill(l.m, l.n, l.k)
		th.ExpectedProbes += ExpectedProbes(l.k, l.fill)
	}
	th.Rate = clamp01(1 - keep)
	for i := range links {
		others := 1.0
		for j := range links {
			if j != i {
				others *= 1 - rates[j]
			}
		}
		th.Variance += vars[i] * others * others
	}
	return th
}

// Arithmetic shows a scalable filter's links, each a standard filter with
// its own SipHash key, probed by double hashing and offset by its start.
func (s *Scalable) Arithmetic(e *Explanation, key []byte) {
	e.Scheme = "scalable"
	e.Formula = "in link i: its own SipHash key; g_j = h1 + j·(h2 | 1) mod 2^64; position = start_i + floor(g_j·m_i / 2^64)"
	for i := range s.links {
		l := &s.links[i]
		h1, h2 := Sip128(l.f.k0, l.f.k1, key)
		e.Links = append(e.Links, ExplainLink{K0: l.f.k0, K1: l.f.k1, H1: h1, H2: h2, Start: l.start, M: l.f.m, K: l.f.k})
		for j := range l.f.k {
			g := h1 + uint64(j)*(h2|1)
			e.Steps = append(e.Steps, ExplainStep{I: j, G: g, Position: l.start + Reduce(g, l.f.m)})
		}
	}
	e.K0, e.K1, e.H1, e.H2 = e.Links[0].K0, e.Links[0].K1, e.Links[0].H1, e.Links[0].H2
}

// Merge refuses: see the error.
func (s *Scalable) Merge(Membership, bool) (Membership, uint64, error) {
	return nil, 0, cannotMerge(ScalableVariant, "a chain grows a link whenever the last one fills, so two chains' links hold different shares of their keys and do not line up link by link")
}
