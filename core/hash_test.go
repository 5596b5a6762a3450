package core

import (
	"fmt"
	"math"
	"testing"
)

// refKey is the SipHash reference key 00 01 .. 0f, as two little-endian words.
const refK0, refK1 = 0x0706050403020100, 0x0f0e0d0c0b0a0908

func TestSipReferenceVectors(t *testing.T) {
	t.Parallel()
	msg := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(i)
		}
		return b
	}
	// From the SipHash-2-4 reference implementation's vectors.
	for _, tt := range []struct {
		n    int
		want uint64
	}{{0, 0x726fdb47dd0e0e31}, {1, 0x74f839c593dc67fd}, {15, 0xa129ca6149be45e5}} {
		if got := Sip64(refK0, refK1, msg(tt.n)); got != tt.want {
			t.Errorf("SipHash-2-4(00..%02x) = %#x, want %#x", tt.n, got, tt.want)
		}
	}
}

func TestReduceInRange(t *testing.T) {
	t.Parallel()
	ms := []uint64{1, 2, 3, 7, 64, 65, 1 << 20, 1<<20 + 7, 1<<32 - 1, 1 << 32, 1<<32 + 1, 1<<40 + 3, MaxM}
	hs := []uint64{0, 1, math.MaxUint64, math.MaxUint64 - 1, 1 << 63, 0x9e3779b97f4a7c15}
	for _, m := range ms {
		for _, h := range hs {
			if got := Reduce(h, m); got >= m {
				t.Fatalf("Reduce(%#x, %d) = %d, out of range", h, m, got)
			}
		}
		for i := 0; i < 1000; i++ {
			if got := Probe(SplitMix(uint64(i)), SplitMix(^uint64(i)), i%MaxK, m); got >= m {
				t.Fatalf("Probe into m=%d gave %d", m, got)
			}
		}
	}
}

func TestKeysDisjointAndDeterministic(t *testing.T) {
	t.Parallel()
	seen := map[string]Namespace{}
	for _, ns := range []Namespace{Members, Absent} {
		for i := uint64(0); i < 20000; i++ {
			k := string(Key(nil, ns, i, 7, MinKeyBytes))
			if prev, ok := seen[k]; ok {
				t.Fatalf("key %x of namespace %d, index %d, repeats one of namespace %d", k, ns, i, prev)
			}
			seen[k] = ns
		}
	}
	a, b := Key(nil, Members, 42, 1, 24), Key(nil, Members, 42, 1, 24)
	if string(a) != string(b) || len(a) != 24 {
		t.Fatalf("Key is not deterministic: %x, %x", a, b)
	}
	if string(Key(nil, Members, 42, 2, 24)) == string(a) {
		t.Fatal("a new seed gave the same key")
	}
}

// A key is a prefix of the longer keys of the same index: the 16-byte
// keys of the experiments, made without the general loop, too.
func TestKeysArePrefixes(t *testing.T) {
	t.Parallel()
	for _, ns := range []Namespace{Members, Absent} {
		for i := uint64(0); i < 1000; i++ {
			long := Key(nil, ns, i, 9, 40)
			for _, n := range []int{8, 12, 16, 17, 24, 33} {
				if k := Key(nil, ns, i, 9, n); string(k) != string(long[:n]) {
					t.Fatalf("namespace %d index %d: the %d-byte key %x is not the start of the 40-byte %x", ns, i, n, k, long)
				}
			}
		}
	}
}

// BenchmarkKeys makes a batch of keys, as the experiments (16 bytes) and
// the lab (16 and 24 by default and a common choice) do.
func BenchmarkKeys(b *testing.B) {
	for _, n := range []int{16, 24} {
		b.Run(fmt.Sprintf("%dbytes", n), func(b *testing.B) {
			b.ReportAllocs()
			keys := make([][]byte, BatchKeys)
			first := uint64(0)
			for b.Loop() {
				Keys(keys, Absent, first, 1, n)
				first += BatchKeys
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*BatchKeys), "ns/key")
		})
	}
}

func TestTextKey(t *testing.T) {
	t.Parallel()
	if got := string(TextKey(nil, Members, 12)); got != "key-12" {
		t.Errorf("TextKey(Members, 12) = %q", got)
	}
	if got := string(TextKey(nil, Absent, 0)); got != "miss-0" {
		t.Errorf("TextKey(Absent, 0) = %q", got)
	}
}
