package experiment

import (
	"math"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/core"
)

// TestScalableClaim reads claim 4 back from the table: every chain's
// theory inside its 99.9% interval and below the bound, the links the
// doubling needs (1, 2, 4 and 7 for 1, 2, 10 and 100 times the first
// capacity), the memory ratio 1 at the start and growing with the chain
// at r = 0.5, the right-sized filter at p0, and the verdict that says so.
func TestScalableClaim(t *testing.T) {
	t.Parallel()
	tab := run(t, scalable, tiny(scalable))
	queries := float64(tiny(scalable).Queries)
	links := map[float64]float64{1: 1, 2: 2, 10: 4, 100: 7}
	for i := range tab.Rows {
		r, times := value(t, tab, i, "r"), value(t, tab, i, "times")
		th, obs, bound := value(t, tab, i, "theory"), value(t, tab, i, "observed"), value(t, tab, i, "bound")
		lo, hi := core.Wilson(uint64(math.Round(obs*queries)), uint64(queries), core.Z999)
		if th < lo || th > hi || th > bound || math.Abs(bound-core.RateExact(19200, 2000, 7)/(1-r)) > 1e-12 {
			t.Errorf("r %v, %vx: theory %v, observed %v [%v, %v], bound %v", r, times, th, obs, lo, hi, bound)
		}
		if got := value(t, tab, i, "links"); got != links[times] {
			t.Errorf("r %v, %vx: %v links, want %v", r, times, got, links[times])
		}
		ratio := value(t, tab, i, "memoryRatio")
		if times == 1 && math.Abs(ratio-1) > 0.01 || times > 1 && ratio < 1.3 {
			t.Errorf("r %v, %vx: memory ratio %v", r, times, ratio)
		}
		if right := value(t, tab, i, "rightObserved"); math.Abs(right-0.01) > 0.003 {
			t.Errorf("r %v, %vx: the right-sized filter measures %v, not near 1%%", r, times, right)
		}
	}
	if note := tab.Notes[len(tab.Notes)-1]; !strings.HasPrefix(note, "Claim 4") || !strings.Contains(note, "the claim holds here") {
		t.Errorf("verdict: %s", note)
	}
	if _, err := scalable.Run(Sizes{Items: scalableMaxFirst + 1, Queries: 1, Seed: 1}, Options{}); err == nil || !strings.Contains(err.Error(), "items must be in [1, 100000]") {
		t.Errorf("a first capacity past the bound: %v", err)
	}
}
