package core

import (
	"fmt"
	"math/bits"
	"slices"
	"testing"

	"github.com/dchest/siphash"
)

// Every layout's explanation ends in the positions the filter itself
// gives, and its numbers are the arithmetic worked again here from the
// SipHash library and the formulas, not from core's helpers.
func TestExplain(t *testing.T) {
	t.Parallel()
	type build struct {
		v Variant
		h Hashing
	}
	var builds []build
	for _, v := range Variants {
		if v.Hashings() {
			for _, h := range Hashings {
				builds = append(builds, build{v, h})
			}
			continue
		}
		builds = append(builds, build{v, ""})
	}
	const seed = 42
	k0, k1 := SplitMix(seed), SplitMix(seed^0x6a09e667f3bcc909)
	reduce := func(h, m uint64) uint64 { hi, _ := bits.Mul64(h, m); return hi }
	for _, b := range builds {
		f, err := b.v.Build(Spec{M: 4096, K: 7, N: 300, Seed: seed, Hashing: b.h})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 300 {
			f.Add([]byte(fmt.Sprintf("member %d", i)))
		}
		for _, key := range []string{"apple", "pear", "", "member 7", "a key of some length, with a comma"} {
			name := fmt.Sprintf("%s/%s %q", b.v.Name(), b.h, key)
			e, ok := Explain(f, []byte(key))
			if !ok {
				t.Fatalf("%s: not explained", name)
			}
			if e.K0 != k0 || e.K1 != k1 {
				t.Fatalf("%s: SipHash key (%x, %x), want (%x, %x)", name, e.K0, e.K1, k0, k1)
			}
			h1, h2 := siphash.Hash128(k0, k1, []byte(key))
			if e.H1 != h1 || e.H2 != h2 {
				t.Fatalf("%s: h1, h2 = %x, %x, want %x, %x", name, e.H1, e.H2, h1, h2)
			}
			var got []uint64
			for _, s := range e.Steps {
				got = append(got, s.Position)
			}
			if want := f.Positions(nil, []byte(key)); !slices.Equal(got, want) || !slices.Equal(e.Positions, want) {
				t.Fatalf("%s: steps end in %v, the filter gives %v", name, got, want)
			}
			if e.Links != nil {
				// Link i is keyed by seed + i·0x9e3779b97f4a7c15 and
				// probed by double hashing inside its own m bits.
				steps := e.Steps
				for i, l := range e.Links {
					ls := uint64(seed) + uint64(i)*0x9e3779b97f4a7c15
					lk0, lk1 := SplitMix(ls), SplitMix(ls^0x6a09e667f3bcc909)
					lh1, lh2 := siphash.Hash128(lk0, lk1, []byte(key))
					if l.K0 != lk0 || l.K1 != lk1 || l.H1 != lh1 || l.H2 != lh2 {
						t.Fatalf("%s: link %d %+v, want key (%x, %x), halves (%x, %x)", name, i, l, lk0, lk1, lh1, lh2)
					}
					for j, s := range steps[:l.K] {
						if g := lh1 + uint64(j)*(lh2|1); s.G != g || s.Position != l.Start+reduce(g, l.M) {
							t.Fatalf("%s: link %d probe %d g = %d -> %d", name, i, j, s.G, s.Position)
						}
					}
					steps = steps[l.K:]
				}
				continue
			}
			m := f.M()
			for i, s := range e.Steps {
				switch {
				case e.Scheme == string(DoubleHashing):
					if g := h1 + uint64(i)*(h2|1); s.G != g || s.Position != reduce(g, m) {
						t.Fatalf("%s: probe %d g = %d -> %d", name, i, s.G, s.Position)
					}
				case e.Scheme == string(IndependentHashing):
					if s.Position != reduce(s.G, m) {
						t.Fatalf("%s: probe %d g = %d -> %d", name, i, s.G, s.Position)
					}
				case e.Scheme == string(EnhancedDoubleHashing):
					if i == 0 && (s.A != reduce(h1, m) || s.B != reduce(h2, m)) {
						t.Fatalf("%s: a, b = %d, %d", name, s.A, s.B)
					}
				case e.Blocked != nil:
					if s.Position != e.Blocked.Base+(s.G>>s.Shift&511) || e.Blocked.Block != reduce(h1, e.Blocked.Blocks) {
						t.Fatalf("%s: slot %d = %d from g %x >> %d", name, i, s.Position, s.G, s.Shift)
					}
				case e.Cuckoo != nil:
					c := e.Cuckoo
					if c.Fingerprint != 1+reduce(h2, 1<<c.FingerprintBits-1) || c.Bucket1 != reduce(h1, c.Buckets) || c.Bucket2 != (c.G+c.Buckets-c.Bucket1)%c.Buckets {
						t.Fatalf("%s: %+v", name, c)
					}
				case e.Fuse != nil:
					if e.Fuse.Fingerprint != (e.Fuse.X^e.Fuse.X>>32)&(1<<e.Fuse.FingerprintBits-1) {
						t.Fatalf("%s: %+v", name, e.Fuse)
					}
				case e.Ribbon != nil:
					r := e.Ribbon
					x := SplitMix(h1 + r.ConstructionSeed)
					high := uint64(0)
					if r.Width == 128 {
						high = SplitMix(x ^ 0xa54ff53a5f1d36f1)
					}
					c := [2]uint64{r.Coefficient, r.CoefficientHigh}
					if r.Width != f.K() || r.X != x || r.Start != reduce(x, m-uint64(r.Width)+1) || r.Coefficient != SplitMix(x^0x3c6ef372fe94f82b)|1 || r.CoefficientHigh != high ||
						r.Fingerprint != x&(1<<r.FingerprintBits-1) || s.Position != r.Start+uint64(s.Shift) || c[s.Shift/64]>>(s.Shift%64)&1 != 1 || s.G != c[s.Shift/64] {
						t.Fatalf("%s: row %d: %+v, %+v", name, i, s, r)
					}
				default:
					t.Fatalf("%s: scheme %q has no check", name, e.Scheme)
				}
			}
		}
	}
}

// A filter of the fault zoo computes its positions its own broken way:
// nothing to explain.
func TestExplainFault(t *testing.T) {
	t.Parallel()
	f, err := Standard.Build(Spec{M: 1000, K: 3, Seed: 1, Fault: NegativeIndex})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := Explain(f, []byte("apple")); ok {
		t.Error("a faulty filter's positions were explained")
	}
}
