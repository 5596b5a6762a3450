package lab

import (
	"math"
	"testing"

	"github.com/bloomlab/bloomlab/app/ui/format"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"
)

// TestEstimateCounter: beside n the counters show core's estimate of the
// filter's keys with its two SD interval, from the run's counts alone;
// a full filter says it cannot be estimated, and a layout that does not
// estimate from its fill hides the counter.
func TestEstimateCounter(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		items int
		bpk   float64
		want  func(r sim.Result) string
	}{
		{"default", 4000, 10, func(r sim.Result) string {
			e, err := core.EstimateKeys(r.Filter)
			if err != nil {
				t.Fatal(err)
			}
			return format.Int(uint64(math.Round(e.N))) + " ± " + format.Int(uint64(math.Round(2*e.SD)))
		}},
		{"full", 4000, 0.5, func(sim.Result) string { return "full: cannot estimate" }},
	} {
		p := sim.Defaults()
		p.Items, p.BitsPerKey = c.items, c.bpk
		r, err := sim.Run(p)
		if err != nil {
			t.Fatal(err)
		}
		got := counterOf(t, labCounters(theoryOf(p), r.Variant, 0, &r), idEstimate)
		if want := c.want(r); got.value != want || got.hidden {
			t.Errorf("%s: estimate %q (hidden %v), want %q", c.name, got.value, got.hidden, want)
		}
	}
	p := sim.Defaults()
	p.Variant = core.CuckooVariant
	if got := counterOf(t, labCounters(theoryOf(p), p.Variant, 0, nil), idEstimate); !got.hidden {
		t.Errorf("cuckoo: the estimate is shown")
	}
}

// TestEstimateWordsBelowZero: an intersection's estimate, by inclusion and
// exclusion, may fall below zero, and says so rather than wrapping round.
func TestEstimateWordsBelowZero(t *testing.T) {
	for _, tc := range []struct {
		e    core.Estimate
		want string
	}{
		{core.Estimate{N: -12.4, SD: 30}, "−12 ± 60"},
		{core.Estimate{N: 1026.2, SD: 46.3}, "1,026 ± 93"},
		{core.Estimate{N: -0.2, SD: 1}, "0 ± 2"},
	} {
		if got := estimateWords(tc.e, nil); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.e, got, tc.want)
		}
	}
}
