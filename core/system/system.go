package system

import (
	"fmt"
	"slices"

	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"
)

// Stories are the failure stories asked for; Build counts only those set.
type Stories struct {
	// Salt merges B built with another seed by a naive OR of the bits.
	Salt bool
	// Stale queries A's latest keys in a snapshot saved before them.
	Stale bool
	// Replicas are two copies of A that each missed different writes.
	Replicas bool
}

// Params are what Build builds: the lab's run for the first filter (its
// shape, seed, n and queries), the keys the two filters share and the
// stories to count.
type Params struct {
	Lab sim.Params
	// Shared is how many keys both filters hold, 0 to Lab.Items.
	Shared  int
	Stories Stories
}

// MaxM bounds each filter's positions: Build keeps up to eight filters of
// m at once, so at 2^26 bits a standard filter's eight are 64 MiB.
const MaxM = 1 << 26

// Rated is a filter's false positives over the absent queries, the rate
// they make and the rate theory gives.
type Rated struct {
	FalsePositives uint64
	Measured       float64
	Theory         float64
}

// Counted is a count of keys beside EstimateKeys' estimate of it; Err is
// core's word when there is no estimate (a full filter, a layout that
// cannot tell).
type Counted struct {
	True     uint64
	Estimate core.Estimate
	Err      string
}

// Salt is the story of a merge across seeds: B built with Seed, core's
// refusal of the merge, and what a naive OR of the two arrays does to B's
// members when queried, as A's seed queries it.
type Salt struct {
	Seed    uint64
	Refused string
	Members uint64
	// Lost are B's members the naive OR answers no: false negatives.
	Lost uint64
	// Merged is the naive OR, A's seed over both arrays' bits.
	Merged core.Membership
}

// Stale is the story of a snapshot saved before the last Missed writes:
// Lost of them answer no in it, and Lucky answer yes only as any absent
// key may, by a false positive; Lost + Lucky = Missed.
type Stale struct {
	Missed, Lost, Lucky uint64
	Snapshot            core.Membership
}

// Replicas is the story of two copies of A, each of which missed Missed
// different writes: Lost[i] of its keys answer no in replica i, and the
// union of the two answers no for UnionLost of A's keys (none: every key
// reached one of them).
type Replicas struct {
	Missed    uint64
	Lost      [2]uint64
	UnionLost uint64
	Replica   [2]core.Membership
}

// Result is what Build found: the two filters of M positions and K probes,
// their union and intersection, the rates of each beside theory, the
// estimated key counts beside the true ones, and the stories asked for.
type Result struct {
	M uint64
	K int
	// A holds members 0 to NA-1, B members NA-Shared to NA+NB-Shared-1.
	A, B, Union, Intersection core.Membership
	NA, NB, Shared            uint64
	// Absent is the absent queries each rate is measured over.
	Absent uint64
	// BothSetBits are the set positions of the filter built from both key
	// sets, and SameBits whether the union is that filter bit for bit.
	BothSetBits uint64
	SameBits    bool
	// The rates: the union's theory is one filter over both sets; the
	// intersection's is IntersectionFill's, and SharedKeys is the filter
	// of the keys both hold, built and queried, which the intersection
	// answers yes at least as often as.
	RateA, RateB, RateUnion, RateIntersection, RateShared Rated
	// The key counts: the union holds NA+NB-Shared, the intersection
	// Shared (estimated by inclusion and exclusion).
	KeysA, KeysB, KeysUnion, KeysIntersection Counted

	Salt     *Salt
	Stale    *Stale
	Replicas *Replicas
}

// Missed is how many writes a stale snapshot or a replica missed for n
// keys: a tenth of them, at least 1.
func Missed(n uint64) uint64 { return max(1, n/10) }

// OtherSeed is the seed the salt story builds B with: the next one.
func OtherSeed(seed uint64) uint64 { return seed + 1 }

