// The tests start programs, which js/wasm cannot: they run natively.

//go:build !js

package program

import (
	"bufio"
	"context"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bloomlab/bloomlab/audit"
	"github.com/bloomlab/bloomlab/core"
)

// The tests start this test binary as the program: given the arguments
// "adapter MODE ONCE", TestMain serves the lab's standard filter over the
// protocol instead of running tests, and misbehaves as MODE says if the
// file ONCE does not exist yet, creating it: the process started after the
// fault behaves.
func TestMain(m *testing.M) {
	if len(os.Args) == 4 && os.Args[1] == "adapter" {
		mode := os.Args[2]
		if _, err := os.Stat(os.Args[3]); err == nil {
			mode = ""
		} else if err := os.WriteFile(os.Args[3], nil, 0o644); err != nil {
			os.Exit(6)
		}
		os.Exit(serve(mode))
	}
	os.Exit(m.Run())
}

// labName names the lab's filter behind the protocol and in process alike,
// so that the two reports can be compared digest for digest.
const labName = "lab/standard"

// serve is a small adapter in Go: the lab's standard filter, seeded, over
// the protocol. mode makes it misbehave at its first test request:
// "exit" exits, "hang" stops answering, "garbage" answers a line of
// nonsense, "short" answers one character too few, "huge" writes 64 MiB
// with no end of line; "hello" botches the handshake. In mode "counting"
// it serves the lab's counting filter instead, and removes keys.
func serve(mode string) int {
	lab := audit.MustLab(core.Standard, core.NoFault, "")
	if mode == "counting" {
		lab = audit.MustLab(core.CountingVariant, core.NoFault, "")
	}
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	filters := map[string]audit.Filter{}
	readKeys := func(n int) [][]byte {
		keys := make([][]byte, n)
		for i := range keys {
			line, err := in.ReadString('\n')
			if err != nil {
				os.Exit(3)
			}
			keys[i], _ = hex.DecodeString(strings.TrimSuffix(line, "\n"))
		}
		return keys
	}
	for {
		line, err := in.ReadString('\n')
		if err != nil {
			return 0
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			return 4
		}
		switch f[0] {
		case "bloomlab-audit":
			switch mode {
			case "hello":
				fmt.Fprintln(out, "hi there")
			case "blocked":
				fmt.Fprintf(out, "hello blocked\nrate blocked 512\nready\n")
			case "counting":
				fmt.Fprintf(out, "hello counting\ncan remove\nready\n")
			default:
				fmt.Fprintf(out, "hello %s\nabout the lab's standard filter, behind the protocol\ncan seed\nready\n", labName)
			}
		case "new":
			m, _ := strconv.ParseUint(f[2], 10, 64)
			k, _ := strconv.Atoi(f[3])
			n, _ := strconv.Atoi(f[4])
			seed, _ := strconv.ParseUint(f[5], 10, 64)
			flt, err := lab.New(audit.Shape{M: m, K: k, N: n, Seed: seed})
			if err != nil {
				fmt.Fprintf(out, "refused %s\n", strings.ReplaceAll(err.Error(), "\n", " "))
				break
			}
			filters[f[1]] = flt
			fmt.Fprintln(out, "ok")
		case "add":
			n, _ := strconv.Atoi(f[2])
			for _, k := range readKeys(n) {
				filters[f[1]].Add(k)
			}
			fmt.Fprintln(out, "ok")
		case "test":
			n, _ := strconv.Atoi(f[2])
			keys := readKeys(n)
			switch mode {
			case "exit":
				fmt.Fprintln(os.Stderr, "adapter: giving up at the first test")
				return 7
			case "hang":
				out.Flush()
				time.Sleep(time.Hour)
			case "garbage":
				fmt.Fprintln(out, "maybe?")
				out.Flush()
				continue
			case "short":
				keys = keys[1:]
			case "huge":
				out.WriteString(strings.Repeat("1", 64<<20))
				out.Flush()
				time.Sleep(time.Hour)
			}
			answer := make([]byte, len(keys))
			for i, k := range keys {
				answer[i] = '0'
				if filters[f[1]].Test(k) {
					answer[i] = '1'
				}
			}
			fmt.Fprintf(out, "%s\n", answer)
		case "remove":
			n, _ := strconv.Atoi(f[2])
			keys := readKeys(n)
			answer := make([]byte, len(keys))
			for i, k := range keys {
				answer[i] = '0'
				if filters[f[1]].(audit.Remover).Remove(k) {
					answer[i] = '1'
				}
			}
			fmt.Fprintf(out, "%s\n", answer)
		case "free":
			delete(filters, f[1])
			fmt.Fprintln(out, "ok")
		case "bye":
			return 0
		default:
			fmt.Fprintf(os.Stderr, "adapter: unknown request %q\n", line)
			return 5
		}
		out.Flush()
	}
}

// adapter starts this binary as the program, in mode.
func adapter(t *testing.T, mode string, timeout time.Duration) *Program {
	t.Helper()
	p, err := Start(context.Background(), adapterArgv(t, mode), timeout)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

// adapterArgv is the command that starts this binary as the adapter.
func adapterArgv(t *testing.T, mode string) []string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return []string{exe, "adapter", mode, t.TempDir() + "/misbehaved"}
}

