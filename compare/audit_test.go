package compare

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/audit"
	"github.com/bloomlab/bloomlab/audit/audittest"
	"github.com/bloomlab/bloomlab/core"
)

// Regenerate the pinned verdicts after a library, an adapter or the audit
// changed on purpose with
//
//	cd compare && go test -run TestLibraryVerdicts -update
//
// and read the diff: each line that moved is a finding to explain.
var update = flag.Bool("update", false, "rewrite testdata/<library>.verdicts with the verdicts of this run")

// TestLibraryVerdicts audits each library and compares every check's
// verdict with the one pinned in testdata. A library failing a check is a
// finding, pinned like a pass; the test fails only when a verdict moves.
func TestLibraryVerdicts(t *testing.T) {
	for _, target := range Targets() {
		t.Run(target.Name, func(t *testing.T) {
			t.Parallel()
			r, err := audit.Run(target, nil)
			if err != nil {
				t.Fatal(err)
			}
			path := verdictsPath(target.Name)
			got := verdicts(r)
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -run TestLibraryVerdicts -update to pin today's verdicts)", err)
			}
			if moved := diffVerdicts(string(want), r); moved != "" {
				t.Errorf("%s: verdicts moved from %s (run with -update once the change is understood):\n%s",
					target.Name, path, moved)
			}
		})
	}
}

// verdicts is a report as the golden file holds it: one line per check,
// "pass", "fail" or "skip", a space, the check's ID.
func verdicts(r audit.Report) string {
	var b strings.Builder
	for _, o := range r.Checks {
		fmt.Fprintf(&b, "%s %s\n", verdictWord(o), o.ID)
	}
	return b.String()
}

func verdictWord(o audit.Outcome) string {
	switch {
	case o.Skipped:
		return "skip"
	case o.Pass:
		return "pass"
	}
	return "fail"
}

// diffVerdicts lists the checks whose verdict differs from the pinned
// file, with today's detail, and the checks that appeared or went away;
// "" when nothing moved.
func diffVerdicts(pinned string, r audit.Report) string {
	want := map[string]string{}
	var order []string
	for _, line := range strings.Split(strings.TrimSpace(pinned), "\n") {
		word, id, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		want[id] = word
		order = append(order, id)
	}
	var b strings.Builder
	seen := map[string]bool{}
	for _, o := range r.Checks {
		seen[o.ID] = true
		was, pinned := want[o.ID]
		switch now := verdictWord(o); {
		case !pinned:
			fmt.Fprintf(&b, "  new check %s: %s\n      %s\n", o.ID, now, o.Detail)
		case was != now:
			fmt.Fprintf(&b, "  %s: was %s, now %s\n      %s\n", o.ID, was, now, o.Detail)
		}
	}
	for _, id := range order {
		if !seen[id] {
			fmt.Fprintf(&b, "  %s: was %s, the audit no longer has it\n", id, want[id])
		}
	}
	return b.String()
}

// TestLabThroughAudittest runs the lab's own standard filter through
// audittest from outside the lab's module, as a user's CI would: every check
// must pass or be skipped with a reason.
func TestLabThroughAudittest(t *testing.T) {
	audittest.Run(t, audit.MustLab(core.Variant{}, "", ""))
}
