package audit

import (
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/core"
)

// The lab's scalable filter passes every check it runs. It is a chain that
// grows and places keys by their order, so the checks that hold a filter
// to its built shape (the reverse-order storage and the rate past n) are
// skipped with that reason (and the two count checks, which read a fill of
// its m bits), and those of a Bloom filter's own books,
// whose positions it reports for a query rather than for an insert; core
// neither saves nor merges it.
func TestScalablePassesEveryCheck(t *testing.T) {
	wholeZoo(t)
	r, err := Run(MustLab(core.ScalableVariant, "", ""), nil)
	if err != nil {
		t.Fatal(err)
	}
	fixed := 0
	for _, o := range r.Checks {
		switch {
		case o.Skipped && strings.Contains(o.Detail, string(NeedFixed)):
			fixed++
		case o.Skipped && !strings.Contains(o.Detail, string(NeedBloom)) && !strings.Contains(o.Detail, "removal") &&
			!strings.Contains(o.Detail, "saving") && !strings.Contains(o.Detail, "merging"):
			t.Errorf("%s skipped: %s", o.ID, o.Detail)
		case !o.Skipped && !o.Pass:
			t.Errorf("%s failed on the scalable filter: %s", o.ID, o.Detail)
		}
	}
	if want := 1 + len(pastN) + 2; fixed != want || r.Failed != 0 || r.Passed < 150 {
		t.Errorf("%d checks skipped for a fixed shape (want %d), %d passed, %d failed", fixed, want, r.Passed, r.Failed)
	}
}
