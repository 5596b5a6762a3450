package audit

import (
	"fmt"

	"github.com/bloomlab/bloomlab/core"
)

// accountingChecks is group 4: the filter's books close. The running count
// of set positions, a fresh popcount of storage and the distinct positions
// the keys map to must be one number, no larger than min(m, kn), and the
// padding past m in the last word must stay clear. A stray write shows up
// here even when no member goes missing.
func accountingChecks() []Check {
	grid := []accountingRow{
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
	}
	for _, l := range bitLayouts() {
		grid = append(grid, accountingRows(l)...)
	}
	checks := make([]Check, 0, len(grid))
	for _, g := range grid {
		checks = append(checks, Check{ID: "accounting/" + g.name, Group: GroupAccounting, Contract: g.contract, Needs: append([]Need{NeedLab}, g.s.needsAs(NeedBloom)...),
			Run: onLab(func(f *labSetup) Verdict { return books(g.s, f) })})
	}
	return checks
}

// accountingRows are the books of layout l: at the default shape, at m =
// 1000 (rounded up to whole blocks, or with padding past it that must stay
// clear), and, for counters, after one pass more than a counter holds.
func accountingRows(l bitLayout) []accountingRow {
	recount := "popcount"
	if l.maxCounter > 0 {
		recount = "recount"
	}
	m1000 := "the " + l.Name() + " filter's books close at m = 1000"
	switch {
	case l.blocks:
		m1000 = "the " + l.Name() + " filter rounds m = 1000 up to whole blocks and its books close"
	case l.padding > 0 && l.maxCounter > 0:
		m1000 = fmt.Sprintf("the %s filter's books close and its %d padding %ss stay zero", l.Name(), l.padding, l.Unit())
	case l.padding > 0:
		m1000 = fmt.Sprintf("the %s filter's books close and its %d padding %ss stay clear", l.Name(), l.padding, l.Unit())
	}
	rows := []accountingRow{
		{l.Name(), l.Terms().Nonzero + " = " + recount + " = distinct positions written in the " + l.Name() + " filter",
			standard(0, 10, 7, 4000).with(l.Variant)},
		{l.Name() + "-m-1000", m1000, standard(1000, 0, 7, 100).with(l.Variant)},
	}
	if l.maxCounter > 0 {
		passes := l.maxCounter + 1
		rows = append(rows, accountingRow{fmt.Sprintf("%s-duplicate-passes-%d", l.Name(), passes),
			fmt.Sprintf("the %s filter's books close after %d passes saturate its %ss", l.Name(), passes, l.Unit()),
			standard(1000, 0, 7, 100).with(l.Variant).passes(passes)})
	}
	return rows
}

// accountingRow is one shape whose books the group closes.
type accountingRow struct {
	name, contract string
	s              shape
}

// books fills the shape and reconciles its three counts of set positions.
func books(s shape, f *labSetup) Verdict {
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

// paddingSet counts the nonzero positions in storage past m: bits, or the
// counters of a filter that shows them (core.Counters), each CounterBits
// wide (4 for the counting filter's).
func paddingSet(flt core.Membership) uint64 {
	words := flt.Words()
	per := positionsPerWord(flt)
	width := 64 / per
	mask := uint64(1)<<width - 1
	n := uint64(0)
	for j := flt.M(); j < uint64(len(words))*per; j++ {
		if words[j/per]>>(width*(j%per))&mask != 0 {
			n++
		}
	}
	return n
}
