package plan

import "github.com/bloomlab/bloomlab/core"

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

// Cheapest sizes n keys at rate p in each layout of the registry, in its
// order, each by its own theory (core.Variant.Cheapest: the sizing its
// record brings, from its own file, or one from its theory): the standard
// filter m from the formula at the rounded optimal k, the blocked filter
// whole 512-bit blocks at its best k by the exact mixture of block fills,
// the cuckoo filters the narrowest fingerprint that reaches p at full
// load, the static filters the narrowest fingerprint that reaches p, the
// scalable filter the chain a user who does not know n up front sets up.
// The work is a few hundred evaluations of the blocked rate and a dozen or
// so of the chain's plan, whatever n and p.
func Cheapest(n uint64, p float64) []Sized {
	out := make([]Sized, len(core.Variants))
	for i, v := range core.Variants {
		out[i] = sized(v, n, p)
	}
	return out
}

// sized is Cheapest's sizing of one layout.
func sized(v core.Variant, n uint64, p float64) Sized {
	s := v.Cheapest(n, p)
	return Sized{Name: v.Name(), Variant: v, Spec: s.Spec, Settings: s.Settings, Bits: s.Bits, Rate: s.Rate, Reaches: s.Reaches, Why: s.Why}
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
