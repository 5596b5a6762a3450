package app

import (
	"encoding/json"
	"errors"
	"fmt"

	"bloomlab/core/experiment"
)

// The engines are Web Workers that each run the lab's own wasm: they share
// an experiment's work as the copies of one sharded run (experiment.Shard),
// and an audit's checks. The page starts them, relays the results they
// trade and sums their progress, and its own thread stays free to paint.
// This file holds what the page and the workers say to each other; the
// _js files talk to the browser: engine_worker_js.go is a worker's side,
// engine_pool_js.go the page's workers, engine_jobs_js.go the page's jobs.

// errNoEngines sends a run to the page's own thread.
var errNoEngines = errors.New("app: no workers")

// maxEngines bounds the workers whatever the browser reports.
const maxEngines = 8

// engineCount is how many workers a browser reporting cores cores gets.
func engineCount(cores int) int { return min(max(cores, 1), maxEngines) }

// wireTable is a Table in plain JSON, every field as it is (Table's own
// JSON is the export, which cannot be read back), so a table a worker
// measured reaches the page unchanged.
type wireTable experiment.Table

func encodeTable(t experiment.Table) (string, error) {
	b, err := json.Marshal(wireTable(t))
	return string(b), err
}

func decodeTable(s string) (experiment.Table, error) {
	var w wireTable
	if err := json.Unmarshal([]byte(s), &w); err != nil {
		return experiment.Table{}, fmt.Errorf("app: a worker's table: %w", err)
	}
	return experiment.Table(w), nil
}

// relay is the page's side of one sharded run: it gathers each exchange's
// results until every worker has sent its own, sums the workers' progress
// and checks that they all measured the same table.
type relay struct {
	count  int
	shares map[int][]string // by exchange, by worker
	sent   map[int]int
	done   []int
	total  int
	tables []string
	ended  int
}

func newRelay(count int) *relay {
	return &relay{count: count, shares: map[int][]string{}, sent: map[int]int{}, done: make([]int, count), tables: make([]string, count)}
}

func (r *relay) worker(i int) error {
	if i < 0 || i >= r.count {
		return fmt.Errorf("app: a message from worker %d of %d", i, r.count)
	}
	return nil
}

// share records worker i's results of exchange call; once every worker's
// are in, it returns them all, in worker order.
func (r *relay) share(call, i int, data string) ([]string, error) {
	if err := r.worker(i); err != nil {
		return nil, err
	}
	got := r.shares[call]
	if got == nil {
		got = make([]string, r.count)
		r.shares[call] = got
	}
	got[i] = data
	if r.sent[call]++; r.sent[call] < r.count {
		return nil, nil
	}
	delete(r.shares, call)
	return got, nil
}

// progress records worker i's work done and returns the run's.
func (r *relay) progress(i, done, total int) (int, error) {
	if err := r.worker(i); err != nil {
		return 0, err
	}
	r.done[i], r.total = done, total
	sum := 0
	for _, d := range r.done {
		sum += d
	}
	return min(sum, total), nil
}

// finished records worker i's table; once every worker has sent its own,
// it returns the table, or an error if two differ.
func (r *relay) finished(i int, table string) (t experiment.Table, all bool, err error) {
	if err := r.worker(i); err != nil {
		return t, false, err
	}
	r.tables[i] = table
	if r.ended++; r.ended < r.count {
		return t, false, nil
	}
	for j, other := range r.tables {
		if other != r.tables[0] {
			return t, true, fmt.Errorf("app: workers 0 and %d measured different tables", j)
		}
	}
	t, err = decodeTable(r.tables[0])
	return t, true, err
}
