package experiment

import (
	"sync"
	"sync/atomic"
)

// tick is how many keys a loop handles between two progress reports; at
// tens of nanoseconds a key natively and a few times that on wasm, a report
// comes every millisecond or so.
const tick = 1 << 14

// runner runs an experiment's tasks on its workers and reports progress.
// Tasks write their results into slots of their own, indexed by task, so the
// table never depends on which worker ran what or in which order.
type runner struct {
	workers  int
	progress Progress
	native   bool

	total   int // work units in the whole run, set before the first task
	mu      sync.Mutex
	done    int
	err     error
	stopped atomic.Bool
}

// plan adds units to the run's total, before any task reports.
func (r *runner) plan(units int) { r.total += units }

// report adds units of finished work and passes the news to the progress
// callback; it returns the error that cancelled the run, if any.
func (r *runner) report(units int) error {
	if r.stopped.Load() {
		return r.cancelled()
	}
	if r.progress == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return r.err
	}
	r.done += units
	if err := r.progress(min(r.done, r.total), r.total); err != nil {
		r.err = err
		r.stopped.Store(true)
		return err
	}
	return nil
}

func (r *runner) cancelled() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// each runs task(0), ..., task(n-1) on the runner's workers and returns the
// first error. With one worker the tasks run in order on the caller's
// goroutine, which is what the single-threaded browser needs.
func (r *runner) each(n int, task func(i int) error) error {
	if r.workers <= 1 || n <= 1 {
		for i := 0; i < n; i++ {
			if err := task(i); err != nil {
				return err
			}
		}
		return nil
	}
	var (
		next     atomic.Int64
		wg       sync.WaitGroup
		once     sync.Once
		firstErr error
	)
	for w := 0; w < min(r.workers, n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n || r.stopped.Load() {
					return
				}
				if err := task(i); err != nil {
					once.Do(func() { firstErr = err })
					r.stopped.Store(true)
					return
				}
			}
		}()
	}
	wg.Wait()
	if firstErr == nil && r.stopped.Load() {
		firstErr = r.cancelled()
	}
	return firstErr
}
