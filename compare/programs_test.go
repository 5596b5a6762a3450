package compare

import (
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/audit"
)

// slow runs the statistics group of the libraries too slow for it in make
// test (make audit-slow sets it).
var slow = flag.Bool("slow", false, "run every check of the slow libraries too")

// startProgram starts p's adapter, or skips t with how to install what it
// lacks; in CI (CI set) a missing part fails t instead, so that CI never
// passes by skipping, and so does -update (make golden), which must
// rewrite every pinned file.
func startProgram(t *testing.T, p Program) audit.Target {
	t.Helper()
	prog, err := p.Start(context.Background())
	if err != nil {
		if os.Getenv("CI") != "" || *update {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	t.Cleanup(prog.Close)
	target := prog.Target()
	if target.Name != p.Name {
		t.Fatalf("%s says hello as %q", p.Adapter, target.Name)
	}
	return target
}

// TestProgramVerdicts audits each filter of another language through its
// adapter and compares every verdict with the one pinned in testdata, as
// TestLibraryVerdicts does for the Go libraries. A slow library runs all
// but the statistics group unless -slow, and -update (make golden) keeps
// that group's pinned verdicts and runs only its checks not yet pinned:
// make audit-slow holds the rest, and -update -slow rewrites them.
func TestProgramVerdicts(t *testing.T) {
	for _, p := range Programs() {
		t.Run(p.Name, func(t *testing.T) {
			t.Parallel()
			target := startProgram(t, p)
			path := verdictsPath(p.Name)
			want, err := os.ReadFile(path)
			if err != nil && !*update {
				t.Fatalf("%v (run go test -run TestProgramVerdicts -update to pin today's verdicts)", err)
			}
			was := map[string]string{}
			for _, line := range strings.Split(string(want), "\n") {
				word, id, _ := strings.Cut(line, " ")
				was[id] = word
			}
			var which []int
			for i, c := range audit.Checks() {
				_, pinned := was[c.ID]
				if !p.Slow || *slow || c.Group != audit.GroupStatistics || (*update && !pinned) {
					which = append(which, i)
				}
			}
			outcomes := make([]audit.Outcome, len(audit.Checks()))
			err = audit.RunChecks(target, which, func(i int, o audit.Outcome) error { outcomes[i] = o; return nil })
			if err != nil {
				t.Fatal(err)
			}
			if *update {
				var b strings.Builder
				for i, c := range audit.Checks() {
					word := was[c.ID]
					if outcomes[i].ID != "" {
						word = verdictWord(outcomes[i])
					}
					fmt.Fprintf(&b, "%s %s\n", word, c.ID)
				}
				if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			var ran audit.Report
			for _, i := range which {
				ran.Checks = append(ran.Checks, outcomes[i])
			}
			if moved := diffVerdicts(pinnedOf(string(want), ran), ran); moved != "" {
				t.Errorf("%s: verdicts moved from %s (run with -update once the change is understood):\n%s", p.Name, path, moved)
			}
		})
	}
}

// pinnedOf keeps the pinned lines of the checks that ran.
func pinnedOf(pinned string, ran audit.Report) string {
	var keep []string
	for _, line := range strings.Split(pinned, "\n") {
		_, id, _ := strings.Cut(line, " ")
		if slices.ContainsFunc(ran.Checks, func(o audit.Outcome) bool { return o.ID == id }) {
			keep = append(keep, line)
		}
	}
	return strings.Join(keep, "\n")
}

// The seed's bug in the seed's language: a JavaScript filter whose signed
// index sends about half its writes nowhere loses members, and its rate
// reads below theory.
func TestSignedIndexInJavaScript(t *testing.T) {
	t.Parallel()
	p := Programs()[slices.IndexFunc(Programs(), func(p Program) bool { return p.Name == "js/signed-index" })]
	target := startProgram(t, p)
	for _, id := range []string{"no-false-negatives/optimal-k", "statistics/fpr/bits-per-key-10-k-7"} {
		c := audit.Checks()[slices.IndexFunc(audit.Checks(), func(c audit.Check) bool { return c.ID == id })]
		o, err := audit.RunCheck(target, c)
		if err != nil {
			t.Fatal(err)
		}
		if o.Pass || o.Skipped || (strings.HasPrefix(id, "statistics") && !strings.Contains(o.Detail, "ratio 0.")) {
			t.Errorf("%s: pass %v, skipped %v: %s", id, o.Pass, o.Skipped, o.Detail)
		}
		t.Logf("%s: %s", id, o.Detail)
	}
}
