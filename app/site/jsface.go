package site

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/bloomlab/bloomlab/app/engine"
	"github.com/bloomlab/bloomlab/app/lab"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"
	"github.com/bloomlab/bloomlab/core/try"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// InstallJSFace sets the global object bloomlab for headless browsers and a
// teacher's console:
//
//	bloomlab.runAudit(fault?)  -> Promise of the audit report
//	bloomlab.simulate(params?) -> Promise of the simulation result
//	bloomlab.tryKeys(request)  -> Promise of the key panel's answers
//	bloomlab.timings()         -> {firstDrawMs, repaintsMs}
//	bloomlab.hold(on)          -> holds every run mid-way, or lets them go
//	bloomlab.settled()         -> Promise, once the lab's worker has ended every run it was sent
//	bloomlab.pageWork()        -> {runs, work, pauses, largest}: what the page's own thread did of runs a worker takes when there is one
//	bloomlab.lastRun()         -> {parts, digest}: the lab's last finished run, the parts its filter was built in and its digest
//
// The report and the results are plain objects with the same fields as the
// command line's --json output (bloomlab audit, simulate and try). params
// takes the same field names (bitsPerKey, hashes, items, ...); missing
// fields keep the lab's defaults. A request is {params, insert, query}:
// the typed keys inserted after the generated members, and the keys asked.
// hold (see engine/runs.go) starts on when the page's global bloomlabHold is true
// before the wasm starts, so that a page's first run can be held too.
func InstallJSFace() {
	engine.Hold(app.Window().Get("bloomlabHold").Truthy())
	face := app.Window().Get("Object").New()
	face.Set("runAudit", app.FuncOf(func(this app.Value, args []app.Value) any {
		fault := ""
		if len(args) > 0 && args[0].Type() == app.TypeString {
			fault = args[0].String()
		}
		return promise(func() (any, error) {
			f, err := core.ParseFault(fault)
			if err != nil {
				return nil, err
			}
			run := engine.Audits().Wait(f)
			if run.Report == nil {
				return nil, errors.New(run.Err)
			}
			return run.Report, nil
		})
	}))
	face.Set("simulate", app.FuncOf(func(this app.Value, args []app.Value) any {
		raw := jsonArg(args)
		return promise(func() (any, error) { return simulateJSON(raw) })
	}))
	face.Set("tryKeys", app.FuncOf(func(this app.Value, args []app.Value) any {
		raw := jsonArg(args)
		return promise(func() (any, error) { return tryJSON(raw) })
	}))
	face.Set("timings", app.FuncOf(func(this app.Value, args []app.Value) any {
		return toJS(lab.Timings())
	}))
	face.Set("hold", app.FuncOf(func(this app.Value, args []app.Value) any {
		engine.Hold(len(args) > 0 && args[0].Truthy())
		return nil
	}))
	face.Set("settled", app.FuncOf(func(this app.Value, args []app.Value) any {
		return promise(func() (any, error) {
			for !engine.Settled() {
				time.Sleep(20 * time.Millisecond)
			}
			return true, nil
		})
	}))
	face.Set("pageWork", app.FuncOf(func(this app.Value, args []app.Value) any {
		return toJS(engine.PageWorkSoFar())
	}))
	face.Set("lastRun", app.FuncOf(func(this app.Value, args []app.Value) any {
		return toJS(engine.LastRun())
	}))
	app.Window().Set("bloomlab", face)
}

// jsonArg is the first argument, an object, as JSON; "{}" without one.
func jsonArg(args []app.Value) string {
	if len(args) > 0 && args[0].Type() == app.TypeObject {
		return app.Window().Get("JSON").Call("stringify", args[0]).String()
	}
	return "{}"
}

// simulateJSON runs one simulation from params in JSON, yielding to the
// browser between chunks.
func simulateJSON(raw string) (any, error) {
	p := sim.Defaults()
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		return nil, fmt.Errorf("bloomlab.simulate: params: %v", err)
	}
	r, err := sim.RunSteps(p, consoleStep())
	if err != nil {
		return nil, err
	}
	return r, nil
}

// tryJSON answers one key-panel request in JSON, yielding to the browser
// between chunks.
func tryJSON(raw string) (any, error) {
	req := try.Request{Params: sim.Defaults()}
	if err := json.Unmarshal([]byte(raw), &req); err != nil {
		return nil, fmt.Errorf("bloomlab.tryKeys: request: %v", err)
	}
	r, err := try.Run(req, consoleStep())
	if err != nil {
		return nil, err
	}
	return r, nil
}

// consoleStep is the Step of a run called from the console: nothing
// replaces it, and it leaves the page its frames.
func consoleStep() sim.Step {
	return engine.Yielding(engine.Always, 15*time.Millisecond, func(int, int) {})
}

// promise returns a JavaScript Promise settled by fn, which runs on its own
// goroutine: a Go callback from JavaScript must not block.
func promise(fn func() (any, error)) app.Value {
	var executor app.Func
	executor = app.FuncOf(func(this app.Value, args []app.Value) any {
		resolve, reject := args[0], args[1]
		go func() {
			defer executor.Release()
			v, err := fn()
			if err != nil {
				reject.Invoke(app.Window().Get("Error").New(err.Error()))
				return
			}
			resolve.Invoke(toJS(v))
		}()
		return nil
	})
	return app.Window().Get("Promise").New(executor)
}

// toJS turns v into a plain JavaScript object through its JSON encoding, so
// the fields and their names are exactly those of the --json output.
func toJS(v any) app.Value {
	b, err := json.Marshal(v)
	if err != nil {
		return app.Window().Get("Error").New(err.Error())
	}
	return app.Window().Get("JSON").Call("parse", string(b))
}
