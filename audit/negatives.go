package audit

import (
	"math"

	"bloomlab/core"
)

// negativeChecks is group 1: every inserted key is found again. A Bloom
// filter may say yes to a stranger, never no to a member, and the shapes
// below are the ones where implementations slip: a single bit, fewer bits
// than keys, more hashes than bits, duplicates, extreme seeds and key
// lengths, and each variant.
func negativeChecks() []Check {
	const maxSeed = math.MaxUint64
	grid := []struct {
		name, contract string
		s              shape
	}{
		{"tiny-m", "every member is found again in a filter of a single bit", standard(1, 0, 3, 50)},
		{"m-7", "every member is found again in a filter of seven bits, overfilled", standard(7, 0, 2, 40)},
		{"bits-per-key-below-1", "every member is found again at half a bit per key, with k chosen for m and n",
			standard(0, 0.5, 0, 2000)},
		{"k-above-m", "every member is found again when k = 12 exceeds m = 5", standard(5, 0, 12, 20)},
		{"k-1", "every member is found again with a single hash", standard(0, 10, 1, 4000)},
		{"k-64", "every member is found again with the largest k, 64", standard(0, 64, 64, 500)},
		{"optimal-k", "every member is found again at 9.585 bits per key with k chosen for m and n",
			standard(0, 9.585, 0, 4000)},
		{"duplicate-passes-2", "every member is found again after each key is inserted twice",
			standard(0, 10, 7, 2000).passes(2)},
		{"duplicate-passes-5", "every member is found again after each key is inserted five times",
			standard(0, 10, 7, 2000).passes(5)},
		{"seed-0", "every member is found again under seed 0", standard(0, 10, 7, 1000).seed(0)},
		{"seed-2", "every member is found again under seed 2", standard(0, 10, 7, 1000).seed(2)},
		{"seed-2^63", "every member is found again under seed 2^63", standard(0, 10, 7, 1000).seed(1 << 63)},
		{"seed-max", "every member is found again under seed 2^64-1", standard(0, 10, 7, 1000).seed(maxSeed)},
		{"key-bytes-8", "every member is found again with the shortest keys, 8 bytes",
			standard(0, 10, 7, 1000).keyBytes(core.MinKeyBytes)},
		{"key-bytes-1024", "every member is found again with the longest keys, 1024 bytes",
			standard(0, 10, 7, 300).keyBytes(core.MaxKeyBytes)},
		{"blocked", "every member is found again in the blocked filter",
			standard(0, 10, 7, 4000).with(core.BlockedVariant)},
		{"blocked-tiny-m", "every member is found again in a blocked filter of one block, overfilled",
			standard(1, 0, 5, 200).with(core.BlockedVariant)},
		{"blocked-duplicate-passes-3", "every member is found again in the blocked filter after three passes",
			standard(0, 10, 7, 2000).with(core.BlockedVariant).passes(3)},
		{"counting", "every member is found again in the counting filter",
			standard(0, 10, 7, 4000).with(core.CountingVariant)},
		{"counting-k-above-m", "every member is found again in a counting filter of 5 counters with k = 12",
			standard(5, 0, 12, 6).with(core.CountingVariant)},
		{"counting-duplicate-passes-16", "every member is found again after 16 passes push counters past 15",
			standard(0, 10, 7, 1000).with(core.CountingVariant).passes(16)},
	}
	checks := make([]Check, 0, len(grid)+2)
	for _, g := range grid {
		checks = append(checks, Check{ID: "no-false-negatives/" + g.name, Group: GroupNegatives,
			Contract: g.contract, Needs: g.s.needs(), Run: func(t Target) Verdict { return allFound(g.s, t) }})
	}
	return append(checks,
		Check{ID: "no-false-negatives/remove-half", Group: GroupNegatives, Needs: []Need{NeedRemoval},
			Contract: "removing half the members leaves the other half found",
			Run:      removeHalf},
		Check{ID: "no-false-negatives/counting-remove", Group: GroupNegatives,
			Contract: "removing half the members of a counting filter leaves the other half found",
			Needs:    []Need{NeedLab, layoutNeed(core.CountingVariant)}, Run: onLab(countingRemove)},
		Check{ID: "no-false-negatives/simulation", Group: GroupNegatives,
			Contract: "the default-shape simulation counts no false negatives among 5000 member queries",
			Needs:    []Need{NeedLab}, Run: onLab(simulationNegatives)},
	)
}

// allFound fills the shape from t and looks every member up.
func allFound(s shape, t Target) Verdict {
	flt, err := t.fill(s)
	if err != nil {
		return fail("%v", err)
	}
	missing, first := uint64(0), -1
	var key []byte
	for i := 0; i < s.Items; i++ {
		key = s.key(key, i)
		if !flt.Test(key) {
			if missing == 0 {
				first = i
			}
			missing++
		}
	}
	if missing > 0 {
		return fail("%d of %d members not found, the first is member %d (%s)", missing, s.Items, first,
			t.describe(s))
	}
	return pass("all %d members found (%s)", s.Items, t.describe(s))
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
	missing := 0
	for i := 0; i < s.Items; i += 2 {
		if key = s.key(key, i); !flt.Test(key) {
			missing++
		}
	}
	return verdict(missing == 0 && refused == 0,
		"%d of %d removals refused, %d of %d remaining members not found (%s)",
		refused, s.Items/2, missing, s.Items/2, t.describe(s))
}

// countingRemove inserts 4000 keys into a counting filter, removes the odd
// ones and looks for the even ones. No counter gets near 15 at this load, so
// removal must never take a live key's counter to zero.
func countingRemove(f *lab) Verdict {
	s := standard(0, 10, 7, 4000).with(core.CountingVariant)
	flt, err := s.fill(f)
	if err != nil {
		return fail("%v", err)
	}
	c := flt.(counter)
	if top := c.MaxCounter(); top >= core.CounterMax {
		return fail("a counter reached %d before any removal, too full to test removal (%s)", top, s.describe(f))
	}
	var key []byte
	refused := 0
	for i := 1; i < s.Items; i += 2 {
		if !c.Remove(s.key(key, i)) {
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

// simulationNegatives runs the lab's own simulation at the default shape
// with every query a member.
func simulationNegatives(f *lab) Verdict {
	p := defaults(f)
	p.PresentShare = 100
	r, err := core.Simulate(p)
	if err != nil {
		return fail("%v", err)
	}
	return verdict(r.FalseNegatives == 0 && r.PresentQueries == 5000,
		"%d false negatives among %d member queries (%s, m = %d, k = %d, n = %d)",
		r.FalseNegatives, r.PresentQueries, r.Variant, r.M, r.K, r.N)
}
