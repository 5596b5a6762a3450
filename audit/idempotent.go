package audit

import (
	"fmt"
	"slices"

	"github.com/bloomlab/bloomlab/core"
)

// idempotentChecks is group 3: inserting a key that is already present
// changes nothing, and the order of inserts does not matter. A filter that
// toggles or clears bits on a duplicate passes a fresh-keys test and loses
// members the first time a stream repeats itself.
func idempotentChecks() []Check {
	replays := []replayRow{
		{"replay", "replaying 4000 inserts changes no answer and no byte of storage",
			standard(0, 10, 7, 4000), 1},
		{"tiny-m", "replaying inserts into an overfilled 10-bit filter changes no answer and no byte",
			standard(10, 0, 3, 50), 1},
		{"k-1", "replaying inserts with a single hash changes no answer and no byte",
			standard(0, 10, 1, 4000), 1},
		{"k-64", "replaying inserts with k = 64 changes no answer and no byte",
			standard(0, 64, 64, 500), 1},
		{"replay-5", "replaying the inserts five more times changes no answer and no byte",
			standard(0, 10, 7, 2000), 5},
	}
	layouts := bitLayouts()
	for _, l := range layouts {
		replays = append(replays, replayRows(l)...)
	}
	var checks []Check
	for _, r := range replays {
		checks = append(checks, Check{ID: "idempotent/" + r.name, Group: GroupIdempotent, Contract: r.contract,
			Needs: r.s.needsAs(NeedSet), Run: func(t Target) Verdict { return replay(r.s, r.times, t) }})
	}
	order := []core.Variant{{}}
	for _, l := range layouts {
		order = append(order, l.Variant)
	}
	for _, v := range order {
		s := standard(0, 10, 7, 4000).with(v)
		name, whose := "order", "the filter's"
		if !v.IsZero() {
			name, whose = "order-"+v.Name(), "the lab's "+v.Name()+" filter's"
		}
		checks = append(checks, Check{ID: "idempotent/" + name, Group: GroupIdempotent,
			Contract: "inserting " + whose + " keys in reverse order gives the same storage",
			Needs:    append(s.needsAs(NeedSet, NeedFixed), NeedStorage), Run: func(t Target) Verdict { return reverseOrder(s, t) }})
	}
	return checks
}

// replayRow is one shape the group fills and replays times more.
type replayRow struct {
	name, contract string
	s              shape
	times          int
}

// replayRows are the replays of layout l: at the default shape, into one
// overfilled block where its positions come in blocks, and, for counters,
// as many passes more as a counter holds.
func replayRows(l bitLayout) []replayRow {
	same := "leaves it byte for byte the same"
	if l.removes {
		same = "leaves the same " + l.Unit() + "s nonzero"
	}
	rows := []replayRow{{l.Name(), "replaying inserts into the lab's " + l.Name() + " filter " + same,
		standard(0, 10, 7, 4000).with(l.Variant), 1}}
	if l.blocks {
		rows = append(rows, replayRow{l.Name() + "-tiny-m", "replaying inserts into an overfilled single block leaves it the same",
			standard(1, 0, 5, 200).with(l.Variant), 1})
	}
	if c := l.maxCounter; c > 0 {
		rows = append(rows, replayRow{fmt.Sprintf("%s-replay-%d", l.Name(), c),
			fmt.Sprintf("%d more passes, past the %ss' %d, leave the same %ss nonzero", c, l.Unit(), c, l.Unit()),
			standard(0, 10, 7, 1000).with(l.Variant), c})
	}
	return rows
}

// answers records flt's answer for each member and for as many absent
// keys: what a duplicate insert must not change.
func answers(s shape, flt Filter) bitset {
	b := newBitset(uint64(2 * s.Items))
	var t Target // no pause: these fillings are small
	record := func(from int) func(int, bool) {
		return func(i int, found bool) {
			if found {
				b.add(uint64(from + i))
			}
		}
	}
	_ = t.ask(flt, s.Items, s.key, record(0))
	_ = t.ask(flt, s.Items, s.absent, record(s.Items))
	return b
}

// replay fills the shape, snapshots it, inserts every member times more
// and compares. No answer may change; where storage is visible, no byte
// either, except in a filter that can remove keys (it must count
// duplicates), where the lab's counting filter must keep the same counters
// nonzero.
func replay(s shape, times int, t Target) Verdict {
	flt, err := t.fill(s)
	if err != nil {
		return fail("%v", err)
	}
	before := answers(s, flt)
	var words []uint64
	st, stored := flt.(Storer)
	if _, removes := flt.(Remover); removes {
		stored = false
	}
	if stored {
		words = slices.Clone(st.Words())
	}
	var live bitset
	lv, isLab := flt.(labView)
	if isLab {
		live = nonzero(lv.membership())
	}
	s.insert(flt, times)
	inserts := s.Items * times
	if same, at := equalWords(before, answers(s, flt)); !same {
		return fail("after %d repeated inserts the answers changed from key %d on (%s)", inserts, 64*at, t.describe(s))
	}
	if isLab {
		if same, at := equalWords(live, nonzero(lv.membership())); !same {
			return fail("after %d repeated inserts the nonzero positions changed from position %d on (%s)",
				inserts, 64*at, t.describe(s))
		}
	}
	if stored {
		if same, at := equalWords(words, st.Words()); !same {
			return fail("after %d repeated inserts word %d of %d changed (%s)", inserts, at, len(words), t.describe(s))
		}
		return pass("all %d answers and %d bytes the same after %d repeated inserts (%s)",
			2*s.Items, 8*len(words), inserts, t.describe(s))
	}
	return pass("all %d answers the same after %d repeated inserts (%s)", 2*s.Items, inserts, t.describe(s))
}

// reverseOrder fills the shape forwards and a twin backwards: a filter's
// storage is a function of its key set, not of the order keys arrived in.
func reverseOrder(s shape, t Target) Verdict {
	fwd, err := t.fill(s)
	if err != nil {
		return fail("%v", err)
	}
	back, err := t.build(s)
	if err != nil {
		return fail("%v", err)
	}
	var key []byte
	for i := s.Items - 1; i >= 0; i-- {
		key = s.key(key, i)
		back.Add(key)
	}
	a, b := fwd.(Storer).Words(), back.(Storer).Words()
	if same, at := equalWords(a, b); !same {
		return fail("forward and reverse inserts differ from word %d of %d, %d bits apart (%s)",
			at, len(a), hamming(a, b), t.describe(s))
	}
	return pass("forward and reverse inserts give the same %d words (%s)", len(a), t.describe(s))
}
