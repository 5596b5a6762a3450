// Package program makes any program that speaks the audit's protocol
// (PROTOCOL.md, beside this file) an audit target: the filters it builds, in
// any language, go through the same checks as the lab's own. One process
// serves every filter of the audit; keys travel in batches, hex-encoded, so
// that the protocol costs little beside the filter. A program that exits,
// hangs or answers what the protocol does not allow fails the check it was
// serving, with what was sent and what came back, and the next check starts
// it afresh.
package program

import (
	"bufio"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bloomlab/bloomlab/audit"
	"github.com/bloomlab/bloomlab/core"
)

// Version is the protocol version this package speaks.
const Version = 1

// DefaultTimeout is how long a request may wait for its answer.
const DefaultTimeout = 30 * time.Second

// batch is the most keys one request carries, and batchBytes the most
// hex a pending add holds before it is sent (one longer key may pass it).
const (
	batch      = 4096
	batchBytes = 1 << 20
)

// The longest answer line the audit reads, by what it answers (its
// newline aside); PROTOCOL.md states them, and a test holds it to them.
const (
	lineLimit      = 4096    // a handshake line, and the answers to new, load and merge
	numberLimit    = 64      // ok to add and free, a size, a rate, a count
	positionsLimit = 1 << 16 // a key's positions
	saveLimit      = 2 * fileLimit
)

// fileLimit is the most bytes a saved filter has, as save answers it and
// load sends it: 16 MiB, a filter of about 1.3e8 bits, far past any the
// audit saves, while the audit's reading of a hostile answer stays bounded.
const fileLimit = 16 << 20

// Program is a started program and the filters it holds. Its methods are
// for one audit at a time: the audit calls a target from one goroutine.
type Program struct {
	ctx     context.Context
	argv    []string
	timeout time.Duration
	hello   hello

	proc    *process           // nil until started, and after a fault
	down    *audit.Unavailable // set once the program is not started again
	nextID  uint64
	live    []*filter // built since the last check ended
	started int       // processes started, the first included
	lines   []byte    // key lines being sent
	adds    []string  // add requests sent, their answers not yet read
}

// hello is what a program says of itself in the handshake.
type hello struct {
	name, about             string
	seed, remove, positions bool
	save, merge, count      bool
	seedBits                int    // the bits of seed it takes, 64 unless it says
	rate                    string // "standard", "blocked 512" or "ask"
}

// Start starts argv and reads its handshake. timeout bounds each request,
// DefaultTimeout when zero. When ctx ends, the program is killed at once,
// mid-request or not: the audit stops at its next pause.
func Start(ctx context.Context, argv []string, timeout time.Duration) (*Program, error) {
	if len(argv) == 0 {
		return nil, errors.New("program: no command to start")
	}
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	p := &Program{ctx: ctx, argv: argv, timeout: timeout}
	if err := p.start(); err != nil {
		return nil, err
	}
	p.hello = p.proc.hello
	return p, nil
}

// Started is how many processes the audit has started: one, and one more
// after each fault.
func (p *Program) Started() int { return p.started }

// Close ends the program: it says bye, and kills what has not exited
// within two seconds, its children with it.
func (p *Program) Close() {
	if p.proc != nil {
		p.proc.end()
		p.proc = nil
	}
}

// Target is the audit target for the program's filters, named by what the
// program said of itself.
func (p *Program) Target() audit.Target {
	h := p.hello
	t := audit.Target{Name: h.name, About: h.about, Seeded: h.seed, SeedBits: h.seedBits, Done: p.freeAll,
		New: p.newFilter}
	if h.about == "" {
		t.About = strings.Join(p.argv, " ")
	}
	if h.save {
		t.Load = p.load
	}
	switch {
	case h.rate == "ask":
		t.Rate = p.rate
	case strings.HasPrefix(h.rate, "blocked "):
		t.Rate = func(s audit.Shape) float64 {
			m := (max(s.M, 1) + core.BlockSize - 1) / core.BlockSize * core.BlockSize
			return core.BlockedRateExact(m, uint64(s.N), s.K)
		}
	}
	return t
}

// maxStarts bounds the processes one audit starts: a program that fails
// every check costs a bounded number of starts, and the checks after that
// are not run.
const maxStarts = 16

