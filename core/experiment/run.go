package experiment

import (
	"encoding/json"
	"fmt"
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
	shard    *Shard // nil unless the run is one of several copies
	spreads  int    // spread calls so far, numbering the exchanges

	// own is set while a shard runs its share of a spread call; all
	// other work every copy repeats, and owed carries its units until
	// they add up to a whole copy's share.
	own  bool
	owed int

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
	if r.shard != nil && !r.own {
		// Every copy does this work, so each reports its share: the
		// copies' reports still add up to the run's total.
		r.owed += units
		units, r.owed = r.owed/r.shard.Count, r.owed%r.shard.Count
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
// goroutine, which is what the single-threaded browser needs. The tasks
// may leave anything behind (a filled filter), so every shard of a run
// runs them all: see spread for tasks whose results travel.
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

// Shard makes a run one of Count copies of the same run that share its
// spread work, as a browser's workers do, each on its own thread and heap.
// Every copy computes the same table: the copies split each spread call's
// tasks (task i to copy i mod Count), hand their results to one another
// and go on with all of them.
type Shard struct {
	Index, Count int
	// Exchange hands this copy's results of spread call number call
	// (counted from 0) to the other copies and returns every copy's,
	// indexed by copy.
	Exchange func(call int, mine []byte) ([][]byte, error)
}

func (s *Shard) check() error {
	if s.Count < 1 || s.Index < 0 || s.Index >= s.Count || s.Exchange == nil {
		return fmt.Errorf("experiment: shard %d of %d (with an exchange: %t) is no shard", s.Index, s.Count, s.Exchange != nil)
	}
	return nil
}

// spread runs task(0), ..., task(n-1) like each and returns their results.
// The results are plain data, so a sharded run computes its share of them
// and trades the rest with the other copies, in JSON, which gives a float
// back bit for bit.
func spread[T any](r *runner, n int, task func(i int) (T, error)) ([]T, error) {
	out := make([]T, n)
	if r.shard == nil {
		err := r.each(n, func(i int) error {
			var err error
			out[i], err = task(i)
			return err
		})
		return out, err
	}
	sh := r.shard
	call := r.spreads
	r.spreads++
	var mine []T
	r.own = true
	defer func() { r.own = false }()
	for i := sh.Index; i < n; i += sh.Count {
		x, err := task(i)
		if err != nil {
			return nil, err
		}
		mine = append(mine, x)
	}
	data, err := json.Marshal(mine)
	if err != nil {
		return nil, fmt.Errorf("experiment: a shard's results: %w", err)
	}
	all, err := sh.Exchange(call, data)
	if err != nil {
		return nil, err
	}
	if len(all) != sh.Count {
		return nil, fmt.Errorf("experiment: exchange %d gave %d shards' results, want %d", call, len(all), sh.Count)
	}
	for c, b := range all {
		var theirs []T
		if err := json.Unmarshal(b, &theirs); err != nil {
			return nil, fmt.Errorf("experiment: shard %d's results: %w", c, err)
		}
		if want := (n - c + sh.Count - 1) / sh.Count; len(theirs) != want {
			return nil, fmt.Errorf("experiment: shard %d sent %d results of exchange %d, want %d", c, len(theirs), call, want)
		}
		for j, x := range theirs {
			out[c+j*sh.Count] = x
		}
	}
	return out, nil
}
