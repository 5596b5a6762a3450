package lessons

import (
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/bloomlab/bloomlab/app/lab"
	"github.com/bloomlab/bloomlab/app/lessons/lessonfile"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"
	"github.com/bloomlab/bloomlab/core/try"
)

// A lesson's conditions and answers are read over the lab's state here:
// lessonfile says what a lesson may write, readings what each word reads.
// A reading reads only the state, runs no simulation (words-to-maybe
// replays the key panel's list on the settings, as its button does), and
// is unknown (ok false) while the state does not hold it yet.

// reading is one quantity's value in st: a float64, a bool for a flag or
// a string for a name.
type reading func(st lab.State, arg string) (v any, ok bool)

// ofRun reads a figure of the run shown, unknown until it finished.
func ofRun(f func(st lab.State, r *sim.Result) any) reading {
	return func(st lab.State, _ string) (any, bool) {
		r := st.Shown()
		if r == nil {
			return nil, false
		}
		return f(st, r), true
	}
}

// ofAttack reads the key panel's last attack of kind on the filter shown.
func ofAttack(kind string, f func(a *try.AttackResult) any) reading {
	return func(st lab.State, _ string) (any, bool) {
		a := st.Attacked(kind)
		if a == nil {
			return nil, false
		}
		return f(a), true
	}
}

// answered counts the distinct keys answered with verdict v, narrowed by
// the filter in the argument.
func answered(v string) reading {
	return func(st lab.State, filter string) (any, bool) {
		keep := map[string]func(q try.Query) bool{
			"":      nil,
			"typed": func(q try.Query) bool { return st.Settings.Typed.Has(q.Key) },
			"zero":  func(q try.Query) bool { return q.FirstZero > 0 },
			"typed-culprit": func(q try.Query) bool {
				for _, c := range q.Culprits {
					if len(c.Typed) > 0 {
						return true
					}
				}
				return false
			},
		}[filter]
		return float64(len(st.Answered(v, keep))), true
	}
}

// load is how many times its design load a Bloom filter of m bits and k
// hashes holds with n keys: kn / (m ln 2), 1 where k is the optimum for n
// and the array is half full (fill 1 - 2^-load).
func load(m, n uint64, k int) float64 {
	return float64(k) * float64(n) / (float64(m) * math.Ln2)
}

// designRate is the theory rate of a filter of m bits and k hashes at its
// design load, the n for which k is the optimum.
func designRate(m uint64, k int) float64 {
	return core.Rate(m, uint64(math.Round(float64(m)*math.Ln2/float64(k))), k)
}

// turned is the bits a fill's keys turned on.
func turned(a *try.AttackResult) float64 {
	n := 0
	for _, b := range a.New {
		n += b
	}
	return float64(n)
}

// ofEstimate reads the estimate of the keys in the filter shown, sds of
// its standard deviations off it, as the counters show it (unknown where
// they show none).
func ofEstimate(sds float64) reading {
	return func(st lab.State, _ string) (any, bool) {
		r := st.Shown()
		if r == nil {
			return nil, false
		}
		e, err := r.Variant.EstimateFrom(r.M, r.K, r.SetBits)
		if err != nil {
			return nil, false
		}
		return e.N + sds*e.SD, true
	}
}

