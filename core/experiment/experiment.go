package experiment

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
)

// Sizes are the knobs every experiment shares. A zero field in an
// experiment's Full sizes means the experiment does not use that knob.
type Sizes struct {
	Items      int    `json:"items,omitempty"`      // keys inserted (n)
	Queries    int    `json:"queries,omitempty"`    // absent queries per measured point
	Replicates int    `json:"replicates,omitempty"` // independent repetitions
	Seed       uint64 `json:"seed"`
}

// Limits on Sizes, checked by Experiment.Run.
const (
	MaxItems      = 10_000_000
	MaxQueries    = 100_000_000
	MaxReplicates = 1000
)

// Progress is called between chunks of work with the work units done and
// the total; a non-nil error cancels the run and Run returns it. When an
// experiment runs on several goroutines the calls come from them, one at a
// time.
type Progress func(done, total int) error

// Options are how to run, not what to measure: they never change a table,
// except Native, which turns on what only a native run can measure.
type Options struct {
	// Workers is the number of goroutines; 0 means runtime.GOMAXPROCS(0).
	Workers int
	// Progress, if not nil, is called between chunks of work.
	Progress Progress
	// Native turns on the native measurements, which differ from
	// run to run: the memory experiment measures a Go map
	// (runtime.ReadMemStats) instead of estimating it with
	// core.ExactSetBytes, and the alternatives experiment times its
	// filters' inserts and queries (two more columns). The command line
	// sets it unless told to estimate; leave it off in the browser, where
	// the heap is the page's and the clock shares a thread with it.
	Native bool
	// Shard, if not nil, makes this run one of several copies that share
	// the work (see Shard); each copy runs on one goroutine.
	Shard *Shard
}

// Experiment is one of the package's measurements (see the package doc):
// the name the command line and the experiments page know it by, its
// sizes, and how it turns them into a Table.
type Experiment struct {
	Name    string `json:"name"`
	Summary string `json:"summary"`
	// Quick sizes run in seconds in a browser; Full sizes are the published
	// ones. Their zero fields name the knobs this experiment does not use.
	Quick Sizes `json:"quick"`
	Full  Sizes `json:"full"`
	// ItemsMax, when set, is the most items the experiment takes, below
	// MaxItems, and ItemsHelp what its items are, when they are not the
	// keys inserted into each filter.
	ItemsMax  int    `json:"itemsMax,omitempty"`
	ItemsHelp string `json:"itemsHelp,omitempty"`

	run func(s Sizes, r *runner) (Table, error)
}

// MaxItemsOf is the most items e takes.
func (e Experiment) MaxItemsOf() int {
	if e.ItemsMax > 0 {
		return e.ItemsMax
	}
	return MaxItems
}

// Uses reports which knobs of Sizes the experiment reads.
func (e Experiment) Uses() (items, queries, replicates bool) {
	return e.Full.Items > 0, e.Full.Queries > 0, e.Full.Replicates > 0
}

// Check reports the first size out of range or set for a knob the experiment
// does not use.
func (e Experiment) Check(s Sizes) error {
	items, queries, reps := e.Uses()
	for _, c := range []struct {
		name string
		used bool
		v    int
		max  int
	}{
		{"items", items, s.Items, e.MaxItemsOf()},
		{"queries", queries, s.Queries, MaxQueries},
		{"replicates", reps, s.Replicates, MaxReplicates},
	} {
		switch {
		case !c.used && c.v != 0:
			return fmt.Errorf("experiment: %s takes no %s, got %d", e.Name, c.name, c.v)
		case c.used && (c.v < 1 || c.v > c.max):
			return fmt.Errorf("experiment: %s must be in [1, %d], got %d", c.name, c.max, c.v)
		}
	}
	return nil
}

// ErrCancelled is returned when a Progress callback stops a run with
// ErrCancelled; any other error it returns comes back as it is.
var ErrCancelled = errors.New("experiment: cancelled")

// Run checks the sizes and runs the experiment.
func (e Experiment) Run(s Sizes, o Options) (Table, error) {
	if err := e.Check(s); err != nil {
		return Table{}, err
	}
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if o.Shard != nil {
		if err := o.Shard.check(); err != nil {
			return Table{}, err
		}
		workers = 1
	}
	r := &runner{workers: workers, progress: o.Progress, native: o.Native, shard: o.Shard}
	t, err := e.run(s, r)
	if err != nil {
		return Table{}, err
	}
	t.Name, t.Sizes = e.Name, s
	if err := t.check(); err != nil {
		return Table{}, err
	}
	return t, nil
}

// All lists the experiments in the order the package doc tells them, which
// is the order `bloomlab experiment --list` and the experiments page show:
// the classic measurements, the alternatives beside the standard filter,
// the attacker's two, the scalable filter, and the two of filters in a
// system.
func All() []Experiment {
	return []Experiment{
		theoryVsObserved, rocksdb, grid, kSweep, rounding, hashing,
		overfill, probes, counting, memory, blocked, smallM, alternatives, frontier,
		adversarial, membershipInference, scalable, estimate, merge,
	}
}

// Find returns the experiment called name.
func Find(name string) (Experiment, bool) {
	for _, e := range All() {
		if e.Name == name {
			return e, true
		}
	}
	return Experiment{}, false
}

// Names lists the experiments' names, for error messages.
func Names() string {
	var names []string
	for _, e := range All() {
		names = append(names, e.Name)
	}
	return strings.Join(names, ", ")
}
