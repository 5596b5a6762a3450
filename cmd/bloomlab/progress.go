//go:build !wasm

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"
)

// statusInterrupted is the exit status of a run stopped by Ctrl-C: 128 plus
// SIGINT's number, what a shell reports for a process the signal killed.
const statusInterrupted = 130

// redraw is the least time between two drawings of a progress line: ten a
// second reads as live without flooding a slow terminal.
const redraw = 100 * time.Millisecond

// interruptible gives a long command a context that ends at the first
// Ctrl-C (SIGINT). The command then stops its run and exits with
// statusInterrupted; a second Ctrl-C finds the default handler back and
// kills the process at once. A type rather than a wrapping function, so
// the command table names interruptible(runX).run without a call at init.
type interruptible func(ctx context.Context, args []string, stdout, stderr io.Writer) int

// run is the command's entry point as the command table takes it.
func (r interruptible) run(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	context.AfterFunc(ctx, stop)
	return r(ctx, args, stdout, stderr)
}

// forcedTerminal is a writer to treat as a terminal: tests wrap a buffer in
// it to see the progress line.
type forcedTerminal struct{ io.Writer }

// isTerminal reports whether w is a terminal, the only place a progress
// line belongs: pipes, files and CI logs get none. The character-device bit
// is how the os package tells, without golang.org/x/term; /dev/null has it
// too, which costs nothing.
func isTerminal(w io.Writer) bool {
	switch w := w.(type) {
	case forcedTerminal:
		return true
	case *os.File:
		info, err := w.Stat()
		return err == nil && info.Mode()&os.ModeCharDevice != 0
	}
	return false
}

// progress is one long run's progress line on stderr and its stop at
// Ctrl-C, the one mechanism every long command uses. Its step method is a
// core.Step and an experiment.Progress: the run calls it between chunks of
// work, and once the context ends it returns the context's error, which
// stops the run there.
//
// The line, redrawn in place with "\r" at most ten times a second, says
// what runs, the share done, the time since the command started and, after
// a second of the current stage, the time left at the rate so far:
//
//	bloomlab simulate: 37.4%, 5m32s elapsed, about 9m16s left
type progress struct {
	ctx      context.Context
	name     string // the command, as the lines name it
	stderr   io.Writer
	terminal bool // whether stderr is one: if not, no line
	now      func() time.Time
	start    time.Time // of the command

	what       string    // the stage, "" for the run itself
	stageStart time.Time // of the stage
	last       time.Time // of the last drawing
	width      int       // of the line on screen, 0 if none
}

// newProgress starts the clock of command name's run; it draws on stderr
// only if stderr is a terminal.
func newProgress(ctx context.Context, name string, stderr io.Writer) *progress {
	p := &progress{ctx: ctx, name: name, stderr: stderr, terminal: isTerminal(stderr), now: time.Now}
	p.start = p.now()
	p.stageStart = p.start
	return p
}

// stage names what runs from now on ("reading keys.txt") and restarts the
// estimate of the time left; the next step draws at once.
func (p *progress) stage(what string) {
	p.what, p.stageStart, p.last = what, p.now(), time.Time{}
}

// stageStep is step for a stage that starts at its first step, for a
// callee that moves on to it by itself (keys.ReadSteps, from reading to
// deduplicating).
func (p *progress) stageStep(what string) func(done, total int) error {
	started := false
	return func(done, total int) error {
		if !started {
			p.stage(what)
			started = true
		}
		return p.step(done, total)
	}
}

// step notes done units of total and redraws the line if it is due; it
// returns the context's error once Ctrl-C ended it.
func (p *progress) step(done, total int) error {
	if err := p.ctx.Err(); err != nil {
		return err
	}
	if !p.terminal {
		return nil
	}
	now := p.now()
	if p.width > 0 && now.Sub(p.last) < redraw {
		return nil
	}
	p.last = now
	share := float64(done) / float64(max(total, 1))
	var b strings.Builder
	fmt.Fprintf(&b, "bloomlab %s: ", p.name)
	if p.what != "" {
		b.WriteString(p.what + " ")
	}
	fmt.Fprintf(&b, "%.1f%%, %s elapsed", 100*share, clock(now.Sub(p.start)))
	if inStage := now.Sub(p.stageStart); inStage >= time.Second && share > 0 && share < 1 {
		fmt.Fprintf(&b, ", about %s left", clock(time.Duration(float64(inStage)*(1-share)/share)))
	}
	line := b.String()
	// Spaces cover what is left of a longer line before it.
	fmt.Fprintf(p.stderr, "\r%-*s", p.width, line)
	p.width = max(p.width, len(line))
	return nil
}

// finish ends the line and reports whether Ctrl-C interrupted the run. A
// finished run's line is wiped, so the result starts on a clean line; an
// interrupted one stays, showing how far the run got, followed by
// "bloomlab NAME: interrupted". The command then exits with
// statusInterrupted and prints no result, even if the run got to its end.
func (p *progress) finish() bool {
	interrupted := p.ctx.Err() != nil
	if p.width > 0 {
		if interrupted {
			fmt.Fprintln(p.stderr)
		} else {
			fmt.Fprintf(p.stderr, "\r%s\r", strings.Repeat(" ", p.width))
		}
		p.width = 0
	}
	if interrupted {
		fmt.Fprintf(p.stderr, "bloomlab %s: interrupted\n", p.name)
	}
	return interrupted
}

// reader returns f to read as stage what: the share of its bytes read is
// the progress (of a regular file: a pipe's size is unknown, so it shows
// none), and once Ctrl-C ended the context a read fails with its error.
func (p *progress) reader(f *os.File, what string) io.Reader {
	p.stage(what)
	var size int64
	if info, err := f.Stat(); err == nil && info.Mode().IsRegular() {
		size = info.Size()
	}
	return &progressReader{p: p, r: f, total: size}
}

type progressReader struct {
	p           *progress
	r           io.Reader
	done, total int64
}

func (r *progressReader) Read(b []byte) (int, error) {
	var err error
	if r.total > 0 {
		err = r.p.step(int(min(r.done, r.total)), int(r.total))
	} else {
		err = r.p.ctx.Err()
	}
	if err != nil {
		return 0, err
	}
	n, err := r.r.Read(b)
	r.done += int64(n)
	return n, err
}

// clock writes d for a progress line: 9s, 5m32s, 2h05m.
func clock(d time.Duration) string {
	s := int(d.Round(time.Second) / time.Second)
	switch {
	case s < 60:
		return fmt.Sprintf("%ds", s)
	case s < 3600:
		return fmt.Sprintf("%dm%02ds", s/60, s%60)
	}
	return fmt.Sprintf("%dh%02dm", s/3600, s/60%60)
}
