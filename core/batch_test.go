package core

import (
	"fmt"
	"slices"
	"testing"
)

// batchKeyList returns n member keys or absent keys of seed, their lengths
// cycling through 8 to 40 bytes so that a batch mixes lengths.
func batchKeyList(ns Namespace, n int, seed uint64) [][]byte {
	keys := make([][]byte, n)
	for i := range keys {
		keys[i] = Key(nil, ns, uint64(i), seed, MinKeyBytes+i%33)
	}
	return keys
}

// inBatches calls do on keys cut into batches of size, the last one partial.
func inBatches(keys [][]byte, size int, do func(lo, hi int)) {
	for lo := 0; lo < len(keys); lo += size {
		do(lo, min(lo+size, len(keys)))
	}
}

// TestBatchMatchesKeyByKey fills one filter key by key and another in
// batches, and checks that they hold the same bits and set count and give
// the same answers and probe counts, key by key and batched, over shapes
// from one bit to a few million and k from 1 to 64, batch sizes from one
// key to more than BatchKeys with a partial last batch, and keys of 8 to 40
// bytes mixed in each batch (so the vector hash meets groups of one length
// and groups it must split).
func TestBatchMatchesKeyByKey(t *testing.T) {
	t.Parallel()
	const seed = 11
	// The last m is an 8 MiB array and a bit, larger than most caches.
	ms := []uint64{1, 2, 63, 64, 65, 1000, 40_000, 3_000_017, 1<<26 + 4099}
	ks := []int{1, 2, 3, 7, 13, 64}
	sizes := []int{1, 5, BatchKeys - 1, BatchKeys, BatchKeys + 1, 100, 1 << 30}
	falsePositives := 0
	for _, h := range Hashings {
		for _, m := range ms {
			for _, k := range ks {
				if h != DoubleHashing && (m > 40_000 || k == 13) {
					continue // the other schemes go key by key; a few shapes show it
				}
				// About half full: n k / m = ln 2, at least one key and at
				// most 3000.
				n := int(min(3000, max(1, m*7/10/uint64(k))))
				members := batchKeyList(Members, n, seed)
				queries := append(slices.Clone(members), batchKeyList(Absent, 3*n, seed)...)
				for _, size := range sizes {
					if size > 1 && size < 1<<30 && size > len(queries) {
						continue
					}
					t.Run(fmt.Sprintf("%s/m=%d/k=%d/n=%d/batch=%d", h, m, k, n, size), func(t *testing.T) {
						one, _ := NewFilterHashed(h, m, k, seed)
						many, _ := NewFilterHashed(h, m, k, seed)
						for _, key := range members {
							one.Add(key)
						}
						inBatches(members, size, func(lo, hi int) { many.AddBatch(members[lo:hi]) })
						if !slices.Equal(one.Words(), many.Words()) {
							t.Fatalf("batched inserts set other bits (seed %d)", seed)
						}
						if one.SetBits() != many.SetBits() || many.SetBits() != many.Popcount() {
							t.Fatalf("set bits: key by key %d, batched %d, popcount %d (seed %d)",
								one.SetBits(), many.SetBits(), many.Popcount(), seed)
						}
						found := make([]bool, len(queries))
						probes := make([]int, len(queries))
						inBatches(queries, size, func(lo, hi int) {
							many.ContainsBatch(queries[lo:hi], found[lo:hi], probes[lo:hi])
						})
						reads := map[int]bool{}
						for i, key := range queries {
							ok, read := one.Contains(key)
							if ok != found[i] || read != probes[i] {
								t.Fatalf("query %d: key by key %v after %d probes, batched %v after %d (seed %d)",
									i, ok, read, found[i], probes[i], seed)
							}
							if i < n && !ok {
								t.Fatalf("member %d not found (seed %d)", i, seed)
							}
							if i >= n {
								reads[read] = true
								falsePositives += btoi(ok)
							}
						}
						if halfFull := uint64(n) == m*7/10/uint64(k); halfFull && m >= 1000 && k > 1 && len(reads) < 2 {
							t.Fatalf("every absent key read the same number of positions: the test shows nothing (seed %d)", seed)
						}
					})
				}
			}
		}
	}
	if falsePositives == 0 {
		t.Error("no absent key was found: the answers yes were never compared")
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestBatchOtherFilters runs the package-level AddBatch and ContainsBatch
// on every variant and fault: the filters without batched operations go key
// by key and must give what Add and Contains give.
func TestBatchOtherFilters(t *testing.T) {
	t.Parallel()
	const seed, m, k, n = 5, 20_000, 5, 2000
	members := batchKeyList(Members, n, seed)
	queries := append(slices.Clone(members), batchKeyList(Absent, n, seed)...)
	for _, v := range Variants {
		for _, fault := range append([]Fault{NoFault}, Faults...) {
			if v.Accepts(fault) != nil {
				continue
			}
			t.Run(fmt.Sprintf("%s/%s", v, fault), func(t *testing.T) {
				t.Parallel()
				one, _ := New(v, fault, m, k, seed)
				many, _ := New(v, fault, m, k, seed)
				for _, key := range members {
					one.Add(key)
				}
				inBatches(members, 7, func(lo, hi int) { AddBatch(many, members[lo:hi]) })
				if !slices.Equal(one.Words(), many.Words()) || one.SetBits() != many.SetBits() {
					t.Fatalf("batched inserts set other bits or counts (seed %d)", seed)
				}
				found := make([]bool, len(queries))
				probes := make([]int, len(queries))
				inBatches(queries, 7, func(lo, hi int) { ContainsBatch(many, queries[lo:hi], found[lo:hi], probes[lo:hi]) })
				for i, key := range queries {
					if ok, read := one.Contains(key); ok != found[i] || read != probes[i] {
						t.Fatalf("query %d: key by key %v after %d probes, batched %v after %d (seed %d)",
							i, ok, read, found[i], probes[i], seed)
					}
				}
			})
		}
	}
}

// TestBatchAllocates checks that the batched calls allocate nothing.
func TestBatchAllocates(t *testing.T) {
	f, _ := NewFilter(100_000, 7, 1)
	keys := batchKeyList(Members, 100, 1)
	found, probes := make([]bool, len(keys)), make([]int, len(keys))
	if a := testing.AllocsPerRun(10, func() { f.AddBatch(keys) }); a != 0 {
		t.Errorf("AddBatch: %v allocations", a)
	}
	if a := testing.AllocsPerRun(10, func() { f.ContainsBatch(keys, found, probes) }); a != 0 {
		t.Errorf("ContainsBatch: %v allocations", a)
	}
	if a := testing.AllocsPerRun(10, func() { f.Add(keys[0]) }); a != 0 {
		t.Errorf("Add: %v allocations", a)
	}
}

func TestContainsBatchPanicsOnShortOutput(t *testing.T) {
	t.Parallel()
	f, _ := NewFilter(1000, 3, 1)
	keys := batchKeyList(Members, 3, 1)
	defer func() {
		if recover() == nil {
			t.Error("ContainsBatch took a found slice shorter than the keys")
		}
	}()
	f.ContainsBatch(keys, make([]bool, 2), make([]int, 3))
}

// BenchmarkBitsAlone is the batched filter with a trivial hash: SplitMix64
// of the key's index stands in for SipHash of the key, at the shapes of the
// compare module's benchmarks (n keys at 1%, k = 7, fresh filters, distinct
// keys). Beside compare's lab-batched figures and BenchmarkSipBatch it
// splits a key's time into hashing and memory.
func BenchmarkBitsAlone(b *testing.B) {
	for _, size := range []struct {
		name string
		n    uint64
	}{{"n=1e6", 1_000_000}, {"n=1e7", 10_000_000}} {
		m, _ := BitsFor(size.n, 0.01)
		k := OptimalK(m, size.n)
		hashes := func(h1, h2 []uint64, first uint64) {
			for i := range h1 {
				h1[i], h2[i] = SplitMix(first+uint64(i)), SplitMix(first+uint64(i)^0x5bd1e995)
			}
		}
		var h1, h2 [BatchKeys]uint64
		b.Run(size.name+"/insert", func(b *testing.B) {
			f, _ := NewFilter(m, k, 1)
			b.ReportAllocs()
			b.ResetTimer()
			for i, j := 0, uint64(0); i < b.N; i, j = i+BatchKeys, j+BatchKeys {
				if j >= size.n {
					b.StopTimer()
					f, _ = NewFilter(m, k, 1)
					j = 0
					b.StartTimer()
				}
				hashes(h1[:], h2[:], j)
				f.set += setBits(f.words, f.m, f.k, h1[:], h2[:])
			}
		})
		full, _ := NewFilter(m, k, 1)
		for j := uint64(0); j < size.n; j += BatchKeys {
			hashes(h1[:], h2[:], j)
			full.set += setBits(full.words, full.m, full.k, h1[:], h2[:])
		}
		for _, q := range []struct {
			name  string
			first uint64
		}{{"positive", 0}, {"negative", 1 << 40}} {
			b.Run(size.name+"/"+q.name, func(b *testing.B) {
				var found [BatchKeys]bool
				var probes [BatchKeys]int
				b.ReportAllocs()
				for i, j := 0, uint64(0); i < b.N; i, j = i+BatchKeys, (j+BatchKeys)%size.n {
					hashes(h1[:], h2[:], q.first+j)
					testBits(full.words, full.m, full.k, h1[:], h2[:], found[:], probes[:])
				}
			})
		}
	}
}
