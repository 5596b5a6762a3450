package core

import (
	"fmt"
	"testing"
)

// fill inserts n member keys into f and returns them.
func fill(f Membership, n int, seed uint64) [][]byte {
	keys := make([][]byte, n)
	for i := range keys {
		keys[i] = Key(nil, Members, uint64(i), seed, 16)
		f.Add(keys[i])
	}
	return keys
}

func TestNoFalseNegatives(t *testing.T) {
	t.Parallel()
	shapes := []struct {
		m uint64
		k int
		n int
	}{{1, 1, 10}, {3, 10, 50}, {64, 1, 100}, {1000, 7, 100}, {997, 30, 500}, {40000, 7, 4000}, {4096, 64, 300}}
	for _, v := range Variants {
		if !v.Bloom() {
			continue // the cuckoo and fuse filters have their own tests
		}
		for _, s := range shapes {
			t.Run(fmt.Sprintf("%s/m=%d,k=%d,n=%d", v, s.m, s.k, s.n), func(t *testing.T) {
				f, err := New(v, NoFault, s.m, s.k, 3)
				if err != nil {
					t.Fatal(err)
				}
				for i, key := range fill(f, s.n, 3) {
					if ok, probes := f.Contains(key); !ok || probes != s.k {
						t.Fatalf("member %d: contains %v after %d probes (seed 3)", i, ok, probes)
					}
				}
			})
		}
	}
}

func TestBitAccounting(t *testing.T) {
	t.Parallel()
	for _, v := range Variants {
		if !v.Bloom() {
			continue
		}
		t.Run(v.Name(), func(t *testing.T) {
			f, _ := New(v, NoFault, 5003, 5, 9)
			written := map[uint64]bool{}
			var pos []uint64
			for _, key := range fill(f, 800, 9) {
				for _, j := range f.Positions(pos, key) {
					written[j] = true
				}
			}
			if f.SetBits() != f.Popcount() || f.SetBits() != uint64(len(written)) {
				t.Fatalf("set bits %d, popcount %d, distinct positions %d", f.SetBits(), f.Popcount(), len(written))
			}
			for j := range written {
				if !f.IsSet(j) {
					t.Fatalf("position %d was written but reads zero", j)
				}
			}
		})
	}
}

func TestDuplicateInsertsIdempotent(t *testing.T) {
	t.Parallel()
	for _, v := range []Variant{Standard, BlockedVariant} {
		f, _ := New(v, NoFault, 10000, 7, 5)
		keys := fill(f, 1000, 5)
		before := append([]uint64(nil), f.Words()...)
		for _, key := range keys {
			f.Add(key)
		}
		for i, w := range f.Words() {
			if w != before[i] {
				t.Fatalf("%s: word %d changed from %#x to %#x on replay", v, i, before[i], w)
			}
		}
	}
}

func TestBlockedStaysInOneBlock(t *testing.T) {
	t.Parallel()
	f, _ := NewBlocked(100_000, 12, 1)
	if f.M()%BlockSize != 0 || f.M() < 100_000 {
		t.Fatalf("m = %d, want a multiple of %d at least 100000", f.M(), BlockSize)
	}
	var pos []uint64
	for i := uint64(0); i < 1000; i++ {
		pos = f.Positions(pos, Key(nil, Members, i, 1, 16))
		for _, j := range pos {
			if j/BlockSize != pos[0]/BlockSize || j >= f.M() {
				t.Fatalf("key %d: positions %v leave the block of %d", i, pos, pos[0])
			}
		}
	}
}

func TestCountingSaturatesAndRemoves(t *testing.T) {
	t.Parallel()
	f, _ := NewCounting(1000, 4, 2)
	hot := Key(nil, Members, 0, 2, 16)
	for i := 0; i < 20; i++ {
		f.Add(hot)
	}
	if f.MaxCounter() != CounterMax || f.Overflows() == 0 {
		t.Fatalf("after 20 inserts: max counter %d, overflows %d; want 15 and some", f.MaxCounter(), f.Overflows())
	}
	for i := 0; i < 20; i++ {
		f.Remove(hot)
	}
	if ok, _ := f.Contains(hot); ok || f.SetBits() != 0 || f.Popcount() != 0 {
		t.Fatalf("after rollback: contains %v, set %d, popcount %d", ok, f.SetBits(), f.Popcount())
	}
	if f.Remove(hot) {
		t.Fatal("removing an absent key reported success")
	}
}

func TestWrapCountersFaultLosesKeys(t *testing.T) {
	t.Parallel()
	f, _ := New(CountingVariant, WrapCounters, 1000, 4, 2)
	hot := Key(nil, Members, 0, 2, 16)
	for i := 0; i < 16; i++ {
		f.Add(hot)
	}
	if ok, _ := f.Contains(hot); ok {
		t.Fatal("16 inserts into wrapping 4-bit counters should wrap them to zero")
	}
}

func TestFaultsMisbehave(t *testing.T) {
	t.Parallel()
	outOfRange := func(f Fault, m uint64) bool {
		b, _ := NewBroken(f, m, 7, 1)
		var pos []uint64
		for i := uint64(0); i < 5000; i++ {
			for _, j := range b.Positions(pos, Key(nil, Members, i, 1, 16)) {
				if j >= m {
					return true
				}
			}
		}
		return false
	}
	if !outOfRange(NegativeIndex, 1000) || !outOfRange(OffByOne, 3) {
		t.Error("the index faults stayed in range")
	}
	if outOfRange(OneHash, 1000) {
		t.Error("one-hash should stay in range")
	}
	if KFromCeil.ChooseK(3_117_613, 500_000) != 5 {
		t.Error("k-ceil should choose 5 at a 5% target")
	}
	b, _ := NewBroken(ClearOnDuplicate, 1000, 3, 1)
	key := Key(nil, Members, 1, 1, 16)
	b.Add(key)
	b.Add(key)
	if ok, _ := b.Contains(key); ok {
		t.Error("clear-on-duplicate kept the key after a duplicate insert")
	}
	if h1, _ := WeakHash.Hash128(refK0, refK1, nil); h1 == 0x726fdb47dd0e0e31 {
		t.Error("the weak hash matched SipHash")
	}
}

func TestNewRejectsBadShapes(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		m uint64
		k int
	}{{0, 1}, {MaxM + 1, 1}, {10, 0}, {10, MaxK + 1}} {
		for _, v := range Variants {
			if !v.UsesK() {
				continue
			}
			if _, err := New(v, NoFault, tt.m, tt.k, 1); err == nil {
				t.Errorf("New(%s, m=%d, k=%d) gave no error", v, tt.m, tt.k)
			}
		}
	}
}
