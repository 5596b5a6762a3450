//go:build !wasm

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/bloomlab/bloomlab/core/experiment"
)

// longRun is a command function that takes a context: simulate and
// experiment.
type longRun func(ctx context.Context, args []string, stdout, stderr io.Writer) int

// runWith runs a long command in-process with ctx and the given stderr.
func runWith(ctx context.Context, cmd longRun, args []string, stderr io.Writer) (int, string) {
	var out bytes.Buffer
	code := cmd(ctx, args, &out, stderr)
	return code, out.String()
}

// draws are the progress lines written on a terminal, each without its
// leading "\r" and trailing padding.
func draws(screen string) []string {
	var lines []string
	for _, s := range strings.Split(screen, "\r")[1:] {
		if s = strings.TrimRight(s, " \n"); s != "" {
			lines = append(lines, s)
		}
	}
	return lines
}

func TestProgressOnATerminalOnly(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		cmd  longRun
		args []string
		line string
	}{
		// 200,000 inserts and queries: a dozen steps of the core.
		{"simulate", runSimulate, []string{"--items", "100000", "--queries", "100000"}, "bloomlab simulate: "},
		{"experiment", runExperiment, append([]string{"rounding"}, experimentSmall...), "bloomlab experiment: rounding "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var plain, screen bytes.Buffer
			code, want := runWith(context.Background(), tt.cmd, tt.args, &plain)
			if code != 0 || plain.Len() != 0 {
				t.Fatalf("plain stderr: exit %d, stderr %q; want 0 and nothing", code, plain.String())
			}
			code, got := runWith(context.Background(), tt.cmd, tt.args, forcedTerminal{&screen})
			if code != 0 || got != want {
				t.Fatalf("terminal: exit %d, stdout:\n%s\nwant the plain run's:\n%s", code, got, want)
			}
			lines := draws(screen.String())
			if len(lines) == 0 {
				t.Fatalf("no progress line on a terminal: %q", screen.String())
			}
			for _, l := range lines {
				if !strings.HasPrefix(l, tt.line) || !strings.Contains(l, "%, ") || !strings.Contains(l, " elapsed") {
					t.Errorf("progress line %q, want %q, a share and the time elapsed", l, tt.line+"12.3%, 0s elapsed")
				}
			}
			// The line is wiped before the result: spaces, then back to the
			// line's start, and no newline.
			if s := screen.String(); !strings.HasSuffix(s, " \r") || strings.Contains(s, "\n") {
				t.Errorf("the line is not wiped before the result: %q", s)
			}
		})
	}
}