// Build builds the two filters of p, merges them and counts the stories
// asked for. step is called between chunks of work, as in sim.Run, and
// its error stops the build. The layout must merge (core.ErrCannotMerge
// otherwise, said before any key is added).
func Build(p Params, step sim.Step) (Result, error) {
	lab := p.Lab
	if err := lab.Validate(); err != nil {
		return Result{}, err
	}
	n := uint64(lab.Items)
	if p.Shared < 0 || uint64(p.Shared) > n {
		return Result{}, fmt.Errorf("system: the keys both filters hold must be in [0, %d], got %d", n, p.Shared)
	}
	if m, _ := lab.Shape(); m > MaxM {
		return Result{}, fmt.Errorf("system: the second filter is built for at most %d positions, this filter has %d", MaxM, m)
	}
	b := &builder{lab: lab, absent: uint64(lab.Queries) - uint64(lab.Queries)*uint64(lab.PresentShare)/100}
	// Refused before any key is added: a layout that cannot merge says so
	// on two empty filters.
	e1, err := b.empty(lab.Seed)
	if err != nil {
		return Result{}, err
	}
	e2, _ := b.empty(lab.Seed)
	if _, err := core.Union(e1, e2); err != nil {
		return Result{}, err
	}
	s := uint64(p.Shared)
	b.pr = &sim.Pace{Step: step, Total: int(b.total(n, s, p.Stories))}
	r := Result{NA: n, NB: n, Shared: s, Absent: b.absent}
	if err := b.pair(&r); err != nil {
		return Result{}, err
	}
	if err := b.rates(&r); err != nil {
		return Result{}, err
	}
	r.KeysA = counted(n, r.A)
	r.KeysB = counted(n, r.B)
	r.KeysUnion = counted(2*n-s, r.Union)
	r.KeysIntersection = Counted{True: s}
	if e, err := core.EstimateIntersection(r.A, r.B); err != nil {
		r.KeysIntersection.Err = core.Message(err)
	} else {
		r.KeysIntersection.Estimate = e
	}
	for _, story := range []struct {
		on  bool
		run func(*Result) error
	}{{p.Stories.Salt, b.salt}, {p.Stories.Stale, b.stale}, {p.Stories.Replicas, b.replicas}} {
		if story.on {
			if err := story.run(&r); err != nil {
				return Result{}, err
			}
		}
	}
	return r, nil
}

// counted is n beside f's estimate of it.
func counted(n uint64, f core.Membership) Counted {
	c := Counted{True: n}
	e, err := core.EstimateKeys(f)
	if err != nil {
		c.Err = core.Message(err)
		return c
	}
	c.Estimate = e
	return c
}

// builder builds and queries the filters of one Build, counting its work
// in pr.
type builder struct {
	lab    sim.Params
	absent uint64
	pr     *sim.Pace
	keys   [core.BatchKeys][]byte
	found  [core.BatchKeys]bool
	read   [core.BatchKeys]int
}

// total is the adds and queries Build makes, for the progress.
func (b *builder) total(n, s uint64, st Stories) uint64 {
	t := n + n + (2*n - s) + s + 2*n + s + 5*b.absent
	if st.Salt {
		t += 2 * n
	}
	if st.Stale {
		t += 2 * n
	}
	if st.Replicas {
		t += 4 * n
	}
	return t
}

// empty is an empty filter of the lab's shape hashed with seed.
func (b *builder) empty(seed uint64) (core.Membership, error) {
	q := b.lab
	q.Seed = seed
	r, err := q.Start()
	return r.Filter, err
}

// batches hands do the keys first to last-1 of namespace ns (the lab's
// keys, under the lab's seed whatever the filter's), a batch at a time.
func (b *builder) batches(ns core.Namespace, first, last uint64, do func(keys [][]byte)) error {
	for first < last {
		c := int(min(core.BatchKeys, last-first, uint64(b.pr.Room())))
		core.Keys(b.keys[:c], ns, first, b.lab.Seed, b.lab.KeyBytes)
		do(b.keys[:c])
		first += uint64(c)
		if err := b.pr.Advance(c); err != nil {
			return err
		}
	}
	return nil
}

// filled is a filter hashed with seed holding members first to last-1.
func (b *builder) filled(seed, first, last uint64) (core.Membership, error) {
	f, err := b.empty(seed)
	if err != nil {
		return nil, err
	}
	err = b.batches(core.Members, first, last, func(keys [][]byte) { core.AddBatch(f, keys) })
	return f, err
}

// answer counts the keys first to last-1 of ns that f answers yes.
func (b *builder) answer(f core.Membership, ns core.Namespace, first, last uint64) (uint64, error) {
	yes := uint64(0)
	err := b.batches(ns, first, last, func(keys [][]byte) {
		core.ContainsBatch(f, keys, b.found[:], b.read[:])
		for _, y := range b.found[:len(keys)] {
			if y {
				yes++
			}
		}
	})
	return yes, err
}

