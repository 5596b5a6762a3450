package engine

import (
	"errors"

	"github.com/bloomlab/bloomlab/core"
)

// StoreOfRun is the picture's view of a run's filter: the zero BitStore
// if the run failed or made no filter.
func StoreOfRun(r core.OwnKeysResult, err error) BitStore {
	if err != nil || r.Filter == nil {
		return BitStore{}
	}
	return StoreOf(r.Filter)
}

// Simulate runs the lab's simulation of params p on generated keys and the
// typed ones, or on the user's lists when own is set.
func Simulate(p core.Params, typed []string, own *OwnKeys, step core.Step) (core.OwnKeysResult, error) {
	switch {
	case own == nil:
		r, err := core.SimulateTyped(p, typed, step)
		return core.OwnKeysResult{Result: r}, err
	case own.InDesk():
		return core.OwnKeysResult{}, errKeysLost
	}
	return core.SimulateKeyLists(p, own.Members, own.Absent, step)
}

// errKeysLost: the lists were read into the lab's worker, which has since
// stopped.
var errKeysLost = errors.New("your keys were read into the lab's worker, which has stopped or restarted: press “Use these keys” to read them again")

// WorkOf is the number of inserts and queries a simulation of p makes.
func WorkOf(p core.Params) int { return p.Items*p.DuplicatePasses + p.Queries }
