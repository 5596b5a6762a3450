package engine

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/experiment"
	"github.com/bloomlab/bloomlab/core/plan"
	"github.com/bloomlab/bloomlab/core/sim"
)

// TestWireTableRoundTrip: every experiment's table crosses from a worker
// to the page unchanged, floats bit for bit.
func TestWireTableRoundTrip(t *testing.T) {
	t.Parallel()
	for _, e := range experiment.All() {
		s := e.Quick
		if s.Items > 0 {
			s.Items = min(s.Items, 2000)
		}
		if s.Queries > 0 {
			s.Queries = min(s.Queries, 20_000)
		}
		if s.Replicates > 0 {
			s.Replicates = min(s.Replicates, 2)
		}
		tab, err := e.Run(s, experiment.Options{Workers: 1})
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		wire, err := encodeTable(tab)
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		back, err := decodeTable(wire)
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		if !reflect.DeepEqual(tab, back) {
			t.Errorf("%s: the table changed on its way from a worker", e.Name)
		}
	}
}

func TestRelay(t *testing.T) {
	t.Parallel()
	r := newRelay(3)
	// An exchange completes once every worker has sent its share, in
	// worker order whatever the order of arrival.
	for _, step := range []struct {
		call, worker int
		data         string
		want         []string
	}{
		{0, 2, "c", nil},
		{1, 0, "x", nil},
		{0, 0, "a", nil},
		{0, 1, "b", []string{"a", "b", "c"}},
	} {
		got, err := r.share(step.call, step.worker, step.data)
		if err != nil || !reflect.DeepEqual(got, step.want) {
			t.Errorf("share(%d, %d): %v, %v; want %v", step.call, step.worker, got, err, step.want)
		}
	}
	if _, err := r.share(0, 3, "d"); err == nil {
		t.Error("a share from worker 3 of 3 was taken")
	}

	// Progress is the sum of the workers' latest reports, at most the total.
	for _, step := range []struct{ worker, done, want int }{{0, 10, 10}, {1, 5, 15}, {0, 40, 45}, {2, 80, 100}} {
		if got, err := r.progress(step.worker, step.done, 100); err != nil || got != step.want {
			t.Errorf("progress(%d, %d) = %d, %v; want %d", step.worker, step.done, got, err, step.want)
		}
	}

	tab := experiment.Table{Name: "t", Title: "one row", Rows: [][]experiment.Cell{{{Value: 0.1}}}}
	wire, _ := encodeTable(tab)
	for i := range 3 {
		got, all, err := r.finished(i, wire)
		if err != nil || all != (i == 2) {
			t.Fatalf("finished(%d): all %v, %v", i, all, err)
		}
		if all && !reflect.DeepEqual(got, tab) {
			t.Errorf("the relay's table %+v, want %+v", got, tab)
		}
	}

	// Workers that measured different tables are a bug, not a result.
	r = newRelay(2)
	other, _ := encodeTable(experiment.Table{Name: "t", Title: "another"})
	r.finished(0, wire)
	if _, all, err := r.finished(1, other); !all || err == nil || !strings.Contains(err.Error(), "different tables") {
		t.Errorf("two tables: all %v, err %v", all, err)
	}
}

func TestEngineCount(t *testing.T) {
	t.Parallel()
	for cores, want := range map[int]int{0: 1, -3: 1, 1: 1, 2: 2, 8: 8, 64: maxEngines} {
		if got := engineCount(cores); got != want {
			t.Errorf("engineCount(%d) = %d, want %d", cores, got, want)
		}
	}
}