// pair builds A, B, their union and intersection, and the filter of both
// key sets the union is compared with.
func (b *builder) pair(r *Result) error {
	n, s, seed := r.NA, r.Shared, b.lab.Seed
	var err error
	if r.A, err = b.filled(seed, 0, n); err != nil {
		return err
	}
	if r.B, err = b.filled(seed, n-s, 2*n-s); err != nil {
		return err
	}
	u, err := core.Union(r.A, r.B)
	if err != nil {
		return err
	}
	i, err := core.Intersect(r.A, r.B)
	if err != nil {
		return err
	}
	r.Union, r.Intersection = u.Filter, i.Filter
	both, err := b.filled(seed, 0, 2*n-s)
	if err != nil {
		return err
	}
	r.M, r.K = r.A.M(), r.A.K()
	r.BothSetBits = both.SetBits()
	r.SameBits = slices.Equal(both.Words(), r.Union.Words())
	return nil
}

// rates measures each filter over the absent queries beside its theory.
func (b *builder) rates(r *Result) error {
	n, s := r.NA, r.Shared
	v := r.A.(core.Shaped).Shape().Variant
	shared, err := b.filled(b.lab.Seed, n-s, n)
	if err != nil {
		return err
	}
	and, own := core.IntersectionFill(r.M, r.K, n, n, s)
	for _, c := range []struct {
		f      core.Membership
		dst    *Rated
		theory float64
	}{
		{r.A, &r.RateA, v.Theory(r.A, n).Rate},
		{r.B, &r.RateB, v.Theory(r.B, n).Rate},
		{r.Union, &r.RateUnion, v.Theory(r.Union, 2*n-s).Rate},
		{r.Intersection, &r.RateIntersection, pow(and, r.K)},
		{shared, &r.RateShared, pow(own, r.K)},
	} {
		fp, err := b.answer(c.f, core.Absent, 0, b.absent)
		if err != nil {
			return err
		}
		*c.dst = Rated{FalsePositives: fp, Measured: share(fp, b.absent), Theory: c.theory}
	}
	return nil
}

// salt builds B with the next seed, has core refuse the merge, and ORs
// the two arrays as a careless system does: a copy of A (its union with
// itself, A's seed) whose storage takes B's bits too, queried for B's
// members.
func (b *builder) salt(r *Result) error {
	n, s := r.NA, r.Shared
	other := OtherSeed(b.lab.Seed)
	salted, err := b.filled(other, n-s, 2*n-s)
	if err != nil {
		return err
	}
	st := &Salt{Seed: other, Members: n}
	if _, err := core.Union(r.A, salted); err != nil {
		st.Refused = core.Message(err)
	}
	c, err := core.Union(r.A, r.A)
	if err != nil {
		return err
	}
	words, theirs := c.Filter.Words(), salted.Words()
	for i := range words {
		words[i] |= theirs[i]
	}
	st.Merged = c.Filter
	yes, err := b.answer(st.Merged, core.Members, n-s, 2*n-s)
	if err != nil {
		return err
	}
	st.Lost = n - yes
	r.Salt = st
	return nil
}

// stale queries A's last Missed keys in the snapshot of its keys before
// them.
func (b *builder) stale(r *Result) error {
	n := r.NA
	w := Missed(n)
	snap, err := b.filled(b.lab.Seed, 0, n-w)
	if err != nil {
		return err
	}
	yes, err := b.answer(snap, core.Members, n-w, n)
	if err != nil {
		return err
	}
	r.Stale = &Stale{Missed: w, Lost: w - yes, Lucky: yes, Snapshot: snap}
	return nil
}

// replicas builds two copies of A: the first missed the Missed writes
// before the last Missed, the second the last Missed (fewer for a tiny
// n, never a key both missed). Each is queried for A's keys, and so is
// their union.
func (b *builder) replicas(r *Result) error {
	n := r.NA
	w := Missed(n)
	gaps := [2][2]uint64{{n - min(n, 2*w), n - w}, {n - w, n}}
	rep := &Replicas{Missed: w}
	for i, g := range gaps {
		f, err := b.filled(b.lab.Seed, 0, g[0])
		if err != nil {
			return err
		}
		if err := b.batches(core.Members, g[1], n, func(keys [][]byte) { core.AddBatch(f, keys) }); err != nil {
			return err
		}
		yes, err := b.answer(f, core.Members, 0, n)
		if err != nil {
			return err
		}
		rep.Replica[i], rep.Lost[i] = f, n-yes
	}
	u, err := core.Union(rep.Replica[0], rep.Replica[1])
	if err != nil {
		return err
	}
	yes, err := b.answer(u.Filter, core.Members, 0, n)
	if err != nil {
		return err
	}
	rep.UnionLost = n - yes
	r.Replicas = rep
	return nil
}

func share(x, n uint64) float64 {
	if n == 0 {
		return 0
	}
	return float64(x) / float64(n)
}

// pow is x^k for the small k of a filter.
func pow(x float64, k int) float64 {
	out := 1.0
	for range k {
		out *= x
	}
	return out
}
