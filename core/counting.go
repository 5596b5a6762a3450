package core

// Counting is a counting Bloom filter (Fan, Cao, Almeida and Broder, "Summary
// Cache", 2000): m 4-bit counters, sixteen to a word, so keys can be removed.
// Counters saturate at 15 instead of wrapping; a saturated counter is still
// decremented on removal, so heavy duplicates followed by rollbacks can drive
// a counter that live keys share to zero, and the lab shows that as false
// negatives.
type Counting struct {
	m        uint64
	k        int
	k0, k1   uint64
	words    []uint64
	set      uint64
	overflow uint64
	wrap     bool // the wrap-counters fault: 15 + 1 = 0
	hashing  Hashing
	seed     uint64
	added    uint64 // Add calls less the Remove calls that removed
}

// CounterMax is the largest value a 4-bit counter holds.
const CounterMax = 15

// CounterBits is the width of a counter: four bits, sixteen to a word.
func (f *Counting) CounterBits() int { return 4 }

// NewCounting returns an empty counting filter of m counters and k hashes,
// keyed by seed.
func NewCounting(m uint64, k int, seed uint64) (*Counting, error) {
	if err := checkShape(m, k); err != nil {
		return nil, err
	}
	k0, k1 := SipKey(seed)
	return &Counting{m: m, k: k, k0: k0, k1: k1, words: make([]uint64, (m+15)/16), hashing: DoubleHashing, seed: seed}, nil
}

// Counter returns the value of counter i.
func (f *Counting) Counter(i uint64) uint8 {
	return uint8(f.words[i>>4] >> (4 * (i & 15)) & 0xf)
}

func (f *Counting) setCounter(i uint64, v uint8) {
	shift := 4 * (i & 15)
	f.words[i>>4] = f.words[i>>4]&^(0xf<<shift) | uint64(v&0xf)<<shift
}

// Add increments key's k counters (a counter hit twice by one key counts
// twice), saturating at CounterMax and counting each saturation in Overflows.
func (f *Counting) Add(key []byte) {
	f.added++
	var buf [MaxK]uint64
	for _, j := range f.Positions(buf[:0], key) {
		c := f.Counter(j)
		switch {
		case c == 0:
			f.set++
			f.setCounter(j, 1)
		case c < CounterMax:
			f.setCounter(j, c+1)
		case f.wrap:
			f.overflow++
			f.set--
			f.setCounter(j, 0)
		default:
			f.overflow++
		}
	}
}

// Remove decrements key's k counters if key may be present and reports
// whether it did; a key that tests absent is left alone.
func (f *Counting) Remove(key []byte) bool {
	if ok, _ := f.Contains(key); !ok {
		return false
	}
	f.added--
	var buf [MaxK]uint64
	for _, j := range f.Positions(buf[:0], key) {
		if c := f.Counter(j); c > 0 {
			f.setCounter(j, c-1)
			if c == 1 {
				f.set--
			}
		}
	}
	return true
}

func (f *Counting) Contains(key []byte) (bool, int) {
	var buf [MaxK]uint64
	for i, j := range f.Positions(buf[:0], key) {
		if f.Counter(j) == 0 {
			return false, i + 1
		}
	}
	return true, f.k
}

func (f *Counting) Positions(dst []uint64, key []byte) []uint64 {
	return f.hashing.positions(dst, f.k0, f.k1, key, f.k, f.m)
}

// MaxCounter returns the largest counter value.
func (f *Counting) MaxCounter() uint8 {
	var top uint8
	for i := uint64(0); i < f.m; i++ {
		top = max(top, f.Counter(i))
	}
	return top
}

// Overflows counts increments lost to saturation (or, with the wrap fault,
// counters that wrapped to zero).
func (f *Counting) Overflows() uint64 { return f.overflow }

func (f *Counting) M() uint64           { return f.m }
func (f *Counting) K() int              { return f.k }
func (f *Counting) SetBits() uint64     { return f.set }
func (f *Counting) Words() []uint64     { return f.words }
func (f *Counting) IsSet(i uint64) bool { return i < f.m && f.Counter(i) != 0 }
func (f *Counting) Inserted() uint64    { return f.added }

