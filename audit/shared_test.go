package audit

import (
	"reflect"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/core"
)

// TestSharedChecksGiveTheReport: three runs that share out the checks (as a
// browser's workers do) give, assembled, the report of one Run.
func TestSharedChecksGiveTheReport(t *testing.T) {
	wholeZoo(t)
	for _, f := range []core.Fault{core.NoFault, core.OneHash} {
		target := MustLab(core.Variant{}, f, "")
		want := zoo()[f]
		n := len(Checks())
		outcomes := make([]Outcome, n)
		for share := 2; share >= 0; share-- {
			var which []int
			for i := share; i < n; i += 3 {
				which = append(which, i)
			}
			err := RunChecks(target, which, func(i int, o Outcome) error {
				outcomes[i] = o
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		got, err := Assemble(target, outcomes)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the shared checks assemble to digest %s (%s), Run gives %s (%s)", f, got.Digest, got.Summary(), want.Digest, want.Summary())
		}
	}
}

func TestAssembleRefusesPartialReports(t *testing.T) {
	target := MustLab(core.Variant{}, "", "")
	checks := Checks()
	outcomes := make([]Outcome, len(checks))
	for i, c := range checks {
		outcomes[i] = Outcome{ID: c.ID, Skipped: true}
	}
	if _, err := Assemble(target, outcomes[1:]); err == nil || !strings.Contains(err.Error(), "outcomes for") {
		t.Errorf("one outcome short: %v", err)
	}
	outcomes[0], outcomes[1] = outcomes[1], outcomes[0]
	if _, err := Assemble(target, outcomes); err == nil || !strings.Contains(err.Error(), "want") {
		t.Errorf("two outcomes swapped: %v", err)
	}
	if err := RunChecks(target, []int{len(checks)}, func(int, Outcome) error { return nil }); err == nil {
		t.Error("a check past the last ran")
	}
}