// TestWireRunRoundTrip: a lab run crosses from the lab's worker to the page
// with every figure bit for bit and the filter's storage whole, for every
// layout, with and without queries and typed keys.
func TestWireRunRoundTrip(t *testing.T) {
	t.Parallel()
	for _, v := range core.Variants {
		for _, queries := range []int{0, 3000} {
			p := sim.Defaults()
			p.Variant, p.Items, p.Queries = v, 1500, queries
			r, err := sim.RunTyped(p, []string{"apple", "pear"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			sent := sim.KeysResult{Result: r}
			raw, words, err := encodeRun(sent)
			if err != nil {
				t.Fatalf("%s: %v", v, err)
			}
			got, store, err := decodeRun(raw, slices.Clone(words))
			if err != nil {
				t.Fatalf("%s: %v", v, err)
			}
			want := StoreOf(r.Filter)
			if !reflect.DeepEqual(store, want) {
				t.Errorf("%s: the store changed on its way from the lab's worker", v)
			}
			sent.Filter = nil
			if !reflect.DeepEqual(got, sent) {
				t.Errorf("%s queries %d: the result changed on its way from the lab's worker:\n%+v\n%+v", v, queries, got, sent)
			}
			if _, _, err := decodeRun(raw, words[:len(words)-1]); err == nil {
				t.Errorf("%s: a store short of a word was taken", v)
			}
		}
	}
}

// TestWireTablesRoundTrip: a calculator plan's shape reaches the lab's
// worker whole, and the tables it measures there reach the page unchanged,
// each layout's Spec included; the page's own path measures the same.
func TestWireTablesRoundTrip(t *testing.T) {
	t.Parallel()
	pl, err := plan.Solve(plan.Input{Find: plan.FindM, N: 500_000, P: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := encodeShape(pl.Shape())
	if err != nil {
		t.Fatal(err)
	}
	s, err := decodeShape(raw)
	if err != nil || s != pl.Shape() {
		t.Fatalf("the shape %+v came back as %+v (%v)", pl.Shape(), s, err)
	}
	tables, err := plan.MeasureTables(s.Plan(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if raw, err = encodeTables(tables); err != nil {
		t.Fatal(err)
	}
	back, err := decodeTables(raw)
	if err != nil || !reflect.DeepEqual(back, tables) {
		t.Errorf("the tables changed on their way from the lab's worker (%v)", err)
	}
	var rs Runs
	onPage, err := MeasurePlan(true, pl.Shape(), rs.Start(), func([]plan.Alternative) {}, func(int, int) {})
	if err != nil || !reflect.DeepEqual(onPage, tables) {
		t.Errorf("the page's own path measured other tables than the worker's (%v)", err)
	}
	// The alternatives come back whole, the filter each would build
	// included, and go back to the lab's worker so for the tables.
	if raw, err = encodeAlternatives(s.Plan().Alternatives); err != nil {
		t.Fatal(err)
	}
	alts, err := decodeAlternatives(raw)
	if err != nil || !reflect.DeepEqual(alts, pl.Alternatives) {
		t.Errorf("the alternatives changed on their way from the lab's worker (%v):\n%+v\nwant\n%+v", err, alts, pl.Alternatives)
	}
	if raw, err = encodePlan(s.With(alts)); err != nil {
		t.Fatal(err)
	}
	if back, err := decodePlan(raw); err != nil || !reflect.DeepEqual(back, s.Plan()) {
		t.Errorf("the plan changed on its way to the lab's worker (%v):\n%+v\nwant\n%+v", err, back, s.Plan())
	}
	if _, err := decodeTables("{"); err == nil || !strings.HasPrefix(err.Error(), "engine: ") {
		t.Errorf("a broken answer: %v, want an engine error", err)
	}
}

// TestMeasurePlanFindsOnce: a form's alternatives are found once, and
// its tables measured from the alternatives found, not found again. The
// test counts findPlan's calls (so it runs alone, not in parallel).
func TestMeasurePlanFindsOnce(t *testing.T) {
	counted, calls := findPlan, 0
	findPlan = func(s plan.Shape) plan.Plan { calls++; return counted(s) }
	t.Cleanup(func() { findPlan = counted })
	pl, err := plan.Solve(plan.Input{Find: plan.FindM, N: 500_000, P: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	var rs Runs
	var found []plan.Alternative
	tables, err := MeasurePlan(true, pl.Shape(), rs.Start(), func(alts []plan.Alternative) { found = alts }, func(int, int) {})
	if err != nil {
		t.Fatal(err)
	}
	if calls != 1 {
		t.Errorf("one form's tables found its alternatives %d times, want 1", calls)
	}
	if !reflect.DeepEqual(found, pl.Alternatives) || len(tables.Measured) != len(found) {
		t.Errorf("found %d alternatives and measured %d, want the plan's %d", len(found), len(tables.Measured), len(pl.Alternatives))
	}
}
