package system_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"
	"github.com/bloomlab/bloomlab/core/system"
)

var all = system.Stories{Salt: true, Stale: true, Replicas: true}

func build(t *testing.T, p system.Params) system.Result {
	t.Helper()
	r, err := system.Build(p, nil)
	if err != nil {
		t.Fatalf("seed %d: %v", p.Lab.Seed, err)
	}
	return r
}

// member is the lab's i-th member key under seed.
func member(p sim.Params, i uint64) []byte {
	return core.Key(nil, core.Members, i, p.Seed, p.KeyBytes)
}

// filterOf is a filter of p's shape hashed with seed, holding members
// first to last-1, built key by key with core alone.
func filterOf(t *testing.T, p sim.Params, seed, first, last uint64) core.Membership {
	t.Helper()
	m, k := p.Shape()
	f, err := p.Variant.Build(core.Spec{M: m, K: k, N: uint64(p.Items), Seed: seed, Hashing: p.Hashing, Fault: core.NoFault})
	if err != nil {
		t.Fatal(err)
	}
	for i := first; i < last; i++ {
		f.Add(member(p, i))
	}
	return f
}

func TestUnionIsOneFilterOverBothSets(t *testing.T) {
	t.Parallel()
	for _, shared := range []int{0, 1000} {
		p := system.Params{Lab: sim.Defaults(), Shared: shared}
		r := build(t, p)
		n, s := uint64(p.Lab.Items), uint64(shared)
		both := filterOf(t, p.Lab, p.Lab.Seed, 0, 2*n-s)
		if !r.SameBits || !slices.Equal(r.Union.Words(), both.Words()) || r.Union.SetBits() != both.SetBits() || r.BothSetBits != both.SetBits() {
			t.Fatalf("shared %d: the union has %d set bits, one filter over both sets %d (same words: %v, seed %d)",
				shared, r.Union.SetBits(), both.SetBits(), r.SameBits, p.Lab.Seed)
		}
		if want := p.Lab.Variant.Theory(both, 2*n-s).Rate; r.RateUnion.Theory != want || r.RateUnion.FalsePositives == 0 {
			t.Errorf("shared %d: the union's theory %v (%d false positives), one filter's over %d keys %v", shared, r.RateUnion.Theory, r.RateUnion.FalsePositives, 2*n-s, want)
		}
		t.Logf("shared %d: m %d, k %d, union %d set bits, rate %v measured, %v theory; keys %d estimated %.1f ± %.1f",
			shared, r.M, r.K, r.Union.SetBits(), r.RateUnion.Measured, r.RateUnion.Theory, r.KeysUnion.True, r.KeysUnion.Estimate.N, r.KeysUnion.Estimate.SD)
	}
}

func TestIntersectionAnswersAtLeastTheSharedKeysFilter(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		bitsPerKey float64
		shared     int
	}{{10, 0}, {10, 2000}, {5, 1000}, {4, 3000}} {
		p := system.Params{Lab: sim.Defaults(), Shared: c.shared}
		p.Lab.BitsPerKey = c.bitsPerKey
		r := build(t, p)
		if r.RateIntersection.FalsePositives < r.RateShared.FalsePositives {
			t.Errorf("%v bits per key, %d shared: the intersection has %d false positives, the shared keys' filter %d (seed %d)",
				c.bitsPerKey, c.shared, r.RateIntersection.FalsePositives, r.RateShared.FalsePositives, p.Lab.Seed)
		}
		if r.RateIntersection.Theory < r.RateShared.Theory {
			t.Errorf("%v bits per key, %d shared: theory %v for the intersection, %v for the shared keys", c.bitsPerKey, c.shared, r.RateIntersection.Theory, r.RateShared.Theory)
		}
		// Every bit of the shared keys' filter is set in the AND.
		shared := filterOf(t, p.Lab, p.Lab.Seed, uint64(p.Lab.Items-c.shared), uint64(p.Lab.Items))
		for i, w := range shared.Words() {
			if w&^r.Intersection.Words()[i] != 0 {
				t.Fatalf("%v bits per key, %d shared: word %d of the shared keys' filter has bits the AND lacks", c.bitsPerKey, c.shared, i)
			}
		}
		t.Logf("%v bits per key, %d shared: intersection %d false positives (%v, theory %v), shared keys' filter %d (%v, theory %v), of %d",
			c.bitsPerKey, c.shared, r.RateIntersection.FalsePositives, r.RateIntersection.Measured, r.RateIntersection.Theory,
			r.RateShared.FalsePositives, r.RateShared.Measured, r.RateShared.Theory, r.Absent)
	}
}

