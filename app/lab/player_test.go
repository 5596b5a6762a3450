package lab

import (
	"testing"
)

func TestPlayStops(t *testing.T) {
	t.Parallel()
	for _, n := range []int{1, 2, 199, 200, 201, 4000, 10_000_000} {
		stops := playStops(n)
		if stops[0] != 1 || stops[len(stops)-1] != n {
			t.Errorf("n %d: stops run from %d to %d, want 1 to n", n, stops[0], stops[len(stops)-1])
		}
		for i := 1; i < len(stops); i++ {
			step := stops[i] - stops[i-1]
			if step < 1 || stops[i-1] >= playEvery && stops[i] != n && float64(step) > 0.051*float64(stops[i-1])+1 {
				t.Fatalf("n %d: stop %d after %d", n, stops[i], stops[i-1])
			}
			if stops[i] <= playEvery && step != 1 {
				t.Fatalf("n %d: skipped from %d to %d below %d", n, stops[i-1], stops[i], playEvery)
			}
		}
		if len(stops) > playEvery+340 {
			t.Errorf("n %d: %d stops", n, len(stops))
		}
		for _, at := range []int{1, n / 2, n - 1} {
			if at < 1 {
				continue
			}
			if i := stopIndex(stops, at); stops[i] > at || i+1 < len(stops) && stops[i+1] <= at {
				t.Errorf("n %d: stopIndex(%d) = stop %d", n, at, stops[i])
			}
		}
		if first, last := stopAt(stops, -5), stopAt(stops, len(stops)+5); first != min(1, n-1) || last != 0 {
			t.Errorf("n %d: stops clamp to %d and %d, want the first key and every key (0)", n, first, last)
		}
		if i := stopIndex(stops, 0); i != len(stops)-1 {
			t.Errorf("n %d: every key in is stop %d of %d", n, i, len(stops))
		}
	}
}
