package core

import "math"

// Blocked is a blocked Bloom filter (Putze, Sanders and Singler, 2007): h1
// picks one 512-bit block, a cache line, and all k bits of a key fall inside
// it, so a query touches one line of memory.
//
// The in-block bits are 9-bit slices of h2 (seven per word, re-mixed with
// SplitMix64 when k > 7), each an independent uniform position in the block.
// Plain double hashing inside a block correlates the k positions and measured
// a rate well above the block theory (about 1.34% against 1.16-1.19% at 9.585
// bits per key); independent slices track BlockedRate.
type Blocked struct {
	m      uint64
	blocks uint64
	k      int
	k0, k1 uint64
	words  []uint64
	set    uint64
	seed   uint64
	added  uint64 // Add calls, repeats included
}

// blockedM is m rounded up to whole blocks.
func blockedM(m uint64) uint64 { return (m + BlockSize - 1) / BlockSize * BlockSize }

// NewBlocked returns an empty blocked filter of at least m bits, rounded up
// to whole 512-bit blocks, with k bits per key, keyed by seed.
func NewBlocked(m uint64, k int, seed uint64) (*Blocked, error) {
	if err := checkShape(m, k); err != nil {
		return nil, err
	}
	blocks := blockedM(m) / BlockSize
	k0, k1 := SipKey(seed)
	return &Blocked{m: blocks * BlockSize, blocks: blocks, k: k, k0: k0, k1: k1, seed: seed,
		words: make([]uint64, blocks*BlockSize/64)}, nil
}

// slots walks a key's in-block bit offsets: nine bits at a time from x,
// re-mixed every seven.
type slots struct {
	x     uint64
	shift uint
}

func (s *slots) next() uint64 {
	if s.shift == 63 {
		s.x, s.shift = SplitMix(s.x), 0
	}
	v := s.x >> s.shift & (BlockSize - 1)
	s.shift += 9
	return v
}

// block returns the eight words of key's block and the slot walker.
func (f *Blocked) block(key []byte) (*[BlockSize / 64]uint64, slots) {
	h1, h2 := Sip128(f.k0, f.k1, key)
	base := Reduce(h1, f.blocks) * (BlockSize / 64)
	return (*[BlockSize / 64]uint64)(f.words[base : base+BlockSize/64]), slots{x: h2}
}

func (f *Blocked) Add(key []byte) {
	f.added++
	b, s := f.block(key)
	for i := 0; i < f.k; i++ {
		j := s.next()
		if bit := uint64(1) << (j & 63); b[j>>6]&bit == 0 {
			b[j>>6] |= bit
			f.set++
		}
	}
}

func (f *Blocked) Contains(key []byte) (bool, int) {
	b, s := f.block(key)
	for i := 0; i < f.k; i++ {
		j := s.next()
		if b[j>>6]&(1<<(j&63)) == 0 {
			return false, i + 1
		}
	}
	return true, f.k
}

func (f *Blocked) Positions(dst []uint64, key []byte) []uint64 {
	h1, h2 := Sip128(f.k0, f.k1, key)
	base := Reduce(h1, f.blocks) * BlockSize
	s := slots{x: h2}
	dst = dst[:0]
	for i := 0; i < f.k; i++ {
		dst = append(dst, base+s.next())
	}
	return dst
}

func (f *Blocked) M() uint64           { return f.m }
func (f *Blocked) K() int              { return f.k }
func (f *Blocked) SetBits() uint64     { return f.set }
func (f *Blocked) Popcount() uint64    { return popcount(f.words) }
func (f *Blocked) IsSet(i uint64) bool { return i < f.m && f.words[i>>6]&(1<<(i&63)) != 0 }
func (f *Blocked) Words() []uint64     { return f.words }
func (f *Blocked) Inserted() uint64    { return f.added }

// Shape is the filter's layout, m, k and seed; its hashing is its own
// in-block stream, recorded as the default scheme.
func (f *Blocked) Shape() Shape {
	return Shape{Variant: BlockedVariant, M: f.m, K: f.k, Hashing: DoubleHashing, Seed: f.seed}
}

// Merge ORs (or ANDs) the bits of f and other, a blocked filter of f's
// Shape, into a new filter, as the standard filter's Merge.
func (f *Blocked) Merge(other Membership, intersect bool) (Membership, uint64, error) {
	o, err := partner(f, other)
	if err != nil {
		return nil, 0, err
	}
	g := *f
	g.words, g.set = mergeBits(f.words, o.words, intersect)
	g.added = mergedInserted(f.added, o.added, intersect)
	return &g, 0, nil
}

// blockedWords is the payload of a blocked filter of m bits: whole blocks
// only, as NewBlocked rounds m.
func blockedWords(m uint64) (uint64, bool) { return m / 64, m%BlockSize == 0 }

func restoreBlocked(s Shape, added uint64, words []uint64) (Membership, error) {
	k0, k1 := SipKey(s.Seed)
	return &Blocked{m: s.M, blocks: s.M / BlockSize, k: s.K, k0: k0, k1: k1, seed: s.Seed,
		words: words, set: popcount(words), added: added}, nil
}

