package audit

import (
	"fmt"
	"math"

	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"
)

// negativeChecks is group 1: every inserted key is found again. A Bloom
// filter may say yes to a stranger, never no to a member, and the shapes
// below are the ones where implementations slip: a single bit, fewer bits
// than keys, more hashes than bits, duplicates, extreme seeds and key
// lengths, and each variant.
func negativeChecks() []Check {
	const maxSeed = math.MaxUint64
	grid := []negativeRow{
		{"tiny-m", "every member is found again in a filter of a single bit", standard(1, 0, 3, 50), true, 0},
		{"m-7", "every member is found again in a filter of seven bits, overfilled", standard(7, 0, 2, 40), true, 0},
		{"bits-per-key-below-1", "every member is found again at half a bit per key, with k chosen for m and n",
			standard(0, 0.5, 0, 2000), true, 0},
		{"k-above-m", "every member is found again when k = 12 exceeds m = 5", standard(5, 0, 12, 20), true, 0},
		{"k-1", "every member is found again with a single hash", standard(0, 10, 1, 4000), false, 0},
		{"k-64", "every member is found again with the largest k, 64", standard(0, 64, 64, 500), false, 0},
		{"optimal-k", "every member is found again at 9.585 bits per key with k chosen for m and n",
			standard(0, 9.585, 0, 4000), false, 0},
		{"duplicate-passes-2", "every member is found again after each key is inserted twice",
			standard(0, 10, 7, 2000).passes(2), true, 0},
		{"duplicate-passes-5", "every member is found again after each key is inserted five times",
			standard(0, 10, 7, 2000).passes(5), true, 0},
		{"seed-0", "every member is found again under seed 0", standard(0, 10, 7, 1000).seed(0), false, 0},
		{"seed-2", "every member is found again under seed 2", standard(0, 10, 7, 1000).seed(2), false, 0},
		{"seed-2^63", "every member is found again under seed 2^63", standard(0, 10, 7, 1000).seed(1 << 63), false, 0},
		{"seed-max", "every member is found again under seed 2^64-1", standard(0, 10, 7, 1000).seed(maxSeed), false, 0},
		{"key-bytes-8", "every member is found again with the shortest keys, 8 bytes",
			standard(0, 10, 7, 1000).keyBytes(core.MinKeyBytes), false, 0},
		{"key-bytes-1024", "every member is found again with the longest keys, 1024 bytes",
			standard(0, 10, 7, 300).keyBytes(core.MaxKeyBytes), false, 0},
		{"blocked-tiny-m", "every member is found again in a blocked filter of one block, overfilled",
			standard(1, 0, 5, 200).with(core.BlockedVariant), false, 0},
		{"blocked-duplicate-passes-3", "every member is found again in the blocked filter after three passes",
			standard(0, 10, 7, 2000).with(core.BlockedVariant).passes(3), false, 0},
		{"counting-k-above-m", "every member is found again in a counting filter of 5 counters with k = 12",
			standard(5, 0, 12, 6).with(core.CountingVariant), false, 0},
		{"counting-duplicate-passes-16", "every member is found again after 16 passes push counters past 15",
			standard(0, 10, 7, 1000).with(core.CountingVariant).passes(16), false, 0},
	}
	// Every layout of the registry at the default shape; a static one
	// also built from three keys and from keys inserted three times over.
	for _, v := range core.Variants[1:] {
		grid = append(grid, negativeRow{v.Name(), "every member is found again in the " + v.Name() + " filter",
			standard(0, 10, 7, 4000).with(v), false, 0})
		if v.Static() {
			grid = append(grid,
				negativeRow{v.Name() + "-n-3", "every member is found again in a " + v.Name() + " filter built from three keys",
					standard(0, 10, 7, 3).with(v), false, 0},
				negativeRow{v.Name() + "-duplicate-passes-3", "every member is found again in a " + v.Name() +
					" filter built from keys given three times", standard(0, 10, 7, 2000).with(v).passes(3), false, 0})
		}
	}
	// A filter is built for n keys but cannot refuse more: one given 2,
	// 5 and 10 times its n may only answer yes more often.
	for _, over := range pastN {
		grid = append(grid, negativeRow{fmt.Sprintf("past-n-%dx", over),
			fmt.Sprintf("every member is found again in a filter built for 2,000 keys and given %d,000", 2*over),
			standard(20000, 0, 7, 2000), true, over})
	}
	checks := make([]Check, 0, len(grid)+8)
	for _, g := range grid {
		needs := g.s.needs()
		if g.set {
			needs = g.s.needsAs(NeedSet)
		}
		checks = append(checks, Check{ID: "no-false-negatives/" + g.name, Group: GroupNegatives,
			Contract: g.contract, Needs: needs, Run: func(t Target) Verdict { return allFoundPast(g.s, max(g.over, 1), t) }})
	}
	checks = append(checks, Check{ID: "no-false-negatives/remove-half", Group: GroupNegatives, Needs: []Need{NeedRemoval},
		Contract: "removing half the members leaves the other half found",
		Run:      removeHalf})
	// Every fingerprint width a layout allows, each at twice its width
	// in bits per key (a cuckoo table half full): the fuse filter's 1 to
	// 32 bits pack cells across words at every width not dividing 64.
	for _, v := range core.Variants {
		if v.Fingerprints() == nil {
			continue
		}
		checks = append(checks, Check{ID: "no-false-negatives/" + v.Name() + "-every-width", Group: GroupNegatives,
			Contract: "every member is found again in " + v.Name() + " filters of every fingerprint width, " + v.FingerprintWidths("and") + " bits",
			Needs:    []Need{NeedLab, layoutNeed(v)}, Run: func(t Target) Verdict { return everyWidthFound(v, t) }})
	}
	for _, v := range core.Variants {
		if v.Deletes() {
			checks = append(checks, Check{ID: "no-false-negatives/" + v.Name() + "-remove", Group: GroupNegatives,
				Contract: "removing half the members of a " + v.Name() + " filter leaves the other half found",
				Needs:    []Need{NeedLab, layoutNeed(v)}, Run: onLab(func(f *labSetup) Verdict { return layoutRemove(v, f) })})
		}
		if v.Bounded() {
			checks = append(checks, Check{ID: "no-false-negatives/" + v.Name() + "-full", Group: GroupNegatives,
				Contract: "a " + v.Name() + " filter reports the inserts it cannot take, one key given until its buckets are full, and loses no member",
				Needs:    []Need{NeedLab, layoutNeed(v)}, Run: onLab(func(f *labSetup) Verdict { return layoutFull(v, f) })})
		}
	}
	return append(checks,
		Check{ID: "no-false-negatives/simulation", Group: GroupNegatives,
			Contract: "the default-shape simulation counts no false negatives among 5000 member queries",
			Needs:    []Need{NeedLab}, Run: onLab(simulationNegatives)},
	)
}

