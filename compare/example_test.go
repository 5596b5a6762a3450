package compare_test

import (
	"fmt"

	"github.com/bloomlab/bloomlab/audit"

	"github.com/bits-and-blooms/bloom/v3"
)

// bbFilter fits bits-and-blooms to audit.Filter: its Add returns the filter
// for chaining, and the audit's Add returns nothing.
type bbFilter struct{ *bloom.BloomFilter }

func (f bbFilter) Add(key []byte) { f.BloomFilter.Add(key) }

// A user's filter needs a name and a New that builds it for the shape each
// check asks for; audit.Run does the rest. A filter showing only Add and
// Test has the checks that need its positions or storage skipped, never
// passed: compare.BitsAndBlooms shows both. In a test, audittest.Run(t,
// target) runs the same checks as subtests. The example prints verdicts by
// ID, not the counts, which grow with every check.
func Example() {
	target := audit.Target{
		Name: "bits-and-blooms",
		New: func(s audit.Shape) (audit.Filter, error) {
			return bbFilter{bloom.New(uint(s.M), uint(s.K))}, nil
		},
	}
	r, err := audit.Run(target, nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s: %d failed\n", r.Target, r.Failed)
	for _, o := range r.Checks {
		switch o.ID {
		case "no-false-negatives/optimal-k", "index-range/positions-m-1000", "determinism/seed-moves-answers":
			verdict := map[bool]string{true: "pass", false: "fail"}[o.Pass]
			if o.Skipped {
				verdict = o.Detail
			}
			fmt.Printf("%s: %s\n", o.ID, verdict)
		}
	}
	// Output:
	// bits-and-blooms: 0 failed
	// no-false-negatives/optimal-k: pass
	// index-range/positions-m-1000: skipped: needs the positions of a key (Positions and Size), which bits-and-blooms does not show
	// determinism/seed-moves-answers: skipped: needs a seed (Seeded), which bits-and-blooms does not show
}
