package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"bloomlab/core"
)

func TestAuditCommand(t *testing.T) {
	t.Parallel()
	lastLine := func(s string) string {
		lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
		return lines[len(lines)-1]
	}
	allPassed := func(t *testing.T, out, _ string) {
		var p, n int
		if _, err := fmt.Sscanf(lastLine(out), "%d/%d checks passed", &p, &n); err != nil || p != n || n < 88 {
			t.Errorf("last line %q, want N/N checks passed with N >= 88", lastLine(out))
		}
	}
	usageError := func(words ...string) func(t *testing.T, out, errOut string) {
		return func(t *testing.T, out, errOut string) {
			first, _, _ := strings.Cut(errOut, "\n")
			if !strings.HasPrefix(first, "bloomlab audit: ") || !strings.Contains(errOut, "\nusage: bloomlab audit ") {
				t.Errorf("stderr should be one error line then usage, got:\n%s", errOut)
			}
			for _, w := range words {
				if !strings.Contains(first, w) {
					t.Errorf("error line %q should mention %q", first, w)
				}
			}
			if out != "" {
				t.Errorf("stdout should be empty, got %q", out)
			}
		}
	}
	tests := []struct {
		name  string
		args  []string
		code  int
		check func(t *testing.T, out, errOut string)
	}{
		{"real filter", nil, 0, allPassed},
		{"fault none", []string{"--fault", "none"}, 0, allPassed},
		{"json", []string{"--json"}, 0, func(t *testing.T, out, _ string) {
			var r struct {
				Checks []struct {
					ID, Contract, Detail string
					Pass                 bool
				}
				Passed, Total int
				Digest        string
			}
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatalf("not JSON: %v", err)
			}
			if r.Passed != r.Total || r.Total != len(r.Checks) || r.Digest == "" || r.Checks[0].ID == "" {
				t.Errorf("JSON report: %d/%d passed, %d checks, digest %q", r.Passed, r.Total, len(r.Checks), r.Digest)
			}
		}},
		{"faults", []string{"--faults"}, 0, func(t *testing.T, out, _ string) {
			got := strings.Fields(out)
			if len(got) != 7 || len(core.Faults) != 7 {
				t.Fatalf("--faults listed %d names: %q", len(got), out)
			}
			for i, f := range core.Faults {
				if got[i] != string(f) {
					t.Errorf("name %d is %q, want %q", i, got[i], f)
				}
			}
		}},
		{"broken filter", []string{"--fault", "one-hash"}, 1, func(t *testing.T, out, _ string) {
			var p, n int
			if _, err := fmt.Sscanf(lastLine(out), "%d/%d checks passed", &p, &n); err != nil || p >= n {
				t.Errorf("last line %q, want some checks failed", lastLine(out))
			}
			if !strings.Contains(out, "FAIL  statistics/fpr/") || !strings.Contains(out, "(fault one-hash)") {
				t.Errorf("the one-hash report should name the fault and fail a rate check")
			}
		}},
		{"unknown fault", []string{"--fault", "bogus"}, 2, usageError("--fault", `"bogus"`, "one-hash")},
		{"fault without a name", []string{"--fault"}, 2, usageError("--fault", "negative-index")},
		{"unknown flag", []string{"--bogus"}, 2, usageError("unknown flag --bogus", "--json", "--faults")},
		{"bad boolean", []string{"--json=maybe"}, 2, usageError("--json:", "maybe")},
		// --faults lists the zoo; a flag beside it would be ignored.
		{"another scheme", []string{"--hashing", "independent"}, 0, func(t *testing.T, out, _ string) {
			if !strings.HasPrefix(out, "Bloom Lab audit: the real filter (fault none), independent hashes") || !strings.Contains(out, "independent hashing)") {
				t.Errorf("the report does not name the scheme:\n%.300s", out)
			}
		}},
		{"unknown scheme", []string{"--hashing", "triple"}, 2, usageError(`--hashing must be double, enhanced or independent, got "triple"`)},
		{"faults with json", []string{"--json", "--faults"}, 2, usageError("--faults lists the zoo and takes no other flag, got --json")},
		{"faults with a fault", []string{"--fault", "off-by-one", "--faults"}, 2, usageError("--faults", "got --fault")},
		{"stray argument", []string{"now"}, 2, usageError(`"now"`)},
		{"help", []string{"-h"}, 0, func(t *testing.T, _, errOut string) {
			if !strings.HasPrefix(errOut, "usage: bloomlab audit [--json] [--fault NAME] [--hashing SCHEME] [--faults]") {
				t.Errorf("help: %q", errOut)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var out, errOut bytes.Buffer
			code := runAudit(tt.args, &out, &errOut)
			if code != tt.code {
				t.Errorf("bloomlab audit %s: exit %d, want %d\nstderr: %s", strings.Join(tt.args, " "), code, tt.code, errOut.String())
			}
			tt.check(t, out.String(), errOut.String())
		})
	}
}

func TestAuditIsRegistered(t *testing.T) {
	t.Parallel()
	var out, errOut bytes.Buffer
	if code := dispatch([]string{"audit", "--faults"}, &out, &errOut); code != 0 || !strings.Contains(out.String(), "wrap-counters") {
		t.Errorf("bloomlab audit --faults: exit %d, out %q, err %q", code, out.String(), errOut.String())
	}
}
