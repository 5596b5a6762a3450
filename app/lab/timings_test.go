package lab

import "testing"

// TestTimingsKeepTheLatest: a long session keeps the latest timings, a
// bounded number of them.
func TestTimingsKeepTheLatest(t *testing.T) {
	var list []float64
	for i := range 3 * keptTimings {
		list = keep(list, float64(i))
	}
	if len(list) != keptTimings || list[0] != 2*keptTimings || list[len(list)-1] != 3*keptTimings-1 {
		t.Errorf("kept %d timings, %v to %v; want the latest %d", len(list), list[0], list[len(list)-1], keptTimings)
	}
}
