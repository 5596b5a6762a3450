// Package audittest puts a Bloom filter through Bloom Lab's audit from a
// Go test, the way testing/fstest checks a file system: one subtest per
// check, failing with the check's ID and detail, skipped (with the reason)
// where the filter does not show what the check needs.
//
//	func TestMyFilterContract(t *testing.T) {
//		audittest.Run(t, audit.Target{
//			Name: "myfilter",
//			New: func(s audit.Shape) (audit.Filter, error) {
//				return myfilter.New(s.M, s.K), nil
//			},
//		})
//	}
//
// Run go test -short to leave out the statistics group, the slowest.
package audittest

import (
	"testing"

	"github.com/bloomlab/bloomlab/audit"
)

// Run runs every check of the audit on target as a subtest of t, named by
// the check's ID. With -short it skips the statistics group.
func Run(t *testing.T, target audit.Target) {
	t.Helper()
	for _, c := range audit.Checks() {
		t.Run(c.ID, func(t *testing.T) {
			if testing.Short() && c.Group == audit.GroupStatistics {
				t.Skip("statistics checks are skipped with -short")
			}
			o, err := audit.RunCheck(target, c)
			switch {
			case err != nil:
				t.Fatal(err)
			case o.Skipped:
				t.Skip(o.Detail)
			case !o.Pass:
				t.Errorf("%s: %s\n%s", o.ID, o.Contract, o.Detail)
			}
		})
	}
}
