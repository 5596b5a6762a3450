package engine

import (
	"errors"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/bloomlab/bloomlab/core/experiment"
)

// yieldEvery is how long a run computes before it hands the page its
// progress and sleeps: Go on wasm is single threaded, so the browser paints
// and delivers input only while the run sleeps. runtime.Gosched would not
// do, since it never returns to the browser's event loop.
const yieldEvery = 16 * time.Millisecond

// RunExperiment runs the named experiment at sizes s on the page's workers (see wire.go), or where
// there are none on the page's own goroutine, yielding every yieldEvery; it
// stops with experiment.ErrCancelled as soon as live says the run was
// replaced. The memory experiment estimates its maps: the page's heap is no
// place to measure one.
func RunExperiment(name string, s experiment.Sizes, live func() bool, report func(done, total int)) (experiment.Table, error) {
	t, err := runOnEngines(name, s, live, report)
	if !errors.Is(err, errNoEngines) {
		return t, err
	}
	return RunHere(name, s, yieldEvery, live, report)
}

// findExperiment is experiment.Find with an error for a name it lacks.
func findExperiment(name string) (experiment.Experiment, error) {
	e, ok := experiment.Find(name)
	if !ok {
		return e, errors.New("engine: unknown experiment " + strconv.Quote(name))
	}
	return e, nil
}

// RunHere runs the named experiment at sizes s on one goroutine of the page's one thread, pausing (and
// reporting) once every; the page's every is yieldEvery. A test passes 0, a
// pause at every step, to see each report however fast its machine: at
// yieldEvery a run shorter than that reports nothing.
func RunHere(name string, s experiment.Sizes, every time.Duration, live func() bool, report func(done, total int)) (experiment.Table, error) {
	e, err := findExperiment(name)
	if err != nil {
		return experiment.Table{}, err
	}
	step := yielding(live, every, report, true)
	return e.Run(s, experiment.Options{Workers: 1, Progress: func(done, total int) error {
		if step(done, total) != nil {
			return experiment.ErrCancelled
		}
		return nil
	}})
}

// CollectLess makes the page's garbage collector wait while a run goes on,
// and returns what restores it. A collection of the page's heap, however
// small, scans the globals of the whole wasm and holds the page's thread
// for some 100 ms on a two-core machine busy with the run; the page
// allocates little meanwhile, so with GOGC at 800 the run ends before the
// next one is due.
func CollectLess() (restore func()) {
	old := debug.SetGCPercent(800)
	return func() { debug.SetGCPercent(old) }
}

// errProbe stops a run at its first progress report, once it has said how
// much work it plans.
var errProbe = errors.New("engine: probe")

// WorkUnits returns the work units (keys inserted and queried, summed over
// filters) a run of the named experiment at sizes s plans. It learns them by starting the run and
// stopping it at the first report, after a few milliseconds of work.
func WorkUnits(name string, s experiment.Sizes) int {
	e, ok := experiment.Find(name)
	if !ok {
		return 0
	}
	total := 0
	e.Run(s, experiment.Options{Workers: 1, Progress: func(done, t int) error {
		total = t
		return errProbe
	}})
	return total
}
