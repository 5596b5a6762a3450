package core_test

import (
	"encoding/json"
	"fmt"
	"math"
	"math/bits"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"
	"github.com/bloomlab/bloomlab/core/try"
)

// wordFilter is a throwaway layout written as a new layout would be, from
// outside the package and with core's exported API alone: k bits of a
// key inside one 64-bit word, the word chosen by h1 and the bits by h2
// six at a time. It proves what a new layout touches: its own file (this
// type, its Arithmetic and its record) and one line in Variants. Nothing
// else in core knows it, yet the simulation, Explain and the key panel
// show it whole.
type wordFilter struct {
	words  []uint64
	k      int
	k0, k1 uint64
	set    uint64
}

func newWordFilter(s core.Spec) (core.Membership, error) {
	if s.M < 64 || s.K < 1 || s.K > 10 {
		return nil, fmt.Errorf("word: m must be at least 64 and k in [1, 10], got m = %d, k = %d", s.M, s.K)
	}
	k0, k1 := core.SipKey(s.Seed)
	return &wordFilter{words: make([]uint64, s.M/64), k: s.K, k0: k0, k1: k1}, nil
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

// Arithmetic shows the word and the six-bit slices of h2.
func (f *wordFilter) Arithmetic(e *core.Explanation, key []byte) {
	e.K0, e.K1 = f.k0, f.k1
	e.H1, e.H2 = core.Sip128(f.k0, f.k1, key)
	e.Scheme, e.Formula = "word", "word = floor(h1·words / 2^64); position_i = 64·word + bits 6i..6i+5 of h2"
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

var wordTerms = core.Terms{
	Nonzero: "set bits in words", Dark: "dark when set", Share: "that are set",
	SetBy: "Set in its word by %s.", SetByShort: "set in its word by %s", No: "a zero in its word",
}

func TestNewLayoutTouchesOnlyItsFile(t *testing.T) {
	v, unregister := core.Register(core.Layout{Name: "word", Label: "one word a key", Unit: "bit",
		About: "k bits of a key in one 64-bit word", Positions: "draws its bits in one word from h2",
		Terms: wordTerms, Build: newWordFilter, Theory: wordTheory})
	defer unregister()

	// The edges parse it: a name, JSON, the list in messages.
	if got, err := core.ParseVariant("word"); err != nil || got != v {
		t.Fatalf("ParseVariant(word) = %v, %v", got, err)
	}
	if !strings.HasSuffix(core.VariantNames(), " or word") {
		t.Errorf("VariantNames() = %q, want the new layout last", core.VariantNames())
	}
	var p sim.Params
	if err := json.Unmarshal([]byte(`{"variant":"word"}`), &p); err != nil || p.Variant != v {
		t.Errorf(`{"variant":"word"} read as %v, %v`, p.Variant, err)
	}

	// The simulation runs it through the contract's first clause.
	p = sim.Defaults()
	p.Variant, p.Hashes = v, 4
	r, err := sim.Run(p)
	if err != nil {
		t.Fatal(err)
	}
	if r.FalseNegatives != 0 || r.Variant != v || r.SetBits == 0 || r.MemoryBits != r.M || r.TheoryFPRVariant <= 0 {
		t.Errorf("simulated: %d false negatives, variant %s, %d set bits, %d memory bits of %d, theory %g",
			r.FalseNegatives, r.Variant, r.SetBits, r.MemoryBits, r.M, r.TheoryFPRVariant)
	}

	// Explain shows its own arithmetic, ending in its positions.
	f, err := v.Build(core.Spec{M: 4096, K: 4, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	f.Add([]byte("apple"))
	e, ok := core.Explain(f, []byte("apple"))
	if !ok || e.Scheme != "word" || len(e.Steps) != 4 {
		t.Fatalf("Explain: %v, scheme %q, %d steps", ok, e.Scheme, len(e.Steps))
	}
	for i, s := range e.Steps {
		if s.Position != e.Positions[i] {
			t.Errorf("step %d ends at %d, the filter's position is %d", i, s.Position, e.Positions[i])
		}
	}

	// The key panel inserts, answers, explains and blames in its words.
	p = sim.Defaults()
	p.Variant, p.Hashes, p.Items, p.BitsPerKey = v, 3, 40, 2
	res, err := try.Run(try.Request{Params: p, Insert: []string{"apple", "pear"}, Query: queries(30), Explain: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Unit != "bit" || len(res.Inserts) != 2 || len(res.Inserts[0].Positions) != 3 || len(res.Inserts[0].New) != 3 {
		t.Errorf("inserts: unit %q, %+v", res.Unit, res.Inserts)
	}
	var fp *try.Query
	for i, q := range res.Queries {
		if q.Explain == nil || q.Explain.Scheme != "word" {
			t.Fatalf("query %q not explained by its layout: %+v", q.Key, q.Explain)
		}
		if q.Verdict == try.VerdictFalsePositive && fp == nil {
			fp = &res.Queries[i]
		}
	}
	if fp == nil {
		t.Fatal("no false positive among 30 queries of a filter at 2 bits per key")
	}
	var blamed int
	for _, c := range fp.Culprits {
		blamed += len(c.Typed) + len(c.Generated)
	}
	if blamed == 0 {
		t.Errorf("false positive %q has no keys to blame: %+v", fp.Key, fp.Culprits)
	}
	if got := fmt.Sprintf(v.Terms().SetBy, "apple"); got != "Set in its word by apple." {
		t.Errorf("the layout's words read %q", got)
	}
}

// queries are n made-up keys to ask.
func queries(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprint("query-", i)
	}
	return out
}
