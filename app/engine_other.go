//go:build !js

package app

import (
	"bloomlab/audit"
	"bloomlab/core"
	"bloomlab/core/experiment"
)

// Outside a browser there are no workers: experiments run in the process.

func IsEngineWorker() bool { return false }

func ServeEngine() {}

func startEngines() {}

func holdRuns(on bool) { hold.Store(on) }

func settled() bool { return true }

func engineStatus() string { return "" }

func deskWhere() string { return "in this process" }

func engineChanged() <-chan struct{} { return nil }

func runOnEngines(name string, s experiment.Sizes, live func() bool, report func(done, total int)) (experiment.Table, error) {
	return experiment.Table{}, errNoEngines
}

func auditOnEngines(target audit.Target, fault core.Fault, tally *auditTally) error {
	return errNoEngines
}

func simulateOnDesk(p core.Params, typed []string, own *ownKeys, live func() bool, report func(done, total int)) (core.OwnKeysResult, bitStore, error) {
	return core.OwnKeysResult{}, bitStore{}, errNoEngines
}

func panelOnDesk(req core.TryRequest, find bool, live func() bool, report func(done, total int)) (core.TryResult, error) {
	return core.TryResult{}, errNoEngines
}

func keysOnDesk(in [2]ownInput, live func() bool, report func(done, total int)) (*ownKeys, error) {
	return nil, errNoEngines
}
