package engine

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/bloomlab/bloomlab/core/sim"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Runs is the run controller of a page's long work: a simulation, a sweep,
// a key list read, an experiment. Go on wasm has one thread, so a long run
// must yield to the browser now and then, and a run a newer move replaced
// must stop. runs numbers the runs: starting one, or cancelling, makes the
// one before stop at its next step.
type Runs struct{ gen atomic.Int64 }

// Run is one run's ticket.
type Run struct {
	rs *Runs
	id int64
}

// Start begins a run, replacing the one in flight.
func (rs *Runs) Start() Run { return Run{rs, rs.gen.Add(1)} }

// Cancel stops the run in flight.
func (rs *Runs) Cancel() { rs.gen.Add(1) }

// Live reports whether the run is still the current one.
func (r Run) Live() bool { return r.rs != nil && r.rs.gen.Load() == r.id }

// pageSlice is how long work on the page's own thread runs between two
// pauses for the browser: under a frame.
const pageSlice = 12 * time.Millisecond

// OnPage is the run's core.Step for work on the page's own thread: see
// yielding, with report called every pageSlice.
func (r Run) OnPage(report func(done, total int)) sim.Step {
	return yielding(r.Live, pageSlice, report, true)
}

// Reporter hands progress, which may be nil, the work done and planned on
// the page's goroutine, while the run is live.
func (r Run) Reporter(ctx app.Context, progress func(done, total int)) func(done, total int) {
	if progress == nil {
		return func(done, total int) {}
	}
	return func(done, total int) {
		ctx.Dispatch(func(ctx app.Context) {
			if r.Live() {
				progress(done, total)
			}
		})
	}
}

// Fraction turns a progress report into a share of the work.
func Fraction(set func(float64)) func(done, total int) {
	return func(done, total int) { set(float64(done) / float64(max(total, 1))) }
}

// Yielding is the one yield-and-cancel loop of the app: a Step that, every
// interval, reports progress, sleeps a millisecond so that the browser can
// paint and deliver input, and stops the work with core.ErrCancelled as
// soon as live says it was replaced.
func Yielding(live func() bool, every time.Duration, report func(done, total int)) sim.Step {
	return yielding(live, every, report, false)
}

// yielding is Yielding; a run that could have gone to a worker but runs
// on the page's thread (counted) adds its work and pauses to pageWork.
func yielding(live func() bool, every time.Duration, report func(done, total int), counted bool) sim.Step {
	last := time.Now()
	if counted {
		pageWork.begin()
	}
	seen, since := 0, 0 // the work done at the last step, and since the last pause
	return func(done, total int) error {
		if !live() {
			return sim.ErrCancelled
		}
		if counted && done > seen {
			pageWork.did(done - seen)
			since += done - seen
			seen = done
		}
		if time.Since(last) < every && !heldAt(done, total) {
			return nil
		}
		if counted {
			pageWork.paused(since)
			since = 0
		}
		report(done, total)
		paused.Store(time.Now().UnixNano())
		time.Sleep(time.Millisecond)
		waitWhileHeld(done, total, live)
		last = time.Now()
		if !live() {
			return sim.ErrCancelled
		}
		return nil
	}
}

// PageWork is what the page's own thread did of the runs that go to a
// worker when there is one (the lab's large runs, key panel answers and
// key reads, experiments), in the runs' own units (keys inserted and
// queried, bytes read, an experiment's work units), and how it cut that
// work between pauses. A test asks it, through bloomlab.pageWork, whether
// a run it sent to a worker stayed there, and whether a run on the page
// paused, by counts the code keeps rather than by the time things took.
type PageWork struct {
	// Runs is how many such runs began on the page's thread.
	Runs int `json:"runs"`
	// Work is the units they did there, as far as their last step.
	Work int `json:"work"`
	// Pauses is how often they stopped for the browser.
	Pauses int `json:"pauses"`
	// Largest is the most units done between two pauses.
	Largest int `json:"largest"`
}

// pageWork is the page's PageWork so far.
var pageWork pageTally

type pageTally struct {
	mu sync.Mutex
	PageWork
}

func (t *pageTally) begin() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.Runs++
}

func (t *pageTally) did(units int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.Work += units
}

func (t *pageTally) paused(since int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.Pauses++
	t.Largest = max(t.Largest, since)
}

// PageWorkSoFar is what the page's thread did of the runs that go to a
// worker when there is one, since the page started (see PageWork).
func PageWorkSoFar() PageWork {
	pageWork.mu.Lock()
	defer pageWork.mu.Unlock()
	return pageWork.PageWork
}

// paused is when, in Unix nanoseconds, a yielding run last paused: a run
// on the page's thread is under way while it is recent (see waitIdle).
var paused atomic.Int64

// Always is the liveness of work nothing replaces: a console call.
func Always() bool { return true }

// hold is the hook bloomlab.hold sets, for tests and for anyone who wants
// to look at a run mid-way: while it is on, every run that has done at
// least a hundredth of its work, but not all, pauses at its next step,
// however soon after its last pause, and waits there, live, until it is
// off (so a percentage shows it begun). A test that must see a run still
// going holds it there, on any machine, however fast, and for a run of any
// size; a cancel still ends a held run. The page tells its workers (see
// pool_js.go), which hold their runs the same way.
var hold atomic.Bool

// heldAt reports whether the hold stops a run at done of total units.
func heldAt(done, total int) bool {
	return hold.Load() && done > 0 && done*100 >= total && done < total
}

// waitWhileHeld waits, at a pause after done of total units, while the
// hold stops the run there and live says the run is still wanted.
func waitWhileHeld(done, total int, live func() bool) {
	for heldAt(done, total) && live() {
		time.Sleep(4 * time.Millisecond)
	}
}
