package core

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

// buildRibbon seals a filter of width w and r-bit results over n member
// keys of seed.
func buildRibbon(t testing.TB, w, r, n int, seed uint64) (*Ribbon, [][]byte) {
	t.Helper()
	f, err := NewRibbonWidth(r, w, seed)
	if err != nil {
		t.Fatal(err)
	}
	return f, sealMembers(t, f, fmt.Sprintf("w=%d r=%d", w, r), n, seed)
}

// TestRibbonNoFalseNegatives builds every result width from 1 to 32 bits
// at both widths w over sets of 0 to 100,000 keys and looks every member
// up: its rows, the set bits of its coefficient, lie in its window of w
// rows and it reads each once.
func TestRibbonNoFalseNegatives(t *testing.T) {
	t.Parallel()
	if len(RibbonFingerprints) != 32 || RibbonFingerprints[0] != 1 || RibbonFingerprints[31] != 32 {
		t.Fatalf("ribbon widths %v, want 1 to 32", RibbonFingerprints)
	}
	for _, n := range []int{0, 1, 2, 3, 10, 64, 65, 100, 1000, 12345, 100000} {
		if n > 20000 && testing.Short() {
			continue
		}
		seeds := []uint64{1, 7, 2021}
		if n > 20000 {
			seeds = seeds[:1]
		}
		for _, w := range []int{RibbonWidth, RibbonWideWidth} {
			for _, r := range RibbonFingerprints {
				for _, seed := range seeds {
					t.Run(fmt.Sprintf("w=%d,n=%d,r=%d,seed=%d", w, n, r, seed), func(t *testing.T) {
						ribbonMembers(t, w, r, n, seed)
					})
				}
			}
		}
	}
}

// ribbonMembers is one case of TestRibbonNoFalseNegatives.
func ribbonMembers(t *testing.T, w, r, n int, seed uint64) {
	f, keys := buildRibbon(t, w, r, n, seed)
	if n > 0 && f.M() != RibbonRows(uint64(n), w) {
		t.Fatalf("m = %d rows, want %d", f.M(), RibbonRows(uint64(n), w))
	}
	if f.K() != w {
		t.Fatalf("K() = %d, want w = %d", f.K(), w)
	}
	var pos []uint64
	for i, k := range keys {
		pos = f.Positions(pos, k)
		ok, probes := f.Contains(k)
		if !ok || probes != len(pos) {
			t.Fatalf("member %d: contains %v after %d rows, has %d rows", i, ok, probes, len(pos))
		}
		if len(pos) == 0 || len(pos) > w || !slices.IsSorted(pos) ||
			pos[len(pos)-1]-pos[0] >= uint64(w) || pos[len(pos)-1] >= f.M() {
			t.Fatalf("member %d: rows %v in %d", i, pos, f.M())
		}
	}
	if f.SetBits() != f.Popcount() || f.SetBits() > uint64(n) {
		t.Fatalf("%d nonzero rows kept, %d counted, %d keys", f.SetBits(), f.Popcount(), n)
	}
}

// TestRibbonSolves checks the solution row by row against the equations it
// solves: for every member, the xor of the rows its coefficient selects is
// its result, computed here from the words directly.
func TestRibbonSolves(t *testing.T) {
	t.Parallel()
	for _, w := range []int{RibbonWidth, RibbonWideWidth} {
		for _, r := range []int{1, 7, 13, 32} {
			f, keys := buildRibbon(t, w, r, 5000, 3)
			for i, k := range keys {
				h, _ := Sip128(f.k0, f.k1, k)
				s, lo, hi, res := f.equation(h)
				c := [2]uint64{lo, hi}
				if lo&1 == 0 || s > f.m-uint64(w) || uint64(res) >= 1<<r || w == RibbonWidth && hi != 0 {
					t.Fatalf("w=%d r=%d member %d: start %d, coefficient %#x %#x, result %#x", w, r, i, s, hi, lo, res)
				}
				acc := uint64(0)
				for j := 0; j < w; j++ {
					if c[j/64]>>(j%64)&1 == 1 {
						off := (s + uint64(j)) * uint64(r)
						for b := uint64(0); b < uint64(r); b++ {
							acc ^= (f.words[(off+b)/64] >> ((off + b) % 64) & 1) << b
						}
					}
				}
				if acc != uint64(res) {
					t.Fatalf("w=%d r=%d member %d: rows xor to %#x, result %#x", w, r, i, acc, res)
				}
			}
		}
	}
}

