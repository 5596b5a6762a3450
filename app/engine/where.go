package engine

import (
	"errors"

	"github.com/bloomlab/bloomlab/core/sim"
	"github.com/bloomlab/bloomlab/core/try"
)

// The lab's three large jobs (a run, a key panel's answer, reading the
// user's key lists) go to the desk when the caller asks, and otherwise, or
// when the desk cannot start (a browser without workers, a native test),
// run on the page's own thread in slices between paints (Run.OnPage). Each
// stops with core.ErrCancelled once run is no longer live.

// SimulateRun runs the lab's simulation of p on the typed keys, or on own.
func SimulateRun(onDesk bool, p sim.Params, typed []string, own *OwnKeys, run Run, report func(done, total int)) (sim.KeysResult, BitStore, error) {
	if onDesk {
		r, store, err := simulateOnDesk(p, typed, own, run.Live, report)
		if !errors.Is(err, errNoEngines) {
			return r, store, err
		}
	}
	r, err := Simulate(p, typed, own, run.OnPage(report))
	return r, StoreOfRun(r, err), err
}

// Answer answers a key panel request (see answerPanel).
func Answer(onDesk bool, req try.Request, find bool, run Run, report func(done, total int)) (try.Result, error) {
	if onDesk {
		res, err := panelOnDesk(req, find, run.Live, report)
		if !errors.Is(err, errNoEngines) {
			return res, err
		}
	}
	return answerPanel(req, find, run.OnPage(report))
}

// ReadKeys reads the user's two lists; on the desk, which keeps them for
// the runs on them, only their counts come back.
func ReadKeys(onDesk bool, in [2]OwnInput, run Run, report func(done, total int)) (*OwnKeys, error) {
	if onDesk {
		own, err := keysOnDesk(in, run.Live, report)
		if !errors.Is(err, errNoEngines) {
			return own, err
		}
	}
	return readOwnKeys(in, run.OnPage(report))
}
