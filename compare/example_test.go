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
// target) runs the same checks as subtests.
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
	fmt.Printf("%s: %d passed, %d failed, %d skipped of %d checks\n", r.Target, r.Passed, r.Failed, r.Skipped, r.Total)
	// Output:
	// bits-and-blooms: 39 passed, 0 failed, 168 skipped of 207 checks
}