// check is the audit check named id.
func check(t *testing.T, id string) audit.Check {
	t.Helper()
	for _, c := range audit.Checks() {
		if c.ID == id {
			return c
		}
	}
	t.Fatalf("no check %s", id)
	return audit.Check{}
}

// The lab's filter behind the protocol gets the verdicts, the details and
// the digest it gets in process through Add and Test alone.
func TestSameVerdictsThroughTheProtocol(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole audit twice")
	}
	lab := audit.MustLab(core.Standard, core.NoFault, "")
	p := adapter(t, "", 0)
	remote := p.Target()
	local := audit.Target{Name: remote.Name, About: remote.About, Seeded: true,
		New: func(s audit.Shape) (audit.Filter, error) {
			f, err := lab.New(s)
			return struct{ audit.Filter }{f}, err
		}}
	want, err := audit.Run(local, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := audit.Run(remote, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, o := range got.Checks {
		if w := want.Checks[i]; o != w {
			t.Errorf("%s through the protocol: pass %v, %q\n in process: pass %v, %q", o.ID, o.Pass, o.Detail, w.Pass, w.Detail)
		}
	}
	if got.Digest != want.Digest || p.Started() != 1 {
		t.Errorf("digest %s through the protocol, %s in process; %d processes started", got.Digest, want.Digest, p.Started())
	}
	t.Logf("%s: %s, digest %s", got.Target, got.Summary(), got.Digest)
}

// A program that misbehaves fails the check it was serving with what was
// sent and what came back, and the next check gets a fresh process.
func TestMisbehavingPrograms(t *testing.T) {
	for _, c := range []struct {
		mode, want string
	}{
		{"exit", `exited (exit status 7) before answering; its stderr ends: adapter: giving up at the first test`},
		{"hang", "did not answer within 10s"},
		{"garbage", `answered "maybe?", want 4000 characters of 0 and 1`},
		{"short", `want 4000 characters of 0 and 1`},
		{"huge", "answered a line longer than 4000 bytes"},
	} {
		t.Run(c.mode, func(t *testing.T) {
			t.Parallel()
			p := adapter(t, c.mode, 10*time.Second) // far above the milliseconds a request takes
			target := p.Target()
			o, err := audit.RunCheck(target, check(t, "no-false-negatives/k-1"))
			if err != nil {
				t.Fatal(err)
			}
			if o.Pass || !strings.Contains(o.Detail, c.want) || !strings.Contains(o.Detail, `to "test `) {
				t.Errorf("%s: pass %v, detail %q, want it to fail with %q", c.mode, o.Pass, o.Detail, c.want)
			}
			o, err = audit.RunCheck(target, check(t, "determinism/same-build-same-answers"))
			if err != nil {
				t.Fatal(err)
			}
			if !o.Pass || p.Started() != 2 { // the first, then a fresh one
				t.Errorf("%s: the next check: pass %v, %q; %d processes started, want 2", c.mode, o.Pass, o.Detail, p.Started())
			}
			t.Logf("%s: %s", c.mode, o.Detail)
		})
	}
}

// A program that does not open with hello is refused at once, with what
// it said.
func TestBadHandshake(t *testing.T) {
	_, err := Start(context.Background(), adapterArgv(t, "hello"), 5*time.Second)
	if err == nil || !strings.Contains(err.Error(), `answered "hi there", want "hello NAME"`) {
		t.Errorf("bad handshake: %v", err)
	}
	if _, err := Start(context.Background(), []string{"/nonexistent/adapter"}, time.Second); err == nil || !strings.Contains(err.Error(), "cannot start /nonexistent/adapter") {
		t.Errorf("missing program: %v", err)
	}
}

// A program that names the blocked theory gets it, at m rounded up to
// whole blocks; one that names none gets the standard formula.
func TestRateByName(t *testing.T) {
	s := audit.Shape{M: 1000, K: 6, N: 100}
	if got, want := adapter(t, "blocked", 0).Target().Rate(s), core.BlockedRateExact(1024, 100, 6); got != want {
		t.Errorf("rate blocked 512: %g, want %g", got, want)
	}
	if rate := adapter(t, "", 0).Target().Rate; rate != nil {
		t.Errorf("no rate named: the target has its own theory, want the standard formula")
	}
}

// A program that declares removal gets the removal check, and its removes
// travel: the lab's counting filter behind the protocol passes it, with
// every member it keeps found.
func TestRemovalThroughTheProtocol(t *testing.T) {
	p := adapter(t, "counting", 0)
	o, err := audit.RunCheck(p.Target(), check(t, "no-false-negatives/remove-half"))
	if err != nil {
		t.Fatal(err)
	}
	if o.Skipped || !o.Pass || !strings.HasPrefix(o.Detail, "0 of 2000 removals refused, 0 of 2000") {
		t.Errorf("remove-half through the protocol: skipped %v, pass %v, %q", o.Skipped, o.Pass, o.Detail)
	}
}
