//go:build js

package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"bloomlab/audit"
	"bloomlab/core"
	"bloomlab/core/experiment"
)

// runOnEngines runs sel shared by the workers, reporting the work they
// have done between them. It returns errNoEngines if there are none.
func runOnEngines(sel ExpSelection, live func() bool, report func(done, total int)) (experiment.Table, error) {
	p := engines
	startEngines()
	j, err := p.begin(live)
	if err != nil {
		return experiment.Table{}, err
	}
	defer p.end(j)
	s := sel.Sizes
	for i := range j.workers {
		j.post(i, map[string]any{"type": "run", "name": sel.Name, "index": i, "count": len(j.workers),
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
			err = errors.New("app: the workers were restarted under the run")
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
	startEngines()
	for !tally.complete() {
		j, err := p.begin(always)
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

var errLost = errors.New("app: the workers were restarted")

// auditJob takes one job's outcomes until the tally is complete.
func auditJob(j engineJob, tally *auditTally) error {
	for !tally.complete() {
		d := (<-j.msgs).data
		switch d.Get("type").String() {
		case "outcome":
			var o audit.Outcome
			if err := json.Unmarshal([]byte(d.Get("outcome").String()), &o); err != nil {
				return fmt.Errorf("app: a worker's outcome: %w", err)
			}
			if err := tally.take(d.Get("check").Int(), o); err != nil {
				return err
			}
		case "failed":
			return errors.New(d.Get("error").String())
		case "lost":
			return errLost
		}
	}
	return nil
}