// TestRibbonFailureRate bands the same keys under many construction seeds
// and counts the attempts that fail at the lab's m, at both widths: at
// most one in twenty at every n (TestRibbonRetries covers the retry),
// logged for the record. The sizes include those just below a power of
// ten, where ε is smallest for its n, and 200 keys, the worst measured at
// w = 128 (2.5%; 0.005 less slack fails 6%).
func TestRibbonFailureRate(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ w, n, attempts int }{
		{64, 100, 400}, {64, 1000, 400}, {64, 9000, 200}, {64, 90_000, 40}, {64, 200_000, 20},
		{128, 100, 400}, {128, 200, 1000}, {128, 999, 400}, {128, 1000, 400}, {128, 9999, 400}, {128, 10_000, 400},
		{128, 99_999, 100}, {128, 100_000, 100}, {128, 999_999, 40}, {128, 1_000_000, 40},
	} {
		if c.n > 20000 && testing.Short() {
			continue
		}
		t.Run(fmt.Sprintf("w=%d,n=%d", c.w, c.n), func(t *testing.T) {
			t.Parallel()
			f, _ := NewRibbon(7, 5)
			hashes := make([]uint64, c.n)
			for i, k := range fuseKeys(Members, 0, c.n, 5) {
				hashes[i], _ = Sip128(f.k0, f.k1, k)
			}
			m := RibbonRows(uint64(c.n), c.w)
			b := newRibbonBand(m, c.w)
			xs, tmp := make([]uint64, c.n), make([]uint64, c.n)
			fails, mix := 0, uint64(5)
			for range c.attempts {
				if !b.band(ribbonSorted(xs, tmp, hashes, mix), m, 7) {
					fails++
				}
				mix = SplitMix(mix)
			}
			t.Logf("w=%d n=%d, m=%d (ε = %.3f): %d of %d attempts failed", c.w, c.n, m, float64(m-uint64(c.n))/float64(c.n), fails, c.attempts)
			if fails*20 > c.attempts {
				t.Errorf("w=%d n=%d (keys and seeds 5): %d of %d attempts failed, want at most one in twenty", c.w, c.n, fails, c.attempts)
			}
		})
	}
}

// TestRibbonRows pins the sizes: ε = 0.05 + 0.01 a decimal digit of n at
// w = 64 and 0.01 a digit at w = 128, at least w rows.
func TestRibbonRows(t *testing.T) {
	for _, c := range []struct {
		w    int
		n, m uint64
	}{{64, 0, 64}, {64, 1, 64}, {64, 58, 64}, {64, 100, 108}, {64, 999, 1079}, {64, 1000, 1090},
		{64, 10_000, 11_000}, {64, 1_000_000, 1_120_000}, {64, ribbonMaxKeys, 2147483648 + 322122548},
		{128, 0, 128}, {128, 1, 128}, {128, 124, 128}, {128, 125, 129}, {128, 999, 1029}, {128, 1000, 1040},
		{128, 10_000, 10_500}, {128, 1_000_000, 1_070_000}, {128, ribbonMaxKeys, 2147483648 + 214748365}} {
		if got := RibbonRows(c.n, c.w); got != c.m {
			t.Errorf("RibbonRows(%d, %d) = %d, want %d", c.n, c.w, got, c.m)
		}
	}
}

