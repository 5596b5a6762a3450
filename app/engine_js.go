//go:build js

package app

import (
	"errors"
	"fmt"
	"strconv"
	"sync"
	"syscall/js"
	"time"

	"bloomlab/core/experiment"
)

// IsEngineWorker reports whether this wasm was started by web/engine.js as
// one of the page's workers rather than as the page.
func IsEngineWorker() bool {
	g := js.Global()
	return g.Get("document").IsUndefined() && g.Get("bloomlabEngine").Truthy()
}

// ServeEngine answers the page's run requests until the page ends the
// worker: each request runs one copy of a sharded experiment.
func ServeEngine() {
	w := &engineWorker{waiting: map[int]chan []string{}}
	self := js.Global()
	self.Set("onmessage", js.FuncOf(func(_ js.Value, args []js.Value) any {
		w.receive(args[0].Get("data"))
		return nil
	}))
	pending := self.Get("pending")
	for i := 0; i < pending.Length(); i++ {
		w.receive(pending.Index(i))
	}
	post(js.Global(), map[string]any{"type": "ready"})
	select {}
}

// engineWorker is a worker's side: the exchanges its run waits on.
type engineWorker struct {
	mu      sync.Mutex
	waiting map[int]chan []string // by exchange
}

func (w *engineWorker) receive(msg js.Value) {
	switch msg.Get("type").String() {
	case "run":
		seed, err := strconv.ParseUint(msg.Get("seed").String(), 10, 64)
		s := experiment.Sizes{Items: msg.Get("items").Int(), Queries: msg.Get("queries").Int(), Replicates: msg.Get("replicates").Int(), Seed: seed}
		go w.run(msg.Get("id").Int(), msg.Get("name").String(), s, err, msg.Get("index").Int(), msg.Get("count").Int())
	case "shares":
		all := msg.Get("all")
		got := make([]string, all.Length())
		for i := range got {
			got[i] = all.Index(i).String()
		}
		w.mu.Lock()
		ch := w.waiting[msg.Get("call").Int()]
		w.mu.Unlock()
		if ch != nil {
			ch <- got
		}
	}
}

// run runs copy index of count of the experiment and posts its progress,
// its results at each exchange, and its table or error.
func (w *engineWorker) run(id int, name string, s experiment.Sizes, bad error, index, count int) {
	self := js.Global()
	say := func(m map[string]any) {
		m["id"], m["index"] = id, index
		post(self, m)
	}
	t, err := w.measure(name, s, bad, &experiment.Shard{Index: index, Count: count,
		Exchange: func(call int, mine []byte) ([][]byte, error) {
			ch := make(chan []string, 1)
			w.mu.Lock()
			w.waiting[call] = ch
			w.mu.Unlock()
			say(map[string]any{"type": "share", "call": call, "data": string(mine)})
			all := <-ch
			w.mu.Lock()
			delete(w.waiting, call)
			w.mu.Unlock()
			out := make([][]byte, len(all))
			for i, s := range all {
				out[i] = []byte(s)
			}
			return out, nil
		}}, func(done, total int) {
		say(map[string]any{"type": "progress", "done": done, "total": total})
	})
	if err == nil {
		var table string
		if table, err = encodeTable(t); err == nil {
			say(map[string]any{"type": "done", "table": table})
			return
		}
	}
	say(map[string]any{"type": "failed", "error": err.Error()})
}

// engineReportEvery spaces a worker's progress messages.
const engineReportEvery = 100 * time.Millisecond

func (w *engineWorker) measure(name string, s experiment.Sizes, bad error, shard *experiment.Shard, report func(done, total int)) (experiment.Table, error) {
	e, ok := experiment.Find(name)
	if !ok {
		return experiment.Table{}, errors.New("app: unknown experiment " + strconv.Quote(name))
	}
	if bad != nil {
		return experiment.Table{}, fmt.Errorf("app: the seed: %w", bad)
	}
	var last time.Time
	return e.Run(s, experiment.Options{Shard: shard, Progress: func(done, total int) error {
		if time.Since(last) >= engineReportEvery || done == total {
			report(done, total)
			last = time.Now()
		}
		return nil
	}})
}

func post(to js.Value, m map[string]any) { to.Call("postMessage", js.ValueOf(m)) }

// enginePool is the page's side: its workers, started once the
// experiments page opens, started again after a cancel, and why the page
// runs experiments itself if they cannot start.
type enginePool struct {
	mu      sync.Mutex
	urls    engineURLs
	started bool
	gen     int // counts the pool's starts; older workers' messages are stale
	workers []js.Value
	funcs   []js.Func
	ready   int
	failed  string
	changed chan struct{} // closed when ready or failed changes
	current chan engineMsg
	runs    int
}

type engineURLs struct{ script, exec, wasm string }

type engineMsg struct {
	gen, worker int
	data        js.Value
}

var engines = &enginePool{changed: make(chan struct{})}

// startEngines starts the page's workers unless they run already.
func startEngines(resolve func(string) string) {
	engines.mu.Lock()
	defer engines.mu.Unlock()
	if engines.started {
		return
	}
	engines.started = true
	exec := js.Global().Get("document").Call("querySelector", `script[src*="wasm_exec.js"]`)
	if !exec.Truthy() {
		engines.fail("the page has no wasm_exec.js to give them")
		return
	}
	engines.urls = engineURLs{resolve("/web/engine.js"), exec.Get("src").String(), resolve("/web/app.wasm")}
	engines.spawn()
}

