package compare

import (
	"fmt"
	"testing"

	"github.com/bloomlab/bloomlab/core"

	"github.com/bits-and-blooms/bloom/v3"
	"github.com/greatroar/blobloom"
	"github.com/zeebo/xxh3"
)

// The benchmarks put the lab's standard filter, bits-and-blooms and
// blobloom side by side at n = 10^6 and 10^7 keys of 24 bytes, each sized
// for a 1% rate: the lab's m = ceil(-n ln p / (ln 2)^2) and k = round((m/n)
// ln 2) for both standard filters (9.585 bits per key, k = 7), blobloom's own
// Optimize for blobloom (11 bits per key in 512-bit blocks, 7 bits per key),
// the sizing its README tells users to call. Every filter hashes the key
// itself (SipHash-2-4, murmur3, xxh3), and every call goes through the same
// interface. The lab's filter is timed a second time through its batched
// calls (lab-batched: AddBatch and ContainsBatch on core.BatchKeys keys at a
// time), on the same keys, filters and sizes.
//
//	cd compare && go test -run '^$' -bench . -benchtime 1x   # smoke test
//	cd compare && go test -run '^$' -bench '/n=1e6/' -count 5  # the comparison at 10^6
const (
	keyBytes = 24
	rate     = 0.01
	seed     = 1
)

var sizes = []struct {
	name string
	n    int
}{{"n=1e6", 1_000_000}, {"n=1e7", 10_000_000}}

// filter is what the benchmarks time: the audit's Filter.
type filter interface {
	Add(key []byte)
	Test(key []byte) bool
}

// labStandard gives core.Filter the Test the interface asks for.
type labStandard struct{ *core.Filter }

func (f labStandard) Test(key []byte) bool { ok, _ := f.Contains(key); return ok }

// contenders build each filter empty for n keys at 1%, and say how many
// bits it holds.
var contenders = []struct {
	name  string
	build func(n int) (filter, uint64)
}{
	{"lab-standard", func(n int) (filter, uint64) {
		m, k := labShape(n)
		f, err := core.NewFilter(m, k, seed)
		if err != nil {
			panic(err)
		}
		return labStandard{f}, m
	}},
	{"bits-and-blooms", func(n int) (filter, uint64) {
		m, k := labShape(n)
		return bitsAndBlooms{bloom.New(uint(m), uint(k))}, m
	}},
	{"blobloom", func(n int) (filter, uint64) {
		f := blobloom.NewOptimized(blobloom.Config{Capacity: uint64(n), FPRate: rate})
		return blobloomFilter{f, seed}, f.NumBits()
	}},
}

// labShape is the lab's m and k for n keys at 1%.
func labShape(n int) (uint64, int) {
	m, err := core.BitsFor(uint64(n), rate)
	if err != nil {
		panic(err)
	}
	return m, core.OptimalK(m, uint64(n))
}

// keySet is keys of one namespace back to back in one allocation: 10^7
// keys as separate slices would cost another 240 MB of headers and scatter
// them across the heap.
type keySet struct {
	ns  core.Namespace
	raw []byte
}

var members, absent = &keySet{ns: core.Members}, &keySet{ns: core.Absent}

// upTo makes sure the set holds keys 0 to n-1 and returns it. The keys of a
// smaller n are a prefix of a larger n's, so each key is made once.
func (s *keySet) upTo(n int) *keySet {
	have := len(s.raw) / keyBytes
	if have >= n {
		return s
	}
	raw := make([]byte, n*keyBytes)
	copy(raw, s.raw)
	var key []byte
	for i := have; i < n; i++ {
		key = core.Key(key, s.ns, uint64(i), seed, keyBytes)
		copy(raw[i*keyBytes:], key)
	}
	s.raw = raw
	return s
}

func (s *keySet) at(i int) []byte { return s.raw[i*keyBytes : (i+1)*keyBytes : (i+1)*keyBytes] }

// filled holds each contender filled with n members, built once per run and
// shared by the two query benchmarks.
var filled = map[string]filter{}

func fill(name string, n int, build func(int) (filter, uint64)) filter {
	id := fmt.Sprintf("%s/%d", name, n)
	if f, ok := filled[id]; ok {
		return f
	}
	keys := members.upTo(n)
	f, _ := build(n)
	for i := range n {
		f.Add(keys.at(i))
	}
	filled[id] = f
	return f
}

// labBatched is the name the batched benchmarks run under.
const labBatched = "lab-batched"

// batchOf points keys at up to core.BatchKeys keys of s from index j, at
// most limit of them, and returns how many.
func batchOf(keys *[core.BatchKeys][]byte, s *keySet, j, limit int) int {
	n := min(core.BatchKeys, limit)
	for i := range n {
		keys[i] = s.at(j + i)
	}
	return n
}

// labFilter builds the lab's standard filter empty for n keys at 1%.
func labFilter(n int) *core.Filter {
	f, _ := contenders[0].build(n)
	return f.(labStandard).Filter
}

