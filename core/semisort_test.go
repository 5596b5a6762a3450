package core

import (
	"slices"
	"testing"
)

// TestSemiSortedCodec: the table numbers every sorted quadruple of 4-bit
// prefixes below C(19,4) = 3876, and every bucket of four fingerprints
// (empty slots included) comes back from its 4(f-1) stored bits as the same
// multiset, in ascending order.
func TestSemiSortedCodec(t *testing.T) {
	t.Parallel()
	tab := semiTable()
	seen := map[uint16]bool{}
	for code, q := range tab.dec {
		if int(tab.enc[q]) != code || seen[q] {
			t.Fatalf("code %d: quadruple %04x encodes to %d or repeats", code, q, tab.enc[q])
		}
		seen[q] = true
		if !(q&15 <= q>>4&15 && q>>4&15 <= q>>8&15 && q>>8&15 <= q>>12) {
			t.Fatalf("code %d: quadruple %04x is not sorted", code, q)
		}
	}
	for _, f := range SemiSortedFingerprints {
		mask := uint64(1)<<f - 1
		for i := range uint64(20_000) {
			r := SplitMix(uint64(f)<<32 | i)
			var in []uint64
			var b uint64
			for j := range uint(CuckooSlots) {
				v := r >> (16 * j) & mask
				if r>>(60+j)&1 == 0 && i%3 == 0 {
					v = 0 // some empty slots
				}
				in = append(in, v)
				b |= v << (j * uint(f))
			}
			enc := tab.encode(b, uint(f))
			if enc>>(CuckooSlots*(f-1)) != 0 || enc&(1<<semiCodeBits-1) >= semiCodecs {
				t.Fatalf("f=%d: bucket %x encodes to %x, past 4(f-1) = %d bits or code %d", f, b, enc, 4*(f-1), enc&(1<<semiCodeBits-1))
			}
			dec := tab.decode(enc, uint(f))
			var out []uint64
			for j := range uint(CuckooSlots) {
				out = append(out, dec>>(j*uint(f))&mask)
			}
			slices.Sort(in)
			if !slices.Equal(in, out) {
				t.Fatalf("f=%d: %v comes back as %v", f, in, out)
			}
		}
	}
}

// TestSemiSortedStorage: a bucket takes 4(f-1) bits, so a budget holds
// floor(m / 4(f-1)) buckets, the storage is no longer than that, each
// bucket's slots read in ascending order, and Slots lays them out as the
// plain filter stores the same fingerprints.
func TestSemiSortedStorage(t *testing.T) {
	t.Parallel()
	for _, f := range SemiSortedFingerprints {
		for _, m := range []uint64{1, 100, 12_345} {
			c, err := NewSemiSortedCuckoo(m, f, 3)
			if err != nil {
				t.Fatal(err)
			}
			buckets := max(1, m/uint64(4*(f-1)))
			if c.Buckets() != buckets || c.MemoryBits() != buckets*uint64(4*(f-1)) || uint64(len(c.Words())) != (c.MemoryBits()+63)/64 || !c.SemiSorted() {
				t.Fatalf("f=%d m=%d: %d buckets, %d bits in %d words", f, m, c.Buckets(), c.MemoryBits(), len(c.Words()))
			}
			keys := cuckooKeys(Members, int(c.M())*9/10, 3)
			for _, key := range keys {
				c.Add(key)
			}
			plain := Cuckoo{f: c.f, bw: CuckooSlots * c.f, words: c.Slots()}
			for s := range c.M() {
				if s%CuckooSlots > 0 && c.Fingerprint(s-1) > c.Fingerprint(s) {
					t.Fatalf("f=%d m=%d: slot %d holds %d after %d", f, m, s, c.Fingerprint(s), c.Fingerprint(s-1))
				}
				if plain.Fingerprint(s) != c.Fingerprint(s) {
					t.Fatalf("f=%d m=%d: Slots has %d in slot %d, the filter %d", f, m, plain.Fingerprint(s), s, c.Fingerprint(s))
				}
			}
			if pad := c.MemoryBits() % 64; pad != 0 && c.Words()[len(c.Words())-1]>>pad != 0 {
				t.Fatalf("f=%d m=%d: a write spilled into the padding", f, m)
			}
			checkCuckoo(t, c, keys, 3)
		}
	}
}

