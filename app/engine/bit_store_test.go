package engine

import (
	"testing"

	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"
)

// TestStoreReadsSlots: the picture reads every cuckoo slot's fingerprint,
// the semi-sorted filter's too, whose storage is encoded, and the group is
// a bucket.
func TestStoreReadsSlots(t *testing.T) {
	t.Parallel()
	for _, v := range []core.Variant{core.CuckooVariant, core.SemiSortedVariant} {
		for _, bits := range []int{0, 12} {
			p := sim.Defaults()
			p.Variant, p.FingerprintBits, p.Items = v, bits, 3000
			r, err := sim.Run(p)
			if err != nil {
				t.Fatal(err)
			}
			c := r.Filter.(*core.Cuckoo)
			s := StoreOf(c)
			if s.Stride != uint(c.FingerprintBits()) || s.Group != core.CuckooSlots || s.M != c.M() {
				t.Fatalf("%s f=%d: stride %d, group %d, M %d", v, c.FingerprintBits(), s.Stride, s.Group, s.M)
			}
			nonzero := 0
			for i := range c.M() {
				if s.Value(i) != uint64(c.Fingerprint(i)) {
					t.Fatalf("%s f=%d: the picture reads %d in slot %d, the filter holds %d", v, c.FingerprintBits(), s.Value(i), i, c.Fingerprint(i))
				}
				if s.Value(i) != 0 {
					nonzero++
				}
			}
			if uint64(nonzero) != c.SetBits() {
				t.Fatalf("%s: %d slots drawn full, %d set", v, nonzero, c.SetBits())
			}
		}
	}
}
