package experiment

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"bloomlab/core"
)

var frontier = Experiment{
	Name:    "frontier",
	Summary: "the space frontier: for rates from 10% down to 10^-6, the bits per key each structure needs at its best settings, built and measured, beside the floor log2(1/p) and the Bloom filter's 1.44 log2(1/p)",
	Quick:   Sizes{Items: 20_000, Queries: 1_000_000, Seed: 1},
	Full:    Sizes{Items: 1_000_000, Queries: 10_000_000, Seed: 1},
	run:     runFrontier,
}

// frontierRates are the target rates, one decade apart.
var frontierRates = []float64{1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6}

// frontierMaxBitsPerKey bounds every structure's search: past it a
// structure does not reach the rate.
const frontierMaxBitsPerKey = 64

// structure is one row of the frontier at each rate: a layout and how it
// spends the fewest bits that reach a rate by its theory.
type structure struct {
	name    string
	variant core.Variant
	// cheapest returns the smallest filter of the structure whose theory
	// reaches p with n keys and its settings in words, or false and why
	// none does.
	cheapest func(n uint64, p float64) (core.Spec, string, bool)
}

// frontierStructures are the structures the frontier compares, each at its
// best settings for the rate.
var frontierStructures = []structure{
	{"standard", core.Standard, cheapestStandard},
	{"blocked", core.BlockedVariant, cheapestBlocked},
	{"counting", core.CountingVariant, func(n uint64, p float64) (core.Spec, string, bool) {
		// The standard filter's shape, with 4-bit counters for removal.
		s, settings, ok := cheapestStandard(n, p)
		return s, settings + ", 4-bit counters", ok
	}},
	{"cuckoo", core.CuckooVariant, cheapestCuckoo},
	{"fuse", core.FuseVariant, cheapestFuse},
}

// cheapestStandard is the smallest m whose formula rate at the rounded
// optimal k reaches p: from (n log2(1/p)) / ln 2, m moves a bit at a time to
// the edge (the rounding of k makes the rate a little ragged in m).
func cheapestStandard(n uint64, p float64) (core.Spec, string, bool) {
	reaches := func(m uint64) bool { return core.Rate(m, n, core.OptimalK(m, n)) <= p }
	m := uint64(math.Ceil(float64(n) * core.InfoFloor(p) / math.Ln2))
	limit := frontierMaxBitsPerKey * n
	for m <= limit && !reaches(m) {
		m += max(1, m/1000)
	}
	if m > limit {
		return core.Spec{}, fmt.Sprintf("not within %d bits per key", frontierMaxBitsPerKey), false
	}
	for m > 1 && reaches(m-1) {
		m--
	}
	k := core.OptimalK(m, n)
	return core.Spec{M: m, K: k, N: n}, fmt.Sprintf("k = %d", k), true
}