// TestRibbonSet checks that the solution depends on the set of keys alone:
// the same keys in another order and repeated give the same words.
func TestRibbonSet(t *testing.T) {
	for _, w := range []int{RibbonWidth, RibbonWideWidth} {
		a, keys := buildRibbon(t, w, 9, 3000, 4)
		b, _ := NewRibbonWidth(9, w, 4)
		for pass := 0; pass < 2; pass++ {
			for _, k := range slices.Backward(keys) {
				b.Add(k)
			}
		}
		if err := b.Seal(); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(a.Words(), b.Words()) || b.Keys() != 3000 || b.Duplicates() != 3000 {
			t.Fatalf("w=%d: reordered and repeated keys: words equal %v, %d keys, %d duplicates", w, slices.Equal(a.Words(), b.Words()), b.Keys(), b.Duplicates())
		}
	}
}

// TestRibbonBadBits checks the result widths and the widths w refused.
func TestRibbonBadBits(t *testing.T) {
	for _, r := range []int{-1, 0, 33, 64} {
		if _, err := NewRibbon(r, 1); err == nil {
			t.Errorf("NewRibbon(%d) accepted", r)
		}
	}
	for _, w := range []int{0, 32, 63, 96, 127, 256} {
		if _, err := NewRibbonWidth(7, w, 1); err == nil {
			t.Errorf("NewRibbonWidth(7, %d) accepted", w)
		}
	}
}

// TestRibbonCoefficients checks the coefficient rows are uniform apart from
// their forced lowest bit: each other bit is set in half the rows.
// At w = 128 the high word must be drawn apart from the low: each bit of
// it is set in half the rows whatever the low word's bit in that place.
func TestRibbonCoefficients(t *testing.T) {
	const n = 20000
	var ones [RibbonWideWidth]int
	same := 0 // rows whose high word's lowest bit equals the low word's second
	for i := uint64(0); i < n; i++ {
		x := i * 0x9e3779b97f4a7c15
		_, c, _ := ribbonRowOf(x, 1<<20, 7)
		_, lo, hi, _ := ribbonWideRowOf(x, 1<<20, 7)
		if lo != c {
			t.Fatalf("x=%#x: the wide coefficient's low word %#x is not the 64-bit one %#x", x, lo, c)
		}
		for j := 0; j < RibbonWideWidth; j++ {
			ones[j] += int([2]uint64{lo, hi}[j/64] >> (j % 64) & 1)
		}
		same += int(^(hi ^ lo>>1) & 1)
	}
	if ones[0] != n {
		t.Fatalf("lowest bit set in %d of %d rows", ones[0], n)
	}
	bound := 5 * math.Sqrt(n/4)
	for j := 1; j < RibbonWideWidth; j++ {
		if d := math.Abs(float64(ones[j]) - n/2); d > bound {
			t.Errorf("bit %d set in %d of %d rows", j, ones[j], n)
		}
	}
	if d := math.Abs(float64(same) - n/2); d > bound {
		t.Errorf("bits 1 and 64 agree in %d of %d rows", same, n)
	}
}

// ribbonBuild fills a fresh filter of Ribbon variant v with keys and seals it.
func ribbonBuild(v Variant, n uint64, keys [][]byte) (Membership, error) {
	f, err := v.Build(Spec{N: n, FingerprintBits: 7, Seed: 1})
	if err != nil {
		return nil, err
	}
	for _, k := range keys {
		f.Add(k)
	}
	return f, f.(Sealer).Seal()
}

