package engine

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/experiment"
	"github.com/bloomlab/bloomlab/core/plan"
	"github.com/bloomlab/bloomlab/core/sim"
	"github.com/bloomlab/bloomlab/core/try"
)

// The engines are Web Workers that each run the lab's own wasm: they share
// an experiment's work as the copies of one sharded run (experiment.Shard),
// and an audit's checks. The page starts them, relays the results they
// trade and sums their progress, and its own thread stays free to paint.
// This file holds what the page and the workers say to each other; the
// _js files talk to the browser: worker_js.go is a worker's side,
// pool_js.go the page's workers, jobs_js.go the page's jobs.

// errNoEngines sends a run to the page's own thread.
var errNoEngines = errors.New("engine: no workers")

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
		return experiment.Table{}, fmt.Errorf("engine: a worker's table: %w", err)
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
		return fmt.Errorf("engine: a message from worker %d of %d", i, r.count)
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
			return t, true, fmt.Errorf("engine: workers 0 and %d measured different tables", j)
		}
	}
	t, err = decodeTable(r.tables[0])
	return t, true, err
}

// The lab's worker is one more worker, for the lab's interactive work: a
// large run and the key panel's searches. It is apart from the
// experiments' and the audit's workers because a worker finishes what it is
// doing before it reads its next message, and a slider move must not wait
// behind an audit check. The page sends it a request and cancels it once a
// newer move replaces it.

// workerRun is a lab run as the page asks the lab's worker for it: the
// params (runParams), and the typed keys, or the worker's name for the
// user's lists it holds.
type workerRun struct {
	Params sim.Params `json:"params"`
	Typed  []string   `json:"typed,omitempty"`
	Own    int        `json:"own,omitempty"`
}

// workerKeys is what the page keeps of lists the lab's worker read: their
// counts.
type workerKeys struct {
	Facts         [2]listFacts `json:"facts"`
	AbsentMembers int          `json:"absentMembers"`
}

// wireRun is a finished lab run on its way back from the lab's worker: the
// measurement and how to read the filter's storage, whose words travel
// beside it as a transferred buffer. The filter itself stays in the lab's
// worker.
type wireRun struct {
	Result       sim.KeysResult `json:"result"`
	LastInserted []uint64       `json:"lastInserted"`
	FirstProbed  []uint64       `json:"firstProbed"`
	Store        BitStore       `json:"store"`
}

// encodeRun is the worker's side of a run's way back.
func encodeRun(r sim.KeysResult) (string, []uint64, error) {
	s := StoreOf(r.Filter)
	b, err := json.Marshal(wireRun{Result: r, LastInserted: r.LastInserted, FirstProbed: r.FirstProbed, Store: s})
	return string(b), s.Words, err
}

// decodeRun is the page's side: the result, with no filter, and the store
// over words.
func decodeRun(raw string, words []uint64) (sim.KeysResult, BitStore, error) {
	var w wireRun
	if err := json.Unmarshal([]byte(raw), &w); err != nil {
		return sim.KeysResult{}, BitStore{}, fmt.Errorf("engine: the run from the lab's worker: %w", err)
	}
	s := w.Store
	if s.Stride < 1 || s.Stride > 64 || s.Group < 1 || s.M == 0 || uint64(len(words)) < (s.M*uint64(s.Stride)+63)/64 {
		return sim.KeysResult{}, BitStore{}, fmt.Errorf("engine: the run from the lab's worker: %d words cannot hold %d positions of %d bits", len(words), s.M, s.Stride)
	}
	s.Words = words
	r := w.Result
	r.LastInserted, r.FirstProbed = w.LastInserted, w.FirstProbed
	return r, s, nil
}

// A calculator plan goes to the lab's worker twice (see MeasurePlan): its
// shape (plan.Shape), from which the worker finds the alternatives, which
// come back as their JSON, each with the filter it would build
// (Alternative.Spec, which the alternatives' own JSON leaves out); then
// the shape with those alternatives (wirePlan), whose tables come back as
// plan.Tables' JSON, each layout's size with its Spec.

func encodeShape(s plan.Shape) (string, error) {
	b, err := json.Marshal(s)
	return string(b), err
}

func decodeShape(raw string) (plan.Shape, error) {
	var s plan.Shape
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		return plan.Shape{}, fmt.Errorf("engine: the plan sent to the lab's worker: %w", err)
	}
	return s, nil
}

// wireAlternative is an alternative with its Spec.
type wireAlternative struct {
	plan.Alternative
	Spec core.Spec `json:"spec"`
}

// wirePlan is a plan as its tables need it: its shape and alternatives.
type wirePlan struct {
	plan.Shape
	Alternatives []wireAlternative `json:"alternatives"`
}

func wireAlternatives(alts []plan.Alternative) []wireAlternative {
	w := make([]wireAlternative, len(alts))
	for i, a := range alts {
		w[i] = wireAlternative{Alternative: a, Spec: a.Spec}
	}
	return w
}

func fromWire(w []wireAlternative) []plan.Alternative {
	alts := make([]plan.Alternative, len(w))
	for i, a := range w {
		alts[i] = a.Alternative
		alts[i].Spec = a.Spec
	}
	return alts
}

func encodeAlternatives(alts []plan.Alternative) (string, error) {
	b, err := json.Marshal(wireAlternatives(alts))
	return string(b), err
}

func decodeAlternatives(raw string) ([]plan.Alternative, error) {
	var w []wireAlternative
	if err := json.Unmarshal([]byte(raw), &w); err != nil {
		return nil, fmt.Errorf("engine: the alternatives from the lab's worker: %w", err)
	}
	return fromWire(w), nil
}

func encodePlan(pl plan.Plan) (string, error) {
	b, err := json.Marshal(wirePlan{Shape: pl.Shape(), Alternatives: wireAlternatives(pl.Alternatives)})
	return string(b), err
}

func decodePlan(raw string) (plan.Plan, error) {
	var w wirePlan
	if err := json.Unmarshal([]byte(raw), &w); err != nil {
		return plan.Plan{}, fmt.Errorf("engine: the plan sent to the lab's worker: %w", err)
	}
	return w.Shape.With(fromWire(w.Alternatives)), nil
}

func encodeTables(t plan.Tables) (string, error) {
	b, err := json.Marshal(t)
	return string(b), err
}

func decodeTables(raw string) (plan.Tables, error) {
	var t plan.Tables
	if err := json.Unmarshal([]byte(raw), &t); err != nil {
		return plan.Tables{}, fmt.Errorf("engine: the tables from the lab's worker: %w", err)
	}
	return t, nil
}

// answerPanel answers a key panel request: the typed keys' positions and
// verdicts, or with find a false positive searched for among fresh keys.
func answerPanel(req try.Request, find bool, step sim.Step) (try.Result, error) {
	if !find {
		return try.Run(req, step)
	}
	q, _, err := try.FindFalsePositive(req, step)
	v := req.Params.Variant.Effective(req.Params.Fault)
	return try.Result{Variant: v, Fault: req.Params.Fault, Unit: v.Unit(), Queries: []try.Query{q}}, err
}
