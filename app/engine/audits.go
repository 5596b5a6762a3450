package engine

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/bloomlab/bloomlab/audit"
	"github.com/bloomlab/bloomlab/core"
)

// AuditRun is one audit in the browser: its progress, the outcomes so far
// and, once finished, the report.
type AuditRun struct {
	Fault   core.Fault
	Done    int
	Total   int
	Checks  []audit.Outcome
	Report  *audit.Report
	Err     string
	Running bool
}

// Finished reports whether the run has its report.
func (r AuditRun) Finished() bool { return r.Report != nil }

// AuditBook keeps one run per fault for the whole session, so the lab's
// badge, the audit page and the JavaScript face share the work: a run
// starts once and every page that shows it listens. The checks run on the
// page's workers (see runAudit). It is safe for concurrent use.
type AuditBook struct {
	mu        sync.Mutex
	runs      map[core.Fault]*AuditRun
	waiters   map[core.Fault][]chan AuditRun
	listeners map[int]func()
	next      int
	// lastNews is when the listeners last heard of a check; held is set
	// while news of later checks waits for its turn (see progressed).
	lastNews time.Time
	held     bool
	// now and after are the book's clock, time.Now and time.AfterFunc
	// when nil; a test gives its own, to space the news by construction.
	now   func() time.Time
	after func(time.Duration, func())
}

// newsEvery spaces the listeners' calls while a run's checks come in: each
// call re-renders the page that listens (the whole lab, for its badge),
// and the workers hand in dozens of outcomes a second. A run's start and
// end are told at once.
const newsEvery = 250 * time.Millisecond

// audits is the session's book: one entry a fault of the zoo at most.
var audits = &AuditBook{
	runs:      map[core.Fault]*AuditRun{},
	waiters:   map[core.Fault][]chan AuditRun{},
	listeners: map[int]func(){},
}

// Audits is the session's audit book, which every page shares.
func Audits() *AuditBook { return audits }

// Get returns a copy of fault f's run, zero if it never started.
func (b *AuditBook) Get(f core.Fault) AuditRun {
	b.mu.Lock()
	defer b.mu.Unlock()
	if r, ok := b.runs[f]; ok {
		c := *r
		c.Checks = append([]audit.Outcome(nil), r.Checks...)
		return c
	}
	return AuditRun{Fault: f}
}

// Listen registers fn to be called (from the run's goroutine) after every
// check of every run; the returned func unregisters it.
func (b *AuditBook) Listen(fn func()) func() {
	b.mu.Lock()
	defer b.mu.Unlock()
	id := b.next
	b.next++
	b.listeners[id] = fn
	return func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		delete(b.listeners, id)
	}
}

func (b *AuditBook) notify() {
	b.mu.Lock()
	fns := make([]func(), 0, len(b.listeners))
	for _, fn := range b.listeners {
		fns = append(fns, fn)
	}
	b.mu.Unlock()
	for _, fn := range fns {
		fn()
	}
}

// progressed tells the listeners of a new check: at once if they last
// heard newsEvery ago, otherwise once that much time has passed, for every
// check that came meanwhile.
func (b *AuditBook) progressed() {
	b.mu.Lock()
	if b.held {
		b.mu.Unlock()
		return
	}
	wait := newsEvery - b.clock().Sub(b.lastNews)
	if wait <= 0 {
		b.lastNews = b.clock()
		b.mu.Unlock()
		b.notify()
		return
	}
	b.held = true
	after := b.after
	b.mu.Unlock()
	if after == nil {
		after = func(d time.Duration, f func()) { time.AfterFunc(d, f) }
	}
	after(wait, func() {
		b.mu.Lock()
		b.held, b.lastNews = false, b.clock()
		b.mu.Unlock()
		b.notify()
	})
}

// clock is the book's time now.
func (b *AuditBook) clock() time.Time {
	if b.now == nil {
		return time.Now()
	}
	return b.now()
}

// Start begins fault f's audit unless it has begun already, on a goroutine
// of its own.
func (b *AuditBook) Start(f core.Fault) {
	b.mu.Lock()
	if _, ok := b.runs[f]; ok {
		b.mu.Unlock()
		return
	}
	b.runs[f] = &AuditRun{Fault: f, Running: true, Total: len(audit.Checks())}
	b.mu.Unlock()
	b.notify()

	go func() {
		report, err := runAudit(f, func(o audit.Outcome, done, total int) {
			b.mu.Lock()
			r := b.runs[f]
			r.Done, r.Total = done, total
			r.Checks = append(r.Checks, o)
			b.mu.Unlock()
			b.progressed()
		})
		b.finish(f, report, err)
	}()
}

