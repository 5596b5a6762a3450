package plan

import (
	"encoding/json"

	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"
)

// Tables are a plan's slow parts, apart from Solve's closed forms: its
// alternatives built and queried (Measure) and every layout at its
// cheapest size for the plan's n and p (Cheapest), with the cheapest for
// each need (CheapestFor). The calculator shows Solve's figures at once and
// these when they are measured.
type Tables struct {
	Measured    []Measured
	Cheapest    []Sized
	CheapestFor []int
}

// MeasureTables measures pl's tables, the same as Measure, Cheapest and
// CheapestFor would. Its work is counted in structures: the alternatives
// built and the layouts sized. step, if not nil, is called after each
// structure with the structures done and the total, and again, with the
// same count, at each step of a build, so that a caller can yield and
// cancel within one; an error it returns stops the work and is returned.
func MeasureTables(pl Plan, step sim.Step) (Tables, error) {
	total, done := len(pl.Alternatives)+len(core.Variants), 0
	within := func(int, int) error {
		if step == nil {
			return nil
		}
		return step(done, total)
	}
	next := func() error {
		done++
		return within(done, total)
	}
	t := Tables{Measured: make([]Measured, len(pl.Alternatives)), Cheapest: make([]Sized, len(core.Variants))}
	for i, a := range pl.Alternatives {
		var err error
		if t.Measured[i], err = measure(a, pl.N, within); err != nil {
			return Tables{}, err
		}
		if err := next(); err != nil {
			return Tables{}, err
		}
	}
	for i, v := range core.Variants {
		t.Cheapest[i] = sized(v, pl.N, pl.P)
		if err := next(); err != nil {
			return Tables{}, err
		}
	}
	t.CheapestFor = CheapestFor(t.Cheapest)
	return t, nil
}

// Shape is what a plan's tables depend on: its n, m, p and k. It travels
// where a Plan cannot, as JSON to a worker: an Alternative leaves the
// filter it would build out of its JSON.
type Shape struct {
	N uint64  `json:"n"`
	M uint64  `json:"m"`
	P float64 `json:"p"`
	K int     `json:"k"`
}

// Shape is pl's Shape.
func (pl Plan) Shape() Shape { return Shape{N: pl.N, M: pl.M, P: pl.P, K: pl.K} }

// Plan is as much of the plan of s as its tables need: n, m, p, k and
// the alternatives, as Solve found them.
func (s Shape) Plan() Plan { return s.With(Alternatives(s.N, s.M, s.P, s.K)) }

// With is the plan of s with the alternatives alts, found before (Plan),
// for the tables measured where the alternatives were not found: the
// calculator's page finds them on a worker and has them measured there
// in a second job.
func (s Shape) With(alts []Alternative) Plan {
	return Plan{N: s.N, M: s.M, P: s.P, K: s.K, Alternatives: alts}
}

// tablesJSON is Tables as JSON keeps them, each layout's size with its
// Spec, which Sized leaves out of its own JSON: the calculator's default
// tables (a file that comes with the program) and a worker's answer.
type tablesJSON struct {
	Measured    []Measured  `json:"measured"`
	Cheapest    []sizedSpec `json:"cheapest"`
	CheapestFor []int       `json:"cheapestFor"`
}

type sizedSpec struct {
	Sized
	Spec core.Spec `json:"spec"`
}

func (t Tables) MarshalJSON() ([]byte, error) {
	w := tablesJSON{Measured: t.Measured, CheapestFor: t.CheapestFor}
	for _, s := range t.Cheapest {
		w.Cheapest = append(w.Cheapest, sizedSpec{Sized: s, Spec: s.Spec})
	}
	return json.Marshal(w)
}

func (t *Tables) UnmarshalJSON(b []byte) error {
	var w tablesJSON
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*t = Tables{Measured: w.Measured, CheapestFor: w.CheapestFor}
	if w.Cheapest != nil {
		t.Cheapest = make([]Sized, len(w.Cheapest))
		for i, s := range w.Cheapest {
			t.Cheapest[i] = s.Sized
			t.Cheapest[i].Spec = s.Spec
		}
	}
	return nil
}
