package lab

import (
	"slices"
	"testing"

	"github.com/bloomlab/bloomlab/core"
)

// TestSelectWidths: the select lists a short list of widths whole, and of
// the fuse filter's 1 to 32 the common ones, with the current width where
// a link chose another.
func TestSelectWidths(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		allowed []int
		current int
		want    []int
	}{
		{core.CuckooFingerprints, 0, []int{8, 12, 16}},
		{core.CuckooFingerprints, 12, []int{8, 12, 16}},
		{core.FuseFingerprints, 0, []int{4, 5, 6, 7, 8, 10, 12, 16, 20, 24, 32}},
		{core.FuseFingerprints, 7, []int{4, 5, 6, 7, 8, 10, 12, 16, 20, 24, 32}},
		{core.FuseFingerprints, 1, []int{1, 4, 5, 6, 7, 8, 10, 12, 16, 20, 24, 32}},
		{core.FuseFingerprints, 13, []int{4, 5, 6, 7, 8, 10, 12, 13, 16, 20, 24, 32}},
		{core.FuseFingerprints, 33, []int{4, 5, 6, 7, 8, 10, 12, 16, 20, 24, 32}},
	} {
		if got := selectWidths(c.allowed, c.current); !slices.Equal(got, c.want) {
			t.Errorf("%d of %v: %v, want %v", c.current, c.allowed, got, c.want)
		}
	}
}
