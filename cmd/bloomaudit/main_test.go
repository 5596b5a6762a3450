package main

import (
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/audit"
	"github.com/bloomlab/bloomlab/core"
)

// goTool returns the go command, or skips where there is none (under Node).
func goTool(t *testing.T) string {
	t.Helper()
	if runtime.GOOS == "js" {
		t.Skip("no go command under js/wasm")
	}
	path, err := exec.LookPath(filepath.Join(runtime.GOROOT(), "bin", "go"))
	if err != nil {
		if path, err = exec.LookPath("go"); err != nil {
			t.Skip("no go command found")
		}
	}
	return path
}

// TestImportsOnlyAuditAndCore keeps the runner buildable for Node: nothing
// of the lab's browser start-up may creep in, only the audit's command line.
func TestImportsOnlyAuditAndCore(t *testing.T) {
	out, err := exec.Command(goTool(t), "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		switch pkg {
		case "github.com/bloomlab/bloomlab/cmd/bloomaudit", "github.com/bloomlab/bloomlab/cmd/internal/auditcli", "github.com/bloomlab/bloomlab/cmd/internal/buildinfo", "github.com/bloomlab/bloomlab/audit", "github.com/bloomlab/bloomlab/core", "github.com/bloomlab/bloomlab/core/keys", "github.com/bloomlab/bloomlab/core/sim", "github.com/dchest/siphash":
		default:
			t.Errorf("bloomaudit depends on %s; it may use only auditcli, buildinfo, audit, core and the simulation (core/sim, core/keys, siphash)", pkg)
		}
	}
}

// TestBinary builds the runner and checks its exit codes and that its
// digest is the audit's.
func TestBinary(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "bloomaudit")
	if out, err := exec.Command(goTool(t), "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	want, err := audit.Run(audit.MustLab(core.Variant{}, core.NoFault, ""), nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		code int
	}{
		{[]string{"--json"}, 0},
		{[]string{"--fault", "wrap-counters"}, 1},
		{[]string{"--fault", "bogus"}, 2},
		{[]string{"--bogus"}, 2},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			cmd := exec.Command(bin, tt.args...)
			out, err := cmd.Output()
			code := 0
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				code = exit.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tt.code {
				t.Fatalf("exit %d, want %d", code, tt.code)
			}
			if tt.args[0] == "--json" {
				var r audit.Report
				if err := json.Unmarshal(out, &r); err != nil {
					t.Fatal(err)
				}
				if r.Digest != want.Digest || r.Passed != want.Passed || r.Failed != 0 {
					t.Errorf("runner digest %s (%d passed, %d failed), audit digest %s (%d passed)",
						r.Digest, r.Passed, r.Failed, want.Digest, want.Passed)
				}
			}
		})
	}
}
