//go:build !wasm

package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// The audit's flags, formats and messages are tested in
// cmd/internal/auditcli; these tests check that `bloomlab audit` reaches
// it under its own name.

func TestAuditCommand(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		args  []string
		code  int
		check func(t *testing.T, out, errOut string)
	}{
		{"real filter", nil, 0, func(t *testing.T, out, _ string) {
			lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
			var p, n int
			if _, err := fmt.Sscanf(lines[len(lines)-1], "%d/%d checks passed", &p, &n); err != nil || p != n || n < 80 {
				t.Errorf("last line %q, want N/N checks passed with N >= 80", lines[len(lines)-1])
			}
		}},
		{"unknown flag", []string{"--bogus"}, 2, func(t *testing.T, out, errOut string) {
			if !strings.HasPrefix(errOut, "bloomlab audit: unknown flag --bogus") || !strings.Contains(errOut, "\nusage: bloomlab audit ") {
				t.Errorf("stderr should be one error line then usage, got:\n%s", errOut)
			}
		}},
		{"help", []string{"-h"}, 0, func(t *testing.T, _, errOut string) {
			if !strings.HasPrefix(errOut, "usage: bloomlab audit [--format FORMAT] ") {
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