func TestIsTerminal(t *testing.T) {
	t.Parallel()
	file, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	for _, tt := range []struct {
		name string
		w    io.Writer
		want bool
	}{
		{"buffer", &bytes.Buffer{}, false},
		{"regular file", file, false},
		{"forced", forcedTerminal{&bytes.Buffer{}}, true},
	} {
		if got := isTerminal(tt.w); got != tt.want {
			t.Errorf("%s: isTerminal %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestProgressLine pins the line's wording, its throttle, its estimate and
// its stop, on a clock the test moves.
func TestProgressLine(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var screen bytes.Buffer
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := newProgress(ctx, "simulate", forcedTerminal{&screen})
	p.now = func() time.Time { return at }
	p.start, p.stageStart = at, at

	step := func(after time.Duration, done, total int) string {
		t.Helper()
		at = at.Add(after)
		screen.Reset()
		if err := p.step(done, total); err != nil {
			t.Fatalf("step: %v", err)
		}
		return screen.String()
	}
	if got, want := step(0, 1, 1000), "\rbloomlab simulate: 0.1%, 0s elapsed"; got != want {
		t.Errorf("first step drew %q, want %q", got, want)
	}
	if got := step(50*time.Millisecond, 2, 1000); got != "" {
		t.Errorf("a step 50 ms later drew %q, want nothing", got)
	}
	if got, want := step(332*time.Second-50*time.Millisecond, 374, 1000), "\rbloomlab simulate: 37.4%, 5m32s elapsed, about 9m16s left"; got != want {
		t.Errorf("drew %q, want %q", got, want)
	}
	p.stage("reading keys.txt")
	if got, want := step(10*time.Millisecond, 1, 4), "\rbloomlab simulate: reading keys.txt 25.0%, 5m32s elapsed"; !strings.HasPrefix(got, want) || strings.TrimSpace(got) != strings.TrimSpace(want) {
		t.Errorf("a new stage drew %q, want %q and spaces over the longer line", got, want)
	}

	cancel()
	screen.Reset()
	if err := p.step(3, 4); !errors.Is(err, context.Canceled) {
		t.Errorf("step after the cancel: %v, want context.Canceled", err)
	}
	if !p.finish() {
		t.Error("finish after the cancel reports no interrupt")
	}
	if got, want := screen.String(), "\nbloomlab simulate: interrupted\n"; got != want {
		t.Errorf("after the cancel %q, want %q", got, want)
	}
}

func TestClock(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{
		0: "0s", 1499 * time.Millisecond: "1s", 59 * time.Second: "59s", time.Minute: "1m00s",
		332 * time.Second: "5m32s", time.Hour: "1h00m", 2*time.Hour + 5*time.Minute + 59*time.Second: "2h05m",
	} {
		if got := clock(d); got != want {
			t.Errorf("clock(%v) = %q, want %q", d, got, want)
		}
	}
}

// stopScreen is a terminal whose first line that stop picks ends the run's
// context, as Ctrl-C would. The run must draw nothing after that: a line
// drawn later means the cancel did not reach the loop, which would run on
// for hours at these sizes, so it panics to fail at once instead.
type stopScreen struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	stop    func(line string) bool
	cancel  context.CancelFunc
	stopped bool
}

func (s *stopScreen) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	line := string(b)
	switch {
	case s.stopped && strings.HasPrefix(line, "\r") && strings.TrimSpace(line) != "":
		panic(fmt.Sprintf("progress drawn after the cancel: %q; the run did not stop", line))
	case !s.stopped && s.stop(line):
		s.stopped = true
		s.cancel()
	}
	return s.buf.Write(b)
}

func (s *stopScreen) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// TestInterrupt stops each long path mid-run, as Ctrl-C does: at sizes that
// take seconds to hours, the command must stop at its next step (drawing
// nothing more), exit 130 with one "interrupted" line and print nothing on
// stdout.
func TestInterrupt(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, prefix string, n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "%s-%d\n", prefix, i)
		}
		path := dir + "/" + name
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	// More keys than a core step (2^14), so the run itself steps.
	keys, absent := write("keys.txt", "member", 100_000), write("absent.txt", "other", 100_000)
	first := func(string) bool { return true }
	deduplicating := func(line string) bool { return strings.Contains(line, ": deduplicating keys.txt ") }
	running := func(line string) bool {
		return !strings.Contains(line, "reading") && !strings.Contains(line, "deduplicating")
	}
	maxed := []string{"--items", "10000000", "--bits-per-key", "64", "--hashes", "64", "--duplicate-passes", "100",
		"--queries", "100000000", "--key-bytes", "1024"}
	type interruptCase struct {
		name    string
		cmd     longRun
		args    []string
		stop    func(line string) bool // the line drawn as Ctrl-C comes
		command string
	}
	tests := []interruptCase{
		{"simulate at the maximum settings", runSimulate, maxed, first, "simulate"},
		{"simulate reading --keys", runSimulate, []string{"--keys", keys, "--absent", absent}, first, "simulate"},
		{"simulate deduplicating --keys", runSimulate, []string{"--keys", keys, "--absent", absent}, deduplicating, "simulate"},
		{"simulate on --keys", runSimulate, []string{"--keys", keys, "--absent", absent, "--duplicate-passes", "100"}, running, "simulate"},
	}
	// The published sizes: seconds to minutes each.
	for _, e := range experiment.All() {
		tests = append(tests, interruptCase{"experiment " + e.Name, runExperiment, []string{e.Name}, first, "experiment"})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			screen := &stopScreen{stop: tt.stop, cancel: cancel}
			code, stdout := runWith(ctx, tt.cmd, tt.args, forcedTerminal{screen})
			if !screen.stopped {
				t.Fatalf("no progress line to stop at; exit %d, stderr %q", code, screen.String())
			}
			want := "\nbloomlab " + tt.command + ": interrupted\n"
			if code != statusInterrupted || stdout != "" || !strings.HasSuffix(screen.String(), want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d, nothing, and a stderr ending %q",
					code, stdout, screen.String(), statusInterrupted, want)
			}
		})
	}
}

// TestInterruptedBeforeTheEnd: a run the context ended before it reached a
// step still prints no result, and off a terminal the interrupted line is
// all stderr holds.
func TestInterruptedBeforeTheEnd(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tt := range []struct {
		cmd  longRun
		args []string
		want string
	}{
		{runSimulate, nil, "bloomlab simulate: interrupted\n"},
		{runExperiment, append([]string{"rounding"}, experimentSmall...), "bloomlab experiment: interrupted\n"},
	} {
		var stderr bytes.Buffer
		code, stdout := runWith(ctx, tt.cmd, tt.args, &stderr)
		if code != statusInterrupted || stdout != "" || stderr.String() != tt.want {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want %d, nothing and %q",
				tt.want, code, stdout, stderr.String(), statusInterrupted, tt.want)
		}
	}
}

// TestSecondInterruptKills: after the first Ctrl-C has ended the context, a
// second one finds the default handler back and kills the process at once,
// however long the run takes to notice. It runs in a child process, which
// the second signal kills.
func TestSecondInterruptKills(t *testing.T) {
	if os.Getenv("BLOOMLAB_TEST_SIGINT") == "child" {
		self, _ := os.FindProcess(os.Getpid())
		interruptible(func(ctx context.Context, _ []string, _, _ io.Writer) int {
			self.Signal(os.Interrupt)
			<-ctx.Done()
			// A run that does not stop: only the default handler ends it.
			// The first Ctrl-C puts it back from a goroutine of its own,
			// so the child presses Ctrl-C until one kills it, however
			// late that goroutine runs. Two minutes of them unheeded is
			// no pace but a handler never put back: the child gives up,
			// exiting 0 to fail the test instead of hanging it.
			for giveUp := time.Now().Add(2 * time.Minute); time.Now().Before(giveUp); {
				self.Signal(os.Interrupt)
				time.Sleep(10 * time.Millisecond)
			}
			return 0
		}).run(nil, io.Discard, io.Discard)
		os.Exit(0)
	}
	t.Parallel()
	cmd := exec.Command(os.Args[0], "-test.run=^TestSecondInterruptKills$")
	cmd.Env = append(os.Environ(), "BLOOMLAB_TEST_SIGINT=child")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("child: %v, want killed by SIGINT; output:\n%s", err, out)
	}
	if status, ok := exit.Sys().(interface{ Signal() syscall.Signal }); !ok || status.Signal() != syscall.SIGINT {
		t.Fatalf("child: %v, want killed by SIGINT; output:\n%s", err, out)
	}
}