// StartWhenIdle begins fault f's audit, unless it has begun, once the
// page has a moment with nothing to do, if live still says it is wanted
// then: the lab asks for its badge's audit as it starts, and the audit's
// workers and their outcomes would otherwise share the cores and the
// page's thread with the lab's first run, its charts' measurements and
// their renders.
func (b *AuditBook) StartWhenIdle(f core.Fault, live func() bool) {
	go func() {
		waitIdle()
		if live() {
			b.Start(f)
		}
	}()
}

// runAudit audits the lab's filter with fault f on the page's workers, or
// where there are none (or they fail to start) on the page's own thread.
func runAudit(f core.Fault, each func(o audit.Outcome, done, total int)) (audit.Report, error) {
	target, err := audit.Lab(core.Variant{}, f, "")
	if err != nil {
		return audit.Report{}, err
	}
	tally := newAuditTally(each)
	if err := auditOnEngines(target, f, tally); err != nil && !errors.Is(err, errNoEngines) {
		return audit.Report{}, err
	}
	return tally.here(target)
}

// auditTally gathers an audit's outcomes as they come, in any order, and
// hands them on in the order of the checks.
type auditTally struct {
	outcomes []audit.Outcome
	have     []bool
	next     int // outcomes handed on
	each     func(o audit.Outcome, done, total int)
}

func newAuditTally(each func(o audit.Outcome, done, total int)) *auditTally {
	n := len(audit.Checks())
	return &auditTally{outcomes: make([]audit.Outcome, n), have: make([]bool, n), each: each}
}

// take records check i's outcome and hands on those now in order.
func (a *auditTally) take(i int, o audit.Outcome) error {
	if i < 0 || i >= len(a.have) || a.have[i] {
		return fmt.Errorf("engine: an outcome for check %d, of %d, came twice or from nowhere", i, len(a.have))
	}
	a.outcomes[i], a.have[i] = o, true
	for ; a.next < len(a.have) && a.have[a.next]; a.next++ {
		a.each(a.outcomes[a.next], a.next+1, len(a.have))
	}
	return nil
}

func (a *auditTally) complete() bool { return a.next == len(a.have) }

// missing lists the checks without an outcome.
func (a *auditTally) missing() []int {
	var out []int
	for i, h := range a.have {
		if !h {
			out = append(out, i)
		}
	}
	return out
}

// here runs the missing checks on the page's thread and returns the
// report. It sleeps between checks, so the page repaints; not inside a
// long one, where a sleep would starve a run the reader starts on the lab
// meanwhile (its click would wait for the audit's end, as
// TestBrowserOwnKeysLargePaste shows).
func (a *auditTally) here(t audit.Target) (audit.Report, error) {
	if a.complete() {
		return audit.Assemble(t, a.outcomes)
	}
	step := Yielding(Always, 5*time.Millisecond, func(int, int) {})
	err := audit.RunChecks(t, a.missing(), func(i int, o audit.Outcome) error {
		if err := a.take(i, o); err != nil {
			return err
		}
		return step(a.next, len(a.have))
	})
	if err != nil {
		return audit.Report{}, err
	}
	return audit.Assemble(t, a.outcomes)
}

// finish records fault f's report, or the error that stopped it, and
// wakes whoever waits for it.
func (b *AuditBook) finish(f core.Fault, report audit.Report, err error) {
	b.mu.Lock()
	r := b.runs[f]
	r.Running = false
	if err != nil {
		r.Err = core.Message(err)
	} else {
		r.Report = &report
	}
	done := *r
	waiters := b.waiters[f]
	delete(b.waiters, f)
	b.mu.Unlock()
	for _, w := range waiters {
		w <- done
	}
	b.notify()
}

// Wait starts fault f's audit if need be and blocks until it finishes.
func (b *AuditBook) Wait(f core.Fault) AuditRun {
	b.Start(f)
	b.mu.Lock()
	r := b.runs[f]
	if !r.Running {
		done := *r
		b.mu.Unlock()
		return done
	}
	ch := make(chan AuditRun, 1)
	b.waiters[f] = append(b.waiters[f], ch)
	b.mu.Unlock()
	return <-ch
}