// blockedEstimate is the key count behind x set bits of m in 512-bit
// blocks: with L a block's keys, Poisson of mean λ = n/B over the B
// blocks, and s = (1 - 1/512)^k the chance a key leaves a given bit of its
// block zero, a bit stays zero with chance E[s^L] = e^(-λ(1-s)), so
//
//	n̂ = -B ln(1 - x/m) / (1 - s)
//
// The standard formula -(m/k) ln(1 - x/m) would run low here (blocks
// loaded above their mean share their bits among more keys): about 0.7% at
// a 90% fill, k = 7. The deviation is the delta method's, with the
// variance of the zero bits Z of one block over the Poisson loads, from
// E[Z] = w z, z = e^(-λ(1-s)), and E[Z(Z-1)] = w(w-1) e^(-λ(1-s2)),
// w = 512 and s2 = (1 - 2/512)^k, less the share the Poisson loads owe to
// their total varying, which in a filter is n exactly (the conditional
// variance given the total, Cov(X, N)²/Var N with Cov(Z, L) = λ dE[Z]/dλ):
//
//	Var X = B (w(w-1) e^(-λ(1-s2)) + w z - w² z² - λ (w (1-s) z)²)
//	sd = sqrt(Var X) B / ((1 - s)(m - x))
//
// Without that correction the stated SD ran four times the spread the
// test measures.
func blockedEstimate(m uint64, k int, x uint64) (n, sd float64) {
	const w = BlockSize
	b := float64(m / BlockSize)
	s := math.Pow(1-1.0/w, float64(k))
	s2 := math.Pow(1-2.0/w, float64(k))
	n = -b * math.Log1p(-float64(x)/float64(m)) / (1 - s)
	lambda := n / b
	// z = e^(-λ(1-s)) is 1 - x/m by the line above, read exactly from
	// the counts. The other exponential goes through Expm1, which is Go on
	// every platform (Exp is assembly on amd64), so the browser's estimate
	// is the command line's to the last bit.
	zero := float64(m-x) / float64(m)
	slope := w * (1 - s) * zero
	variance := b * (w*(w-1)*(math.Expm1(-lambda*(1-s2))+1) + w*zero - w*w*zero*zero - lambda*slope*slope)
	return n, math.Sqrt(max(variance, 0)) * b / ((1 - s) * float64(m-x))
}

// BlockedVariant is the blocked filter's variant.
var BlockedVariant = Variant{&kind{
	name: "blocked", label: "blocked (512-bit blocks)", unit: "bit",
	about: "all k probes of a key inside one 512-bit block (Putze, Sanders and Singler, 2007)",
	usesK: true, faults: []Fault{KFromCeil}, terms: bitTerms,
	positions:  "draws its positions inside one block from a stream of its own",
	formula:    "the mean of (s/512)^k over the Poisson mixture of block loads",
	build:      func(s Spec) (Membership, error) { return NewBlocked(s.M, s.K, s.Seed) },
	memoryBits: func(f Membership) uint64 { return f.M() },
	moments:    blockedFilterMoments,
	file:       &fileLayout{code: 2, words: blockedWords, restore: restoreBlocked},
	estimate:   blockedEstimate,
	unionWhole: true,
	rounds:     blockedM,
	cheapest:   cheapestBlocked,
}}

// blockedFilterMoments is the blocked filter's theory: the exact mixture of
// block fills, and the variance of its blocks' rates over its m/512 blocks,
// whose mean its rate is. One pass gives both. Below one block it is a
// standard filter.
func blockedFilterMoments(m, n uint64, k int) (rate, variance float64) {
	if m < BlockSize {
		return bloomMoments(m, n, k)
	}
	mean, blocks := blockedMoments(m, n, k)
	return mean, blocks / float64(m/BlockSize)
}

// Arithmetic shows the blocked filter's block and its k 9-bit slots,
// read from h2 nine bits at a time, h2 remixed by splitmix every seven.
func (f *Blocked) Arithmetic(e *Explanation, key []byte) {
	e.K0, e.K1 = f.k0, f.k1
	e.H1, e.H2 = Sip128(e.K0, e.K1, key)
	e.Scheme = "blocked"
	e.Formula = "block = floor(h1·blocks / 2^64); slot_i = 9 bits of g at bit shift_i (g = h2, remixed by splitmix every 7 slots); position = block·512 + slot_i"
	block := Reduce(e.H1, f.blocks)
	e.Blocked = &ExplainBlocked{Blocks: f.blocks, Block: block, Base: block * BlockSize}
	s := slots{x: e.H2}
	for i := range f.k {
		if s.shift == 63 {
			s.x, s.shift = SplitMix(s.x), 0
		}
		g, shift := s.x, s.shift
		e.Steps = append(e.Steps, ExplainStep{I: i, G: g, Shift: shift, Position: e.Blocked.Base + s.next()})
	}
}

// Block is the block position j is in.
func (f *Blocked) Block(j uint64) uint64 { return j / BlockSize }