// start starts a fresh process, the first or after a fault, unless the
// program is down: after a hang, or maxStarts processes.
func (p *Program) start() error {
	if err := p.ctx.Err(); err != nil {
		return err
	}
	if p.down == nil && p.started >= maxStarts {
		p.down = &audit.Unavailable{Reason: fmt.Sprintf("program %s failed %d times and is not started again", p.hello.name, p.started)}
	}
	if p.down != nil {
		return *p.down
	}
	proc, err := startProcess(p.argv, p.timeout)
	if err != nil {
		return err
	}
	stop := context.AfterFunc(p.ctx, proc.kill)
	go func() { <-proc.exited; stop() }()
	p.started++
	if p.hello.name != "" && proc.hello != p.hello {
		proc.kill()
		return fmt.Errorf("program: restarted, %s says of itself %+v, not %+v as before", p.argv[0], proc.hello, p.hello)
	}
	p.proc = proc
	return nil
}

// fault ends the process after a broken exchange and returns the error
// the check fails with; the next filter starts a fresh process.
//
// A process that hung is not started again: every later check that needs
// the program would wait out the same timeout, so they are not run, and
// the audit ends within one more timeout than the hang cost.
func (p *Program) fault(err error) error {
	if p.proc != nil {
		if p.proc.hung() && p.down == nil {
			p.down = &audit.Unavailable{Reason: fmt.Sprintf("program %s did not answer within %v and is not started again (%s)",
				p.hello.name, p.timeout, clip(err.Error()))}
		}
		p.proc.kill()
		p.proc = nil
	}
	p.live, p.adds = nil, nil
	return err
}

// call sends the request and the key lines after it (lines: the keys in
// hex, each ending in a newline), and reads one answer line of at most
// limit bytes. Pending adds go first, and their answers are read.
func (p *Program) call(request string, lines []byte, limit int) (string, error) {
	for _, f := range p.live { // flush resets pending before it sends
		if f.pending > 0 {
			if err := f.flush(); err != nil {
				return "", err
			}
		}
	}
	if err := p.drain(0); err != nil {
		return "", err
	}
	if p.proc == nil {
		return "", p.gone()
	}
	answer, err := p.proc.call(request, lines, limit)
	if err != nil {
		return "", p.fault(err)
	}
	return answer, nil
}

// errRestarted is the error of a request to a process ended after a fault.
var errRestarted = errors.New("program: the program was restarted after a fault")

// gone is the error of a request to a process that was ended: the program
// is down, or it was restarted after a fault.
func (p *Program) gone() error {
	if p.down != nil {
		return *p.down
	}
	return errRestarted
}

// broken panics with the error a filter's request met, as the audit reads
// it: a check whose program is down is not run, any other fails.
func broken(err error) {
	if u := (audit.Unavailable{}); errors.As(err, &u) {
		panic(u)
	}
	panic(audit.Broken{Err: err})
}

// unanswered is the most add requests the audit sends ahead of their
// answers: the program works on one batch while the next is made.
const unanswered = 8

// add sends an add request without waiting for its answer, which drain
// reads later, in order.
func (p *Program) add(request string, lines []byte) error {
	if p.proc == nil {
		return p.gone()
	}
	stop := p.proc.deadline()
	err := p.proc.write(request, lines)
	stop()
	if err != nil {
		return p.fault(err)
	}
	p.adds = append(p.adds, request)
	return p.drain(unanswered)
}

// drain reads the answers of the adds sent ahead until at most keep are
// left unread; each must be ok.
func (p *Program) drain(keep int) error {
	for len(p.adds) > keep {
		request := p.adds[0]
		p.adds = p.adds[1:]
		stop := p.proc.deadline()
		answer, err := p.proc.read(request, numberLimit)
		stop()
		if err == nil && answer != "ok" {
			err = p.proc.unexpected(request, answer, `"ok"`)
		}
		if err != nil {
			return p.fault(err)
		}
	}
	return nil
}

// keyLines is keys as call sends them, in p's reused buffer.
func (p *Program) keyLines(keys [][]byte) []byte {
	p.lines = p.lines[:0]
	for _, k := range keys {
		p.lines = append(hex.AppendEncode(p.lines, k), '\n')
	}
	return p.lines
}

func (p *Program) newFilter(s audit.Shape) (audit.Filter, error) {
	f, refused, err := p.build(func(id uint64) string {
		return fmt.Sprintf("new %d %d %d %d %d", id, s.M, s.K, s.N, s.Seed)
	}, nil)
	if refused != "" {
		return nil, audit.Refusal{Reason: refused}
	}
	return f, err
}

