package settings

import (
	"net/url"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/internal/linktest"
	"github.com/bloomlab/bloomlab/core/experiment"
)

func TestExpFromQuery(t *testing.T) {
	t.Parallel()
	first := experiment.All()[0]
	rocks, _ := experiment.Find("rocksdb")
	tests := []struct {
		name    string
		query   string
		want    Experiment
		notices []string // substrings, one per notice
	}{
		{"empty link", "", Experiment{Name: first.Name, Sizes: first.Quick}, nil},
		{"experiment only", linktest.Query(ExpName, "rocksdb"), Experiment{Name: "rocksdb", Sizes: rocks.Quick}, nil},
		{"every size", linktest.Query(ExpName, "k-sweep", ExpItems, "2000", ExpQueries, "30000", ExpReplicates, "3", ExpSeed, "9"),
			Experiment{Name: "k-sweep", Sizes: experiment.Sizes{Items: 2000, Queries: 30000, Replicates: 3, Seed: 9}}, nil},
		{"separators and exponents", linktest.Query(ExpName, "rocksdb", ExpItems, "2,000", ExpQueries, "1e5"),
			Experiment{Name: "rocksdb", Sizes: experiment.Sizes{Items: 2000, Queries: 100000, Seed: 1}}, nil},
		{"unknown experiment", linktest.Query(ExpName, "bogus", ExpItems, "5"),
			Experiment{Name: first.Name, Sizes: experiment.Sizes{Items: 5, Queries: first.Quick.Queries, Seed: 1}},
			[]string{`experiment: "bogus" is not one of theory-vs-observed, rocksdb`}},
		{"below the minimum", linktest.Query(ExpName, "rocksdb", ExpItems, "0", ExpQueries, "-4"),
			Experiment{Name: "rocksdb", Sizes: experiment.Sizes{Items: 1, Queries: 1, Seed: 1}},
			[]string{"items: 0 is below the minimum, so it was raised to 1", "queries: -4 is below the minimum"}},
		{"above the maximum", linktest.Query(ExpName, "rocksdb", ExpItems, "99999999999"),
			Experiment{Name: "rocksdb", Sizes: experiment.Sizes{Items: experiment.MaxItems, Queries: rocks.Quick.Queries, Seed: 1}},
			[]string{"items: 99999999999 is above the maximum, so it was lowered to 10,000,000"}},
		{"above the scalable experiment's maximum", linktest.Query(ExpName, "scalable", ExpItems, "200000"),
			Experiment{Name: "scalable", Sizes: experiment.Sizes{Items: 100_000, Queries: 200_000, Seed: 1}},
			[]string{"items: 200000 is above the maximum, so it was lowered to 100,000"}},
		{"rounded", linktest.Query(ExpName, "rocksdb", ExpItems, "1500.6"),
			Experiment{Name: "rocksdb", Sizes: experiment.Sizes{Items: 1501, Queries: rocks.Quick.Queries, Seed: 1}},
			[]string{"items: 1500.6 was rounded to 1,501"}},
		{"not a number", linktest.Query(ExpName, "rocksdb", ExpItems, "lots", ExpQueries, "NaN"),
			Experiment{Name: "rocksdb", Sizes: rocks.Quick},
			[]string{`items: "lots" is not a whole number from 1 to 10,000,000, so it stays at 100,000`, `queries: "NaN" is not a whole number`}},
		{"unused knob", linktest.Query(ExpName, "memory", ExpQueries, "5", ExpReplicates, "2"),
			Experiment{Name: "memory", Sizes: experiment.Sizes{Items: 200_000, Seed: 1}},
			[]string{`queries: memory takes no queries, so "5" is ignored`, `replicates: memory takes no replicates`}},
		{"largest seed", linktest.Query(ExpName, "rocksdb", ExpSeed, "18446744073709551615"),
			Experiment{Name: "rocksdb", Sizes: experiment.Sizes{Items: rocks.Quick.Items, Queries: rocks.Quick.Queries, Seed: 1<<64 - 1}}, nil},
		{"seed too large", linktest.Query(ExpName, "rocksdb", ExpSeed, "18446744073709551616"),
			Experiment{Name: "rocksdb", Sizes: experiment.Sizes{Items: rocks.Quick.Items, Queries: rocks.Quick.Queries, Seed: 1<<64 - 1}},
			[]string{"seed: 18446744073709551616 is above the maximum"}},
		{"negative seed", linktest.Query(ExpName, "rocksdb", ExpSeed, "-3"),
			Experiment{Name: "rocksdb", Sizes: experiment.Sizes{Items: rocks.Quick.Items, Queries: rocks.Quick.Queries, Seed: 0}},
			[]string{"seed: -3 is below the minimum, so it was raised to 0"}},
		{"bad seed", linktest.Query(ExpName, "rocksdb", ExpSeed, "1.5"),
			Experiment{Name: "rocksdb", Sizes: rocks.Quick},
			[]string{`seed: "1.5" is not a whole number from 0 to 18446744073709551615, so it stays at 1`}},
		{"last value wins, and says so", linktest.Query(ExpName, "rocksdb", ExpItems, "5", ExpItems, "7"),
			Experiment{Name: "rocksdb", Sizes: experiment.Sizes{Items: 7, Queries: rocks.Quick.Queries, Seed: 1}},
			[]string{"items: given 2 times, so the last, 7, is used"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			q, err := url.ParseQuery(tt.query)
			if err != nil {
				t.Fatal(err)
			}
			sel, notices := ExperimentFromQuery(q)
			if sel != tt.want {
				t.Errorf("selection %+v, want %+v", sel, tt.want)
			}
			if len(notices) != len(tt.notices) {
				t.Fatalf("notices %q, want %d like %q", notices, len(tt.notices), tt.notices)
			}
			for i, want := range tt.notices {
				if !strings.Contains(notices[i], want) {
					t.Errorf("notice %q, want one containing %q", notices[i], want)
				}
			}
		})
	}
}