// TestSemiSortedSavesABit: in the same budget the semi-sorted table has
// f/(f-1) times the plain one's buckets, so at 8 bits it holds 8/7 as many
// keys before its first failed insert, at the same load.
func TestSemiSortedSavesABit(t *testing.T) {
	t.Parallel()
	const m, seed = 8 * 4 * 4096, 21
	var held [2]int
	for li, l := range cuckooLayouts {
		c := l.new(t, m, 8, seed)
		for c.Failures() == 0 {
			c.Add(Key(nil, Members, c.Count(), seed, 16))
		}
		held[li] = int(c.Count())
		t.Logf("%s: %d buckets, first failure at load %.4f, %d keys", l.name, c.Buckets(), c.Load(), c.Count())
		if c.Load() < 0.9 {
			t.Errorf("%s: first failure at load %.4f, want above 0.9", l.name, c.Load())
		}
	}
	if r := float64(held[1]) / float64(held[0]); r < 1.1 || r > 1.19 {
		t.Fatalf("the semi-sorted table held %d keys, the plain one %d: ratio %.3f, want about 8/7", held[1], held[0], r)
	}
}

// BenchmarkCuckooSemiSorted times the semi-sorted filter beside the plain
// cuckoo filter and the standard Bloom filter at n = 10^6, per key, on the
// path the lab's runs take (AddBatch and ContainsBatch, BatchKeys keys a
// call): both cuckoo filters with 12-bit fingerprints at 90% of their
// slots, the Bloom filter at the rate they share (CuckooRate(12, 0.9),
// 0.176%) and its best k. Inserts go into fresh filters with distinct keys.
// The filters are sub-benchmarks of one benchmark, so -count rounds
// interleave them.
func BenchmarkCuckooSemiSorted(b *testing.B) {
	const n = 1_000_000
	buckets := uint64((n*10 + 35) / 36)
	bloomM, _ := BitsFor(n, CuckooRate(12, 0.9))
	filters := []struct {
		name string
		make func() Membership
	}{
		{"standard", func() Membership { f, _ := NewFilter(bloomM, OptimalK(bloomM, n), 1); return f }},
		{"cuckoo", func() Membership { f, _ := NewCuckoo(buckets*4*12, 12, 1); return f }},
		{"cuckoo-ss", func() Membership { f, _ := NewSemiSortedCuckoo(buckets*4*11, 12, 1); return f }},
	}
	keys := cuckooKeys(Members, n, 1)
	absent := cuckooKeys(Absent, n, 1)
	for _, fl := range filters {
		b.Run("insert/"+fl.name+"/n=1e6", func(b *testing.B) {
			f := fl.make()
			b.ReportAllocs()
			b.ResetTimer()
			for i, j := 0, 0; i < b.N; i, j = i+BatchKeys, j+BatchKeys {
				if j == n {
					b.StopTimer()
					f, j = fl.make(), 0
					b.StartTimer()
				}
				AddBatch(f, keys[j:j+BatchKeys])
			}
		})
	}
	found, probes := make([]bool, BatchKeys), make([]int, BatchKeys)
	for _, fl := range filters {
		f := fl.make()
		AddBatch(f, keys)
		for _, q := range []struct {
			name string
			keys [][]byte
		}{{"negative", absent}, {"positive", keys}} {
			b.Run("query-"+q.name+"/"+fl.name+"/n=1e6", func(b *testing.B) {
				b.ReportAllocs()
				for i, j := 0, 0; i < b.N; i, j = i+BatchKeys, (j+BatchKeys)%n {
					ContainsBatch(f, q.keys[j:j+BatchKeys], found, probes)
				}
			})
		}
	}
}
