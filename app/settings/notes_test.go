package settings

import (
	"slices"
	"testing"

	"github.com/bloomlab/bloomlab/core"
)

// Every control that means nothing to a layout says why, and only those.
func TestControlNotes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		v                    core.Variant
		hashes, bpk, hashing string
	}{
		{v: core.Standard},
		{v: core.CountingVariant},
		{v: core.BlockedVariant, hashing: "the scheme does not apply: the blocked filter draws its positions inside one block from a stream of its own"},
		{v: core.CuckooVariant, hashes: "k does not apply: a key has two buckets of four slots",
			hashing: "the scheme does not apply: the cuckoo filter finds its two buckets and its fingerprint in one SipHash output"},
		{v: core.FuseVariant, hashes: "k does not apply: a key has three cells",
			bpk:     "bits per key does not apply: the fuse filter sizes itself from n, about 1.125 n cells of f bits",
			hashing: "the scheme does not apply: the fuse filter finds its three cells in three consecutive segments from one hash"},
		{v: core.RibbonVariant, hashes: "k does not apply: a key selects about half the 64 rows from its start",
			bpk:     "bits per key does not apply: the Ribbon filter sizes itself from n, about 1.1 n rows of r bits",
			hashing: "the scheme does not apply: the ribbon filter selects its rows by a 64-bit coefficient from a start drawn from one hash"},
		{v: core.RibbonWideVariant, hashes: "k does not apply: a key selects about half the 128 rows from its start",
			bpk:     "bits per key does not apply: the Ribbon filter sizes itself from n, about 1.05 n rows of r bits",
			hashing: "the scheme does not apply: the ribbon-128 filter selects its rows by a 128-bit coefficient from a start drawn from one hash"},
	}
	for _, c := range cases {
		got := []string{ControlNote(c.v, IDHashes), ControlNote(c.v, IDOptimalK), ControlNote(c.v, IDBitsPerKey), ControlNote(c.v, IDHashing), ControlNote(c.v, IDItems)}
		want := []string{c.hashes, c.hashes, c.bpk, c.hashing, ""}
		if !slices.Equal(got, want) {
			t.Errorf("%s: notes\n %q\nwant\n %q", c.v, got, want)
		}
	}
}
