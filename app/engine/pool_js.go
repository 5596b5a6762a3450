//go:build js

package engine

import (
	"fmt"
	"strings"
	"sync"
	"syscall/js"
	"time"

	"github.com/bloomlab/bloomlab/app/ui/format"
	"github.com/bloomlab/bloomlab/core/experiment"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// enginePool is the page's side of a set of workers: the workers, started
// the first time a page needs them and started again after a cancel, the
// jobs running on them, and why the page does the work itself if they
// cannot start.
type enginePool struct {
	size    func() int // workers to start
	mu      sync.Mutex
	started bool
	urls    engineURLs
	gen     int // counts the pool's starts; older workers' messages are stale
	workers []js.Value
	funcs   []js.Func
	ready   int
	failed  string
	changed chan struct{}          // closed when ready or failed changes
	jobs    map[int]chan engineMsg // the running jobs' messages, by job id
	lastJob int
	// open are the requests to the lab's worker it has not yet answered or
	// dropped, cancelled ones included, by job id: see settled.
	open map[int]bool
}

type engineURLs struct{ script, exec, wasm string }

// engineMsg is a worker's message: which worker of which start sent it.
type engineMsg struct {
	gen, worker int
	data        js.Value
}

// engines are the workers of the experiments and the audit, one per core;
// labWorker is the lab's one interactive worker (see wire.go). Literals,
// so that nothing runs for them at the program's start.
var (
	engines = &enginePool{
		size:    func() int { return engineCount(js.Global().Get("navigator").Get("hardwareConcurrency").Int()) },
		changed: make(chan struct{}), jobs: map[int]chan engineMsg{}, open: map[int]bool{},
	}
	labWorker = &enginePool{
		size:    func() int { return 1 },
		changed: make(chan struct{}), jobs: map[int]chan engineMsg{}, open: map[int]bool{},
	}
)

// StartWorkers starts the experiments' and the audit's workers unless
// they run already.
func StartWorkers() { engines.start() }

// startLabWorker starts the lab's interactive worker unless it runs already.
func startLabWorker() { labWorker.start() }

// start starts p's workers unless they run already.
func (p *enginePool) start() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.started {
		return
	}
	p.started = true
	exec := js.Global().Get("document").Call("querySelector", `script[src*="wasm_exec.js"]`)
	if !exec.Truthy() {
		p.fail("the page has no wasm_exec.js to give them")
		return
	}
	static := strings.TrimRight(app.Getenv("GOAPP_STATIC_RESOURCES_URL"), "/")
	p.urls = engineURLs{static + "/engine.js", exec.Get("src").String(), static + "/app.wasm"}
	p.spawn()
}

// fail records why the page does the work itself. The caller holds mu.
func (p *enginePool) fail(why string) {
	p.failed = why
	p.stop()
	p.wake()
}

func (p *enginePool) wake() {
	close(p.changed)
	p.changed = make(chan struct{})
}

// spawn starts p's workers. The caller holds mu.
func (p *enginePool) spawn() {
	worker := js.Global().Get("Worker")
	if !worker.Truthy() {
		p.fail("this browser has no Web Workers")
		return
	}
	p.gen++
	p.ready = 0
	gen := p.gen
	n := p.size()
	defer func() {
		if r := recover(); r != nil {
			p.fail(fmt.Sprint("the browser refused a worker: ", r))
		}
	}()
	for i := range n {
		w := worker.New(p.urls.script)
		on := js.FuncOf(func(_ js.Value, args []js.Value) any {
			p.deliver(engineMsg{gen, i, args[0].Get("data")})
			return nil
		})
		onError := js.FuncOf(func(_ js.Value, args []js.Value) any {
			args[0].Call("preventDefault")
			p.deliver(engineMsg{gen, i, message("failed", "a worker failed: "+args[0].Get("message").String())})
			return nil
		})
		w.Set("onmessage", on)
		w.Set("onerror", onError)
		p.workers = append(p.workers, w)
		p.funcs = append(p.funcs, on, onError)
		boot := map[string]any{"type": "boot", "exec": p.urls.exec, "wasm": p.urls.wasm}
		// The page's compiled module, which the lab's app.js keeps:
		// the worker starts from it rather than fetching and
		// compiling app.wasm again.
		if m := js.Global().Get("bloomlabWasmModule"); m.Truthy() {
			boot["module"] = m
		}
		post(w, boot)
		post(w, map[string]any{"type": "hold", "on": hold.Load()})
	}
	time.AfterFunc(time.Minute, func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.gen == gen && p.ready < len(p.workers) && p.failed == "" {
			p.fail("its workers did not start within a minute")
		}
	})
}

// message makes a message as a worker would post it, without a job id.
func message(kind, err string) js.Value {
	m := js.Global().Get("Object").New()
	m.Set("type", kind)
	m.Set("error", err)
	return m
}

