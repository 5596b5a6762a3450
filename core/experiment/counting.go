package experiment

import (
	"fmt"
	"math"
	"strings"

	"github.com/bloomlab/bloomlab/core"
)

var counting = Experiment{
	Name:    "counting",
	Summary: "4-bit counters: overflow under duplicate inserts, false negatives after a hot key's rollback",
	Quick:   Sizes{Items: 50_000, Replicates: 5, Seed: 1},
	Full:    Sizes{Items: 200_000, Replicates: 10, Seed: 1},
	run:     runCounting,
}

// The hot key's story: a retry storm inserts it hotInserts times, then every
// retry is rolled back, one more than was inserted.
const (
	hotInserts   = 40
	hotRollbacks = 41
)

// countingScenario is one row: every key inserted passes times, or (passes
// 0) the hot key's storm and rollback.
type countingScenario struct {
	name   string
	passes int
}

var countingScenarios = []countingScenario{
	{"each key inserted once", 1},
	{"each key inserted 3x", 3},
	{"each key inserted 6x", 6},
	// Written out as the rows above, not formatted at the program's start;
	// TestCountingHotName holds it to hotInserts and hotRollbacks.
	{"hot key inserted 40x, rolled back 41x", 0},
}

// countingTrial is what one filter showed.
type countingTrial struct {
	MaxCounter uint8
	TrueMax    uint64 // the largest count an unbounded counter would hold
	Over       uint64 // counters whose unbounded count passed CounterMax
	Lost       uint64 // increments lost to saturation
	FalseNeg   uint64 // live keys reported absent
	ExpectedFN float64
	HotBefore  []uint8 // the hot key's counters after its inserts
	HotAfter   []uint8 // and after the rollback
	RolledBack int     // rollbacks the filter applied
}

func runCounting(s Sizes, r *runner) (Table, error) {
	n := uint64(s.Items)
	m, k, err := sized(n, 0.01)
	if err != nil {
		return Table{}, err
	}
	reps := s.Replicates
	for _, sc := range countingScenarios {
		r.plan(reps * int(n) * (max(sc.passes, 1) + 1))
	}
	trials, err := spread(r, len(countingScenarios)*reps, func(i int) (countingTrial, error) {
		return countingOnce(r, countingScenarios[i/reps], m, k, n, derive(s.Seed, saltCounting, uint64(i)))
	})
	if err != nil {
		return Table{}, err
	}

	t := Table{
		Title: fmt.Sprintf("4-bit counting filter: m/n = %.3f, k = %d, n = %s live keys, %d trials per row; counters saturate at %d",
			float64(m)/float64(n), k, group(s.Items), reps, core.CounterMax),
		Columns: []Column{{Key: "scenario", Title: "scenario", Kind: Text},
			{Key: "maxCounter", Title: "max counter", Kind: Int},
			{Key: "trueMax", Title: "unbounded max", Kind: Int},
			{Key: "saturated", Title: "counters > 15 per trial", Kind: Float, Decimals: 1},
			{Key: "lost", Title: "lost increments per trial", Kind: Float, Decimals: 1},
			{Key: "falseNegatives", Title: "false neg", Kind: Int},
			{Key: "fnPerTrial", Title: "false neg per trial", Kind: Float, Decimals: 2},
			{Key: "expectedFN", Title: "expected per trial", Kind: Float, Decimals: 2}},
		Chart: &Chart{Title: "largest counter: 4-bit against unbounded", X: "scenario", Y: "counter value",
			Series: []Series{{Name: "4-bit ceiling", Kind: Line}, {Name: "4-bit counter", Kind: Points}, {Name: "unbounded count", Kind: Points}}},
	}
	for si, sc := range countingScenarios {
		var row countingTrial
		var over, lost, fnSum, expected float64
		for _, tr := range trials[si*reps : (si+1)*reps] {
			row.MaxCounter = max(row.MaxCounter, tr.MaxCounter)
			row.TrueMax = max(row.TrueMax, tr.TrueMax)
			row.FalseNeg += tr.FalseNeg
			over += float64(tr.Over)
			lost += float64(tr.Lost)
			fnSum += float64(tr.FalseNeg)
			expected += tr.ExpectedFN
		}
		per := float64(reps)
		t.Rows = append(t.Rows, []Cell{txt(sc.name), count(uint64(row.MaxCounter)), count(row.TrueMax), num(over / per),
			num(lost / per), count(row.FalseNeg), num(fnSum / per), num(expected / per)})
		t.Chart.XLabels = append(t.Chart.XLabels, sc.name)
		x := float64(si)
		t.Chart.Series[0].Points = append(t.Chart.Series[0].Points, Point{X: x, Y: core.CounterMax})
		t.Chart.Series[1].Points = append(t.Chart.Series[1].Points, Point{X: x, Y: float64(row.MaxCounter)})
		t.Chart.Series[2].Points = append(t.Chart.Series[2].Points, Point{X: x, Y: float64(row.TrueMax)})
	}
	hot := trials[(len(countingScenarios)-1)*reps]
	t.Notes = append(t.Notes,
		fmt.Sprintf("Trial 1's hot key: counters after %d inserts %s; after %d rollbacks %s (%d rollbacks applied: removal stops once the key tests absent).",
			hotInserts, counters(hot.HotBefore), hotRollbacks, counters(hot.HotAfter), hot.RolledBack),
		"Saturated counters forget how many keys share them; rolling the hot key back drives them to zero under live keys, which then test absent.",
		"expected per trial = n * (1 - (1 - z/m)^k), z the hot key's counters left at zero.")
	return t, nil
}

