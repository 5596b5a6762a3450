//go:build !js

package engine

import (
	"github.com/bloomlab/bloomlab/audit"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/experiment"
	"github.com/bloomlab/bloomlab/core/plan"
	"github.com/bloomlab/bloomlab/core/sim"
	"github.com/bloomlab/bloomlab/core/try"
)

// Outside a browser there are no workers: experiments run in the process.

func IsWorker() bool { return false }

func Serve() {}

func StartWorkers() {}

func Hold(on bool) { hold.Store(on) }

func Settled() bool { return true }

func Status() string { return "" }

func RunsWhere() string { return "in this process" }

func Changed() <-chan struct{} { return nil }

func runOnEngines(name string, s experiment.Sizes, live func() bool, report func(done, total int)) (experiment.Table, error) {
	return experiment.Table{}, errNoEngines
}

func auditOnEngines(target audit.Target, fault core.Fault, tally *auditTally) error {
	return errNoEngines
}

func partsOnWorkers(p sim.Params, typed []string, live func() bool, report func(done, total int)) (sim.KeysResult, BitStore, int, error) {
	return sim.KeysResult{}, BitStore{}, 0, errNoEngines
}

func simulateOnWorker(p sim.Params, typed []string, own *OwnKeys, live func() bool, report func(done, total int)) (sim.KeysResult, BitStore, error) {
	return sim.KeysResult{}, BitStore{}, errNoEngines
}

func panelOnWorker(req try.Request, find bool, live func() bool, report func(done, total int)) (try.Result, error) {
	return try.Result{}, errNoEngines
}

func keysOnWorker(in [2]OwnInput, live func() bool, report func(done, total int)) (*OwnKeys, error) {
	return nil, errNoEngines
}

func alternativesOnWorker(s plan.Shape, live func() bool) ([]plan.Alternative, error) {
	return nil, errNoEngines
}

func tablesOnWorker(pl plan.Plan, live func() bool, report func(done, total int)) (plan.Tables, error) {
	return plan.Tables{}, errNoEngines
}

// waitIdle: a process has no frames to keep free.
func waitIdle() {}
