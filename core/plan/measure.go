package plan

import (
	"math"

	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"
)

// Measured is one alternative built by the lab and queried: a check of its
// formula's rate at the table's bits per key, on fewer keys than the plan's
// n. For a structure the lab cannot build, Built is false and Why says why.
type Measured struct {
	ID    string `json:"id"`
	Built bool   `json:"built"`
	Why   string `json:"why,omitempty"`
	// Keys were inserted and Queries absent keys asked (absent by
	// construction, core.Absent); FalsePositives of them answered maybe.
	Keys           uint64 `json:"keys"`
	Queries        uint64 `json:"queries"`
	FalsePositives uint64 `json:"falsePositives"`
	// Rate is FalsePositives / Queries, and Low and High its 95% Wilson
	// interval.
	Rate float64 `json:"fpr"`
	Low  float64 `json:"fprLow"`
	High float64 `json:"fprHigh"`
	// Theory is the lab's theory for the filter built (Variant.Theory): the
	// table's formula at these keys, or for a cuckoo filter at its load.
	Theory float64 `json:"theory"`
	// BitsPerKey is the built filter's memory per key: the table's, except
	// for a binary fuse filter, whose array is relatively larger at few keys.
	BitsPerKey float64 `json:"bitsPerKey"`
	// InsertFailures counts the inserts a full cuckoo table refused.
	InsertFailures uint64 `json:"insertFailures,omitempty"`
}

// The measured column's sizes: at most MeasureKeys keys and MeasureQueries
// absent queries a structure, seven structures in all, keep a plan's
// measurement to a few tens of milliseconds in a browser. MeasureQueries
// resolves rates down to about 10^-3 (20 false positives at 0.1%); below
// that the interval says how little the run can tell.
const (
	MeasureKeys    = 10_000
	MeasureQueries = 20_000
	measureSeed    = 1
	measureKeyLen  = DefaultKeyBytes
)

// Measure builds each alternative of pl the lab can build at the table's
// bits per key with min(n, MeasureKeys) keys, queries MeasureQueries absent
// keys, and returns what each showed, in pl.Alternatives' order. Every
// structure gets the same keys (seed 1), so the same plan measures the same
// everywhere, natively, under Node and in the browser.
func Measure(pl Plan) []Measured {
	out := make([]Measured, len(pl.Alternatives))
	for i, a := range pl.Alternatives {
		out[i], _ = measure(a, pl.N, nil)
	}
	return out
}

// measure builds a's filter for min(n, MeasureKeys) keys instead of the n
// it was sized for, scaling its m (bits, or positions) to keep its bits per
// key, and measures it. step, if not nil, is the simulation's Step; an
// error it returns stops the build and is returned (an error of the build
// itself is the row's Why).
func measure(a Alternative, n uint64, step sim.Step) (Measured, error) {
	keys := min(n, MeasureKeys)
	out := Measured{ID: a.ID}
	switch {
	case a.Unreachable:
		out.Why = "no size tried reaches p, so there is nothing to build"
		return out, nil
	case a.Lab.IsZero() || a.Unbuilt != "":
		out.Why = a.Unbuilt
		return out, nil
	}
	s := a.Spec
	m := uint64(1) // a layout that sizes itself from n ignores it
	if s.M > 0 {
		m = max(1, uint64(math.Round(float64(s.M)/float64(n)*float64(keys))))
	}
	var stopped error
	watched := func(done, total int) error {
		if step != nil {
			stopped = step(done, total)
		}
		return stopped
	}
	r, err := sim.RunSteps(sim.Params{M: m, Hashes: s.K, Items: int(keys), Queries: MeasureQueries,
		KeyBytes: measureKeyLen, DuplicatePasses: 1, Seed: measureSeed, Variant: a.Lab, FingerprintBits: s.FingerprintBits}, watched)
	if stopped != nil {
		return out, stopped
	}
	if err != nil {
		out.Why = core.Message(err)
		return out, nil
	}
	out.Built, out.Keys, out.Queries, out.FalsePositives = true, keys, r.AbsentQueries, r.FalsePositives
	out.Rate, out.Low, out.High = r.EmpiricalFPR, r.QueryCILow, r.QueryCIHigh
	out.Theory, out.BitsPerKey, out.InsertFailures = r.TheoryFPRVariant, r.MemoryBitsPerKey, r.InsertFailures
	return out, nil
}
