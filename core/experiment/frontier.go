package experiment

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/plan"
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

// The structures are plan.Cheapest's, each sized there by its own theory
// at the fewest bits that reach the target, the figures the calculator
// shows too.

// frontierCell is one structure at one rate, as plan.Cheapest sized it;
// then what it showed.
type frontierCell struct {
	plan.Sized
	x      rateResult
	bpk    float64
	theory float64
	lo, hi float64
}

func runFrontier(s Sizes, r *runner) (Table, error) {
	n := uint64(s.Items)
	cells := make([][]frontierCell, len(frontierRates))
	var jobs []filterJob
	var at []*frontierCell
	for pi, p := range frontierRates {
		for _, sized := range plan.Cheapest(n, p) {
			cells[pi] = append(cells[pi], frontierCell{Sized: sized})
		}
		for si := range cells[pi] {
			c := &cells[pi][si]
			if !c.Reaches {
				continue
			}
			c.Spec.Seed = derive(s.Seed, saltFrontier, uint64(pi), uint64(si))
			v, spec := c.Variant, c.Spec
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
		for si := range cells[pi] {
			c := &cells[pi][si]
			if !c.Reaches {
				continue
			}
			f, v := c.x.filter, c.Variant
			c.bpk = float64(v.MemoryBits(f)) / float64(n)
			c.theory = v.Theory(f, n).Rate
			c.lo, c.hi = core.WholeInterval(v, c.x.m, n, f.K(), c.x.fp, c.x.queries)
		}
	}
	t := frontierTable(s, cells, r.native)
	t.Notes = append(t.Notes, frontierNotes(n, cells)...)
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
		Chart: &Chart{Title: "false-positive rate against bits per key, each structure at its best settings (the counting filter, at four times the standard filter's bits, is in the table)",
			X: "bits per key", Y: "false-positive rate", LogY: true},
	}
	if timed {
		t.Columns = append(t.Columns, Column{Key: "buildNs", Title: "build ns/key", Kind: Float, Decimals: 1},
			Column{Key: "queryNs", Title: "query ns/key", Kind: Float, Decimals: 1})
	}
	floor := Series{Name: "floor: p = 2^-b", Kind: Line}
	bloom := Series{Name: "Bloom: p = 2^(-b ln 2)", Kind: Line}
	// The lines run down to a decade below the lowest target.
	lowest := frontierRates[len(frontierRates)-1] / 10
	for b := 1.0; b <= 2+frontierChartBits(cells); b++ {
		if y := math.Ldexp(1, -int(b)); y >= lowest {
			floor.Points = append(floor.Points, Point{X: b, Y: y})
		}
		// 2^(-b ln 2) = e^(-b ln^2 2), through Expm1, which every
		// platform computes alike (math.Exp is assembly on some).
		if y := 1 + math.Expm1(-b*math.Ln2*math.Ln2); y >= lowest {
			bloom.Points = append(bloom.Points, Point{X: b, Y: y})
		}
	}
	charted := func(v core.Variant) bool { return v != core.CountingVariant }
	for _, c := range cells[0] {
		if charted(c.Variant) {
			t.Chart.Series = append(t.Chart.Series, Series{Name: c.Name, Kind: Points})
		}
	}
	for pi, p := range frontierRates {
		lg := core.InfoFloor(p)
		for _, c := range cells[pi] {
			row := []Cell{num(p), txt(c.Name)}
			if !c.Reaches {
				row = append(row, txt(c.Why))
				for len(row) < len(t.Columns) {
					row = append(row, missing())
				}
				t.Rows = append(t.Rows, row)
				continue
			}
			row = append(row, txt(c.Settings), num(c.bpk), num(lg), num(lg/math.Ln2), num(c.bpk/lg),
				num(c.theory), num(c.x.rate()), interval(c.lo, c.hi), count(c.x.fp))
			if timed {
				row = append(row, num(float64(c.x.insertDur.Nanoseconds())/float64(n)), num(float64(c.x.queryDur.Nanoseconds())/float64(c.x.queries)))
			}
			t.Rows = append(t.Rows, row)
			if charted(c.Variant) {
				sr := &t.Chart.Series[slices.IndexFunc(t.Chart.Series, func(sr Series) bool { return sr.Name == c.Name })]
				sr.Points = append(sr.Points, Point{X: c.bpk, Y: c.x.rate(), Lo: c.lo, Hi: c.hi})
			}
		}
	}
	t.Chart.Series = append(t.Chart.Series, floor, bloom)
	return t
}

