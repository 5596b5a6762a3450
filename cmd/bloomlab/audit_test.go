//go:build !wasm

package main

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"
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
			code := runAudit(context.Background(), tt.args, &out, &errOut)
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

// TestAuditExecInterrupt: Ctrl-C during `bloomlab audit --exec` ends the
// audit with statusInterrupted and leaves no process behind, even one
// the program started and one that never answers. The program here is a
// shell script that says hello, then hangs in a child of its own on the
// audit's first request.
func TestAuditExecInterrupt(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	t.Parallel()
	dir := t.TempDir()
	script := `read l; printf 'hello hanging\nready\n'; read l; sleep 86399 & echo $! > ` + dir + `/pids; echo $$ >> ` + dir + `/pids; wait`
	ctx, cancel := context.WithCancel(context.Background())
	var out, errOut bytes.Buffer
	done := make(chan int)
	// An hour's timeout: only the interruption can end the hang.
	go func() {
		done <- runAudit(ctx, []string{"--exec-timeout", "1h", "--exec", "--", "sh", "-c", script}, &out, &errOut)
	}()
	var pids []string
	for deadline := time.Now().Add(time.Minute); len(pids) < 2; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the program never reached its hang; stderr: %s", errOut.String())
		}
		b, _ := os.ReadFile(dir + "/pids")
		pids = strings.Fields(string(b))
	}
	cancel()
	select {
	case code := <-done:
		if code != statusInterrupted {
			t.Errorf("exit %d, want %d; stderr: %s", code, statusInterrupted, errOut.String())
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("the audit still waits for the hung program two minutes after the interruption")
	}
	if !strings.Contains(errOut.String(), "bloomlab audit: interrupted") || out.Len() != 0 {
		t.Errorf("stdout %q, stderr %q: want no report and the interruption said", out.String(), errOut.String())
	}
	for _, pid := range pids {
		for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
			stat, err := os.ReadFile("/proc/" + pid + "/stat")
			if err != nil || strings.Contains(string(stat), ") Z ") { // gone, or dead and not yet reaped
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("process %s still runs after the audit ended: %s", pid, stat)
			}
		}
	}
}

// TestAuditExecProgress: on a terminal, `bloomlab audit --exec` draws its
// progress as the checks go and wipes it before the report; the report
// names the program as it names itself. The program is the protocol's null
// adapter under Node, a filter that keeps nothing, so the audit fails.
func TestAuditExecProgress(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("needs Node")
	}
	t.Parallel()
	var out, errOut bytes.Buffer
	code := runAudit(context.Background(), []string{"--exec", "--", node, "../../compare/adapters/js/null.js"}, &out, forcedTerminal{&errOut})
	if code != 1 || !strings.HasPrefix(out.String(), "Bloom Lab audit: no filter") || !strings.Contains(out.String(), "(js/null)") {
		t.Errorf("exit %d, report starting %.80q: want 1 and the null adapter's failures", code, out.String())
	}
	drawn := errOut.String()
	if !strings.Contains(drawn, "\rbloomlab audit: ") || !strings.Contains(drawn, "%, ") || !strings.HasSuffix(drawn, "\r") {
		t.Errorf("stderr %q: want progress lines, wiped at the end", drawn)
	}
}

// TestAuditExecUnstarted: a real program whose handshake is malformed gets
// a whole JUnit report, one failed start/handshake carrying what it said,
// and exit 2, so a CI job's audit.xml is never empty. (Its stderr reaches
// the report as far as it was read when the answer came: the program is
// still running then, so the test does not ask for it.)
func TestAuditExecUnstarted(t *testing.T) {
	t.Parallel()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("needs python3")
	}
	var out, errOut bytes.Buffer
	script := `print("hi", flush=True)`
	code := runAudit(context.Background(), []string{"--format", "junit", "--exec", "--", python, "-c", script}, &out, &errOut)
	var doc struct {
		Failures int `xml:"failures,attr"`
		Cases    []struct {
			Name    string `xml:"name,attr"`
			Failure struct {
				Message string `xml:"message,attr"`
			} `xml:"failure"`
		} `xml:"testsuite>testcase"`
	}
	if err := xml.Unmarshal(out.Bytes(), &doc); err != nil || code != 2 || doc.Failures != 1 || len(doc.Cases) != 1 ||
		doc.Cases[0].Name != "start/handshake" || !strings.Contains(doc.Cases[0].Failure.Message, `answered "hi", want "hello NAME"`) {
		t.Errorf("exit %d, %v:\n%s\nstderr: %s", code, err, out.String(), errOut.String())
	}
}
