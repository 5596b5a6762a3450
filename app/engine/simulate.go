package engine

import (
	"errors"

	"github.com/bloomlab/bloomlab/core/sim"
)

// StoreOfRun is the picture's view of a run's filter: the zero BitStore
// if the run failed or made no filter.
func StoreOfRun(r sim.KeysResult, err error) BitStore {
	if err != nil || r.Filter == nil {
		return BitStore{}
	}
	return StoreOf(r.Filter)
}

// Simulate runs the lab's simulation of params p on generated keys and the
// typed ones, or on the user's lists when own is set.
func Simulate(p sim.Params, typed []string, own *OwnKeys, step sim.Step) (sim.KeysResult, error) {
	switch {
	case own == nil:
		r, err := sim.RunTyped(p, typed, step)
		return sim.KeysResult{Result: r}, err
	case own.InWorker():
		return sim.KeysResult{}, errKeysLost
	}
	return sim.RunKeyLists(p, own.Members, own.Absent, step)
}

// errKeysLost: the lists were read into the lab's worker, which has since
// stopped.
var errKeysLost = errors.New("your keys were read into the lab's worker, which has stopped or restarted: press “Use these keys” to read them again")

// WorkOf is the number of inserts and queries a simulation of p makes.
func WorkOf(p sim.Params) int { return p.Items*p.DuplicatePasses + p.Queries }