// countingOnce runs one scenario on a fresh filter keyed by seed.
func countingOnce(r *runner, sc countingScenario, m uint64, k int, n, seed uint64) (countingTrial, error) {
	var tr countingTrial
	f, err := core.NewCounting(m, k, seed)
	if err != nil {
		return tr, err
	}
	unbounded, err := insertPasses(r, f, max(sc.passes, 1), n, seed)
	if err != nil {
		return tr, err
	}
	var hot []byte
	var hotPos []uint64
	if sc.passes == 0 {
		hot, hotPos = tr.storm(f, unbounded, n, seed)
	}
	// The counters at their fullest: after the duplicates or the storm.
	tr.MaxCounter, tr.Lost = f.MaxCounter(), f.Overflows()
	tr.TrueMax, tr.Over = unboundedMax(unbounded, sc.passes)
	if sc.passes == 0 {
		tr.rollBack(f, hot, hotPos, n)
	}
	tr.FalseNeg, err = falseNegatives(r, f, n, seed)
	return tr, err
}

// insertPasses inserts the live keys 0..n-1 passes times and returns what
// counters without a ceiling would hold: counted on the first pass and
// scaled by unboundedMax, since every pass adds the same keys again.
func insertPasses(r *runner, f *core.Counting, passes int, n, seed uint64) ([]uint32, error) {
	unbounded := make([]uint32, f.M())
	pos := make([]uint64, 0, f.K())
	key := make([]byte, 0, keyBytes)
	for pass := 0; pass < passes; pass++ {
		for i := uint64(0); i < n; i++ {
			key = core.Key(key, core.Members, i, seed, keyBytes)
			f.Add(key)
			if pass == 0 {
				for _, p := range f.Positions(pos, key) {
					unbounded[p]++
				}
			}
			if (i+1)%tick == 0 {
				if err := r.report(tick); err != nil {
					return nil, err
				}
			}
		}
		if err := r.report(int(n % tick)); err != nil {
			return nil, err
		}
	}
	return unbounded, nil
}

// unboundedMax is the largest count an unbounded counter would hold
// after passes of the keys counted once in unbounded (one pass for the
// hot key's scenario, passes 0), and how many pass CounterMax.
func unboundedMax(unbounded []uint32, passes int) (most, over uint64) {
	for _, c := range unbounded {
		if passes > 1 {
			c *= uint32(passes)
		}
		most = max(most, uint64(c))
		if c > core.CounterMax {
			over++
		}
	}
	return most, over
}

// storm inserts the hot key hotInserts times, counts it in unbounded and
// keeps its counters in HotBefore. The hot key is key n of the members,
// not one of the live keys 0..n-1.
func (tr *countingTrial) storm(f *core.Counting, unbounded []uint32, n, seed uint64) (hot []byte, hotPos []uint64) {
	hot = core.Key(nil, core.Members, n, seed, keyBytes)
	hotPos = f.Positions(nil, hot)
	for i := 0; i < hotInserts; i++ {
		f.Add(hot)
	}
	for _, p := range hotPos {
		unbounded[p] += hotInserts
	}
	tr.HotBefore = readCounters(f, hotPos)
	return hot, hotPos
}

// rollBack removes the hot key hotRollbacks times, one more than it went
// in, and keeps the removals the filter applied, the hot key's counters
// after, and the false negatives to expect from the counters it left at
// zero: n (1 - (1 - z/m)^k) for z of them.
func (tr *countingTrial) rollBack(f *core.Counting, hot []byte, hotPos []uint64, n uint64) {
	for i := 0; i < hotRollbacks; i++ {
		if f.Remove(hot) {
			tr.RolledBack++
		}
	}
	tr.HotAfter = readCounters(f, hotPos)
	zeroed := map[uint64]bool{}
	for _, p := range hotPos {
		if f.Counter(p) == 0 {
			zeroed[p] = true
		}
	}
	tr.ExpectedFN = float64(n) * (1 - math.Pow(1-float64(len(zeroed))/float64(f.M()), float64(f.K())))
}

// falseNegatives is how many of the live keys 0..n-1 f reports absent.
func falseNegatives(r *runner, f *core.Counting, n, seed uint64) (uint64, error) {
	var fn uint64
	key := make([]byte, 0, keyBytes)
	for i := uint64(0); i < n; i++ {
		key = core.Key(key, core.Members, i, seed, keyBytes)
		if ok, _ := f.Contains(key); !ok {
			fn++
		}
		if (i+1)%tick == 0 {
			if err := r.report(tick); err != nil {
				return fn, err
			}
		}
	}
	return fn, r.report(int(n % tick))
}

// readCounters is f's counters at pos, in order.
func readCounters(f *core.Counting, pos []uint64) []uint8 {
	var out []uint8
	for _, p := range pos {
		out = append(out, f.Counter(p))
	}
	return out
}

// counters writes [15 15 15].
func counters(cs []uint8) string {
	var parts []string
	for _, c := range cs {
		parts = append(parts, fmt.Sprint(c))
	}
	return "[" + strings.Join(parts, " ") + "]"
}
