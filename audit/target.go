package audit

import (
	"fmt"
	"io"

	"github.com/bloomlab/bloomlab/core"
)

// Shape is the filter a check asks a target to build: M positions (bits,
// or counters), K probes per key, meant for N keys, keyed by Seed where the
// target takes a seed.
type Shape struct {
	M    uint64
	K    int
	N    int
	Seed uint64
}

// Filter is all the contract asks of an implementation: add a key, and test
// whether a key may be a member.
type Filter interface {
	Add(key []byte)
	Test(key []byte) bool
}

// The views below are optional. The audit discovers them on a target's
// filter; a check that needs one the filter lacks is skipped, with the
// reason, and never counted as passed.

// Positioner shows where a key lives: its positions in probe order, and how
// many positions there are (which may round M up, to whole blocks say).
type Positioner interface {
	Positions(dst []uint64, key []byte) []uint64
	Size() uint64
}

// Storer shows the filter's raw storage. A duplicate insert must leave it
// byte for byte the same, unless the filter can remove keys: one that can
// must count its duplicates.
type Storer interface {
	Words() []uint64
}

// Remover removes a member; false when the filter refuses (a counter that
// saturated no longer knows its count).
type Remover interface {
	Remove(key []byte) bool
}

// The views below are what a filter in a system offers: saved and loaded,
// merged, counted. The checks of the system group (system.go) hold a target
// to them where its filters show them.

// Saver writes the filter in its target's own format, which the target's
// Load reads back.
type Saver interface {
	Save(w io.Writer) error
}

// Merger takes another filter of the same target into this one, in place
// (a union): afterwards it answers yes for every key either held. A filter
// of another shape or seed it must refuse with an error; one it merges
// anyway is held to the members it then loses.
type Merger interface {
	Merge(other Filter) error
}

// Counter estimates how many distinct keys the filter holds, with the
// standard deviation it states for the estimate (0 when it states none).
type Counter interface {
	Count() (n, sd float64)
}

// Target is a named way to build filters of any shape: the lab's own filter
// in each variant, each broken filter of the lab's zoo, or a library.
type Target struct {
	// Name is short and stable, e.g. "lab/standard" or "bits-and-blooms".
	Name string
	// About says in a line what the target is.
	About string
	// New builds an empty filter for shape s. It is the one thing a
	// target must have.
	New func(s Shape) (Filter, error)
	// Rate is the target's own theory: the false-positive rate its filter
	// of shape s should show after s.N distinct keys. Nil means the
	// standard formula (1 - (1 - 1/M)^(KN))^K.
	Rate func(s Shape) float64
	// Seeded says New keys its filters by Shape.Seed, so that another
	// seed gives another filter.
	Seeded bool
	// SeedBits, for a Seeded target, is how many low bits of the seed it
	// takes, 1 to 64 (0 means 64): New is only ever given seeds below
	// 2^SeedBits, and every one of those bits must move the filter.
	SeedBits int
	// Load, when set, reads a filter its filters' Save wrote: the same
	// answers, or an error for a file that is not one it wrote whole.
	Load func(r io.Reader) (Filter, error)
	// Done, when set, is called once a check no longer uses the filters
	// New built for it: a target whose filters live in another process
	// frees them there.
	Done func()

	// lab is set on the lab's own targets: the hash, index derivation,
	// k, layouts and simulation behind them, which the checks of the
	// lab's machinery need.
	lab *labSetup
	// pause is set by Run for the length of a check: long checks call it
	// every pauseEvery steps, and stop when it returns an error.
	pause func() error
}

// pauseEvery is how many inserts or queries a long check makes between
// pauses: a few milliseconds of work in a browser.
const pauseEvery = 1 << 14

// paused calls t's pause at every pauseEvery-th step i, and returns its
// error.
func (t Target) paused(i int) error {
	if i%pauseEvery != 0 {
		return nil
	}
	return t.yield()
}

// done calls t's Done, if it has one.
func (t Target) done() {
	if t.Done != nil {
		t.Done()
	}
}

// yield calls t's pause now, if Run set one.
func (t Target) yield() error {
	if t.pause == nil {
		return nil
	}
	return t.pause()
}

// Need names what a check asks of a target beyond adding and testing keys.
type Need string

