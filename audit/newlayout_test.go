package audit

import (
	"slices"
	"testing"

	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/coretest"
)

// TestNewLayoutIsChecked: a layout of bits registered from outside core,
// the word filter of core/coretest (one-word blocks), gets the books,
// idempotence and index checks from the registry, without an edit here,
// and passes them. It changes the registry, so it does not run in
// parallel: the parallel tests start once it has taken the layout out.
func TestNewLayoutIsChecked(t *testing.T) {
	_, unregister := coretest.RegisterWord()
	defer unregister()
	want := []string{"index-range/word-m-1", "index-range/word-m-1000",
		"idempotent/word", "idempotent/word-tiny-m", "idempotent/order-word",
		"accounting/word", "accounting/word-m-1000"}
	checks := Checks()
	target := MustLab(core.Standard, core.NoFault, "")
	for _, id := range want {
		i := slices.IndexFunc(checks, func(c Check) bool { return c.ID == id })
		if i < 0 {
			t.Errorf("no check %s in the list", id)
			continue
		}
		o, err := RunCheck(target, checks[i])
		if err != nil {
			t.Fatal(err)
		}
		if !o.Pass || o.Skipped {
			t.Errorf("%s on the word filter: %+v", id, o)
		}
	}
}
