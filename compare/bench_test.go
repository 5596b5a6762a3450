package compare

import (
	"fmt"
	"sync"
	"testing"

	"bloomlab/core"

	"github.com/bits-and-blooms/bloom/v3"
)

const (
	keyBytes = 24
	target   = 0.01
	pool     = 1 << 20 // keys cycled through by the timed loops
	seed     = 1
)

// filter is the part of each contender the benchmarks use.
type filter interface {
	add(key []byte)
	test(key []byte) bool
}

type standard struct{ *core.Filter }

func (f standard) add(key []byte)       { f.Add(key) }
func (f standard) test(key []byte) bool { ok, _ := f.Contains(key); return ok }

type blocked struct{ *core.Blocked }

func (f blocked) add(key []byte)       { f.Add(key) }
func (f blocked) test(key []byte) bool { ok, _ := f.Contains(key); return ok }

type bb struct{ *bloom.BloomFilter }

func (f bb) add(key []byte)       { f.Add(key) }
func (f bb) test(key []byte) bool { return f.Test(key) }

// contenders builds each filter for n keys at 1%, all with the same m and k.
var contenders = []struct {
	name string
	make func(m uint64, k int) filter
}{
	{"lab-standard", func(m uint64, k int) filter { f, _ := core.NewFilter(m, k, seed); return standard{f} }},
	{"lab-blocked", func(m uint64, k int) filter { f, _ := core.NewBlocked(m, k, seed); return blocked{f} }},
	{"bits-and-blooms", func(m uint64, k int) filter { return bb{bloom.New(uint(m), uint(k))} }},
}

func keys(ns core.Namespace, count int) [][]byte {
	out := make([][]byte, count)
	for i := range out {
		out[i] = core.Key(nil, ns, uint64(i), seed, keyBytes)
	}
	return out
}

var (
	poolOnce            sync.Once
	members, absentKeys [][]byte
	filled              = map[string]filter{}
)

func setup(b *testing.B, name string, n int, build func(m uint64, k int) filter) filter {
	b.Helper()
	poolOnce.Do(func() { members, absentKeys = keys(core.Members, pool), keys(core.Absent, pool) })
	id := fmt.Sprintf("%s/%d", name, n)
	if f, ok := filled[id]; ok {
		return f
	}
	m, _ := core.BitsFor(uint64(n), target)
	f := build(m, core.OptimalK(m, uint64(n)))
	key := make([]byte, 0, keyBytes)
	for i := 0; i < n; i++ {
		f.add(core.Key(key, core.Members, uint64(i), seed, keyBytes))
	}
	filled[id] = f
	return f
}

func BenchmarkFilters(b *testing.B) {
	for _, n := range []int{1_000_000, 10_000_000} {
		for _, c := range contenders {
			b.Run(fmt.Sprintf("n=%d/%s/add", n, c.name), func(b *testing.B) {
				m, _ := core.BitsFor(uint64(n), target)
				f := c.make(m, core.OptimalK(m, uint64(n)))
				setup(b, c.name, 1, c.make) // the key pools
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					f.add(members[i&(pool-1)])
				}
			})
			b.Run(fmt.Sprintf("n=%d/%s/positive", n, c.name), func(b *testing.B) {
				f := setup(b, c.name, n, c.make)
				inserted := min(n, pool)
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if !f.test(members[i%inserted]) {
						b.Fatal("false negative")
					}
				}
			})
			b.Run(fmt.Sprintf("n=%d/%s/negative", n, c.name), func(b *testing.B) {
				f := setup(b, c.name, n, c.make)
				b.ReportAllocs()
				b.ResetTimer()
				hits := 0
				for i := 0; i < b.N; i++ {
					if f.test(absentKeys[i&(pool-1)]) {
						hits++
					}
				}
				if b.N > 100_000 && float64(hits)/float64(b.N) > 3*target {
					b.Fatalf("false-positive rate %.4f, far above %v", float64(hits)/float64(b.N), target)
				}
			})
		}
	}
}