// everyWidthFound fills a filter of layout v of 2,000 keys at each
// fingerprint width it allows and looks every member up.
func everyWidthFound(v core.Variant, t Target) Verdict {
	for _, w := range v.Fingerprints() {
		s := standard(0, 2*float64(w), 0, 2000).with(v).width(w)
		if vd := allFound(s, t); !vd.Pass {
			return vd
		}
	}
	widths := v.Fingerprints()
	return pass("every member found at each of %d widths, %d to %d bits (%s)", len(widths), widths[0], widths[len(widths)-1],
		t.describe(standard(0, 2*float64(widths[0]), 0, 2000).with(v).width(widths[0])))
}

// negativeRow is one shape the group fills and looks every member up in.
// A row marked set overfills the filter or repeats its keys, which only a
// filter with a set's semantics survives (NeedSet). A row with over gives
// the filter built for the shape's n that many times n keys.
type negativeRow struct {
	name, contract string
	s              shape
	set            bool
	over           int
}

// allFound fills the shape from t and looks every member up.
func allFound(s shape, t Target) Verdict { return allFoundPast(s, 1, t) }

// allFoundPast builds the filter for the shape's n keys, inserts over
// times as many, DuplicatePasses times, and looks every one up.
func allFoundPast(s shape, over int, t Target) Verdict {
	flt, err := t.build(s)
	if err != nil {
		return fail("%v", err)
	}
	about := t.describe(s)
	if over > 1 {
		about += fmt.Sprintf(", given %d keys", over*s.Items)
	}
	s.Items *= over
	s.insert(flt, s.DuplicatePasses)
	missing, first := uint64(0), -1
	err = t.ask(flt, s.Items, s.key, func(i int, found bool) {
		if !found {
			if missing == 0 {
				first = i
			}
			missing++
		}
	})
	if err != nil {
		return stopped(err)
	}
	if missing > 0 {
		return fail("%d of %d members not found, the first is member %d (%s)", missing, s.Items, first, about)
	}
	return pass("all %d members found (%s)", s.Items, about)
}