// TestSaltChangeLosesWhatCoreCounts holds the salt story to core: the
// merge is refused with ErrIncompatible, and the members the naive OR
// loses are those with a position, under A's seed, that neither array
// sets.
func TestSaltChangeLosesWhatCoreCounts(t *testing.T) {
	t.Parallel()
	p := system.Params{Lab: sim.Defaults(), Stories: system.Stories{Salt: true}}
	r := build(t, p)
	n, seed := uint64(p.Lab.Items), p.Lab.Seed
	a := filterOf(t, p.Lab, seed, 0, n)
	salted := filterOf(t, p.Lab, system.OtherSeed(seed), n, 2*n)
	if _, err := core.Union(a, salted); !errors.Is(err, core.ErrIncompatible) {
		t.Fatalf("core merged filters of seeds %d and %d: %v", seed, system.OtherSeed(seed), err)
	}
	lost := uint64(0)
	for i := n; i < 2*n; i++ {
		for _, j := range a.Positions(nil, member(p.Lab, i)) {
			if !a.IsSet(j) && !salted.IsSet(j) {
				lost++
				break
			}
		}
	}
	if r.Salt == nil || r.Salt.Lost != lost || r.Salt.Refused == "" {
		t.Fatalf("seed %d: the salt story %+v, core counts %d members lost", seed, r.Salt, lost)
	}
	if lost == 0 || lost == n {
		t.Errorf("seed %d: %d of %d members lost: the story shows no harm, or no filter", seed, lost, n)
	}
	t.Logf("seed %d: %d of %d of B's members answer no after the naive OR; core: %s", seed, lost, n, r.Salt.Refused)
}

func TestStaleSnapshotLosesTheWritesItMissed(t *testing.T) {
	t.Parallel()
	for _, items := range []int{1, 10, 4000, 20_000} {
		p := system.Params{Lab: sim.Defaults(), Stories: system.Stories{Stale: true}}
		p.Lab.Items = items
		r := build(t, p)
		n := uint64(items)
		w := system.Missed(n)
		snap := filterOf(t, p.Lab, p.Lab.Seed, 0, n-w)
		lucky := uint64(0)
		for i := n - w; i < n; i++ {
			if yes, _ := snap.Contains(member(p.Lab, i)); yes {
				lucky++
			}
		}
		st := r.Stale
		if st == nil || st.Missed != w || st.Lost != w-lucky || st.Lucky != lucky || st.Lost+st.Lucky != st.Missed {
			t.Fatalf("%d keys: the stale story %+v; it missed %d writes, %d of them false positives in the snapshot", items, st, w, lucky)
		}
		t.Logf("%d keys: %d writes missed, %d answer no, %d answer yes by a false positive", items, w, st.Lost, lucky)
	}
}

func TestReplicasRecoverInTheirUnion(t *testing.T) {
	t.Parallel()
	p := system.Params{Lab: sim.Defaults(), Stories: system.Stories{Replicas: true}}
	r := build(t, p)
	rep := r.Replicas
	if rep == nil || rep.UnionLost != 0 || rep.Lost[0] == 0 || rep.Lost[1] == 0 || rep.Lost[0] > rep.Missed || rep.Lost[1] > rep.Missed {
		t.Fatalf("replicas %+v: each must lose some of its %d missed writes, and their union none", rep, system.Missed(uint64(p.Lab.Items)))
	}
	t.Logf("replicas: each missed %d; they answer no for %d and %d; their union for %d", rep.Missed, rep.Lost[0], rep.Lost[1], rep.UnionLost)
}

func TestBuildRefuses(t *testing.T) {
	t.Parallel()
	cuckoo := sim.Defaults()
	cuckoo.Variant = core.CuckooVariant
	big := sim.Defaults()
	big.Items, big.BitsPerKey = 10_000_000, 10
	for _, c := range []struct {
		name string
		p    system.Params
		is   error
	}{
		{"a layout without merge", system.Params{Lab: cuckoo}, core.ErrCannotMerge},
		{"more shared keys than keys", system.Params{Lab: sim.Defaults(), Shared: 4001}, nil},
		{"a filter past MaxM", system.Params{Lab: big}, nil},
	} {
		_, err := system.Build(c.p, nil)
		if err == nil || c.is != nil && !errors.Is(err, c.is) {
			t.Errorf("%s: %v, want an error (%v)", c.name, err, c.is)
		}
	}
}

func TestBuildIsCancelled(t *testing.T) {
	t.Parallel()
	stop := errors.New("stop")
	_, err := system.Build(system.Params{Lab: sim.Defaults(), Stories: all}, func(done, total int) error { return stop })
	if !errors.Is(err, stop) {
		t.Fatalf("a step's error: Build returned %v", err)
	}
}
