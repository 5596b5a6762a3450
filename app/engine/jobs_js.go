//go:build js

package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"syscall/js"
	"time"
	"unsafe"

	"github.com/bloomlab/bloomlab/audit"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/experiment"
	"github.com/bloomlab/bloomlab/core/plan"
	"github.com/bloomlab/bloomlab/core/sim"
	"github.com/bloomlab/bloomlab/core/try"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// runOnEngines runs the named experiment at sizes s shared by the workers, reporting the work they
// have done between them. It returns errNoEngines if there are none.
func runOnEngines(name string, s experiment.Sizes, live func() bool, report func(done, total int)) (experiment.Table, error) {
	p := engines
	StartWorkers()
	j, err := p.begin(live)
	if err != nil {
		return experiment.Table{}, err
	}
	defer p.end(j)
	for i := range j.workers {
		j.post(i, map[string]any{"type": "run", "name": name, "index": i, "count": len(j.workers),
			"items": s.Items, "queries": s.Queries, "replicates": s.Replicates, "seed": strconv.FormatUint(s.Seed, 10)})
	}
	rl := newRelay(len(j.workers))
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		var m engineMsg
		select {
		case m = <-j.msgs:
		case <-tick.C:
			if !live() {
				p.restart(j)
				return experiment.Table{}, experiment.ErrCancelled
			}
			continue
		}
		d, i := m.data, m.worker
		var err error
		switch d.Get("type").String() {
		case "progress":
			var done int
			if done, err = rl.progress(i, d.Get("done").Int(), d.Get("total").Int()); err == nil {
				report(done, rl.total)
			}
		case "share":
			call := d.Get("call").Int()
			var all []string
			if all, err = rl.share(call, i, d.Get("data").String()); all != nil {
				list := make([]any, len(all))
				for k, s := range all {
					list[k] = s
				}
				for w := range j.workers {
					j.post(w, map[string]any{"type": "shares", "call": call, "all": list})
				}
			}
		case "done":
			var t experiment.Table
			var all bool
			if t, all, err = rl.finished(i, d.Get("table").String()); err == nil && all {
				return t, nil
			}
		case "failed":
			err = errors.New(d.Get("error").String())
		case "lost":
			err = errors.New("engine: the workers were restarted under the run")
		}
		if err != nil {
			p.restart(j)
			return experiment.Table{}, err
		}
	}
}

// auditOnEngines runs the checks the tally lacks of target's audit,
// shared out among the workers. If the workers are lost (a cancelled run
// restarts them), the checks not yet done go to the fresh ones. It returns
// errNoEngines if there are no workers.
func auditOnEngines(target audit.Target, fault core.Fault, tally *auditTally) error {
	p := engines
	StartWorkers()
	for !tally.complete() {
		j, err := p.begin(Always)
		if err != nil {
			return err
		}
		missing := tally.missing()
		shares := make([][]any, len(j.workers))
		for k, i := range missing {
			shares[k%len(shares)] = append(shares[k%len(shares)], i)
		}
		for w, which := range shares {
			j.post(w, map[string]any{"type": "audit", "fault": string(fault), "checks": which})
		}
		err = auditJob(j, tally)
		if err != nil && !errors.Is(err, errLost) {
			p.restart(j)
			return err
		}
		p.end(j)
	}
	return nil
}

var errLost = errors.New("engine: the workers were restarted")

// auditJob takes one job's outcomes until the tally is complete.
func auditJob(j engineJob, tally *auditTally) error {
	for !tally.complete() {
		d := (<-j.msgs).data
		switch d.Get("type").String() {
		case "outcomes":
			var got []audit.Outcome
			if err := json.Unmarshal([]byte(d.Get("outcomes").String()), &got); err != nil {
				return fmt.Errorf("engine: a worker's outcomes: %w", err)
			}
			checks := ints(d.Get("checks"))
			if len(checks) != len(got) {
				return fmt.Errorf("engine: a worker's %d outcomes for %d checks", len(got), len(checks))
			}
			for k, o := range got {
				if err := tally.take(checks[k], o); err != nil {
					return err
				}
			}
		case "failed":
			return errors.New(d.Get("error").String())
		case "lost":
			return errLost
		}
	}
	return nil
}

