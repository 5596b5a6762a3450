// Package coretest holds a throwaway layout for tests in any package: the
// word filter, written as a new layout would be, from outside core and with
// core's exported API alone. A test registers it (RegisterWord) and sees
// that the layer it tests takes it without an edit: the simulation, the key
// panel, the audit's checks, the calculator's table and the experiments.
// Only tests import this package, so it never reaches the lab's programs.
package coretest

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/bloomlab/bloomlab/core"
)

// WordName is the word layout's name, as a link or a flag spells it.
const WordName = "word"

// RegisterWord adds the word layout to core's registry and returns its
// Variant and a func that takes it out again (see core.Register).
func RegisterWord() (core.Variant, func()) {
	return core.Register(core.Layout{Name: WordName, Label: "one word a key", Unit: "bit",
		About: "k bits of a key in one 64-bit word", Positions: "draws its bits in one word from h2",
		Terms: WordTerms, Build: newWordFilter, Theory: wordTheory})
}

// wordFilter keeps k bits of a key inside one 64-bit word, the word chosen
// by h1 and the bits by h2 six at a time: a blocked filter of one-word
// blocks. It proves what a new layout touches: its own file (this type,
// its views and its record) and one line in the registry.
type wordFilter struct {
	words  []uint64
	k      int
	k0, k1 uint64
	set    uint64
}

// newWordFilter builds a filter of m bits rounded up to whole words, as a
// blocked filter rounds m up to whole blocks.
func newWordFilter(s core.Spec) (core.Membership, error) {
	if s.M < 1 || s.K < 1 || s.K > 10 {
		return nil, fmt.Errorf("coretest: the word filter takes m of at least 1 and k in [1, 10], got m = %d, k = %d", s.M, s.K)
	}
	k0, k1 := core.SipKey(s.Seed)
	return &wordFilter{words: make([]uint64, (s.M+63)/64), k: s.K, k0: k0, k1: k1}, nil
}

func (f *wordFilter) Positions(dst []uint64, key []byte) []uint64 {
	h1, h2 := core.Sip128(f.k0, f.k1, key)
	base := 64 * core.Reduce(h1, uint64(len(f.words)))
	dst = dst[:0]
	for i := range f.k {
		dst = append(dst, base+(h2>>(6*i))&63)
	}
	return dst
}

func (f *wordFilter) Add(key []byte) {
	for _, j := range f.Positions(nil, key) {
		if !f.IsSet(j) {
			f.words[j/64] |= 1 << (j % 64)
			f.set++
		}
	}
}

func (f *wordFilter) Contains(key []byte) (bool, int) {
	for i, j := range f.Positions(nil, key) {
		if !f.IsSet(j) {
			return false, i + 1
		}
	}
	return true, f.k
}

func (f *wordFilter) M() uint64           { return 64 * uint64(len(f.words)) }
func (f *wordFilter) K() int              { return f.k }
func (f *wordFilter) SetBits() uint64     { return f.set }
func (f *wordFilter) IsSet(j uint64) bool { return j < f.M() && f.words[j/64]>>(j%64)&1 != 0 }
func (f *wordFilter) Words() []uint64     { return f.words }
func (f *wordFilter) Popcount() uint64 {
	var n int
	for _, w := range f.words {
		n += bits.OnesCount64(w)
	}
	return uint64(n)
}

// Block is the word position j is in: its view as core.Blocks.
func (f *wordFilter) Block(j uint64) uint64 { return j / 64 }

// Arithmetic shows the word and the six-bit slices of h2.
func (f *wordFilter) Arithmetic(e *core.Explanation, key []byte) {
	e.K0, e.K1 = f.k0, f.k1
	e.H1, e.H2 = core.Sip128(f.k0, f.k1, key)
	e.Scheme, e.Formula = WordName, "word = floor(h1·words / 2^64); position_i = 64·word + bits 6i..6i+5 of h2"
	base := 64 * core.Reduce(e.H1, uint64(len(f.words)))
	for i := range f.k {
		e.Steps = append(e.Steps, core.ExplainStep{I: i, G: e.H2, Shift: uint(6 * i), Position: base + (e.H2>>(6*i))&63})
	}
}

// wordTheory is the standard formula: a rough theory is enough here.
func wordTheory(f core.Membership, n uint64) core.Theory {
	p := math.Pow(-math.Expm1(-float64(f.K())*float64(n)/float64(f.M())), float64(f.K()))
	return core.Theory{Rate: p, ExpectedSet: core.ExpectedSetBits(f.M(), n, f.K()), ExpectedProbes: 1}
}

// WordTerms are the word layout's words for its positions.
var WordTerms = core.Terms{
	Nonzero: "set bits in words", Dark: "dark when set", Share: "that are set",
	SetBy: "Set in its word by %s.", SetByShort: "set in its word by %s", No: "a zero in its word",
}
