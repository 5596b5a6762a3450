package core_test

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/core"
)

// keyRange is keys first to first+n-1 of the members under seed.
func keyRange(first, n int, seed uint64) [][]byte {
	keys := make([][]byte, n)
	for i := range keys {
		keys[i] = core.Key(nil, core.Members, uint64(first+i), seed, 16)
	}
	return keys
}

// built is a filter of spec s holding keys.
func built(t testing.TB, v core.Variant, s core.Spec, keys [][]byte) core.Membership {
	t.Helper()
	f, err := v.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range keys {
		f.Add(key)
	}
	return f
}

func TestUnionIsTheFilterOfBothKeySets(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		v core.Variant
		h core.Hashing
	}{{core.Standard, core.DoubleHashing}, {core.Standard, core.EnhancedDoubleHashing}, {core.Standard, core.IndependentHashing},
		{core.BlockedVariant, ""}, {core.CountingVariant, core.DoubleHashing}} {
		t.Run(fmt.Sprintf("%s/%s", c.v, c.h), func(t *testing.T) {
			const seed = 11
			s := core.Spec{M: 20_000, K: 5, Seed: seed, Hashing: c.h}
			a, b := keyRange(0, 1000, seed), keyRange(1000, 700, seed)
			fa, fb := built(t, c.v, s, a), built(t, c.v, s, b)
			both := built(t, c.v, s, append(slices.Clone(a), b...))
			u, err := core.Union(fa, fb)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(u.Filter.Words(), both.Words()) || u.Filter.SetBits() != both.SetBits() {
				t.Fatalf("union: %d set bits, the filter of both key sets %d; words equal %v (seed %d)",
					u.Filter.SetBits(), both.SetBits(), slices.Equal(u.Filter.Words(), both.Words()), seed)
			}
			if got := u.Filter.(core.Shaped).Inserted(); got != 1700 {
				t.Errorf("union counts %d keys inserted, want 1700", got)
			}
			if u.Saturated != 0 {
				t.Errorf("union saturated %d positions, want none", u.Saturated)
			}
			// The operands are left as they were.
			if fa.SetBits() == both.SetBits() || fa.Popcount() != fa.SetBits() {
				t.Errorf("union changed its operand: %d set bits", fa.SetBits())
			}
		})
	}
}

func TestCountingUnionSaturates(t *testing.T) {
	t.Parallel()
	const seed = 5
	s := core.Spec{M: 1000, K: 4, Seed: seed}
	key := []byte("repeated")
	a := built(t, core.CountingVariant, s, slices.Repeat([][]byte{key}, 10))
	b := built(t, core.CountingVariant, s, slices.Repeat([][]byte{key}, 9))
	u, err := core.Union(a, b)
	if err != nil {
		t.Fatal(err)
	}
	positions := len(slices.Compact(slices.Sorted(slices.Values(a.Positions(nil, key)))))
	c := u.Filter.(core.Counters)
	// Each of the key's positions holds 10 + 9 = 19 (more where the key
	// hits it twice), kept at 15.
	if u.Saturated != uint64(positions) || c.MaxCounter() != core.CounterMax {
		t.Fatalf("saturated %d counters (max %d), want the key's %d positions at %d", u.Saturated, c.MaxCounter(), positions, core.CounterMax)
	}
	if c.Overflows() < 4*uint64(positions) {
		t.Errorf("overflows %d, want at least the %d increments lost", c.Overflows(), 4*positions)
	}
	in, err := core.Intersect(a, b)
	if err != nil || in.Saturated != 0 {
		t.Fatalf("intersect: %v, %d saturated", err, in.Saturated)
	}
	for _, j := range a.Positions(nil, key) {
		if got, want := in.Filter.(core.Counters).Counter(j), b.(core.Counters).Counter(j); got != want {
			t.Errorf("intersection's counter %d is %d, want the smaller, %d", j, got, want)
		}
	}
}