// Shape is the filter's layout, m, k, hashing and seed.
func (f *Counting) Shape() Shape {
	return Shape{Variant: CountingVariant, M: f.m, K: f.k, Hashing: f.hashing, Seed: f.seed}
}

// Merge adds the counters of f and other, a counting filter of f's Shape,
// into a new filter (or, to intersect, keeps the smaller of each pair). A
// sum past CounterMax is kept at it, as Add keeps it: saturated counts
// those counters, and the increments they lost go to Overflows beside the
// two filters' own.
func (f *Counting) Merge(other Membership, intersect bool) (Membership, uint64, error) {
	o, err := partner(f, other)
	if err != nil {
		return nil, 0, err
	}
	g := *f
	g.words, g.set = make([]uint64, len(f.words)), 0
	g.overflow = f.overflow + o.overflow
	g.added = mergedInserted(f.added, o.added, intersect)
	var saturated uint64
	for i := range f.m {
		a, b := f.Counter(i), o.Counter(i)
		c := min(a, b)
		if !intersect {
			c = a + b
			if c > CounterMax {
				saturated++
				g.overflow += uint64(c - CounterMax)
				c = CounterMax
			}
		}
		if c != 0 {
			g.set++
			g.setCounter(i, c)
		}
	}
	return &g, saturated, nil
}

// restoreCounting is a counting filter of Shape s read from a file: the
// counters past m in the last word must be zero. What Overflows counted
// is not kept.
func restoreCounting(s Shape, added uint64, words []uint64) (Membership, error) {
	if err := paddingClear(words, s.M, 4); err != nil {
		return nil, err
	}
	k0, k1 := SipKey(s.Seed)
	c := &Counting{m: s.M, k: s.K, k0: k0, k1: k1, words: words, hashing: s.Hashing, seed: s.Seed, added: added}
	c.set = c.Popcount()
	return c, nil
}

// Popcount counts the nonzero counters.
func (f *Counting) Popcount() uint64 {
	n := uint64(0)
	for i := uint64(0); i < f.m; i++ {
		if f.Counter(i) != 0 {
			n++
		}
	}
	return n
}

// CountingVariant is the counting filter's variant.
var CountingVariant = Variant{&kind{
	name: "counting", label: "counting (4-bit counters)", unit: "counter",
	about:   "m 4-bit counters, so keys can be removed (Fan, Cao, Almeida and Broder, 2000)",
	deletes: true, usesK: true, hashings: true, faults: []Fault{KFromCeil, WrapCounters},
	formula: "(1 - e^(-kn/m))^k, counters for bits",
	terms: Terms{Nonzero: "nonzero counters", Dark: "darker the higher its count", Share: "that are nonzero",
		SetBy: bitTerms.SetBy, SetByShort: bitTerms.SetByShort, No: bitTerms.No},
	build: func(s Spec) (Membership, error) {
		c, err := NewCounting(s.M, s.K, s.Seed)
		if err == nil {
			c.wrap, c.hashing = s.Fault == WrapCounters, s.Hashing
		}
		return c, err
	},
	memoryBits: func(f Membership) uint64 { return 4 * f.M() },
	moments:    bloomMoments,
	file:       &fileLayout{code: 3, words: func(m uint64) (uint64, bool) { return (m + 15) / 16, true }, restore: restoreCounting},
	estimate:   bloomEstimate,
	unionWhole: true,
	cheapest:   cheapestCounting,
}}

// cheapestCounting is the standard filter's shape, a 4-bit counter for
// each of its bits: the counters change the memory, not the rate.
func cheapestCounting(n uint64, p float64) Sizing {
	s := cheapestStandard(n, p)
	if s.Reaches {
		s.Settings += ", 4-bit counters"
		s.Bits = satMul(s.Bits, 4)
	}
	return s
}

// Arithmetic shows the counting filter's k probes, as the standard filter's.
func (c *Counting) Arithmetic(e *Explanation, key []byte) {
	e.K0, e.K1 = c.k0, c.k1
	e.explainBloom(c.hashing, key, c.k, c.m)
}