const (
	NeedPositions Need = "positions" // the filter is a Positioner
	NeedStorage   Need = "storage"   // the filter is a Storer
	NeedRemoval   Need = "removal"   // the filter is a Remover
	NeedSeed      Need = "seed"      // the target is Seeded
	NeedSave      Need = "save"      // the filter is a Saver and the target has Load
	NeedMerge     Need = "merge"     // the filter is a Merger
	NeedCount     Need = "count"     // the filter is a Counter
	// NeedLab marks checks of the lab's own machinery (its hash, index
	// derivation, formulas, counters and simulation), run only on the
	// lab's targets.
	NeedLab Need = "the lab's internals"
	// NeedBloom marks checks of a Bloom filter's own books: k positions
	// set per key in an array of m. The lab's cuckoo and fuse filters
	// keep fingerprints instead.
	NeedBloom Need = "a Bloom filter's k positions in m"
	// NeedSet marks checks that hold a filter to a set's semantics: it
	// takes any number of keys, and duplicates and order change nothing.
	// The lab's cuckoo filter keeps every copy of a key in a table of
	// fixed capacity, placed by the order keys came in, so they do not
	// apply to it.
	NeedSet Need = "a set's semantics (any number of keys; duplicates and order change nothing)"
	// NeedFixed marks checks that hold a filter to the shape it was built
	// with: m and k do not change as keys come, so its rate past its n is
	// that of m and k, and the order of keys does not decide where they
	// go. The lab's scalable filter grows a link when one fills and puts
	// each key in the link that is last when it comes, so they do not
	// apply to it.
	NeedFixed Need = "a fixed shape (m and k stay as built, and the order of keys does not place them)"
	// NeedWide marks the checks of positions past m = 2^32 on a filter
	// built that large. The audit does not build the lab's own filters
	// past 2^32 positions (512 MiB); the index-range/m-* checks follow the
	// lab's index derivation there, to 2^64 - 1, without an array.
	NeedWide Need = "a filter built past 2^32 positions (the lab's own are checked there on their index derivation, index-range/m-*)"
)

// layoutNeed is what a check of one of the lab's layouts needs: the lab,
// with that layout present under its fault (the counter fault has no
// blocked form, the index faults no counting one).
func layoutNeed(v core.Variant) Need { return Need("the lab's " + v.Name() + " filter") }

// views is what a target's filters show beyond Filter.
type views map[Need]bool

// discover builds one filter of t, of a shape every filter should take,
// and records its views.
func discover(t Target) (views, error) {
	if t.New == nil {
		return nil, fmt.Errorf("audit: target %q has no New function", t.Name)
	}
	s := Shape{M: 100000, K: 7, N: 10000, Seed: 1}
	defer t.done()
	flt, err := t.New(s)
	if err != nil {
		return nil, fmt.Errorf("audit: target %q cannot build a filter of m = %d, k = %d: %w", t.Name, s.M, s.K, err)
	}
	if flt == nil {
		return nil, fmt.Errorf("audit: target %q built a nil filter for m = %d, k = %d", t.Name, s.M, s.K)
	}
	v := views{NeedLab: t.lab != nil, NeedSeed: t.Seeded, NeedBloom: true, NeedSet: true, NeedFixed: true, NeedWide: t.lab == nil}
	if t.lab != nil {
		for _, l := range core.Variants {
			v[layoutNeed(l)] = l.Effective(t.lab.Fault) == l
		}
		own := t.lab.variant.Effective(t.lab.Fault)
		v[NeedBloom], v[NeedSet], v[NeedFixed] = own.Bloom(), !own.Bounded(), !own.Chain()
	}
	_, v[NeedPositions] = flt.(Positioner)
	_, v[NeedStorage] = flt.(Storer)
	_, v[NeedRemoval] = flt.(Remover)
	_, saves := flt.(Saver)
	v[NeedSave] = saves && t.Load != nil
	_, v[NeedMerge] = flt.(Merger)
	_, v[NeedCount] = flt.(Counter)
	return v, nil
}

// missing returns the first need of c that the views lack, and the reason
// to print in the skipped check's detail.
func (v views) missing(c Check, target string) (bool, string) {
	for _, n := range c.Needs {
		if v[n] {
			continue
		}
		var what string
		switch n {
		case NeedPositions:
			what = "the positions of a key (Positions and Size)"
		case NeedStorage:
			what = "raw storage (Words)"
		case NeedRemoval:
			what = "removal (Remove)"
		case NeedSeed:
			what = "a seed (Seeded)"
		case NeedSave:
			what = "saving and loading (Save and the target's Load)"
		case NeedMerge:
			what = "merging (Merge)"
		case NeedCount:
			what = "a count of its keys (Count)"
		case NeedLab:
			what = "the lab's internals"
		default:
			what = string(n)
		}
		return true, "skipped: needs " + what + ", which " + target + " does not show"
	}
	return false, ""
}

// seedBits is how many bits of seed t takes: SeedBits, or 64.
func (t Target) seedBits() int {
	if t.SeedBits <= 0 || t.SeedBits > 64 {
		return 64
	}
	return t.SeedBits
}

// seedOf is seed as t takes it: its low seedBits bits.
func (t Target) seedOf(seed uint64) uint64 {
	if b := t.seedBits(); b < 64 {
		return seed & (1<<b - 1)
	}
	return seed
}
