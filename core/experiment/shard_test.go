package experiment

import (
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// meetingPoint is where the copies of a sharded run trade their results in
// one process, as the page's workers do through the page.
type meetingPoint struct {
	count int
	mu    sync.Mutex
	calls map[int]*meeting
}

type meeting struct {
	got     [][]byte
	arrived int
	all     chan struct{}
}

func newMeetingPoint(count int) *meetingPoint {
	return &meetingPoint{count: count, calls: map[int]*meeting{}}
}

// shard returns copy i's Shard.
func (p *meetingPoint) shard(i int) *Shard {
	return &Shard{Index: i, Count: p.count, Exchange: func(call int, mine []byte) ([][]byte, error) {
		p.mu.Lock()
		m := p.calls[call]
		if m == nil {
			m = &meeting{got: make([][]byte, p.count), all: make(chan struct{})}
			p.calls[call] = m
		}
		m.got[i] = mine
		if m.arrived++; m.arrived == p.count {
			close(m.all)
		}
		p.mu.Unlock()
		<-m.all
		return m.got, nil
	}}
}

// runSharded runs count copies of e and returns each copy's table and the
// work units each reported.
func runSharded(t *testing.T, e Experiment, s Sizes, count int) (tables []Table, done []int, total int) {
	t.Helper()
	p := newMeetingPoint(count)
	tables, done = make([]Table, count), make([]int, count)
	errs := make([]error, count)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i := range count {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tables[i], errs[i] = e.Run(s, Options{Shard: p.shard(i), Progress: func(d, tot int) error {
				mu.Lock()
				defer mu.Unlock()
				done[i], total = d, tot
				return nil
			}})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("copy %d of %d: %v", i, count, err)
		}
	}
	return tables, done, total
}

// shardsGiveTheSameTable checks that two or three copies sharing a run
// of e each give the table one worker gives, and that their progress adds
// up to the run's.
func shardsGiveTheSameTable(t *testing.T, e Experiment, one Table) {
	t.Helper()
	for _, count := range []int{2, 3} {
		tables, done, total := runSharded(t, e, tiny(e), count)
		sum := 0
		for i, tab := range tables {
			if !reflect.DeepEqual(one, tab) {
				t.Errorf("copy %d of %d gave a different table than one worker", i, count)
			}
			sum += done[i]
		}
		// Each copy drops less than count units of the work every copy
		// repeats when it divides it.
		if sum > total || sum < total-count*count {
			t.Errorf("%d copies reported %v units, sum %d, of %d", count, done, sum, total)
		}
	}
}

// TestShardsSplitTheQueries: a copy of two does its half of the queries,
// not all of them.
func TestShardsSplitTheQueries(t *testing.T) {
	t.Parallel()
	s := tiny(theoryVsObserved)
	s.Queries = 10 * chunkQueries // twenty chunks a row to share
	_, done, total := runSharded(t, theoryVsObserved, s, 2)
	for i, d := range done {
		if d > total*6/10 {
			t.Errorf("copy %d did %d of %d units: the queries were not shared", i, d, total)
		}
	}
}

func TestShardErrors(t *testing.T) {
	t.Parallel()
	e := theoryVsObserved
	for _, sh := range []*Shard{
		{Index: 2, Count: 2, Exchange: newMeetingPoint(2).shard(0).Exchange},
		{Index: 0, Count: 0},
		{Index: 0, Count: 1},
	} {
		if _, err := e.Run(tiny(e), Options{Shard: sh}); err == nil || !strings.Contains(err.Error(), "is no shard") {
			t.Errorf("shard %d of %d: got %v, want a refusal", sh.Index, sh.Count, err)
		}
	}
	lost := errors.New("the page went away")
	_, err := e.Run(tiny(e), Options{Shard: &Shard{Index: 0, Count: 2, Exchange: func(int, []byte) ([][]byte, error) { return nil, lost }}})
	if !errors.Is(err, lost) {
		t.Errorf("a failed exchange: got %v, want %v", err, lost)
	}
	_, err = e.Run(tiny(e), Options{Shard: &Shard{Index: 0, Count: 2, Exchange: func(_ int, mine []byte) ([][]byte, error) { return [][]byte{mine, []byte("[1]")}, nil }}})
	if err == nil || !strings.Contains(err.Error(), "shard 1") {
		t.Errorf("a copy that sent the wrong results: got %v", err)
	}
}
