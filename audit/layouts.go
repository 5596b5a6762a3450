package audit

import (
	"sort"

	"github.com/bloomlab/bloomlab/core"
)

// bitLayout is one of the lab's layouts, past the standard filter, whose
// positions are bits or counters that keys set in an array of the m it
// was built with: the books, idempotence and index checks take each one
// such layout of the registry, so a new layout of bits gets them without
// an edit here. What its filter shows decides the rows it gets.
type bitLayout struct {
	core.Variant
	// blocks: its positions come in blocks (core.Blocks), so m rounds up
	// to whole blocks and one block can be overfilled.
	blocks bool
	// removes: it removes keys (core.Remover), so it counts duplicates
	// and its storage may change on a replay where its nonzero positions
	// may not.
	removes bool
	// maxCounter is the most a counter holds (core.Counters), 0 for bits.
	maxCounter int
	// padding is how many positions its storage holds past m = 1000.
	padding uint64
}

// probeM is the m bitLayouts builds each layout at to see what it shows.
const probeM = 1000

// bitLayouts lists the layouts of the registry, past the standard filter
// (the target's own), that the books, idempotence and index checks take,
// in the registry's order, from one empty filter of each. Two kinds of
// layout keep no k positions of a key in a fixed m, so those checks do not
// apply: one whose positions hold values (core.Valued: a slot's
// fingerprint, a cell's or a row's bits), and a chain (core.Linked), which
// grows links as keys come and places a key by when it came (NeedFixed
// says the same of a chain as a target's own filter). A layout that cannot
// be built at m = 1000 is taken, so its checks fail with its reason.
func bitLayouts() []bitLayout {
	var out []bitLayout
	for _, v := range core.Variants[1:] {
		f, err := v.Build(core.Spec{M: probeM, K: 7, N: 100, Seed: 1})
		if err != nil {
			out = append(out, bitLayout{Variant: v})
			continue
		}
		_, valued := f.(core.Valued)
		_, linked := f.(core.Linked)
		if valued || linked {
			continue
		}
		l := bitLayout{Variant: v}
		_, l.blocks = f.(core.Blocks)
		_, l.removes = f.(core.Remover)
		if c, ok := f.(core.Counters); ok {
			l.maxCounter = 1<<c.CounterBits() - 1
		}
		l.padding = uint64(len(f.Words()))*positionsPerWord(f) - f.M()
		out = append(out, l)
	}
	return out
}

// positionsPerWord is how many positions of flt one word of its storage
// holds: 64 bits, or as many counters as fit (sixteen 4-bit counters).
func positionsPerWord(flt core.Membership) uint64 {
	if c, ok := flt.(core.Counters); ok {
		return uint64(64 / c.CounterBits())
	}
	return 64
}

// blockLength is the positions in one block of a filter of size
// positions that shows its blocks: where block 1 starts, or the whole
// filter when it is one block.
func blockLength(b core.Blocks, size uint64) uint64 {
	return uint64(sort.Search(int(size), func(j int) bool { return b.Block(uint64(j)) > 0 }))
}