// load reads a file its filters saved into a new filter of the program.
// The program's refusal is the error; a program that exits or hangs on
// the file fails the check, as it would anywhere: a crash is no refusal.
func (p *Program) load(r io.Reader) (audit.Filter, error) {
	file, err := io.ReadAll(io.LimitReader(r, fileLimit+1))
	if err != nil {
		return nil, fmt.Errorf("program: reading the file to load: %w", err)
	}
	if len(file) > fileLimit {
		return nil, fmt.Errorf("program: a file past %d bytes does not travel in the protocol", fileLimit)
	}
	f, refused, err := p.build(func(id uint64) string { return fmt.Sprintf("load %d %d", id, len(file)) },
		append(hex.AppendEncode(nil, file), '\n'))
	if err != nil {
		broken(err)
	}
	if refused != "" {
		return nil, fmt.Errorf("program %s refused the file: %s", p.hello.name, refused)
	}
	return f, nil
}

// build asks the program for a new filter, by the request naming the next
// ID (new or load) and the lines after it, and returns it with the views
// the program declared, or the reason it refused.
func (p *Program) build(request func(id uint64) string, lines []byte) (audit.Filter, string, error) {
	if p.proc == nil {
		if err := p.start(); err != nil {
			return nil, "", err
		}
	}
	p.nextID++
	f := &filter{p: p, id: p.nextID, proc: p.proc}
	req := request(f.id)
	answer, err := p.call(req, lines, lineLimit)
	if err != nil {
		return nil, "", err
	}
	if reason, ok := strings.CutPrefix(answer, "refused "); ok {
		return nil, reason, nil
	}
	if answer != "ok" {
		return nil, "", p.fault(f.proc.unexpected(req, answer, `"ok" or "refused REASON"`))
	}
	p.live = append(p.live, f)
	return f.view(), "", nil
}

// freeAll frees every filter built since the last check ended; their
// pending adds are dropped. A fault here ends the process, as anywhere.
func (p *Program) freeAll() {
	live := p.live
	p.live = nil
	for _, f := range live {
		if p.proc == nil || f.proc != p.proc {
			return
		}
		if p.callOK(fmt.Sprintf("free %d", f.id)) != nil {
			return
		}
	}
}

// callOK sends a request whose answer must be ok.
func (p *Program) callOK(request string) error {
	answer, err := p.call(request, nil, numberLimit)
	if err == nil && answer != "ok" {
		err = p.fault(p.proc.unexpected(request, answer, `"ok"`))
	}
	return err
}

// rate asks the program its theory for a shape.
func (p *Program) rate(s audit.Shape) float64 {
	request := fmt.Sprintf("rate %d %d %d", s.M, s.K, s.N)
	answer, err := p.call(request, nil, numberLimit)
	if err != nil {
		broken(err)
	}
	r, err := strconv.ParseFloat(answer, 64)
	if err != nil || !(r >= 0 && r <= 1) { // NaN is neither
		panic(audit.Broken{Err: p.fault(p.proc.unexpected(request, answer, "a rate from 0 to 1"))})
	}
	return r
}

// process is one run of the program: its pipes, what it said in the
// handshake, and the last lines of its standard error.
type process struct {
	cmd      *exec.Cmd
	in       *bufio.Writer
	out      *bufio.Reader
	stderr   *tail
	timeout  time.Duration
	hello    hello
	exited   chan struct{}
	waitErr  error
	timedOut bool
	mu       sync.Mutex // guards timedOut
}

func startProcess(argv []string, timeout time.Duration) (*process, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	ownGroup(cmd)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	pr := &process{cmd: cmd, in: bufio.NewWriterSize(in, 1<<16), out: bufio.NewReaderSize(out, 1<<16),
		stderr: &tail{}, timeout: timeout, exited: make(chan struct{})}
	cmd.Stderr = pr.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("program: cannot start %s: %w", argv[0], err)
	}
	go func() { pr.waitErr = cmd.Wait(); close(pr.exited) }()
	if err := pr.handshake(); err != nil {
		pr.kill()
		return nil, err
	}
	return pr, nil
}

