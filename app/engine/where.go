package engine

import (
	"errors"
	"sync/atomic"

	"github.com/bloomlab/bloomlab/core/plan"
	"github.com/bloomlab/bloomlab/core/sim"
	"github.com/bloomlab/bloomlab/core/try"
)

// The lab's large jobs (a run, a key panel's answer, reading the user's
// key lists, and the calculator's tables) go to the lab's worker when the caller asks, and
// otherwise, or when the lab's worker cannot start (a browser without
// workers, a native test), run on the page's own thread in slices between
// paints (Run.OnPage). Each stops with core.ErrCancelled once run is no
// longer live.

// SimulateRun runs the lab's simulation of p on the typed keys, or on own.
// A large run on generated keys (sim.Params.InParts) builds its filter in
// parts, one a shared worker, merged and queried in the lab's worker.
func SimulateRun(onWorker bool, p sim.Params, typed []string, own *OwnKeys, run Run, report func(done, total int)) (sim.KeysResult, BitStore, error) {
	building.Store(0)
	if onWorker && own == nil {
		r, store, parts, err := partsOnWorkers(p, typed, run.Live, report)
		if !errors.Is(err, errNoEngines) {
			ran(r, parts, err)
			return r, store, err
		}
		building.Store(0)
	}
	if onWorker {
		r, store, err := simulateOnWorker(p, typed, own, run.Live, report)
		if !errors.Is(err, errNoEngines) {
			ran(r, 1, err)
			return r, store, err
		}
	}
	r, err := Simulate(p, typed, own, run.OnPage(report))
	ran(r, 1, err)
	return r, StoreOfRun(r, err), err
}

// building is the parts the run under way builds its filter in, 0 when it
// builds it whole: RunsWhere says so.
var building atomic.Int64

// LabRun is what the lab's last finished run was: the parts its filter was
// built in (1 for whole) and its digest, which folds the filter's storage
// (sim.Result.Digest). A test reads it through bloomlab.lastRun.
type LabRun struct {
	Parts  int    `json:"parts"`
	Digest string `json:"digest"`
}

var lastRun atomic.Pointer[LabRun]

// ran records a finished run for LastRun.
func ran(r sim.KeysResult, parts int, err error) {
	if err == nil {
		lastRun.Store(&LabRun{Parts: parts, Digest: r.Digest})
	}
}

// LastRun is the lab's last finished run, the zero LabRun before one.
func LastRun() LabRun {
	if r := lastRun.Load(); r != nil {
		return *r
	}
	return LabRun{}
}

// Answer answers a key panel request (see answerPanel).
func Answer(onWorker bool, req try.Request, find bool, run Run, report func(done, total int)) (try.Result, error) {
	if onWorker {
		res, err := panelOnWorker(req, find, run.Live, report)
		if !errors.Is(err, errNoEngines) {
			return res, err
		}
	}
	return answerPanel(req, find, run.OnPage(report))
}

// ReadKeys reads the user's two lists; on the lab's worker, which keeps them
// for the runs on them, only their counts come back.
func ReadKeys(onWorker bool, in [2]OwnInput, run Run, report func(done, total int)) (*OwnKeys, error) {
	if onWorker {
		own, err := keysOnWorker(in, run.Live, report)
		if !errors.Is(err, errNoEngines) {
			return own, err
		}
	}
	return readOwnKeys(in, run.OnPage(report))
}

// MeasurePlan finds the alternatives of the calculator's plan of shape
// s (Shape.Plan: the blocked rows' searches, up to a tenth of a second
// natively) and measures its tables (plan.MeasureTables), on the lab's
// worker if there is one. found is given the alternatives as soon as they
// are in, for the page to show before the tables; the tables are measured
// from those very alternatives, which go back to the lab's worker whole
// (see wirePlan), so the searches run once a form.
func MeasurePlan(onWorker bool, s plan.Shape, run Run, found func([]plan.Alternative), report func(done, total int)) (plan.Tables, error) {
	pl, err := planAlternatives(onWorker, s, run)
	if err != nil {
		return plan.Tables{}, err
	}
	found(pl.Alternatives)
	if onWorker {
		t, err := tablesOnWorker(pl, run.Live, report)
		if !errors.Is(err, errNoEngines) {
			return t, err
		}
	}
	return plan.MeasureTables(pl, run.OnPage(report))
}

// planAlternatives is as much of the plan of shape s as its tables need
// (Shape.Plan), its alternatives found on the lab's worker if there is
// one.
func planAlternatives(onWorker bool, s plan.Shape, run Run) (plan.Plan, error) {
	if onWorker {
		alts, err := alternativesOnWorker(s, run.Live)
		if !errors.Is(err, errNoEngines) {
			return s.With(alts), err
		}
	}
	return findPlan(s), nil
}

// findPlan is Shape.Plan, where the page's thread or the lab's worker
// finds a plan's alternatives; a test counts its calls.
var findPlan = func(s plan.Shape) plan.Plan { return s.Plan() }