// readings are the vocabulary's readings, by name (lessonfile.Vocabulary
// lists the words; a test checks each has its reading). Made on the first
// condition read, not at the program's start.
var readings = sync.OnceValue(func() map[string]reading {
	return map[string]reading{
		"shown":         func(st lab.State, _ string) (any, bool) { return st.Shown() != nil, true },
		"fill":          ofRun(func(_ lab.State, r *sim.Result) any { return r.Occupancy }),
		"theory":        ofRun(func(_ lab.State, r *sim.Result) any { return r.TheoryFPR }),
		"measured":      ofRun(func(_ lab.State, r *sim.Result) any { return r.EmpiricalFPR }),
		"measured-low":  ofRun(func(_ lab.State, r *sim.Result) any { return r.WholeCILow }),
		"measured-high": ofRun(func(_ lab.State, r *sim.Result) any { return r.WholeCIHigh }),
		"theory-inside": ofRun(func(_ lab.State, r *sim.Result) any {
			return r.WholeCILow <= r.TheoryFPR && r.TheoryFPR <= r.WholeCIHigh
		}),
		"false-negatives":     ofRun(func(_ lab.State, r *sim.Result) any { return float64(r.FalseNegatives) }),
		"n":                   ofRun(func(_ lab.State, r *sim.Result) any { return float64(r.N) }),
		"estimated":           ofEstimate(0),
		"estimated-low":       ofEstimate(-lab.EstimateSDs),
		"estimated-high":      ofEstimate(lab.EstimateSDs),
		"m":                   ofRun(func(_ lab.State, r *sim.Result) any { return float64(r.M) }),
		"k":                   ofRun(func(_ lab.State, r *sim.Result) any { return float64(r.K) }),
		"optimal-k":           ofRun(func(_ lab.State, r *sim.Result) any { return float64(core.OptimalK(r.M, r.N)) }),
		"ceil-k":              ofRun(func(_ lab.State, r *sim.Result) any { return float64(core.CeilK(r.M, r.N)) }),
		"theory-at-optimal-k": ofRun(func(_ lab.State, r *sim.Result) any { return core.Rate(r.M, r.N, core.OptimalK(r.M, r.N)) }),
		"theory-at": func(st lab.State, arg string) (any, bool) {
			r := st.Shown()
			k, err := strconv.Atoi(arg)
			if r == nil || err != nil {
				return nil, false
			}
			return core.Rate(r.M, r.N, k), true
		},
		"load": ofRun(func(_ lab.State, r *sim.Result) any { return load(r.M, r.N, r.K) }),
		"end-load": ofRun(func(st lab.State, r *sim.Result) any {
			m, k := st.Settings.Params.Shape()
			return load(m, uint64(st.Settings.Params.Items)+r.Typed, k)
		}),
		"design-rate": ofRun(func(_ lab.State, r *sim.Result) any { return designRate(r.M, r.K) }),
		"bloom":       ofRun(func(_ lab.State, r *sim.Result) any { return r.Variant.Bloom() }),
		"words-to-maybe": func(st lab.State, _ string) (any, bool) {
			_, tried, err := try.FindFalsePositive(try.Request{Params: st.Settings.Run(), Insert: st.Settings.Typed.List()}, nil)
			if err != nil || tried == 0 {
				return nil, false
			}
			return float64(tried), true
		},
		"typed":            func(st lab.State, _ string) (any, bool) { return float64(len(st.Settings.Typed.List())), true },
		"duplicate-passes": func(st lab.State, _ string) (any, bool) { return float64(st.Settings.Params.DuplicatePasses), true },
		"playing":          func(st lab.State, _ string) (any, bool) { return st.Settings.Playing(), true },
		"second":           func(st lab.State, _ string) (any, bool) { return st.Settings.Second.On, true },
		"salts-changed":    func(st lab.State, _ string) (any, bool) { return st.Settings.Second.Salt, true },
		"stale-snapshot":   func(st lab.State, _ string) (any, bool) { return st.Settings.Second.Stale, true },
		"replicas-diverge": func(st lab.State, _ string) (any, bool) { return st.Settings.Second.Replicas, true },
		"fault":            func(st lab.State, _ string) (any, bool) { return string(st.Fault()), true },
		"variant": func(st lab.State, _ string) (any, bool) {
			return st.Settings.Params.Variant.Effective(st.Fault()).Name(), true
		},
		"answered-no":             answered(try.VerdictNo),
		"answered-member":         answered(try.VerdictMember),
		"answered-false-positive": answered(try.VerdictFalsePositive),
		"answered-false-negative": answered(try.VerdictFalseNegative),
		"verdict": func(st lab.State, key string) (any, bool) {
			for _, q := range st.Queries {
				if q.Key == key {
					return q.Verdict, true
				}
			}
			return nil, false
		},
		"forged":              func(st lab.State, _ string) (any, bool) { return st.Attacked(try.AttackForge) != nil, true },
		"algebraic":           ofAttack(try.AttackForge, func(a *try.AttackResult) any { return a.Algebraic }),
		"filled-bits":         ofAttack(try.AttackFill, func(a *try.AttackResult) any { return turned(a) }),
		"random-bits":         ofAttack(try.AttackFill, func(a *try.AttackResult) any { return a.RandomNew }),
		"recovered-list":      ofAttack(try.AttackRecover, func(a *try.AttackResult) any { return a.List }),
		"recovered-positives": ofAttack(try.AttackRecover, func(a *try.AttackResult) any { return float64(a.Positive) }),
		"recovered-members":   ofAttack(try.AttackRecover, func(a *try.AttackResult) any { return float64(a.Members) }),
		"recovered-precision": ofAttack(try.AttackRecover, func(a *try.AttackResult) any { return a.Precision() }),
		"audit-failed": func(st lab.State, _ string) (any, bool) {
			a := st.Audit
			if a == nil || !strings.HasSuffix(a.Target, "/"+string(st.Fault())) {
				return nil, false
			}
			return float64(a.Failed), true
		},
	}
})

// value reads an operand: its number, or its factor times its quantity.
func value(o lessonfile.Operand, st lab.State) (float64, bool) {
	if o.Quantity == "" {
		return o.Number, true
	}
	v, ok := readings()[o.Quantity](st, o.Arg)
	f, isNum := v.(float64)
	if !ok || !isNum {
		return 0, false
	}
	return o.Factor * f, true
}

// evaluate reads condition c in st: holds when every term does; known
// when every term could be read. A term that cannot be read does not
// hold, negated or not.
func evaluate(c lessonfile.Condition, st lab.State) (holds, known bool) {
	holds, known = true, true
	for _, t := range c.Terms {
		h, ok := term(t, st)
		holds = holds && ok && h
		known = known && ok
	}
	return holds, known
}

// holds reports that c holds in st.
func holds(c lessonfile.Condition, st lab.State) bool {
	h, _ := evaluate(c, st)
	return h
}

func term(t lessonfile.Term, st lab.State) (bool, bool) {
	switch {
	case t.Flag != "":
		v, ok := readings()[t.Flag](st, "")
		b, isFlag := v.(bool)
		return ok && isFlag && b != t.Not, ok && isFlag
	case t.Word != "":
		v, ok := readings()[t.Left.Quantity](st, t.Left.Arg)
		w, isName := v.(string)
		return ok && isName && (w == t.Word) == (t.Op == "="), ok && isName
	}
	l, okl := value(t.Left, st)
	r, okr := value(t.Right, st)
	if !okl || !okr {
		return false, false
	}
	switch t.Op {
	case "<":
		return l < r, true
	case "<=":
		return l <= r, true
	case ">":
		return l > r, true
	case ">=":
		return l >= r, true
	case "=":
		return l == r, true
	}
	return l != r, true
}