// handshake sends the protocol's first line and reads what the program
// says of itself, up to ready, all within one timeout.
func (pr *process) handshake() error {
	defer pr.deadline()()
	first := fmt.Sprintf("bloomlab-audit %d", Version)
	line, err := pr.send(first, nil, lineLimit)
	for err == nil {
		word, rest, _ := strings.Cut(line, " ")
		switch {
		case word == "hello" && pr.hello.name == "" && rest != "" && !strings.Contains(rest, " "):
			pr.hello.name = rest
		case pr.hello.name == "":
			return pr.failure(first, fmt.Sprintf("answered %q, want \"hello NAME\"", clip(line)))
		case word == "about":
			pr.hello.about = rest
		case line == "can seed":
			pr.hello.seed, pr.hello.seedBits = true, 64
		case word == "can" && strings.HasPrefix(rest, "seed "):
			bits, err := strconv.Atoi(strings.TrimPrefix(rest, "seed "))
			if err != nil || bits < 1 || bits > 64 {
				return pr.failure(first, fmt.Sprintf("said %q; BITS in \"can seed BITS\" is a whole number from 1 to 64", clip(line)))
			}
			pr.hello.seed, pr.hello.seedBits = true, bits
		case line == "can remove":
			pr.hello.remove = true
		case line == "can positions":
			pr.hello.positions = true
		case line == "can save":
			pr.hello.save = true
		case line == "can merge":
			pr.hello.merge = true
		case line == "can count":
			pr.hello.count = true
		case line == "rate standard", line == "rate ask", line == "rate blocked 512":
			pr.hello.rate = rest
		case line == "ready":
			return nil
		default:
			return pr.failure(first, fmt.Sprintf("said %q, which protocol %d does not have", clip(line), Version))
		}
		line, err = pr.read(first, lineLimit)
	}
	return err
}

// hung reports whether the process was killed for not answering in time.
func (pr *process) hung() bool {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	return pr.timedOut
}

// deadline kills the process if it is not stopped, by the function it
// returns, within the timeout.
func (pr *process) deadline() (stop func()) {
	timer := time.AfterFunc(pr.timeout, func() {
		pr.mu.Lock()
		pr.timedOut = true
		pr.mu.Unlock()
		pr.kill()
	})
	return func() { timer.Stop() }
}

// call writes the request and its keys and reads one answer line, within
// the timeout.
func (pr *process) call(request string, lines []byte, limit int) (string, error) {
	defer pr.deadline()()
	return pr.send(request, lines, limit)
}

// send writes the request and its key lines and reads one answer line.
func (pr *process) send(request string, lines []byte, limit int) (string, error) {
	if err := pr.write(request, lines); err != nil {
		return "", err
	}
	return pr.read(request, limit)
}

// write writes the request and its key lines.
func (pr *process) write(request string, lines []byte) error {
	pr.in.WriteString(request)
	pr.in.WriteByte('\n')
	pr.in.Write(lines)
	if err := pr.in.Flush(); err != nil {
		return pr.failure(request, pr.gone("stopped reading its input ("+err.Error()+")"))
	}
	return nil
}

// read reads one answer line of at most limit bytes to request.
func (pr *process) read(request string, limit int) (string, error) {
	var line []byte
	for {
		chunk, err := pr.out.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > limit+2 {
			return "", pr.failure(request, fmt.Sprintf("answered a line longer than %d bytes, starting %q", limit, clip(string(line))))
		}
		if err == nil {
			break
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return "", pr.failure(request, pr.gone("closed its output before answering ("+err.Error()+")"))
		}
	}
	return strings.TrimSuffix(strings.TrimSuffix(string(line), "\n"), "\r"), nil
}

// gone says why the program stopped answering: the timeout, its exit, or
// else what the pipe saw.
func (pr *process) gone(otherwise string) string {
	pr.mu.Lock()
	timedOut := pr.timedOut
	pr.mu.Unlock()
	if timedOut {
		return fmt.Sprintf("did not answer within %v", pr.timeout)
	}
	select {
	case <-pr.exited:
		if pr.waitErr != nil {
			return "exited (" + pr.waitErr.Error() + ") before answering"
		}
		return "exited before answering"
	case <-time.After(time.Second):
		return otherwise
	}
}

// unexpected is the error of an answer the protocol does not allow.
func (pr *process) unexpected(request, answer, want string) error {
	return pr.failure(request, fmt.Sprintf("answered %q, want %s", clip(answer), want))
}

// failure is the error of a broken exchange: the request, what came back
// and the last lines of the program's standard error.
func (pr *process) failure(request, what string) error {
	name := pr.hello.name
	if name == "" {
		name = pr.cmd.Path
	}
	msg := fmt.Sprintf("program %s: to %q it %s", name, clip(request), what)
	if last := pr.stderr.lines(); last != "" {
		msg += "; its stderr ends: " + last
	}
	return errors.New(msg)
}

