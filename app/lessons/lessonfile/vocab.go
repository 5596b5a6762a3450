package lessonfile

import (
	"slices"
	"sync"

	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/try"
)

// Kind is what a quantity's value is: a number, a flag (true or false),
// or a name compared with = and != to one of its Words.
type Kind int

const (
	Number Kind = iota
	Flag
	Name
)

// Arg is what a quantity takes in parentheses after its name.
type Arg int

const (
	// NoArg: the name alone.
	NoArg Arg = iota
	// KeyArg: a key in double quotes, verdict("cherry").
	KeyArg
	// KArg: a number of hashes from 1 to 64, theory-at(4).
	KArg
	// FilterArg: optionally one of Filters, answered-member(typed).
	FilterArg
)

// Quantity is one word of the condition vocabulary: a named reading of
// the lab's state. The page evaluates it (app/lessons); this table is
// what a lesson may say, and the README's list.
type Quantity struct {
	Name string
	Kind Kind
	Arg  Arg
	// Words are a Name quantity's values.
	Words []string
	// Doc says in a line what it reads.
	Doc string
}

// Filters narrow the answered counts: keys typed into the lab, noes
// proved by a zero read, false positives with a typed key among their
// culprits.
var Filters = []string{"typed", "zero", "typed-culprit"}

// Verdicts are the key panel's answers, as verdict(KEY) names them.
var Verdicts = []string{try.VerdictNo, try.VerdictMember, try.VerdictFalsePositive, try.VerdictFalseNegative}

// Lists are the candidate lists a recover runs through.
var Lists = try.CandidateLists

func faultNames() []string {
	out := []string{string(core.NoFault)}
	for _, f := range core.Faults {
		out = append(out, string(f))
	}
	return out
}

func variantNames() []string {
	var out []string
	for _, v := range core.Variants {
		out = append(out, v.Name())
	}
	return out
}

// Vocabulary is every quantity a condition or an answer may read, in the
// order the README lists them. A quantity of the run is unknown until the
// run of the settings shown has finished; an attack's until the key
// panel's attack of that kind ran on the filter shown; the audit's until
// it finished. A comparison that reads an unknown quantity does not hold,
// and neither does its "not". Made on first use: the fault and layout
// names it lists are read from core, not at the program's start.
var Vocabulary = sync.OnceValue(func() []Quantity {
	return []Quantity{
		// The filter shown.
		{Name: "shown", Kind: Flag, Doc: "the run of the settings shown has finished"},
		{Name: "fill", Doc: "the share of bits set, 0 to 1"},
		{Name: "theory", Doc: "the theory false-positive rate, 0 to 1"},
		{Name: "measured", Doc: "the measured false-positive rate, 0 to 1"},
		{Name: "measured-low", Doc: "the low end of the measured rate's 95% interval"},
		{Name: "measured-high", Doc: "the high end of the measured rate's 95% interval"},
		{Name: "theory-inside", Kind: Flag, Doc: "the theory rate lies inside the measured rate's interval"},
		{Name: "false-negatives", Doc: "members the filter answered no for (a broken filter's)"},
		{Name: "n", Doc: "the keys the filter holds (at a player's stop, those played in)"},
		{Name: "estimated", Doc: "the keys estimated from the fill, -(m/k) ln(1 - fill) (unknown for a full filter, or a layout that does not estimate)"},
		{Name: "estimated-low", Doc: "the low end of the estimate's interval, 2 standard deviations under it"},
		{Name: "estimated-high", Doc: "the high end of the estimate's interval, 2 standard deviations over it"},
		{Name: "m", Doc: "the filter's bits"},
		{Name: "k", Doc: "the filter's hashes"},
		{Name: "optimal-k", Doc: "(m/n) ln 2 rounded: the best k for m and n"},
		{Name: "ceil-k", Doc: "the ceiling of (m/n) ln 2, the k many libraries take"},
		{Name: "theory-at", Arg: KArg, Doc: "theory-at(K): the theory rate of m and n with K hashes"},
		{Name: "theory-at-optimal-k", Doc: "the theory rate of m and n at optimal-k"},
		{Name: "load", Doc: "kn / (m ln 2): 1 where k is the optimum for n (the design load)"},
		{Name: "end-load", Doc: "the load once the player has put every key in"},
		{Name: "design-rate", Doc: "the theory rate of m and k at their design load"},
		{Name: "bloom", Kind: Flag, Doc: "the filter shown is one of the Bloom layouts (bits and k hashes)"},
		{Name: "words-to-maybe", Doc: "how many of the key panel's common words are queried until the first maybe"},
		// The settings.
		{Name: "typed", Doc: "the keys typed into the lab's filter"},
		{Name: "duplicate-passes", Doc: "how many times every key is inserted"},
		{Name: "playing", Kind: Flag, Doc: "the player stopped before the last key"},
		{Name: "second", Kind: Flag, Doc: "the second filter's view is open"},
		{Name: "salts-changed", Kind: Flag, Doc: "the second view's salts-changed story is on"},
		{Name: "stale-snapshot", Kind: Flag, Doc: "the second view's stale-snapshot story is on"},
		{Name: "replicas-diverge", Kind: Flag, Doc: "the second view's replicas-diverge story is on"},
		{Name: "fault", Kind: Name, Words: faultNames(), Doc: "the fault switched on (none: the real filter)"},
		{Name: "variant", Kind: Name, Words: variantNames(), Doc: "the filter's layout"},
		// The key panel.
		{Name: "answered-no", Arg: FilterArg, Doc: "distinct keys the key panel answered no, in this step"},
		{Name: "answered-member", Arg: FilterArg, Doc: "distinct keys answered maybe that are members"},
		{Name: "answered-false-positive", Arg: FilterArg, Doc: "distinct keys answered maybe that were never inserted"},
		{Name: "answered-false-negative", Arg: FilterArg, Doc: "distinct members answered no (a broken filter's)"},
		{Name: "verdict", Kind: Name, Arg: KeyArg, Words: Verdicts, Doc: "verdict(\"KEY\"): the key panel's answer for KEY"},
		// The key panel's attacks.
		{Name: "forged", Kind: Flag, Doc: "a forge found a false positive in the filter shown"},
		{Name: "algebraic", Kind: Flag, Doc: "that forge needed no search: the twin of a member under the weak hash"},
		{Name: "filled-bits", Doc: "the bits a fill's crafted keys turned on"},
		{Name: "random-bits", Doc: "the bits as many random keys are expected to turn on"},
		{Name: "recovered-list", Kind: Name, Words: Lists, Doc: "the candidate list a recover ran through"},
		{Name: "recovered-positives", Doc: "the candidates that tested positive"},
		{Name: "recovered-members", Doc: "the members among them"},
		{Name: "recovered-precision", Doc: "the share of the positives that are members, 0 to 1"},
		// The audit.
		{Name: "audit-failed", Doc: "the failed checks of the audit of the fault switched on (a step that reads it waits for the audit)"},
	}
})

// Lookup finds a quantity by name.
func Lookup(name string) (Quantity, bool) {
	vocab := Vocabulary()
	i := slices.IndexFunc(vocab, func(q Quantity) bool { return q.Name == name })
	if i < 0 {
		return Quantity{}, false
	}
	return vocab[i], true
}
