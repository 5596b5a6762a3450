package core

import (
	"fmt"
	"testing"
)

// TestSipBatchMatchesSip128 checks that the batched hash gives each key
// Sip128's two words for every key length from 0 to 80 bytes, in batches of
// one length, of lengths that change every key, every second key and every
// ninth, and of sizes from 1 to 3 vector groups and a partial one. Natively
// on amd64 this is the AVX2 kernel; under wasm it is the scalar path.
func TestSipBatchMatchesSip128(t *testing.T) {
	t.Parallel()
	k0, k1 := SipKey(7)
	key := func(i, n int) []byte {
		b := make([]byte, n)
		for j := range b {
			b[j] = byte(SplitMix(uint64(i*131+j)) >> 7)
		}
		return b
	}
	for n := 0; n <= 80; n++ {
		for _, every := range []int{1 << 30, 1, 2, 9} {
			for _, size := range []int{1, 2, 7, 8, 9, 3*sipLanes + 5} {
				keys := make([][]byte, size)
				for i := range keys {
					keys[i] = key(i, (n+i/every)%81)
				}
				h1, h2 := make([]uint64, size), make([]uint64, size)
				sipBatch(k0, k1, keys, h1, h2)
				for i, k := range keys {
					if a, b := Sip128(k0, k1, k); a != h1[i] || b != h2[i] {
						t.Fatalf("key %d of %d bytes (%x) in a batch of %d: batched %#x %#x, Sip128 %#x %#x (vector %v)",
							i, len(k), k, size, h1[i], h2[i], a, b, sipVector())
					}
				}
			}
		}
	}
}

// BenchmarkSipBatch is SipHash-2-4 alone on 16- and 24-byte keys, batched
// and one key at a time.
func BenchmarkSipBatch(b *testing.B) {
	for _, n := range []int{16, 24} {
		keys := make([][]byte, BatchKeys)
		for i := range keys {
			keys[i] = Key(nil, Members, uint64(i), 1, n)
		}
		var h1, h2 [BatchKeys]uint64
		b.Run(fmt.Sprintf("%dbytes/batched", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sipBatch(1, 2, keys, h1[:], h2[:])
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(keys)), "ns/key")
		})
		b.Run(fmt.Sprintf("%dbytes/one", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for i, key := range keys {
					h1[i], h2[i] = Sip128(1, 2, key)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(keys)), "ns/key")
		})
	}
}