// BenchmarkRibbonAgainstBloom times the Ribbon filter at 7-bit results,
// w = 64 and w = 128, beside the standard Bloom filter at 1% (m from
// BitsFor, 9.585 bits per key, k = 7) at n = 10^6, on the path a user
// takes: a fresh filter, every key added (and the Ribbon filter sealed),
// then distinct member and absent keys queried. All live in one benchmark
// so that -count rounds interleave them:
//
//	go test ./core -run '^$' -bench RibbonAgainstBloom -count 6
func BenchmarkRibbonAgainstBloom(b *testing.B) {
	const n = 1_000_000
	keys := fuseKeys(Members, 0, n, 1)
	absent := fuseKeys(Absent, 0, n, 1)
	m, err := BitsFor(n, 0.01)
	if err != nil {
		b.Fatal(err)
	}
	builds := []struct {
		name  string
		build func() (Membership, error)
	}{
		{"ribbon-r7", func() (Membership, error) { return ribbonBuild(RibbonVariant, n, keys) }},
		{"ribbon128-r7", func() (Membership, error) { return ribbonBuild(RibbonWideVariant, n, keys) }},
		{"bloom-1pct", func() (Membership, error) {
			f, err := NewFilter(m, 7, 1)
			if err != nil {
				return nil, err
			}
			for _, k := range keys {
				f.Add(k)
			}
			return f, nil
		}},
	}
	for _, c := range builds {
		b.Run("build/"+c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.build(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/key")
		})
	}
	for _, c := range builds {
		f, err := c.build()
		if err != nil {
			b.Fatal(err)
		}
		for _, q := range []struct {
			name string
			keys [][]byte
		}{{"member", keys}, {"absent", absent}} {
			b.Run("query/"+c.name+"/"+q.name, func(b *testing.B) {
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					f.Contains(q.keys[i])
					if i++; i == len(q.keys) {
						i = 0
					}
				}
			})
		}
	}
}

// TestRadixSort checks the sort against slices.Sort at sizes on both sides
// of its threshold, with bytes all values share and with repeats.
func TestRadixSort(t *testing.T) {
	for _, n := range []int{0, 1, 100, 4095, 4096, 10000, 70000} {
		for _, mask := range []uint64{^uint64(0), 0x00ff00ff00ff00ff, 0xf0000000000000ff, 0} {
			xs, want := make([]uint64, n), make([]uint64, n)
			x := uint64(n)
			for i := range xs {
				x = SplitMix(x)
				xs[i] = x & mask
			}
			copy(want, xs)
			slices.Sort(want)
			if got := radixSort(xs, make([]uint64, n)); !slices.Equal(got, want) {
				t.Fatalf("n=%d mask %#x: not sorted", n, mask)
			}
		}
	}
}

// BenchmarkRibbonSort times what Seal sorts: 10^6 mixed hashes.
func BenchmarkRibbonSort(b *testing.B) {
	hashes := make([]uint64, 1_000_000)
	for i := range hashes {
		hashes[i] = SplitMix(uint64(i))
	}
	xs, tmp := make([]uint64, len(hashes)), make([]uint64, len(hashes))
	for _, c := range []struct {
		name string
		sort func()
	}{{"radix", func() { radixSort(xs, tmp) }}, {"slices", func() { slices.Sort(xs) }}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				copy(xs, hashes)
				c.sort()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(hashes)), "ns/key")
		})
	}
}

// TestRibbonBandOrder bands the same rows sorted and shuffled and checks
// that back-substitution gives the same Z: the solution depends on the set
// of rows alone.
func TestRibbonBandOrder(t *testing.T) {
	for _, w := range []int{RibbonWidth, RibbonWideWidth} {
		f, _ := buildRibbon(t, w, 11, 3000, 8)
		xs := ribbonSorted(make([]uint64, len(f.hashes)), make([]uint64, len(f.hashes)), f.hashes, f.mix)
		for i := len(xs) - 1; i > 0; i-- { // a fixed Fisher-Yates shuffle
			j := SplitMix(uint64(i)) % uint64(i+1)
			xs[i], xs[j] = xs[j], xs[i]
		}
		b := newRibbonBand(f.m, w)
		if !b.band(xs, f.m, f.bits) {
			t.Fatalf("w=%d: the shuffled rows did not band", w)
		}
		g := &Ribbon{packedCells: packedCells{bits: f.bits}, width: w}
		g.alloc(f.m)
		g.solve(&b)
		if !slices.Equal(f.words, g.words) {
			t.Fatalf("w=%d: shuffled rows gave another solution", w)
		}
	}
}
