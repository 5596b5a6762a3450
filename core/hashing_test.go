package core

import (
	"fmt"
	"testing"
)

// Every scheme keeps the contract: positions in range, what Add sets is
// what Positions names, no false negatives, the same bits every run.
func TestHashingSchemes(t *testing.T) {
	t.Parallel()
	digests := map[Hashing]string{}
	for _, h := range Hashings {
		for _, v := range []Variant{Standard, CountingVariant} {
			t.Run(fmt.Sprintf("%s/%s", h, v), func(t *testing.T) {
				const m, k, n = 2000, 7, 200
				f, err := NewHashed(v, NoFault, h, m, k, 5)
				if err != nil {
					t.Fatal(err)
				}
				key := make([]byte, 0, 16)
				var pos []uint64
				for i := uint64(0); i < n; i++ {
					key = Key(key, Members, i, 5, 16)
					pos = f.Positions(pos, key)
					for _, j := range pos {
						if j >= m {
							t.Fatalf("key %d: position %d of %d", i, j, m)
						}
					}
					f.Add(key)
					for _, j := range pos {
						if !f.IsSet(j) {
							t.Fatalf("key %d: position %d not set by Add", i, j)
						}
					}
				}
				for i := uint64(0); i < n; i++ {
					if ok, _ := f.Contains(Key(key, Members, i, 5, 16)); !ok {
						t.Fatalf("member %d answers no", i)
					}
				}
				if v == Standard {
					var d Digester
					d.Words(f.Words())
					digests[h] = d.Sum()
				}
			})
		}
	}
	t.Cleanup(func() {
		if digests[DoubleHashing] == digests[EnhancedDoubleHashing] || digests[DoubleHashing] == digests[IndependentHashing] {
			t.Errorf("schemes set the same bits: %v", digests)
		}
	})
}

// Enhanced double hashing is the authors' recurrence: a + i*b + (i^3 - i)/6
// mod m, with a and b the two hash halves reduced into [0, m).
func TestEnhancedDoubleHashingClosedForm(t *testing.T) {
	t.Parallel()
	const m, k = 1000, 12
	k0, k1 := SipKey(9)
	for _, key := range []string{"apple", "pear", "plum", ""} {
		h1, h2 := Sip128(k0, k1, []byte(key))
		a, b := Reduce(h1, m), Reduce(h2, m)
		got := EnhancedDoubleHashing.positions(nil, k0, k1, []byte(key), k, m)
		for i := uint64(0); i < k; i++ {
			if want := (a + i*b + (i*i*i-i)/6) % m; got[i] != want {
				t.Errorf("%q probe %d: %d, want %d", key, i, got[i], want)
			}
		}
	}
	// Double hashing through positions is Probe, as Add and Contains use.
	h1, h2 := Sip128(k0, k1, []byte("apple"))
	for i, j := range DoubleHashing.positions(nil, k0, k1, []byte("apple"), k, m) {
		if j != Probe(h1, h2, i, m) {
			t.Errorf("double probe %d: %d, want %d", i, j, Probe(h1, h2, i, m))
		}
	}
}