// TestExpQueryRoundTrip: every experiment's quick and full sizes make a
// link that reads back as the same selection, without a notice.
func TestExpQueryRoundTrip(t *testing.T) {
	t.Parallel()
	for _, e := range experiment.All() {
		for _, full := range []bool{false, true} {
			sel := Experiment{Name: e.Name, Sizes: e.Quick}.WithSizes(full)
			sel.Sizes.Seed = 1<<64 - 2
			got, notices := ExperimentFromQuery(sel.Query())
			if got != sel || len(notices) > 0 {
				t.Errorf("%s full=%v: %s reads back as %+v with %q", e.Name, full, sel.Query().Encode(), got, notices)
			}
			if err := e.Check(sel.Sizes); err != nil {
				t.Errorf("%s full=%v: %v", e.Name, full, err)
			}
		}
	}
}

func TestExpCLIAndFileName(t *testing.T) {
	t.Parallel()
	sel := Experiment{Name: "rocksdb", Sizes: experiment.Sizes{Items: 2000, Queries: 30000, Seed: 7}}
	if got, want := sel.CLI(), "bloomlab experiment rocksdb --items 2000 --queries 30000 --seed 7"; got != want {
		t.Errorf("CLI %q, want %q", got, want)
	}
	if got, want := sel.FileName("csv"), "bloomlab-rocksdb-items2000-queries30000-seed7.csv"; got != want {
		t.Errorf("file name %q, want %q", got, want)
	}
	mem := Experiment{Name: "memory", Sizes: experiment.Sizes{Items: 5000, Seed: 1}}
	if got, want := mem.CLI(), "bloomlab experiment memory --items 5000 --seed 1 --estimate"; got != want {
		t.Errorf("memory CLI %q, want %q", got, want)
	}
}
