//go:build !wasm

package main

import (
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/core/experiment"
)

func TestExperimentList(t *testing.T) {
	t.Parallel()
	code, out, errOut := run("experiment", "--list")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(experiment.All()) {
		t.Fatalf("%d lines, want one per experiment:\n%s", len(lines), out)
	}
	for i, e := range experiment.All() {
		if !strings.HasPrefix(lines[i], e.Name+" ") || !strings.HasSuffix(lines[i], e.Summary) {
			t.Errorf("line %q does not name %s with its summary", lines[i], e.Name)
		}
	}
}

// experimentSmall keeps the command's runs to a fraction of a second.
var experimentSmall = []string{"--items", "2000", "--queries", "20000", "--seed", "7"}

func TestExperimentOutputs(t *testing.T) {
	t.Parallel()
	t.Run("text", func(t *testing.T) {
		t.Parallel()
		code, out, errOut := run(append([]string{"experiment", "rounding"}, experimentSmall...)...)
		if code != 0 || errOut != "" {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
		for _, want := range []string{"round against ceil", "n = 2,000 keys", "rule", "round", "ceil", "95% CI"} {
			if !strings.Contains(out, want) {
				t.Errorf("table lacks %q:\n%s", want, out)
			}
		}
	})
	t.Run("json", func(t *testing.T) {
		t.Parallel()
		code, out, errOut := run(append([]string{"experiment", "--json", "rounding"}, experimentSmall...)...)
		if code != 0 || errOut != "" {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
		var got struct {
			Name  string           `json:"name"`
			Sizes experiment.Sizes `json:"sizes"`
			Rows  []map[string]any `json:"rows"`
			Chart *experiment.Chart
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%v:\n%s", err, out)
		}
		if got.Name != "rounding" || got.Sizes.Items != 2000 || got.Sizes.Seed != 7 || len(got.Rows) != 4 || got.Chart == nil {
			t.Errorf("decoded %+v", got)
		}
		if got.Rows[1]["rule"] != "round" || got.Rows[2]["rule"] != "ceil" {
			t.Errorf("rows %v", got.Rows)
		}
	})
	t.Run("csv, flags after the name", func(t *testing.T) {
		t.Parallel()
		code, out, errOut := run(append([]string{"experiment", "rounding", "--csv"}, experimentSmall...)...)
		if code != 0 || errOut != "" {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
		recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != 5 || strings.Join(recs[0], ",") != "k,rule,theory,observed,ci95_lo,ci95_hi,ratio,fp" {
			t.Errorf("csv:\n%s", out)
		}
	})
	t.Run("same seed, same table, whatever the workers", func(t *testing.T) {
		t.Parallel()
		_, one, _ := run(append([]string{"experiment", "grid", "--workers", "1"}, experimentSmall...)...)
		_, two, _ := run(append([]string{"experiment", "grid", "--workers", "2"}, experimentSmall...)...)
		if one == "" || one != two {
			t.Errorf("one worker:\n%s\ntwo workers:\n%s", one, two)
		}
	})
	t.Run("alternatives: what fits, the claims and native times", func(t *testing.T) {
		t.Parallel()
		code, out, errOut := run(append([]string{"experiment", "alternatives"}, experimentSmall...)...)
		if code != 0 || errOut != "" {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
		for _, want := range []string{"n = 2,000 keys", "does not fit", "theory in CI", "insert ns/key", "query ns/key",
			"Claim (a)", "Claim (b)", "Times are wall time"} {
			if !strings.Contains(out, want) {
				t.Errorf("table lacks %q:\n%s", want, out)
			}
		}
		// The times are the command's alone: a run as the browser makes it
		// holds none.
		e, _ := experiment.Find("alternatives")
		tab, err := e.Run(experiment.Sizes{Items: 2000, Queries: 20000, Seed: 7}, experiment.Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		if tab.Column("insertNs") >= 0 || tab.Column("queryNs") >= 0 {
			t.Error("a run without native measuring holds times")
		}
	})
	for _, tc := range []struct {
		name   string
		args   []string
		header string
		rows   int
	}{
		{"adversarial", []string{"--items", "500", "--queries", "1000", "--replicates", "3", "--seed", "7"},
			"attack,hash,bitsPerKey,k,keys,measure,theory,measured,ci95_lo,ci95_hi,ratio,rateTheory,rate,rateCI95_lo,rateCI95_hi", 26},
		{"frontier", []string{"--items", "500", "--queries", "1000", "--seed", "7"},
			"target,structure,settings,bitsPerKey,floor,bloomLine,overFloor,theory,observed,ci95_lo,ci95_hi,fp,buildNs,queryNs", 54},
		{"membership-inference", []string{"--items", "500", "--replicates", "2", "--seed", "7"},
			"target,bitsPerKey,k,theory,candidates,members,positives,falsePositives,expectedFP,precision,precisionCI95_lo,precisionCI95_hi,precisionTheory,recall", 4},
	} {
		t.Run(tc.name+": json and csv", func(t *testing.T) {
			t.Parallel()
			code, out, errOut := run(append([]string{"experiment", tc.name, "--json"}, tc.args...)...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			var got struct {
				Name  string           `json:"name"`
				Rows  []map[string]any `json:"rows"`
				Notes []string         `json:"notes"`
				Chart *experiment.Chart
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("%v:\n%s", err, out)
			}
			if got.Name != tc.name || len(got.Rows) != tc.rows || len(got.Notes) < 3 || got.Chart == nil {
				t.Errorf("decoded %s with %d rows, %d notes", got.Name, len(got.Rows), len(got.Notes))
			}
			code, out, errOut = run(append([]string{"experiment", tc.name, "--csv"}, tc.args...)...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != tc.rows+1 || strings.Join(recs[0], ",") != tc.header {
				t.Errorf("csv:\n%s", out)
			}
		})
	}
	t.Run("memory estimate", func(t *testing.T) {
		t.Parallel()
		code, out, _ := run("experiment", "memory", "--estimate", "--items", "1000")
		if code != 0 || !strings.Contains(out, "estimate") {
			t.Errorf("exit %d:\n%s", code, out)
		}
	})
	t.Run("help", func(t *testing.T) {
		t.Parallel()
		if code, _, errOut := run("experiment", "-h"); code != 0 || !strings.Contains(errOut, "usage: bloomlab experiment") {
			t.Errorf("exit %d, stderr %q", code, errOut)
		}
	})
}

func TestExperimentBadUsage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		args []string
		says string
	}{
		{"no name", nil, "name an experiment (one of theory-vs-observed"},
		{"unknown name", []string{"nope"}, `unknown experiment "nope", want one of theory-vs-observed`},
		{"two names", []string{"grid", "rounding"}, "one experiment at a time"},
		{"unknown flag", []string{"--bogus", "grid"}, "--bogus"},
		{"items zero", []string{"grid", "--items", "0"}, `--items must be a whole number in [1, 10000000], got "0"`},
		{"items not a number", []string{"grid", "--items", "lots"}, `--items must be a whole number in [1, 10000000], got "lots"`},
		{"queries too many", []string{"grid", "--queries", "100000001"}, "--queries must be a whole number in [1, 100000000]"},
		{"replicates negative", []string{"k-sweep", "--replicates", "-3"}, "--replicates must be a whole number in [1, 1000]"},
		{"seed not a number", []string{"grid", "--seed", "x"}, "--seed must be a whole number in [0, 18446744073709551615]"},
		{"workers zero", []string{"grid", "--workers", "0"}, "--workers must be a whole number in [1, 1024]"},
		{"a size it does not use", []string{"rounding", "--replicates", "3"}, "rounding takes no --replicates"},
		{"estimate elsewhere", []string{"rounding", "--estimate"}, "--estimate applies to the memory experiment only"},
		{"json and csv", []string{"grid", "--json", "--csv"}, "--json and --csv exclude each other"},
		{"list with a name", []string{"--list", "grid"}, "--list takes no experiment name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, out, errOut := run(append([]string{"experiment"}, tc.args...)...)
			first, _, _ := strings.Cut(errOut, "\n")
			if code != 2 || out != "" {
				t.Errorf("exit %d, stdout %q; want 2 and nothing", code, out)
			}
			if !strings.HasPrefix(first, "bloomlab experiment: ") || !strings.Contains(first, tc.says) {
				t.Errorf("first line %q does not say %q", first, tc.says)
			}
			if !strings.Contains(errOut, "usage: bloomlab experiment [flags] NAME") {
				t.Errorf("no usage after the error:\n%s", errOut)
			}
		})
	}
}
