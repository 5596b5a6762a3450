package engine

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/bloomlab/bloomlab/audit"
	"github.com/bloomlab/bloomlab/core"
)

// TestAuditTally: outcomes that come in any order are handed on in the
// order of the checks, and the checks still missing run on the page's
// thread to the report of one whole audit.
func TestAuditTally(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a whole audit")
	}
	t.Parallel()
	target := audit.MustLab(core.Variant{}, core.OneHash, "")
	want, err := audit.Run(target, nil)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	tally := newAuditTally(func(o audit.Outcome, done, total int) {
		if done != len(order)+1 || total != len(want.Checks) {
			t.Errorf("handed on as %d of %d after %d", done, total, len(order))
		}
		order = append(order, o.ID)
	})
	// The workers' outcomes, last first, all but the first three checks.
	for i := len(want.Checks) - 1; i >= 3; i-- {
		if err := tally.take(i, want.Checks[i]); err != nil {
			t.Fatal(err)
		}
	}
	if len(order) != 0 || tally.complete() {
		t.Fatalf("handed on %v before the first check was in", order)
	}
	if got := tally.missing(); !slices.Equal(got, []int{0, 1, 2}) {
		t.Errorf("missing %v, want the first three", got)
	}
	if err := tally.take(5, want.Checks[5]); err == nil {
		t.Error("a second outcome for check 5 was taken")
	}
	if err := tally.take(len(want.Checks), audit.Outcome{}); err == nil {
		t.Error("an outcome past the last check was taken")
	}
	got, err := tally.here(target)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the tally's report has digest %s (%s), the whole audit's %s (%s)", got.Digest, got.Summary(), want.Digest, want.Summary())
	}
	var ids []string
	for _, o := range want.Checks {
		ids = append(ids, o.ID)
	}
	if !slices.Equal(order, ids) {
		t.Error("the outcomes were not handed on in the order of the checks")
	}
}

// TestAuditNewsSpaced: checks that come in a burst reach the listeners as
// one call at once and one for the rest a newsEvery later, not one call (a
// re-render of the page) per check; the last check is always told.
func TestAuditNewsSpaced(t *testing.T) {
	b := &AuditBook{runs: map[core.Fault]*AuditRun{}, waiters: map[core.Fault][]chan AuditRun{}, listeners: map[int]func(){}}
	calls := make(chan time.Time, 1000)
	b.Listen(func() { calls <- time.Now() })
	start := time.Now()
	for range 200 {
		b.progressed()
	}
	burst := time.Since(start)
	// Every call the burst makes, until none has come for a while: the
	// channel stays open, since a late timer may still call.
	var times []time.Time
	for quiet := time.After(4 * newsEvery); quiet != nil; {
		select {
		case c := <-calls:
			times = append(times, c)
			quiet = time.After(4 * newsEvery)
		case <-quiet:
			quiet = nil
		}
	}
	// One call per newsEvery the burst lasted, plus the first and the last.
	if most := 2 + int(burst/newsEvery); len(times) < 2 || len(times) > most {
		t.Fatalf("200 checks in %v made %d calls, want 2 to %d", burst, len(times), most)
	}
	for i := 1; i < len(times); i++ {
		if gap := times[i].Sub(times[i-1]); gap < newsEvery-10*time.Millisecond {
			t.Errorf("calls %d and %d came %v apart, under %v", i-1, i, gap, newsEvery)
		}
	}
}