func TestIntersection(t *testing.T) {
	t.Parallel()
	const seed, m, k = 23, 1 << 16, 5
	const na, nb, nboth = 6000, 5000, 2000
	for _, v := range []core.Variant{core.Standard, core.BlockedVariant, core.CountingVariant} {
		t.Run(v.Name(), func(t *testing.T) {
			s := core.Spec{M: m, K: k, Seed: seed}
			shared := keyRange(0, nboth, seed)
			a := append(slices.Clone(shared), keyRange(nboth, na-nboth, seed)...)
			b := append(slices.Clone(shared), keyRange(na, nb-nboth, seed)...)
			in, err := core.Intersect(built(t, v, s, a), built(t, v, s, b))
			if err != nil {
				t.Fatal(err)
			}
			for i, key := range shared {
				if ok, _ := in.Filter.Contains(key); !ok {
					t.Fatalf("the intersection says no to shared key %d (seed %d)", i, seed)
				}
			}
			// Every bit of the filter of the shared keys is in the AND.
			own := built(t, v, s, shared)
			for i := range own.M() {
				if own.IsSet(i) && !in.Filter.IsSet(i) {
					t.Fatalf("position %d is set by a shared key but not in the intersection", i)
				}
			}
			if v != core.Standard {
				return
			}
			// The AND's fill is Broder and Mitzenmacher's: 4 standard
			// deviations of a binomial count.
			and, ownFill := core.IntersectionFill(m, k, na, nb, nboth)
			want, sd := and*m, math.Sqrt(m*and*(1-and))
			if got := float64(in.Filter.SetBits()); math.Abs(got-want) > 4*sd {
				t.Errorf("intersection: %.0f bits set, the formula expects %.0f ± %.0f (the shared keys' own filter %.0f)", got, want, sd, ownFill*m)
			}
			if got, wantOwn := float64(own.SetBits()), ownFill*m; math.Abs(got-wantOwn) > 4*math.Sqrt(m*ownFill) {
				t.Errorf("shared keys' filter: %.0f bits set, want %.0f", got, wantOwn)
			}
		})
	}
}

func TestMergeRefuses(t *testing.T) {
	t.Parallel()
	base := core.Spec{M: 4096, K: 4, Seed: 7}
	with := func(f func(*core.Spec)) core.Spec { s := base; f(&s); return s }
	cases := []struct {
		name string
		v    core.Variant
		s    core.Spec
		want string
	}{
		{"seed", core.Standard, with(func(s *core.Spec) { s.Seed = 8 }), "core: cannot merge: seeds differ (7 and 8)"},
		{"m", core.Standard, with(func(s *core.Spec) { s.M = 8192 }), "core: cannot merge: m differs (4096 and 8192)"},
		{"k", core.Standard, with(func(s *core.Spec) { s.K = 5 }), "core: cannot merge: k differs (4 and 5)"},
		{"hashing", core.Standard, with(func(s *core.Spec) { s.Hashing = core.IndependentHashing }), "core: cannot merge: hashings differ (double and independent)"},
		{"two fields", core.Standard, with(func(s *core.Spec) { s.K, s.Seed = 3, 9 }), "core: cannot merge: k differs (4 and 3); seeds differ (7 and 9)"},
		{"layout", core.BlockedVariant, base, "core: cannot merge: layouts differ (standard and blocked)"},
		{"counters", core.CountingVariant, base, "core: cannot merge: layouts differ (standard and counting)"},
	}
	a := built(t, core.Standard, base, keyRange(0, 10, 7))
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := built(t, c.v, c.s, keyRange(0, 10, 7))
			for _, op := range []func(a, b core.Membership) (core.Merged, error){core.Union, core.Intersect} {
				_, err := op(a, b)
				if !errors.Is(err, core.ErrIncompatible) || err.Error() != c.want {
					t.Errorf("merge: %v, want %q", err, c.want)
				}
			}
		})
	}
	for _, v := range core.Variants {
		if v.Bloom() {
			continue
		}
		t.Run(v.Name(), func(t *testing.T) {
			f := built(t, v, core.Spec{M: 4096, K: 4, N: 100, Seed: 7}, keyRange(0, 100, 7))
			_, err := core.Union(f, f)
			if !errors.Is(err, core.ErrCannotMerge) || !strings.Contains(err.Error(), v.Name()+" filters cannot merge: ") {
				t.Errorf("union of %s: %v", v, err)
			}
		})
	}
}