// BenchmarkInsert adds distinct keys to a fresh filter: after n inserts the
// filter is rebuilt, outside the timer, so no key is ever added twice to the
// same filter and every insert sets bits the way a real load does.
func BenchmarkInsert(b *testing.B) {
	for _, size := range sizes {
		for _, c := range contenders {
			b.Run(size.name+"/"+c.name, func(b *testing.B) {
				n := size.n
				keys := members.upTo(n)
				f, bits := c.build(n)
				b.ReportAllocs()
				b.ResetTimer()
				for i, j := 0, 0; i < b.N; i, j = i+1, j+1 {
					if j == n {
						b.StopTimer()
						f, _ = c.build(n)
						j = 0
						b.StartTimer()
					}
					f.Add(keys.at(j))
				}
				b.ReportMetric(float64(bits)/float64(n), "bits/key")
			})
		}
		b.Run(size.name+"/"+labBatched, func(b *testing.B) {
			n := size.n
			keys := members.upTo(n)
			f := labFilter(n)
			var batch [core.BatchKeys][]byte
			b.ReportAllocs()
			b.ResetTimer()
			for i, j := 0, 0; i < b.N; {
				if j == n {
					b.StopTimer()
					f = labFilter(n)
					j = 0
					b.StartTimer()
				}
				c := batchOf(&batch, keys, j, min(b.N-i, n-j))
				f.AddBatch(batch[:c])
				i, j = i+c, j+c
			}
			b.ReportMetric(float64(f.M())/float64(n), "bits/key")
		})
	}
}

// queryBatched times the lab's ContainsBatch on the lab's filter filled
// with n members, over the n keys of s, and returns how many were found.
func queryBatched(b *testing.B, n int, s *keySet) int {
	f := fill(contenders[0].name, n, contenders[0].build).(labStandard).Filter
	keys := s.upTo(n)
	var (
		batch  [core.BatchKeys][]byte
		found  [core.BatchKeys]bool
		probes [core.BatchKeys]int
	)
	b.ReportAllocs()
	b.ResetTimer()
	hits := 0
	for i, j := 0, 0; i < b.N; {
		if j == n {
			j = 0
		}
		c := batchOf(&batch, keys, j, min(b.N-i, n-j))
		f.ContainsBatch(batch[:c], found[:c], probes[:c])
		for _, ok := range found[:c] {
			if ok {
				hits++
			}
		}
		i, j = i+c, j+c
	}
	b.StopTimer()
	return hits
}

// BenchmarkQueryPositive looks up members of a filter filled with n
// distinct keys; each must be found.
func BenchmarkQueryPositive(b *testing.B) {
	for _, size := range sizes {
		for _, c := range contenders {
			b.Run(size.name+"/"+c.name, func(b *testing.B) {
				n := size.n
				f := fill(c.name, n, c.build)
				keys := members.upTo(n)
				b.ReportAllocs()
				b.ResetTimer()
				for i, j := 0, 0; i < b.N; i, j = i+1, j+1 {
					if j == n {
						j = 0
					}
					if !f.Test(keys.at(j)) {
						b.Fatalf("member %d not found (%s, n = %d, seed %d)", j, c.name, n, seed)
					}
				}
			})
		}
		b.Run(size.name+"/"+labBatched, func(b *testing.B) {
			if hits := queryBatched(b, size.n, members); hits != b.N {
				b.Fatalf("%d of %d members not found (%s, n = %d, seed %d)", b.N-hits, b.N, labBatched, size.n, seed)
			}
		})
	}
}

// BenchmarkQueryNegative looks up keys never added, from the namespace the
// lab keeps apart from the members, and reports the share found.
func BenchmarkQueryNegative(b *testing.B) {
	for _, size := range sizes {
		for _, c := range contenders {
			b.Run(size.name+"/"+c.name, func(b *testing.B) {
				queryAbsent(b, c.name, fill(c.name, size.n, c.build), size.n, rate)
			})
		}
		b.Run(size.name+"/"+labBatched, func(b *testing.B) {
			fpr := float64(queryBatched(b, size.n, absent)) / float64(b.N)
			b.ReportMetric(fpr, "fp/query")
			if b.N >= 100_000 && fpr > 3*rate {
				b.Fatalf("false-positive rate %.4f, far above %v (%s, n = %d, seed %d)", fpr, rate, labBatched, size.n, seed)
			}
		})
	}
}

// hashSink keeps the hash benchmarks' results alive.
var hashSink uint64

// BenchmarkHash is a hash alone on the benchmarks' 24-byte keys: the lab's
// SipHash-2-4 one key at a time (core's BenchmarkSipBatch has it batched)
// and blobloom's xxh3. Against the filter benchmarks it shows how much of an
// operation is hashing. bits-and-blooms shows its murmur3 only through
// bloom.Locations, which allocates, so it is left out.
func BenchmarkHash(b *testing.B) {
	const n = 1 << 16
	keys := members.upTo(n)
	k0, k1 := core.SipKey(seed)
	b.Run("siphash-2-4", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			h1, h2 := core.Sip128(k0, k1, keys.at(i%n))
			hashSink += h1 ^ h2
		}
	})
	b.Run("xxh3", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			hashSink += xxh3.HashSeed(keys.at(i%n), seed)
		}
	})
}
