package app

import (
	"errors"
	"testing"
	"time"

	"bloomlab/core"
)

// A run a newer one replaced stops at its next step, without waiting for
// the next pause; progress is reported once a pause, not once a step. The
// lab's worker reads a cancel in those pauses, so its runs stop within one
// pause and one chunk of work.
func TestYieldingStopsAtOnce(t *testing.T) {
	t.Parallel()
	var rs runs
	r := rs.start()
	reports := 0
	step := yielding(r.live, time.Hour, func(int, int) { reports++ })
	for i := range 1000 {
		if err := step(i, 1000); err != nil {
			t.Fatalf("step %d of a live run: %v", i, err)
		}
	}
	if reports != 0 {
		t.Errorf("%d progress reports within the first pause, want none", reports)
	}
	rs.start() // a newer run
	if err := step(1000, 1000); !errors.Is(err, core.ErrCancelled) {
		t.Errorf("the first step after a newer run began: %v, want core.ErrCancelled", err)
	}

	// With every pause due, each step reports and pauses.
	r = rs.start()
	reports = 0
	step = yielding(r.live, 0, func(int, int) { reports++ })
	for i := range 3 {
		if err := step(i, 3); err != nil {
			t.Fatal(err)
		}
	}
	if reports != 3 {
		t.Errorf("%d reports for 3 steps with every pause due", reports)
	}
	rs.cancel()
	if err := step(3, 3); !errors.Is(err, core.ErrCancelled) {
		t.Errorf("the first step after a cancel: %v, want core.ErrCancelled", err)
	}
}