// stop ends every worker. The caller holds mu.
func (p *enginePool) stop() {
	for _, w := range p.workers {
		w.Call("terminate")
	}
	for _, f := range p.funcs {
		f.Release()
	}
	p.workers, p.funcs, p.ready = nil, nil, 0
	clear(p.open)
}

// deliver takes a worker's message on the browser's event loop: news of
// its start here, a job's messages to the job, a crash to every job.
func (p *enginePool) deliver(m engineMsg) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if m.gen != p.gen {
		return
	}
	kind := m.data.Get("type").String()
	booting := p.ready < len(p.workers)
	switch id := m.data.Get("id"); {
	case kind == "ready":
		if p.ready++; p.ready == len(p.workers) {
			p.wake()
		}
	case kind == "failed" && booting:
		p.fail(m.data.Get("error").String())
	case id.IsUndefined():
		for _, ch := range p.jobs {
			send(ch, m)
		}
	default:
		if kind == "answer" || kind == "failed" {
			delete(p.open, id.Int())
		}
		if ch := p.jobs[id.Int()]; ch != nil {
			send(ch, m)
		}
	}
}

// send hands m to a job without blocking the browser's event loop.
func send(ch chan engineMsg, m engineMsg) {
	select {
	case ch <- m:
	default:
		go func() { ch <- m }()
	}
}

// engineJob is one job on the workers: a run, or a share of an audit.
type engineJob struct {
	id, gen int
	workers []js.Value
	msgs    chan engineMsg
}

// begin waits until the workers have started and opens a job on them. It
// returns errNoEngines if they cannot start, and stops waiting with
// experiment.ErrCancelled once live says the job is no longer wanted.
func (p *enginePool) begin(live func() bool) (engineJob, error) {
	for {
		p.mu.Lock()
		started, failed, ready, changed := p.started, p.failed, p.ready == len(p.workers) && len(p.workers) > 0, p.changed
		if started && failed == "" && ready {
			p.lastJob++
			j := engineJob{id: p.lastJob, gen: p.gen, workers: p.workers, msgs: make(chan engineMsg, 64)}
			p.jobs[j.id] = j.msgs
			p.mu.Unlock()
			return j, nil
		}
		p.mu.Unlock()
		if !started || failed != "" {
			return engineJob{}, errNoEngines
		}
		select {
		case <-changed:
		case <-time.After(50 * time.Millisecond):
			if !live() {
				return engineJob{}, experiment.ErrCancelled
			}
		}
	}
}

// post sends worker i the job's message m.
func (j engineJob) post(i int, m map[string]any) {
	m["id"] = j.id
	post(j.workers[i], m)
}

// end closes the job.
func (p *enginePool) end(j engineJob) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.jobs, j.id)
}

// restart ends the job's workers and starts fresh ones: a cancelled or
// failed run leaves them busy or waiting on one another. The other jobs on
// them hear that they were lost.
func (p *enginePool) restart(j engineJob) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.jobs, j.id)
	if p.gen != j.gen {
		return
	}
	p.stop()
	for id, ch := range p.jobs {
		send(ch, engineMsg{j.gen, -1, message("lost", "")})
		delete(p.jobs, id)
	}
	p.spawn()
}

// Hold turns the hold (see runs.go) on or off, on the page at once
// and in every worker soon after: a JavaScript callback must not wait on
// the pools' locks.
func Hold(on bool) {
	hold.Store(on)
	go func() {
		for _, p := range []*enginePool{engines, labWorker} {
			p.mu.Lock()
			for _, w := range p.workers {
				post(w, map[string]any{"type": "hold", "on": on})
			}
			p.mu.Unlock()
		}
	}()
}

// Settled reports whether the lab's worker has answered or dropped every
// request the page sent it, those a newer move cancelled included: once it
// has, no run of the past can come back.
func Settled() bool {
	labWorker.mu.Lock()
	defer labWorker.mu.Unlock()
	return len(labWorker.open) == 0
}

// Changed returns a channel that is closed when the workers are all ready,
// or have failed.
func Changed() <-chan struct{} {
	engines.mu.Lock()
	defer engines.mu.Unlock()
	return engines.changed
}

// RunsWhere says where the lab's large runs go: to its worker, or, if it
// cannot start, to the page's thread, and why.
func RunsWhere() string {
	p := labWorker
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.failed != "" {
		return "on this page's thread (" + p.failed + ")"
	}
	if n := building.Load(); n > 0 {
		return fmt.Sprintf("on %d workers, the filter built in %d parts and merged in the lab's worker", n, n)
	}
	return "in the lab's worker"
}

// Status says where the heavy work runs, for the page: on the workers,
// still starting them, or on the page's one thread and why; "" before the
// workers are asked for.
func Status() string {
	p := engines
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.failed != "":
		return "Runs on this page's one thread: " + p.failed + "."
	case !p.started:
		return ""
	case p.ready < len(p.workers):
		return fmt.Sprintf("Starting %s…", format.Plural(len(p.workers), "worker"))
	}
	return fmt.Sprintf("Runs on %s, one per core this browser reports.", format.Plural(len(p.workers), "worker"))
}