// simulateOnWorker runs the lab's simulation of p on the lab's worker: on
// generated and typed keys, or on the user's lists the lab's worker holds.
// It returns errNoEngines if the lab's worker cannot start, and
// core.ErrCancelled once live says a newer move replaced the run.
func simulateOnWorker(p sim.Params, typed []string, own *OwnKeys, live func() bool, report func(done, total int)) (sim.KeysResult, BitStore, error) {
	run := workerRun{Params: p, Typed: typed}
	if own != nil {
		run.Typed, run.Own = nil, own.workerID
	}
	req, err := json.Marshal(run)
	if err != nil {
		return sim.KeysResult{}, BitStore{}, err
	}
	d, err := onLabWorker(map[string]any{"type": "simulate", "request": string(req)}, nil, live, report)
	if err != nil {
		return sim.KeysResult{}, BitStore{}, err
	}
	return decodeRun(d.Get("answer").String(), wordsFromJS(d.Get("words")))
}

// partsOnWorkers runs the lab's simulation of p with its filter built in
// parts (sim.BuildPart), one a shared worker, whose files the lab's worker
// loads, merges by core.Union and queries (sim.RunMerged): the same result
// as the run built whole, bit for bit. It returns the parts, and
// errNoEngines when p does not build in parts on this browser's workers
// (sim.Params.InParts) or they cannot start.
func partsOnWorkers(p sim.Params, typed []string, live func() bool, report func(done, total int)) (sim.KeysResult, BitStore, int, error) {
	count := engines.size()
	if !p.InParts(count) {
		return sim.KeysResult{}, BitStore{}, 0, errNoEngines
	}
	req, err := json.Marshal(workerRun{Params: p, Typed: typed})
	if err != nil {
		return sim.KeysResult{}, BitStore{}, 0, err
	}
	building.Store(int64(count))
	// A run that replaced one building its parts may open its job on the
	// workers the replaced run's cancel then restarts: it starts again on
	// the fresh ones.
	files, err := buildParts(string(req), live, report)
	for errors.Is(err, errLost) && live() {
		files, err = buildParts(string(req), live, report)
	}
	if err != nil {
		return sim.KeysResult{}, BitStore{}, 0, err
	}
	list, transfer := make([]any, len(files)), make([]any, len(files))
	for i, f := range files {
		list[i], transfer[i] = f, f.Get("buffer")
	}
	d, err := onLabWorker(map[string]any{"type": "simulate", "request": string(req), "parts": list}, transfer, live, report)
	if err != nil {
		return sim.KeysResult{}, BitStore{}, 0, err
	}
	r, store, err := decodeRun(d.Get("answer").String(), wordsFromJS(d.Get("words")))
	return r, store, len(files), err
}

// buildParts has each shared worker build its part of the lab's run req
// and returns the parts' files, in order, reporting the inserts done
// between them.
func buildParts(req string, live func() bool, report func(done, total int)) ([]js.Value, error) {
	p := engines
	StartWorkers()
	j, err := p.begin(live)
	switch {
	case errors.Is(err, experiment.ErrCancelled):
		return nil, sim.ErrCancelled
	case err != nil:
		return nil, err
	}
	defer p.end(j)
	for i := range j.workers {
		j.post(i, map[string]any{"type": "part", "request": req, "index": i, "count": len(j.workers)})
	}
	rl := newRelay(len(j.workers))
	files, got := make([]js.Value, len(j.workers)), 0
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for got < len(files) {
		var m engineMsg
		select {
		case m = <-j.msgs:
		case <-tick.C:
			if !live() {
				p.restart(j)
				return nil, sim.ErrCancelled
			}
			continue
		}
		d, i := m.data, m.worker
		switch d.Get("type").String() {
		case "progress":
			// The parts' totals add up to the whole run's, which each
			// sends beside its own done.
			if done, err := rl.progress(i, d.Get("done").Int(), d.Get("total").Int()); err == nil {
				report(done, rl.total)
			}
		case "part":
			if files[i].IsUndefined() {
				got++
			}
			files[i] = d.Get("file")
		case "failed":
			p.restart(j)
			return nil, errors.New(d.Get("error").String())
		case "lost":
			return nil, errLost
		}
	}
	return files, nil
}

// panelOnWorker answers a key panel request (see answerPanel) on the lab's
// worker, as simulateOnWorker runs a simulation.
func panelOnWorker(req try.Request, find bool, live func() bool, report func(done, total int)) (try.Result, error) {
	raw, err := json.Marshal(req)
	if err != nil {
		return try.Result{}, err
	}
	d, err := onLabWorker(map[string]any{"type": "panel", "request": string(raw), "find": find}, nil, live, report)
	if err != nil {
		return try.Result{}, err
	}
	var res try.Result
	if err := json.Unmarshal([]byte(d.Get("answer").String()), &res); err != nil {
		return try.Result{}, fmt.Errorf("engine: the answer from the lab's worker: %w", err)
	}
	return res, nil
}