// kill ends the process and its children at once.
func (pr *process) kill() {
	killGroup(pr.cmd)
}

// end says bye and waits for the process to exit, killing it if it does
// not within two seconds (or the timeout, if shorter).
func (pr *process) end() {
	pr.in.WriteString("bye\n")
	pr.in.Flush()
	select {
	case <-pr.exited:
	case <-time.After(min(pr.timeout, 2*time.Second)):
	}
	pr.kill()
	<-pr.exited
}

// tail keeps the last bytes a program wrote on its standard error.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

const tailBytes = 2048

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > tailBytes {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailBytes:]...)
	}
	return len(b), nil
}

// lines is the last three lines of standard error, joined by " | ".
func (t *tail) lines() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	all := strings.Split(strings.TrimSpace(string(t.buf)), "\n")
	return clip(strings.Join(all[max(0, len(all)-3):], " | "))
}

// clip shortens s for an error message.
func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

// filter is one filter the program holds. Adds wait in a batch, already
// in hex, until one is full or another request needs the program.
type filter struct {
	p       *Program
	id      uint64
	proc    *process // the process that built it
	lines   []byte   // the pending adds' key lines
	pending int
}

func (f *filter) addRequest() string { return fmt.Sprintf("add %d %d", f.id, f.pending) }

// live panics with the error when the process that built f is gone: the
// check that uses it fails with the reason.
func (f *filter) live() {
	if f.p.down != nil {
		panic(*f.p.down)
	}
	if f.proc != f.p.proc {
		panic(audit.Broken{Err: fmt.Errorf("program %s: filter %d belongs to a process that was ended after a fault", f.p.hello.name, f.id)})
	}
}

func (f *filter) Add(key []byte) {
	f.live()
	f.lines = append(hex.AppendEncode(f.lines, key), '\n')
	f.pending++
	if f.pending == batch || len(f.lines) >= batchBytes {
		if err := f.flush(); err != nil {
			broken(err)
		}
	}
}

// flush sends the pending adds.
func (f *filter) flush() error {
	request := f.addRequest()
	f.pending = 0
	err := f.p.add(request, f.lines)
	f.lines = f.lines[:0]
	return err
}

func (f *filter) Test(key []byte) bool {
	var found [1]bool
	f.TestAll([][]byte{key}, found[:])
	return found[0]
}

// TestAll answers a batch of queries in one request.
func (f *filter) TestAll(keys [][]byte, found []bool) {
	f.live()
	f.answers("test", keys, found)
}

// answers sends op's request for keys and reads its line of 0 and 1.
func (f *filter) answers(op string, keys [][]byte, found []bool) {
	request := fmt.Sprintf("%s %d %d", op, f.id, len(keys))
	answer, err := f.p.call(request, f.p.keyLines(keys), len(keys))
	if err != nil {
		broken(err)
	}
	if len(answer) != len(keys) || strings.Trim(answer, "01") != "" {
		panic(audit.Broken{Err: f.p.fault(f.proc.unexpected(request, answer, fmt.Sprintf("%d characters of 0 and 1", len(keys))))})
	}
	for i := range keys {
		found[i] = answer[i] == '1'
	}
}

func (f *filter) remove(key []byte) bool {
	f.live()
	var done [1]bool
	f.answers("remove", [][]byte{key}, done[:])
	return done[0]
}

func (f *filter) positions(dst []uint64, key []byte) []uint64 {
	f.live()
	request := fmt.Sprintf("positions %d 1", f.id)
	answer, err := f.p.call(request, f.p.keyLines([][]byte{key}), positionsLimit)
	if err != nil {
		broken(err)
	}
	dst = dst[:0]
	for _, field := range strings.Fields(answer) {
		v, err := strconv.ParseUint(field, 10, 64)
		if err != nil {
			panic(audit.Broken{Err: f.p.fault(f.proc.unexpected(request, answer, "positions in decimal, separated by spaces"))})
		}
		dst = append(dst, v)
	}
	return dst
}

func (f *filter) size() uint64 {
	f.live()
	request := fmt.Sprintf("size %d", f.id)
	answer, err := f.p.call(request, nil, numberLimit)
	if err != nil {
		broken(err)
	}
	v, err := strconv.ParseUint(answer, 10, 64)
	if err != nil {
		panic(audit.Broken{Err: f.p.fault(f.proc.unexpected(request, answer, "a size in decimal"))})
	}
	return v
}