// removeHalf inserts 4000 keys into the target's filter, removes the odd
// ones and looks for the even ones: a removal must never take away what a
// live key needs.
func removeHalf(t Target) Verdict {
	s := standard(0, 10, 7, 4000)
	flt, err := t.fill(s)
	if err != nil {
		return fail("%v", err)
	}
	r := flt.(Remover)
	var key []byte
	refused := 0
	for i := 1; i < s.Items; i += 2 {
		if key = s.key(key, i); !r.Remove(key) {
			refused++
		}
	}
	found, err := t.count(flt, s.Items/2, func(dst []byte, i int) []byte { return s.key(dst, 2*i) })
	if err != nil {
		return stopped(err)
	}
	missing := s.Items/2 - found
	return verdict(missing == 0 && refused == 0,
		"%d of %d removals refused, %d of %d remaining members not found (%s)",
		refused, s.Items/2, missing, s.Items/2, t.describe(s))
}

// layoutRemove inserts 4000 keys into the lab's layout v, removes the odd
// ones and looks for the even ones. In a counting filter no counter gets
// near 15 at this load, so removal must never take a live key's counter to
// zero; a cuckoo filter holds them at 80% of its slots.
func layoutRemove(v core.Variant, f *labSetup) Verdict {
	s := standard(0, 10, 7, 4000).with(v)
	flt, err := s.fill(f)
	if err != nil {
		return fail("%v", err)
	}
	if c, ok := flt.(counter); ok {
		if top := c.MaxCounter(); top >= core.CounterMax {
			return fail("a counter reached %d before any removal, too full to test removal (%s)", top, s.describe(f))
		}
	}
	r := flt.(Remover)
	var key []byte
	refused := 0
	for i := 1; i < s.Items; i += 2 {
		if !r.Remove(s.key(key, i)) {
			refused++
		}
	}
	missing := 0
	for i := 0; i < s.Items; i += 2 {
		if ok, _ := flt.Contains(s.key(key, i)); !ok {
			missing++
		}
	}
	return verdict(missing == 0 && refused == 0,
		"%d of %d removals refused, %d of %d remaining members not found (%s)",
		refused, s.Items/2, missing, s.Items/2, s.describe(f))
}

// layoutFull gives the lab's bounded layout v 1000 members, then one key
// over and over: its two buckets hold 2b = 8 copies, and the insert after
// them must fail and say so (Fan et al., 2014, warn of exactly this), while
// every member is still found.
func layoutFull(v core.Variant, f *labSetup) Verdict {
	s := standard(0, 20, 7, 1000).with(v)
	flt, err := s.fill(f)
	if err != nil {
		return fail("%v", err)
	}
	in := flt.(interface{ Insert(key []byte) bool })
	key := s.absent(nil, 0)
	taken := 0
	for taken < 64 && in.Insert(key) {
		taken++
	}
	missing := 0
	for i := 0; i < s.Items; i++ {
		if ok, _ := flt.Contains(s.key(key[:0:0], i)); !ok {
			missing++
		}
	}
	return verdict(taken == 2*core.CuckooSlots && missing == 0,
		"%d copies of one key taken before an insert failed (want %d), %d of %d members not found (%s)",
		taken, 2*core.CuckooSlots, missing, s.Items, s.describe(f))
}

// simulationNegatives runs the lab's own simulation at the default shape
// with every query a member.
func simulationNegatives(f *labSetup) Verdict {
	p := defaults(f)
	p.PresentShare = 100
	r, err := sim.Run(p)
	if err != nil {
		return fail("%v", err)
	}
	return verdict(r.FalseNegatives == 0 && r.PresentQueries == 5000,
		"%d false negatives among %d member queries (%s, m = %d, k = %d, n = %d)",
		r.FalseNegatives, r.PresentQueries, r.Variant, r.M, r.K, r.N)
}
