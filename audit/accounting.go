package audit

import (
	"github.com/bloomlab/bloomlab/core"
)

// accountingChecks is group 4: the filter's books close. The running count
// of set positions, a fresh popcount of storage and the distinct positions
// the keys map to must be one number, no larger than min(m, kn), and the
// padding past m in the last word must stay clear. A stray write shows up
// here even when no member goes missing.
func accountingChecks() []Check {
	grid := []struct {
		name, contract string
		s              shape
	}{
		{"standard", "set bits = popcount = distinct positions written, at most min(m, kn), at the default shape",
			standard(0, 10, 7, 4000)},
		{"standard-m-1000", "the books close and the 24 padding bits past m = 1000 stay clear",
			standard(1000, 0, 7, 100)},
		{"standard-m-1", "the books close in a one-bit filter, and its 63 padding bits stay clear",
			standard(1, 0, 3, 50)},
		{"standard-k-above-m", "the books close with k = 12 above m = 5, and the padding stays clear",
			standard(5, 0, 12, 20)},
		{"standard-duplicate-passes-2", "the books close after every key is inserted twice",
			standard(1000, 0, 7, 100).passes(2)},
		{"blocked", "set bits = popcount = distinct positions written in the blocked filter",
			standard(0, 10, 7, 4000).with(core.BlockedVariant)},
		{"blocked-m-1000", "the blocked filter rounds m = 1000 up to whole blocks and its books close",
			standard(1000, 0, 7, 100).with(core.BlockedVariant)},
		{"counting", "nonzero counters = recount = distinct positions written in the counting filter",
			standard(0, 10, 7, 4000).with(core.CountingVariant)},
		{"counting-m-1000", "the counting filter's books close and its 8 padding counters stay zero",
			standard(1000, 0, 7, 100).with(core.CountingVariant)},
		{"counting-duplicate-passes-16", "the counting filter's books close after 16 passes saturate its counters",
			standard(1000, 0, 7, 100).with(core.CountingVariant).passes(16)},
	}
	checks := make([]Check, 0, len(grid))
	for _, g := range grid {
		checks = append(checks, Check{ID: "accounting/" + g.name, Group: GroupAccounting, Contract: g.contract, Needs: append([]Need{NeedLab}, g.s.needsAs(NeedBloom)...),
			Run: onLab(func(f *lab) Verdict { return books(g.s, f) })})
	}
	return checks
}

// books fills the shape and reconciles its three counts of set positions.
func books(s shape, f *lab) Verdict {
	flt, err := s.fill(f)
	if err != nil {
		return fail("%v", err)
	}
	m := flt.M()
	written := newBitset(m)
	outside := uint64(0)
	s.eachPosition(flt, func(j uint64) {
		if j >= m {
			outside++
			return
		}
		written.add(j)
	})
	distinct := written.count()
	unset := uint64(0)
	for i := uint64(0); i < m; i++ {
		if written.has(i) && !flt.IsSet(i) {
			unset++
		}
	}
	set, pop := flt.SetBits(), flt.Popcount()
	limit := min(m, uint64(flt.K())*uint64(s.Items))
	padding := paddingSet(flt)
	figures := func() string {
		return "set bits " + itoa(set) + ", popcount " + itoa(pop) + ", distinct written " + itoa(distinct) +
			", limit " + itoa(limit) + " (" + s.describe(f) + ")"
	}
	switch {
	case outside > 0:
		return fail("%s written outside [0, %d); %s", plural(outside, "position", "positions"), m, figures())
	case padding > 0:
		return fail("%s set in the padding past m; %s", plural(padding, "position", "positions"), figures())
	case unset > 0:
		return fail("%s written but found clear; %s", plural(unset, "position", "positions"), figures())
	case set != pop || pop != distinct:
		return fail("the counts disagree: %s", figures())
	case distinct > limit:
		return fail("more positions set than min(m, kn): %s", figures())
	}
	return pass("%s", figures())
}

// paddingSet counts the nonzero positions in storage past m: bits for the
// standard and blocked filters, 4-bit counters for the counting filter.
func paddingSet(flt core.Membership) uint64 {
	words := flt.Words()
	m := flt.M()
	n := uint64(0)
	if _, counting := flt.(counter); counting {
		for j := m; j < uint64(len(words))*16; j++ {
			if words[j>>4]>>(4*(j&15))&0xf != 0 {
				n++
			}
		}
		return n
	}
	for j := m; j < uint64(len(words))*64; j++ {
		if words[j>>6]>>(j&63)&1 != 0 {
			n++
		}
	}
	return n
}
