package experiments

import (
	"bytes"
	"encoding/json"
	"slices"
	"sync"
	"time"

	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/core/experiment"
)

// expResult is one finished run: the table and its exports, how long it
// took and how much work it did.
type expResult struct {
	Sel     settings.Experiment
	Table   experiment.Table
	JSON    string // as `bloomlab experiment --json` prints it
	CSV     string // as `bloomlab experiment --csv` prints it
	Elapsed time.Duration
	Units   int
	svg     map[float64]string
}

func newExpResult(sel settings.Experiment, t experiment.Table, elapsed time.Duration, units int) (*expResult, error) {
	var js bytes.Buffer
	enc := json.NewEncoder(&js)
	enc.SetIndent("", "  ")
	if err := enc.Encode(t); err != nil {
		return nil, err
	}
	var csv bytes.Buffer
	if err := t.WriteCSV(&csv); err != nil {
		return nil, err
	}
	return &expResult{Sel: sel, Table: t, JSON: js.String(), CSV: csv.String(), Elapsed: elapsed, Units: units}, nil
}

// chartSVG draws the table's chart at width, once per width.
func (r *expResult) chartSVG(width float64) string {
	if r.svg == nil {
		r.svg = map[float64]string{}
	}
	s, ok := r.svg[width]
	if !ok {
		s = expChartSVG(r.Table.Chart, width)
		r.svg[width] = s
	}
	return s
}

// expStore keeps what the page learned in this browser session: the
// tables measured, by selection, so back, forward and a return to the page
// show them again; the work each selection plans; and how fast each
// experiment ran here. It keeps the latest keptSelections selections, so
// a long session of edits and runs holds bounded memory. It is safe for
// concurrent use.
type expStore struct {
	mu      sync.Mutex
	results map[string]*expResult
	units   map[string]int
	order   []string           // the selections kept, oldest first
	paces   map[string]float64 // work units per second, by experiment
}

// keptSelections bounds the selections the session keeps tables and work
// counts for.
const keptSelections = 32

// note records that key's table or work is kept, forgetting the oldest
// selection past keptSelections. The caller holds mu.
func (s *expStore) note(key string) {
	if !slices.Contains(s.order, key) {
		s.order = append(s.order, key)
	}
	for len(s.order) > keptSelections {
		delete(s.results, s.order[0])
		delete(s.units, s.order[0])
		s.order = s.order[1:]
	}
}

var expSession = &expStore{results: map[string]*expResult{}, units: map[string]int{}, paces: map[string]float64{}}

func (s *expStore) result(sel settings.Experiment) *expResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.results[sel.Key()]
}

// keep records a finished run and its pace.
func (s *expStore) keep(r *expResult) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.results[r.Sel.Key()] = r
	s.units[r.Sel.Key()] = r.Units
	s.note(r.Sel.Key())
	if sec := r.Elapsed.Seconds(); sec > 0.2 && r.Units > 0 {
		s.paces[r.Sel.Name] = float64(r.Units) / sec
	}
}

// unitsOf returns the work sel plans, and whether it is known yet.
func (s *expStore) unitsOf(sel settings.Experiment) (int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.units[sel.Key()]
	return u, ok
}

func (s *expStore) setUnits(sel settings.Experiment, u int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.units[sel.Key()] = u
	s.note(sel.Key())
}

// estimate returns how long units of experiment name's work take in this
// browser: at the pace a run here showed, or else at the pace headless
// Chromium showed on a two-core machine (measured returns false).
func (s *expStore) estimate(name string, units int) (d time.Duration, measured bool) {
	s.mu.Lock()
	pace, ok := s.paces[name]
	s.mu.Unlock()
	if !ok {
		pace = chromiumPace[name]
	}
	if pace <= 0 {
		pace = 1e6
	}
	return time.Duration(float64(units) / pace * float64(time.Second)), ok
}

// chromiumPace is each experiment's work units per second in headless
// Chromium on a shared two-core x86-64 machine, at its quick sizes: the basis
// of the full-size estimate before a run in this browser gives a better one.
var chromiumPace = map[string]float64{
	"theory-vs-observed": 5e6,
	"rocksdb":            5e6,
	"grid":               5e6,
	"k-sweep":            9e6,
	"rounding":           5e6,
	"hashing":            1.6e6,
	"overfill":           2.7e6,
	"probes":             2.9e6,
	"counting":           2.5e6,
	"memory":             1e8,
	"blocked":            3.8e6,
	// Measured under Node (Chromium's engine) beside theory-vs-observed
	// and blocked, at about their pace there.
	"alternatives": 4e6,
	// Measured under Node beside alternatives, and scaled as it was.
	"adversarial":          1.7e6,
	"membership-inference": 4e6,
	// The alternatives' filters at other sizes: taken at their pace.
	"frontier": 4e6,
}
