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
// re-render of the page) per check; the checks told late are not lost. The
// book runs on the test's clock, so the spacing holds on any machine.
func TestAuditNewsSpaced(t *testing.T) {
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	var pending []func()
	var waits []time.Duration
	b := &AuditBook{runs: map[core.Fault]*AuditRun{}, waiters: map[core.Fault][]chan AuditRun{}, listeners: map[int]func(){},
		now:   func() time.Time { return now },
		after: func(d time.Duration, f func()) { waits, pending = append(waits, d), append(pending, f) },
	}
	calls := 0
	b.Listen(func() { calls++ })
	fire := func() {
		t.Helper()
		if len(pending) != 1 {
			t.Fatalf("%d calls waiting for their turn, want 1", len(pending))
		}
		f := pending[0]
		pending = pending[:0]
		f()
	}
	// A burst of 200 checks in no time: one call at once, one waiting.
	for range 200 {
		b.progressed()
	}
	if calls != 1 || len(pending) != 1 || waits[0] != newsEvery {
		t.Fatalf("a burst of 200 checks: %d calls, %d waiting (after %v), want 1 call and 1 waiting a newsEvery", calls, len(pending), waits)
	}
	// Its turn comes: the checks that came meanwhile are told in one call.
	now = now.Add(newsEvery)
	fire()
	if calls != 2 {
		t.Fatalf("%d calls once the waiting one fired, want 2", calls)
	}
	// A check 100 ms later waits the rest of the spacing, and more
	// checks meanwhile add no call.
	now = now.Add(100 * time.Millisecond)
	for range 50 {
		b.progressed()
	}
	if calls != 2 || len(pending) != 1 || waits[1] != newsEvery-100*time.Millisecond {
		t.Fatalf("checks 100 ms after a call: %d calls, %d waiting (after %v), want the call spaced a newsEvery", calls, len(pending), waits)
	}
	now = now.Add(newsEvery - 100*time.Millisecond)
	fire()
	// A check a whole spacing after the last call is told at once.
	now = now.Add(newsEvery)
	b.progressed()
	if calls != 4 || len(pending) != 0 {
		t.Errorf("a check a newsEvery after the last call: %d calls, %d waiting, want it told at once (4 calls)", calls, len(pending))
	}
}
