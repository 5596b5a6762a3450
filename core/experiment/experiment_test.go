package experiment

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata golden files")

// tiny returns sizes small enough that every experiment runs in a fraction
// of a second, for the knobs e uses.
func tiny(e Experiment) Sizes {
	items, queries, reps := e.Uses()
	s := Sizes{Seed: 7}
	if items {
		s.Items = 2000
	}
	if queries {
		s.Queries = 20_000
	}
	if reps {
		s.Replicates = 3
	}
	return s
}

// TestGolden pins every experiment's table at tiny sizes and a fixed seed:
// a change to keys, hashing, seeding or formatting shows here first.
func TestGolden(t *testing.T) {
	t.Parallel()
	for _, e := range All() {
		t.Run(e.Name, func(t *testing.T) {
			t.Parallel()
			tab, err := e.Run(tiny(e), Options{Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := tab.WriteText(&got); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", e.Name+".golden")
			if *update {
				if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to write it)", err)
			}
			if got.String() != string(want) {
				t.Errorf("seed %d: table moved:\n%s\nwant:\n%s", tiny(e).Seed, got.String(), want)
			}
		})
	}
}

// TestWorkersDoNotChangeTables: one worker, two or three, or two or three
// copies sharing the run (Options.Shard), the same seed gives the same
// table.
func TestWorkersDoNotChangeTables(t *testing.T) {
	t.Parallel()
	for _, e := range All() {
		t.Run(e.Name, func(t *testing.T) {
			t.Parallel()
			one, err := e.Run(tiny(e), Options{Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range []int{2, 3} {
				many, err := e.Run(tiny(e), Options{Workers: w})
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(one, many) {
					t.Errorf("%d workers gave a different table than one", w)
				}
			}
			shardsGiveTheSameTable(t, e, one)
		})
	}
}

func TestSeedMovesTheMeasurements(t *testing.T) {
	t.Parallel()
	s := tiny(theoryVsObserved)
	a, err := theoryVsObserved.Run(s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Seed++
	b, err := theoryVsObserved.Run(s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	fp := a.Column("fp")
	same := 0
	for i := range a.Rows {
		if a.Rows[i][fp] == b.Rows[i][fp] {
			same++
		}
	}
	if same == len(a.Rows) {
		t.Error("a new seed gave the same false positives in every row")
	}
}

func TestProgressCountsEveryUnit(t *testing.T) {
	t.Parallel()
	for _, e := range All() {
		t.Run(e.Name, func(t *testing.T) {
			t.Parallel()
			for _, w := range []int{1, 2} {
				last, total, calls := 0, 0, 0
				progress := func(done, tot int) error {
					if done < last || tot <= 0 || (total != 0 && tot != total) {
						t.Errorf("progress went %d/%d after %d/%d", done, tot, last, total)
					}
					last, total = done, tot
					calls++
					return nil
				}
				if _, err := e.Run(tiny(e), Options{Workers: w, Progress: progress}); err != nil {
					t.Fatal(err)
				}
				if calls == 0 || last != total {
					t.Errorf("%d workers: %d calls, ended at %d of %d", w, calls, last, total)
				}
			}
		})
	}
}

func TestCancel(t *testing.T) {
	t.Parallel()
	mine := errors.New("page closed")
	for _, e := range All() {
		t.Run(e.Name, func(t *testing.T) {
			t.Parallel()
			for _, w := range []int{1, 2} {
				for _, stop := range []error{ErrCancelled, mine} {
					calls := 0
					_, err := e.Run(tiny(e), Options{Workers: w, Progress: func(done, total int) error {
						calls++
						return stop
					}})
					if !errors.Is(err, stop) {
						t.Errorf("%d workers: error %v, want %v", w, err, stop)
					}
					if calls != 1 {
						t.Errorf("%d workers: progress called %d times, want once", w, calls)
					}
				}
			}
		})
	}
}

// TestMeasuredMemoryCancels pins the measured map's fill to report as it
// goes: it once reported only when a map was full, so a run of ten million
// keys could not be stopped for half a minute.
func TestMeasuredMemoryCancels(t *testing.T) {
	t.Parallel()
	s := Sizes{Items: 3 * tick, Seed: 7}
	first := -1
	_, err := memory.Run(s, Options{Native: true, Progress: func(done, total int) error {
		first = done
		return ErrCancelled
	}})
	if !errors.Is(err, ErrCancelled) {
		t.Fatalf("error %v, want ErrCancelled", err)
	}
	if first != tick {
		t.Errorf("first report at %d keys of %d, want %d: the fill must report every tick keys", first, s.Items, tick)
	}
}

func TestCheck(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		e    Experiment
		s    Sizes
		says string
	}{
		{"no items", rocksdb, Sizes{Items: 0, Queries: 10}, "items must be in [1, 10000000], got 0"},
		{"too many items", rocksdb, Sizes{Items: MaxItems + 1, Queries: 10}, "items must be in"},
		{"negative queries", rocksdb, Sizes{Items: 10, Queries: -1}, "queries must be in [1, 100000000], got -1"},
		{"too many replicates", kSweep, Sizes{Items: 10, Queries: 10, Replicates: MaxReplicates + 1}, "replicates must be in [1, 1000]"},
		{"a knob it does not use", rocksdb, Sizes{Items: 10, Queries: 10, Replicates: 2}, "rocksdb takes no replicates"},
		{"queries for memory", memory, Sizes{Items: 10, Queries: 5}, "memory takes no queries"},
		{"queries for membership-inference", membershipInference, Sizes{Items: 10, Queries: 5, Replicates: 1}, "membership-inference takes no queries"},
		{"no filters for adversarial", adversarial, Sizes{Items: 10, Queries: 5}, "replicates must be in [1, 1000], got 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.e.Run(tc.s, Options{})
			if err == nil || !strings.Contains(err.Error(), tc.says) || !strings.HasPrefix(err.Error(), "experiment: ") {
				t.Errorf("error %v, want one saying %q", err, tc.says)
			}
		})
	}
}

func TestCatalogue(t *testing.T) {
	t.Parallel()
	want := strings.Fields("theory-vs-observed rocksdb grid k-sweep rounding hashing overfill probes counting memory blocked small-m alternatives frontier adversarial membership-inference scalable estimate merge")
	var names []string
	for _, e := range All() {
		names = append(names, e.Name)
		if e.Summary == "" || strings.Contains(e.Summary, "\n") {
			t.Errorf("%s: summary %q is not one line", e.Name, e.Summary)
		}
		for _, s := range []Sizes{e.Quick, e.Full} {
			if err := e.Check(s); err != nil {
				t.Errorf("%s: its own sizes fail: %v", e.Name, err)
			}
		}
		if got, ok := Find(e.Name); !ok || got.Name != e.Name {
			t.Errorf("Find(%q) = %q, %v", e.Name, got.Name, ok)
		}
	}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("experiments %v, want %v", names, want)
	}
	// The package doc tells every experiment, by its name in brackets, in
	// All's order.
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	text, at := strings.Join(strings.Fields(string(bytes.ReplaceAll(doc, []byte("//"), nil))), " "), 0
	for _, name := range names {
		i := strings.Index(text[at:], "("+name+")")
		if i < 0 {
			t.Errorf("the package doc does not tell %s, as (%s), after the experiments before it in All", name, name)
			continue
		}
		at += i
	}
	if _, ok := Find("nope"); ok {
		t.Error("Find found an experiment that does not exist")
	}
}

// TestCharts: every table carries a chart a page can draw without knowing
// the experiment: named series of known kinds, points inside their intervals.
func TestCharts(t *testing.T) {
	t.Parallel()
	for _, e := range All() {
		t.Run(e.Name, func(t *testing.T) {
			t.Parallel()
			tab, err := e.Run(tiny(e), Options{})
			if err != nil {
				t.Fatal(err)
			}
			c := tab.Chart
			if c == nil || c.Title == "" || c.X == "" || c.Y == "" || len(c.Series) == 0 {
				t.Fatalf("chart %+v lacks a title, axes or series", c)
			}
			for _, s := range c.Series {
				if s.Name == "" || (s.Kind != Line && s.Kind != Points) || len(s.Points) == 0 {
					t.Errorf("series %q of kind %q with %d points", s.Name, s.Kind, len(s.Points))
				}
				for _, p := range s.Points {
					if s.Kind == Points && (p.Lo != 0 || p.Hi != 0) && !(p.Lo <= p.Y && p.Y <= p.Hi) {
						t.Errorf("series %q: %v outside its interval [%v, %v]", s.Name, p.Y, p.Lo, p.Hi)
					}
					if len(c.XLabels) > 0 && (p.X < 0 || int(p.X) >= len(c.XLabels)) {
						t.Errorf("series %q: x %v names no label", s.Name, p.X)
					}
				}
			}
		})
	}
}
