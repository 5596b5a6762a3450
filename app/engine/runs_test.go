package engine

import (
	"errors"
	"testing"
	"time"

	"github.com/bloomlab/bloomlab/core/sim"
)

// A run a newer one replaced stops at its next step, without waiting for
// the next pause; progress is reported once a pause, not once a step. The
// lab's worker reads a cancel in those pauses, so its runs stop within one
// pause and one chunk of work.
func TestYieldingStopsAtOnce(t *testing.T) {
	t.Parallel()
	var rs Runs
	r := rs.Start()
	reports := 0
	step := Yielding(r.Live, time.Hour, func(int, int) { reports++ })
	for i := range 1000 {
		if err := step(i, 1000); err != nil {
			t.Fatalf("step %d of a live run: %v", i, err)
		}
	}
	if reports != 0 {
		t.Errorf("%d progress reports within the first pause, want none", reports)
	}
	rs.Start() // a newer run
	if err := step(1000, 1000); !errors.Is(err, sim.ErrCancelled) {
		t.Errorf("the first step after a newer run began: %v, want core.ErrCancelled", err)
	}

	// With every pause due, each step reports and pauses.
	r = rs.Start()
	reports = 0
	step = Yielding(r.Live, 0, func(int, int) { reports++ })
	for i := range 3 {
		if err := step(i, 3); err != nil {
			t.Fatal(err)
		}
	}
	if reports != 3 {
		t.Errorf("%d reports for 3 steps with every pause due", reports)
	}
	rs.Cancel()
	if err := step(3, 3); !errors.Is(err, sim.ErrCancelled) {
		t.Errorf("the first step after a cancel: %v, want core.ErrCancelled", err)
	}
}

// A held run waits at its next step, however soon after its last pause
// (here the pauses are an hour apart), still asking whether it is live,
// until the hold is off; a cancel ends it there; a run with less than a
// hundredth of its work done, or all of it, does not wait.
func TestHoldWaitsAtThePause(t *testing.T) {
	hold.Store(true)
	defer hold.Store(false)
	asked := make(chan bool)
	returned := make(chan error)
	live := func() bool { return <-asked }
	step := Yielding(live, time.Hour, func(int, int) {})
	go func() { returned <- step(1, 100) }()
	for i := range 5 { // the step asks again and again: it is held
		select {
		case asked <- true:
		case err := <-returned:
			t.Fatalf("a held step returned %v after asking %d times, while the hold was on", err, i)
		}
	}
	hold.Store(false)
	for {
		select {
		case asked <- true:
			continue
		case err := <-returned:
			if err != nil {
				t.Fatalf("the step after the hold ended: %v", err)
			}
		}
		break
	}

	hold.Store(true)
	go func() { returned <- step(1, 100) }()
	asked <- true
	var err error
	for answered := false; !answered; {
		select {
		case asked <- false: // a newer run replaced this one
		case err = <-returned:
			answered = true
		}
	}
	if !errors.Is(err, sim.ErrCancelled) {
		t.Errorf("a held run that was replaced: %v, want core.ErrCancelled", err)
	}
	for _, at := range [][2]int{{0, 2}, {99, 10000}, {2, 2}} {
		done := make(chan error, 1)
		go func() { done <- Yielding(Always, 0, func(int, int) {})(at[0], at[1]) }()
		if err := <-done; err != nil {
			t.Errorf("step(%d, %d) with the hold on: %v", at[0], at[1], err)
		}
	}
}

// A run on the page's thread counts itself, its work in its own units and
// its pauses in pageWork; a run through Yielding (a worker's, a chart's)
// does not.
func TestPageWorkCounts(t *testing.T) {
	before := PageWorkSoFar()
	var rs Runs
	step := rs.Start().OnPage(func(int, int) {})
	for _, done := range []int{100, 250, 250, 400} {
		if err := step(done, 1000); err != nil {
			t.Fatal(err)
		}
	}
	other := Yielding(Always, 0, func(int, int) {})
	if err := other(500, 1000); err != nil {
		t.Fatal(err)
	}
	got := PageWorkSoFar()
	if got.Runs-before.Runs != 1 || got.Work-before.Work != 400 {
		t.Errorf("after one counted run of 400 units and one other: %+v, before %+v", got, before)
	}
	if got.Pauses < before.Pauses || got.Largest > max(before.Largest, 400) {
		t.Errorf("pauses and largest chunk %+v, before %+v", got, before)
	}
}
