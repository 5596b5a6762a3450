//go:build js

package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"syscall/js"
	"time"

	"github.com/bloomlab/bloomlab/audit"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/experiment"
	"github.com/bloomlab/bloomlab/core/plan"
	"github.com/bloomlab/bloomlab/core/sim"
	"github.com/bloomlab/bloomlab/core/try"
)

// IsWorker reports whether this wasm was started by web/engine.js as
// one of the page's workers rather than as the page.
func IsWorker() bool {
	g := js.Global()
	return g.Get("document").IsUndefined() && g.Get("bloomlabEngine").Truthy()
}

// Serve answers the page's jobs until the page ends the worker.
func Serve() {
	w := &engineWorker{waiting: map[int]chan []string{}, live: map[int]bool{}}
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

// engineWorker is a worker's side: the exchanges its run waits on, and
// the lab's requests not yet cancelled. A worker runs the jobs the page
// sends (a copy of a sharded experiment, a share of an audit's checks, and,
// the lab's worker, a lab run or a key panel answer) on goroutines of its
// own.
type engineWorker struct {
	mu      sync.Mutex
	waiting map[int]chan []string // by exchange
	live    map[int]bool          // by request
	// own are the user's lists the lab's worker read last, named by their
	// request's id, ownID.
	own   *OwnKeys
	ownID int
	// running counts the experiment copies at work here: an audit lets
	// them go first (see yieldToRuns).
	running int
}

func (w *engineWorker) receive(msg js.Value) {
	switch msg.Get("type").String() {
	case "run":
		id := msg.Get("id").Int()
		seed, err := strconv.ParseUint(msg.Get("seed").String(), 10, 64)
		if err != nil {
			post(js.Global(), map[string]any{"type": "failed", "id": id, "error": "engine: the seed: " + err.Error()})
			return
		}
		s := experiment.Sizes{Items: msg.Get("items").Int(), Queries: msg.Get("queries").Int(), Replicates: msg.Get("replicates").Int(), Seed: seed}
		// Counted as it arrives, so that an audit's pause reading the
		// same messages lets it go first (see yieldToRuns).
		w.mu.Lock()
		w.running++
		w.mu.Unlock()
		go w.run(id, msg.Get("name").String(), s, msg.Get("index").Int(), msg.Get("count").Int())
	case "audit":
		go w.audit(msg.Get("id").Int(), msg.Get("fault").String(), ints(msg.Get("checks")))
	case "part":
		go w.part(msg.Get("id").Int(), msg.Get("request").String(), msg.Get("index").Int(), msg.Get("count").Int())
	case "simulate", "panel", "keys", "alternatives", "tables":
		id := msg.Get("id").Int()
		w.mu.Lock()
		w.live[id] = true
		w.mu.Unlock()
		go w.answerLab(id, msg)
	case "hold":
		hold.Store(msg.Get("on").Bool())
	case "cancel":
		w.mu.Lock()
		delete(w.live, msg.Get("id").Int())
		w.mu.Unlock()
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
// its results at each exchange, and its table or error; receive counted it
// in running.
func (w *engineWorker) run(id int, name string, s experiment.Sizes, index, count int) {
	defer func() {
		w.mu.Lock()
		w.running--
		w.mu.Unlock()
	}()
	self := js.Global()
	say := func(m map[string]any) {
		m["id"], m["index"] = id, index
		post(self, m)
	}
	t, err := w.measure(name, s, &experiment.Shard{Index: index, Count: count,
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

// part builds part index of count of the lab's run request (sim.BuildPart)
// and posts it as a file (core.Save), its buffer transferred to the page,
// with its progress on the way: done of its own inserts, and as total the
// whole run's operations, so that the page can add the parts' up.
func (w *engineWorker) part(id int, request string, index, count int) {
	self := js.Global()
	err := func() error {
		var req workerRun
		if err := json.Unmarshal([]byte(request), &req); err != nil {
			return fmt.Errorf("engine: the lab's run: %w", err)
		}
		total := WorkOf(req.Params) + len(req.Typed)
		step := Yielding(Always, labYieldEvery, throttled(func(done, _ int) {
			post(self, map[string]any{"type": "progress", "id": id, "index": index, "done": done, "total": total})
		}))
		f, err := sim.BuildPart(req.Params, req.Typed, index, count, step)
		if err != nil {
			return err
		}
		var file bytes.Buffer
		if err := core.Save(&file, f); err != nil {
			return err
		}
		buf := js.Global().Get("Uint8Array").New(file.Len())
		js.CopyBytesToJS(buf, file.Bytes())
		self.Call("postMessage", js.ValueOf(map[string]any{"type": "part", "id": id, "index": index, "file": buf}), []any{buf.Get("buffer")})
		return nil
	}()
	if err != nil {
		post(self, map[string]any{"type": "failed", "id": id, "error": err.Error()})
	}
}

// engineReportEvery spaces a worker's progress messages.
const engineReportEvery = 100 * time.Millisecond

// throttled passes report on at most once every engineReportEvery, and
// always at the end of the work and while runs are held, so that the page
// shows where a held run stopped.
func throttled(report func(done, total int)) func(done, total int) {
	var last time.Time
	return func(done, total int) {
		if time.Since(last) >= engineReportEvery || done == total || hold.Load() {
			report(done, total)
			last = time.Now()
		}
	}
}

func (w *engineWorker) measure(name string, s experiment.Sizes, shard *experiment.Shard, report func(done, total int)) (experiment.Table, error) {
	e, err := findExperiment(name)
	if err != nil {
		return experiment.Table{}, err
	}
	report = throttled(report)
	return e.Run(s, experiment.Options{Shard: shard, Progress: func(done, total int) error {
		report(done, total)
		waitWhileHeld(done, total, Always)
		return nil
	}})
}

// audit runs the checks numbered which of the lab's audit for fault and
// posts their outcomes, a few at a time: every message costs the page's
// thread a task (at 4x slowed CPU, with 200 checks one a check kept it
// busy for seconds after the lab was whole), and the page shows the news
// no oftener than newsEvery anyway. The outcomes held are posted after
// outcomesEvery, before the worker pauses for a run or a hold, and at the
// end.
func (w *engineWorker) audit(id int, fault string, which []int) {
	self := js.Global()
	var checks []any
	var outcomes []audit.Outcome
	var since time.Time
	flush := func() error {
		if len(checks) == 0 {
			return nil
		}
		b, err := json.Marshal(outcomes)
		if err != nil {
			return err
		}
		post(self, map[string]any{"type": "outcomes", "id": id, "checks": checks, "outcomes": string(b)})
		checks, outcomes = nil, nil
		return nil
	}
	err := func() error {
		f, err := core.ParseFault(fault)
		if err != nil {
			return err
		}
		target, err := audit.Lab(core.Variant{}, f, "")
		if err != nil {
			return err
		}
		err = audit.RunChecks(target, which, func(i int, o audit.Outcome) error {
			if len(checks) == 0 {
				since = time.Now()
			}
			checks, outcomes = append(checks, i), append(outcomes, o)
			if time.Since(since) >= outcomesEvery || w.paused() {
				if err := flush(); err != nil {
					return err
				}
			}
			w.yieldToRuns()
			return nil
		})
		if err != nil {
			return err
		}
		return flush()
	}()
	if err != nil {
		post(self, map[string]any{"type": "failed", "id": id, "error": err.Error()})
	}
}

// outcomesEvery is how long an audit's worker holds its outcomes at most
// before it posts them.
const outcomesEvery = 100 * time.Millisecond

// labYieldEvery spaces the pauses of the lab's requests, in which the
// worker reads its messages: a cancel waits at most this long. A pause
// costs the 4 ms a browser makes a repeated timer wait, so a shorter
// spacing slows every run.
const labYieldEvery = 50 * time.Millisecond

// answerLab answers one of the lab's requests: a run ("simulate"), whose
// filter's words go back as a transferred buffer, a key panel answer
// ("panel"), the user's lists read and kept ("keys"), or a calculator
// plan's alternatives ("alternatives") or tables ("tables"). It pauses for
// messages as it works and gives up once the page cancels it.
func (w *engineWorker) answerLab(id int, msg js.Value) {
	self := js.Global()
	live := func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		return w.live[id]
	}
	defer func() {
		w.mu.Lock()
		delete(w.live, id)
		w.mu.Unlock()
	}()
	step := Yielding(live, labYieldEvery, throttled(func(done, total int) {
		post(self, map[string]any{"type": "progress", "id": id, "done": done, "total": total})
	}))
	answer, words, err := w.labAnswer(id, msg, step)
	if err != nil {
		post(self, map[string]any{"type": "failed", "id": id, "error": err.Error()})
		return
	}
	m := map[string]any{"type": "answer", "id": id, "answer": answer}
	var transfer []any
	if words != nil {
		buf := js.Global().Get("Uint8Array").New(len(words) * 8)
		js.CopyBytesToJS(buf, wordBytes(words))
		m["words"] = buf
		transfer = append(transfer, buf.Get("buffer"))
	}
	self.Call("postMessage", js.ValueOf(m), transfer)
}

// labAnswer works out the lab's request id: the answer in JSON, and a run's
// storage words.
func (w *engineWorker) labAnswer(id int, msg js.Value, step sim.Step) (string, []uint64, error) {
	request := msg.Get("request").String()
	switch msg.Get("type").String() {
	case "simulate":
		var req workerRun
		if err := json.Unmarshal([]byte(request), &req); err != nil {
			return "", nil, fmt.Errorf("engine: the lab's run: %w", err)
		}
		if parts := msg.Get("parts"); !parts.IsUndefined() {
			return mergeParts(req, parts, step)
		}
		if req.Own == 0 {
			r, err := sim.RunTyped(req.Params, req.Typed, step)
			if err != nil {
				return "", nil, err
			}
			return encodeRun(sim.KeysResult{Result: r})
		}
		if w.own == nil || w.ownID != req.Own {
			return "", nil, errKeysLost
		}
		r, err := sim.RunKeyLists(req.Params, w.own.Members, w.own.Absent, step)
		if err != nil {
			return "", nil, err
		}
		return encodeRun(r)
	case "keys":
		var text [2][]byte
		for i, name := range []string{"members", "absent"} {
			arr := msg.Get(name)
			text[i] = make([]byte, arr.Length())
			js.CopyBytesToGo(text[i], arr)
		}
		own, err := ParseOwnKeys(text[ListMembers], text[ListAbsent], msg.Get("fromBox").Truthy(), KeyLimits, step)
		if err != nil {
			return "", nil, err
		}
		w.own, w.ownID = own, id
		b, err := json.Marshal(workerKeys{Facts: own.Facts, AbsentMembers: own.AbsentMembers})
		return string(b), nil, err
	case "alternatives":
		s, err := decodeShape(request)
		if err != nil {
			return "", nil, err
		}
		answer, err := encodeAlternatives(findPlan(s).Alternatives)
		return answer, nil, err
	case "tables":
		pl, err := decodePlan(request)
		if err != nil {
			return "", nil, err
		}
		t, err := plan.MeasureTables(pl, step)
		if err != nil {
			return "", nil, err
		}
		answer, err := encodeTables(t)
		return answer, nil, err
	}
	req := try.Request{Params: sim.Defaults()}
	if err := json.Unmarshal([]byte(request), &req); err != nil {
		return "", nil, fmt.Errorf("engine: the key panel's request: %w", err)
	}
	res, err := answerPanel(req, msg.Get("find").Truthy(), step)
	if err != nil {
		return "", nil, err
	}
	b, err := json.Marshal(res)
	return string(b), nil, err
}

// mergeParts loads the files of a run's parts, merges and queries them
// (sim.RunMerged), and answers as a run built here does.
func mergeParts(req workerRun, files js.Value, step sim.Step) (string, []uint64, error) {
	parts := make([]core.Membership, files.Length())
	for i := range parts {
		b := make([]byte, files.Index(i).Length())
		js.CopyBytesToGo(b, files.Index(i))
		f, err := core.Load(bytes.NewReader(b))
		if err != nil {
			return "", nil, fmt.Errorf("engine: part %d of the run: %w", i, err)
		}
		parts[i] = f
	}
	r, err := sim.RunMerged(req.Params, req.Typed, parts, step)
	if err != nil {
		return "", nil, err
	}
	return encodeRun(sim.KeysResult{Result: r})
}

// yieldToRuns is an audit's pause between two checks. Go on wasm runs a
// goroutine until it blocks, and a worker reads its messages only when
// every goroutine does: without the pause an experiment started during
// the lab's audit would wait for the worker's whole share of the checks.
// The pause reads the messages, and while an experiment works here the
// audit waits, so the run the user asked for goes first. A held audit (see
// runs.go) waits here too.
func (w *engineWorker) yieldToRuns() {
	time.Sleep(time.Millisecond)
	for w.paused() {
		time.Sleep(20 * time.Millisecond)
	}
}

// paused reports whether the audit's checks wait: for a run here, or a
// hold.
func (w *engineWorker) paused() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.running > 0 || hold.Load()
}

func ints(v js.Value) []int {
	out := make([]int, v.Length())
	for i := range out {
		out[i] = v.Index(i).Int()
	}
	return out
}

func post(to js.Value, m map[string]any) { to.Call("postMessage", js.ValueOf(m)) }