// cheapestBlocked is the fewest whole 512-bit blocks whose exact rate (the
// mixture of block fills) at its best k reaches p, found by bisection: the
// best rate falls as blocks are added.
func cheapestBlocked(n uint64, p float64) (core.Spec, string, bool) {
	blocks := func(m uint64) uint64 { return max(1, (m+core.BlockSize-1)/core.BlockSize) }
	reaches := func(b uint64) bool {
		m := b * core.BlockSize
		return core.BlockedRateExact(m, n, blockedBestK(m, n)) <= p
	}
	lo, hi := uint64(1), blocks(frontierMaxBitsPerKey*n)
	if !reaches(hi) {
		return core.Spec{}, fmt.Sprintf("not within %d bits per key", frontierMaxBitsPerKey), false
	}
	for lo < hi {
		mid := lo + (hi-lo)/2
		if reaches(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	m := hi * core.BlockSize
	k := blockedBestK(m, n)
	return core.Spec{M: m, K: k, N: n}, fmt.Sprintf("k = %d, %d blocks", k, hi), true
}

// cheapestCuckoo is the narrowest of the lab's fingerprints whose rate at
// full load, 1 - (1 - load/(2^f - 1))^8, reaches p, in the fewest buckets
// that hold n keys at cuckooFull.
func cheapestCuckoo(n uint64, p float64) (core.Spec, string, bool) {
	widths := slices.Clone(core.CuckooVariant.Fingerprints())
	slices.Sort(widths)
	for _, f := range widths {
		if core.CuckooRate(f, cuckooFull) > p {
			continue
		}
		buckets := uint64(math.Ceil(float64(n) / (core.CuckooSlots * cuckooFull)))
		return core.Spec{M: buckets * core.CuckooSlots * uint64(f), N: n, FingerprintBits: f},
			fmt.Sprintf("f = %d, %d buckets", f, buckets), true
	}
	f := widths[len(widths)-1]
	return core.Spec{}, fmt.Sprintf("its widest fingerprint, %d bits, gives %s at full load", f, pct(core.CuckooRate(f, cuckooFull))), false
}

// cheapestFuse is the fuse filter with the narrowest fingerprint whose
// rate, 2^-f, reaches p.
func cheapestFuse(n uint64, p float64) (core.Spec, string, bool) {
	f := int(math.Ceil(core.InfoFloor(p) - 1e-9))
	if core.FuseVariant.CheckFingerprintBits(f) != nil {
		return core.Spec{}, fmt.Sprintf("needs %d-bit fingerprints, past its %s", f, core.FuseVariant.FingerprintWidths("and")), false
	}
	return core.Spec{N: n, FingerprintBits: f}, fmt.Sprintf("f = %d", f), true
}

// frontierCell is one structure at one rate: its spec, or reaches false;
// then what it showed.
type frontierCell struct {
	reaches  bool
	spec     core.Spec
	settings string
	x        rateResult
	bpk      float64
	theory   float64
	lo, hi   float64
}

func runFrontier(s Sizes, r *runner) (Table, error) {
	n := uint64(s.Items)
	cells := make([][]frontierCell, len(frontierRates))
	var jobs []filterJob
	var at []*frontierCell
	for pi, p := range frontierRates {
		cells[pi] = make([]frontierCell, len(frontierStructures))
		for si, st := range frontierStructures {
			c := &cells[pi][si]
			c.spec, c.settings, c.reaches = st.cheapest(n, p)
			if !c.reaches {
				continue
			}
			c.spec.Seed = derive(s.Seed, saltFrontier, uint64(pi), uint64(si))
			v, spec := st.variant, c.spec
			jobs = append(jobs, filterJob{
				build: func() (core.Membership, error) { return v.Build(spec) },
				n:     n, queries: uint64(s.Queries), seed: spec.Seed,
			})
			at = append(at, c)
		}
	}
	res, err := measureFilters(r, jobs, r.native)
	if err != nil {
		return Table{}, err
	}
	for i, c := range at {
		c.x = res[i]
	}
	for pi := range cells {
		for si, st := range frontierStructures {
			c := &cells[pi][si]
			if !c.reaches {
				continue
			}
			f := c.x.filter
			c.bpk = float64(st.variant.MemoryBits(f)) / float64(n)
			c.theory = st.variant.Theory(f, n).Rate
			c.lo, c.hi = core.WholeInterval(st.variant, c.x.m, n, f.K(), c.x.fp, c.x.queries)
		}
	}
	t := frontierTable(s, cells, r.native)
	t.Notes = append(t.Notes, frontierNotes(cells)...)
	if r.native {
		t.Notes = append(t.Notes, fmt.Sprintf("Times are wall time in the filters' own calls, batched %d keys at a time, without generating the keys; a fuse filter's build includes its Seal. "+
			"They vary with the machine, its load and the run: native runs show them, and no table of the browser or the tests holds them.", core.BatchKeys))
	}
	return t, nil
}

// frontierTable lays the cells out, a row a structure a rate.
func frontierTable(s Sizes, cells [][]frontierCell, timed bool) Table {
	n := uint64(s.Items)
	t := Table{
		Title: fmt.Sprintf("the space frontier: n = %s keys, %s absent queries a row; each structure at the fewest bits its theory needs for the target rate; "+
			"floor log2(1/p), the Bloom filter's log2(1/p)/ln 2 = 1.44 log2(1/p); the interval is the whole measurement's", group(s.Items), group(s.Queries)),
		Columns: []Column{{Key: "target", Title: "target p", Kind: Float, Decimals: 6},
			{Key: "structure", Title: "structure", Kind: Text}, {Key: "settings", Title: "settings", Kind: Text},
			colBPK, {Key: "floor", Title: "floor", Kind: Float, Decimals: 3},
			{Key: "bloomLine", Title: "1.44 floor", Kind: Float, Decimals: 3},
			{Key: "overFloor", Title: "over floor", Kind: Float, Decimals: 3},
			{Key: "theory", Title: "theory", Kind: Float, Decimals: 8},
			{Key: "observed", Title: "observed", Kind: Float, Decimals: 8},
			{Key: "ci95", Title: "95% CI", Kind: Interval, Decimals: 8}, colFP},
		Chart: &Chart{Title: "false-positive rate against bits per key, each structure at its best settings", X: "bits per key", Y: "false-positive rate", LogY: true},
	}
	if timed {
		t.Columns = append(t.Columns, Column{Key: "buildNs", Title: "build ns/key", Kind: Float, Decimals: 1},
			Column{Key: "queryNs", Title: "query ns/key", Kind: Float, Decimals: 1})
	}
	floor := Series{Name: "floor: p = 2^-b", Kind: Line}
	bloom := Series{Name: "Bloom: p = 2^(-b ln 2)", Kind: Line}
	for b := 2.0; b <= 2+frontierChartBits(cells); b++ {
		floor.Points = append(floor.Points, Point{X: b, Y: math.Ldexp(1, -int(b))})
		// 2^(-b ln 2) = e^(-b ln^2 2), through Expm1, which every
		// platform computes alike (math.Exp is assembly on some).
		bloom.Points = append(bloom.Points, Point{X: b, Y: 1 + math.Expm1(-b*math.Ln2*math.Ln2)})
	}
	for _, st := range frontierStructures {
		t.Chart.Series = append(t.Chart.Series, Series{Name: st.name, Kind: Points})
	}
	for pi, p := range frontierRates {
		lg := core.InfoFloor(p)
		for si, st := range frontierStructures {
			c := cells[pi][si]
			row := []Cell{num(p), txt(st.name)}
			if !c.reaches {
				row = append(row, txt(c.settings))
				for len(row) < len(t.Columns) {
					row = append(row, missing())
				}
				t.Rows = append(t.Rows, row)
				continue
			}
			row = append(row, txt(c.settings), num(c.bpk), num(lg), num(lg/math.Ln2), num(c.bpk/lg),
				num(c.theory), num(c.x.rate()), interval(c.lo, c.hi), count(c.x.fp))
			if timed {
				row = append(row, num(float64(c.x.insertDur.Nanoseconds())/float64(n)), num(float64(c.x.queryDur.Nanoseconds())/float64(c.x.queries)))
			}
			t.Rows = append(t.Rows, row)
			t.Chart.Series[si].Points = append(t.Chart.Series[si].Points, Point{X: c.bpk, Y: c.x.rate(), Lo: c.lo, Hi: c.hi})
		}
	}
	t.Chart.Series = append(t.Chart.Series, floor, bloom)
	return t
}

// frontierChartBits is how far the chart's lines run: the widest filter
// measured, in whole bits per key.
func frontierChartBits(cells [][]frontierCell) float64 {
	most := 0.0
	for _, line := range cells {
		for _, c := range line {
			if c.reaches {
				most = max(most, math.Ceil(c.bpk))
			}
		}
	}
	return most
}

// frontierNotes say, at each rate, which structure is cheapest and how far
// each is from the floor, and how many intervals hold their theory.
func frontierNotes(cells [][]frontierCell) []string {
	var cheapest []string
	inside, measured := 0, 0
	for pi, p := range frontierRates {
		best := -1
		for si, c := range cells[pi] {
			if !c.reaches {
				continue
			}
			measured++
			if c.lo <= c.theory && c.theory <= c.hi {
				inside++
			}
			if best < 0 || c.bpk < cells[pi][best].bpk {
				best = si
			}
		}
		if best < 0 {
			continue
		}
		c, std := cells[pi][best], cells[pi][0]
		line := fmt.Sprintf("at %s the %s filter, %.2f bits per key (%.2f times the floor %.2f)", pct(p), frontierStructures[best].name, c.bpk, c.bpk/core.InfoFloor(p), core.InfoFloor(p))
		if std.reaches && best != 0 {
			line += fmt.Sprintf(", %.0f%% less than the standard filter's %.2f", 100*(1-c.bpk/std.bpk), std.bpk)
		}
		cheapest = append(cheapest, line)
	}
	return []string{
		"Cheapest: " + strings.Join(cheapest, "; ") + ".",
		fmt.Sprintf("Every structure is sized by its own theory and then measured: %d of %d intervals hold the theory value; about one in twenty should not. "+
			"A fingerprint filter's rate moves in steps of its fingerprint width, so it can land well below the target: its bits are the price of the next whole bit.", inside, measured),
	}
}