// fail records why the page runs experiments itself. The caller holds mu.
func (p *enginePool) fail(why string) {
	p.failed = why
	p.stop()
	p.wake()
}

func (p *enginePool) wake() {
	close(p.changed)
	p.changed = make(chan struct{})
}

// spawn starts a worker per core the browser reports. The caller holds mu.
func (p *enginePool) spawn() {
	worker := js.Global().Get("Worker")
	if !worker.Truthy() {
		p.fail("this browser has no Web Workers")
		return
	}
	p.gen++
	p.ready = 0
	gen := p.gen
	n := engineCount(js.Global().Get("navigator").Get("hardwareConcurrency").Int())
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
			msg := js.Global().Get("Object").New()
			msg.Set("type", "failed")
			msg.Set("error", "a worker failed: "+args[0].Get("message").String())
			args[0].Call("preventDefault")
			p.deliver(engineMsg{gen, i, msg})
			return nil
		})
		w.Set("onmessage", on)
		w.Set("onerror", onError)
		p.workers = append(p.workers, w)
		p.funcs = append(p.funcs, on, onError)
		post(w, map[string]any{"type": "boot", "exec": p.urls.exec, "wasm": p.urls.wasm})
	}
	time.AfterFunc(time.Minute, func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.gen == gen && p.ready < len(p.workers) && p.failed == "" {
			p.fail("its workers did not start within a minute")
		}
	})
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
}

// deliver takes a worker's message on the browser's event loop: boot news
// here, a run's messages to the run.
func (p *enginePool) deliver(m engineMsg) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if m.gen != p.gen {
		return
	}
	switch kind := m.data.Get("type").String(); {
	case kind == "ready":
		if p.ready++; p.ready == len(p.workers) {
			p.wake()
		}
	case p.current != nil:
		select {
		case p.current <- m:
		default:
			go func(ch chan engineMsg) { ch <- m }(p.current)
		}
	case kind == "failed" && p.ready < len(p.workers):
		p.fail(m.data.Get("error").String())
	}
}

// engineChanged is closed when the workers are all ready, or have failed.
func engineChanged() <-chan struct{} {
	engines.mu.Lock()
	defer engines.mu.Unlock()
	return engines.changed
}

// engineStatus says where experiments run, for the page.
func engineStatus() string {
	p := engines
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.failed != "":
		return "Runs on this page's one thread: " + p.failed + "."
	case !p.started:
		return ""
	case p.ready < len(p.workers):
		return fmt.Sprintf("Starting %s…", plural(len(p.workers), "worker"))
	}
	return fmt.Sprintf("Runs on %s, one per core this browser reports.", plural(len(p.workers), "worker"))
}

// runOnEngines runs sel shared by the workers, reporting the work they
// have done between them. It returns errNoEngines if there are none.
func runOnEngines(sel ExpSelection, live func() bool, report func(done, total int)) (experiment.Table, error) {
	p := engines
	for {
		p.mu.Lock()
		started, failed, ready, changed := p.started, p.failed, p.ready == len(p.workers), p.changed
		p.mu.Unlock()
		if !started || failed != "" {
			return experiment.Table{}, errNoEngines
		}
		if ready {
			break
		}
		select {
		case <-changed:
		case <-time.After(25 * time.Millisecond):
			if !live() {
				return experiment.Table{}, experiment.ErrCancelled
			}
		}
	}
	msgs := make(chan engineMsg, 64)
	s := sel.Sizes
	p.mu.Lock()
	p.current = msgs
	p.runs++
	id, gen, workers := p.runs, p.gen, p.workers
	for i, w := range workers {
		post(w, map[string]any{"type": "run", "id": id, "name": sel.Name, "index": i, "count": len(workers),
			"items": s.Items, "queries": s.Queries, "replicates": s.Replicates, "seed": strconv.FormatUint(s.Seed, 10)})
	}
	p.mu.Unlock()
	// restart ends the run's workers and starts fresh ones: a cancelled
	// or failed run leaves them busy or waiting on one another.
	restart := func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.current = nil
		if p.gen == gen {
			p.stop()
			p.spawn()
		}
	}
	defer func() {
		p.mu.Lock()
		if p.current == msgs {
			p.current = nil
		}
		p.mu.Unlock()
	}()
	rl := newRelay(len(workers))
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		var m engineMsg
		select {
		case m = <-msgs:
		case <-tick.C:
			if !live() {
				restart()
				return experiment.Table{}, experiment.ErrCancelled
			}
			continue
		}
		d := m.data
		if d.Get("id").Int() != id && d.Get("type").String() != "failed" {
			continue
		}
		i := m.worker
		var err error
		switch d.Get("type").String() {
		case "progress":
			var done int
			if done, err = rl.progress(i, d.Get("done").Int(), d.Get("total").Int()); err == nil {
				report(done, rl.total)
			}
		case "share":
			var all []string
			if all, err = rl.share(d.Get("call").Int(), i, d.Get("data").String()); all != nil {
				list := make([]any, len(all))
				for j, s := range all {
					list[j] = s
				}
				for _, w := range workers {
					post(w, map[string]any{"type": "shares", "id": id, "call": d.Get("call").Int(), "all": list})
				}
			}
		case "done":
			t, all, err := rl.finished(i, d.Get("table").String())
			if err != nil {
				restart()
				return experiment.Table{}, err
			}
			if all {
				return t, nil
			}
		case "failed":
			err = errors.New(d.Get("error").String())
		}
		if err != nil {
			restart()
			return experiment.Table{}, err
		}
	}
}