// frontierChartBits is how far the chart's lines run: the widest filter
// charted, in whole bits per key.
func frontierChartBits(cells [][]frontierCell) float64 {
	most := 0.0
	for _, line := range cells {
		for _, c := range line {
			if c.Reaches && c.Variant != core.CountingVariant {
				most = max(most, math.Ceil(c.bpk))
			}
		}
	}
	return most
}

// frontierNotes say, at each rate, which structure is cheapest and how far
// each is from the floor, what growth past n costs, and how many
// intervals hold their theory.
func frontierNotes(n uint64, cells [][]frontierCell) []string {
	var cheapest []string
	inside, measured := 0, 0
	for pi, p := range frontierRates {
		best := -1
		for si, c := range cells[pi] {
			if !c.Reaches {
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
		line := fmt.Sprintf("at %s the %s filter, %.2f bits per key (%.2f times the floor %.2f)", pct(p), c.Name, c.bpk, c.bpk/core.InfoFloor(p), core.InfoFloor(p))
		if std.Reaches && best != 0 {
			line += fmt.Sprintf(", %.0f%% less than the standard filter's %.2f", 100*(1-c.bpk/std.bpk), std.bpk)
		}
		cheapest = append(cheapest, line)
	}
	return []string{
		"Cheapest: " + strings.Join(cheapest, "; ") + ".",
		scalableNote(n, cells),
		fmt.Sprintf("Every structure is sized by its own theory and then measured: %d of %d intervals hold the theory value; about one in twenty should not. "+
			"A fingerprint filter's rate moves in steps of its fingerprint width, so it can land well below the target: its bits are the price of the next whole bit.", inside, measured),
	}
}

// scalableNote says what growth past n costs: the scalable chain against
// the standard filter at each rate it reaches, and its links, their room
// and its measurement at 1%.
func scalableNote(n uint64, cells [][]frontierCell) string {
	lo, hi, reached := math.Inf(1), 0.0, 0
	at := ""
	for pi, p := range frontierRates {
		si := slices.IndexFunc(cells[pi], func(c frontierCell) bool { return c.Variant == core.ScalableVariant })
		if si < 0 || !cells[pi][si].Reaches || !cells[pi][0].Reaches {
			continue
		}
		c, std := cells[pi][si], cells[pi][0]
		reached++
		lo, hi = min(lo, c.bpk/std.bpk), max(hi, c.bpk/std.bpk)
		if chain, ok := c.x.filter.(core.Linked); ok && p == 1e-2 {
			var room uint64
			for _, l := range chain.Chain() {
				room += l.Capacity
			}
			at = fmt.Sprintf(": at 1%% its %d links, with room for %.2fn keys, take %.2f bits per key against the standard filter's %.2f, and it measured %.6f (95%% CI %.6f to %.6f) against its theory %.6f",
				chain.Links(), float64(room)/float64(n), c.bpk, std.bpk, c.x.rate(), c.lo, c.hi, c.theory)
		}
	}
	if reached == 0 {
		return "Growth: the scalable chain reaches none of the rates within the plan's bounds."
	}
	return fmt.Sprintf("Growth: the scalable chain, the one structure here that takes keys past n without a rebuild, starts at n/%d keys and grows by %d at tightening %v, "+
		"its first link's rate p0 set so that its own theory reaches the target at n keys. Across the %d rates it reaches it takes %.2f to %.2f times the standard filter's bits%s.",
		core.ScalableShare, core.ScalableGrowth, core.ScalableTightening, reached, lo, hi, at)
}