// tablesOnWorker measures the tables of pl, its alternatives found
// before (see MeasurePlan), on the lab's worker, as simulateOnWorker runs
// a simulation.
func tablesOnWorker(pl plan.Plan, live func() bool, report func(done, total int)) (plan.Tables, error) {
	req, err := encodePlan(pl)
	if err != nil {
		return plan.Tables{}, err
	}
	d, err := onLabWorker(map[string]any{"type": "tables", "request": req}, nil, live, report)
	if err != nil {
		return plan.Tables{}, err
	}
	return decodeTables(d.Get("answer").String())
}

// alternativesOnWorker finds the alternatives of the plan of shape s (see
// MeasurePlan) on the lab's worker.
func alternativesOnWorker(s plan.Shape, live func() bool) ([]plan.Alternative, error) {
	req, err := encodeShape(s)
	if err != nil {
		return nil, err
	}
	d, err := onLabWorker(map[string]any{"type": "alternatives", "request": req}, nil, live, func(int, int) {})
	if err != nil {
		return nil, err
	}
	return decodeAlternatives(d.Get("answer").String())
}

// keysOnWorker has the lab's worker read the user's lists and keep them for
// the runs on them; only their counts come back. The lists' bytes move to
// the lab's worker without a copy.
func keysOnWorker(in [2]OwnInput, live func() bool, report func(done, total int)) (*OwnKeys, error) {
	var lists [2]js.Value
	for i, src := range in {
		arr, err := inputArray(src)
		if err != nil {
			return nil, listError(i, err)
		}
		lists[i] = jsOf(arr)
	}
	m := map[string]any{"type": "keys", "members": lists[ListMembers], "absent": lists[ListAbsent], "fromBox": in[ListAbsent].FromBox}
	d, err := onLabWorker(m, []any{lists[ListMembers].Get("buffer"), lists[ListAbsent].Get("buffer")}, live, report)
	if err != nil {
		return nil, err
	}
	var got workerKeys
	if err := json.Unmarshal([]byte(d.Get("answer").String()), &got); err != nil {
		return nil, fmt.Errorf("engine: the lists' counts from the lab's worker: %w", err)
	}
	return &OwnKeys{workerID: d.Get("id").Int(), Facts: got.Facts, AbsentMembers: got.AbsentMembers}, nil
}

// onLabWorker sends the lab's worker the request m, moving the buffers in
// transfer to it, and waits for its answer, reporting its progress. Once
// live says the request was replaced, it tells the lab's worker to drop it
// and returns core.ErrCancelled.
func onLabWorker(m map[string]any, transfer []any, live func() bool, report func(done, total int)) (js.Value, error) {
	p := labWorker
	startLabWorker()
	j, err := p.begin(live)
	switch {
	case errors.Is(err, experiment.ErrCancelled):
		return js.Value{}, sim.ErrCancelled
	case err != nil:
		return js.Value{}, err
	}
	defer p.end(j)
	m["id"] = j.id
	p.mu.Lock()
	p.open[j.id] = true
	p.mu.Unlock()
	j.workers[0].Call("postMessage", js.ValueOf(m), transfer)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			if !live() {
				j.post(0, map[string]any{"type": "cancel"})
				return js.Value{}, sim.ErrCancelled
			}
		case msg := <-j.msgs:
			d := msg.data
			switch d.Get("type").String() {
			case "progress":
				report(d.Get("done").Int(), d.Get("total").Int())
			case "answer":
				return d, nil
			case "failed":
				if d.Get("id").IsUndefined() {
					p.restart(j) // the lab's worker itself failed, not the request
				}
				return js.Value{}, errors.New(d.Get("error").String())
			case "lost":
				return js.Value{}, errors.New("engine: the lab's worker was restarted under the run")
			}
		}
	}
}

// wordsFromJS copies a run's storage out of the bytes the lab's worker sent.
func wordsFromJS(v js.Value) []uint64 {
	words := make([]uint64, v.Get("length").Int()/8)
	if len(words) > 0 {
		js.CopyBytesToGo(wordBytes(words), v)
	}
	return words
}

// wordBytes is words as the bytes wasm's memory holds them, little-endian.
func wordBytes(words []uint64) []byte {
	if len(words) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), len(words)*8)
}

// jsOf is the JavaScript value behind a go-app value.
func jsOf(v app.Value) js.Value {
	holder := js.Global().Get("Object").New()
	app.ValueOf(holder).Set("v", v)
	return holder.Get("v")
}
