package core

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
}

// NewBlocked returns an empty blocked filter of at least m bits, rounded up
// to whole 512-bit blocks, with k bits per key, keyed by seed.
func NewBlocked(m uint64, k int, seed uint64) (*Blocked, error) {
	if err := checkShape(m, k); err != nil {
		return nil, err
	}
	blocks := (m + BlockSize - 1) / BlockSize
	k0, k1 := SipKey(seed)
	return &Blocked{m: blocks * BlockSize, blocks: blocks, k: k, k0: k0, k1: k1,
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
