package experiment

import (
	"fmt"
	"strings"

	"github.com/bloomlab/bloomlab/core"
)

var scalable = Experiment{
	Name: "scalable",
	Summary: "a scalable Bloom filter grown to 1, 2, 10 and 100 times its first capacity at tightening 0.5 (Redis) and 0.9 (the paper): " +
		"its compounded rate against the bound p0/(1 - r) and its memory against a filter sized right from the start",
	Quick:     Sizes{Items: 1000, Queries: 200_000, Seed: 1},
	Full:      Sizes{Items: 10_000, Queries: 2_000_000, Seed: 1},
	ItemsMax:  scalableMaxFirst,
	ItemsHelp: "the first link's capacity; 1, 2, 10 and 100 times as many keys are given to the chains",
	run:       runScalable,
}

// The chains the scalable experiment grows: the first link holds Items
// keys at scalableP0, each next one twice as many (Redis's EXPANSION 2)
// at r times the rate.
var (
	scalableTimes = []uint64{1, 2, 10, 100}
	scalableR     = []float64{core.ScalableTightening, 0.9}
)

const (
	scalableP0 = 0.01
	// scalableMaxFirst bounds the first capacity: 100 times it are
	// inserted, so at most 10^7 keys, the lab's most.
	scalableMaxFirst = MaxItems / 100
)

// scalableRow is one chain and the filter sized right from the start for
// the keys it was given.
type scalableRow struct {
	r            float64
	times, n     uint64
	chain, right rateResult
}

func runScalable(s Sizes, r *runner) (Table, error) {
	n0 := uint64(s.Items)
	m0, k0, err := sized(n0, scalableP0)
	if err != nil {
		return Table{}, err
	}
	var rows []scalableRow
	var jobs []filterJob
	for ri, tight := range scalableR {
		for ti, times := range scalableTimes {
			n, seed := times*n0, derive(s.Seed, saltScalable, uint64(ri), uint64(ti))
			rows = append(rows, scalableRow{r: tight, times: times, n: n})
			jobs = append(jobs, filterJob{
				build: func() (core.Membership, error) {
					return core.NewScalable(m0, k0, n0, core.ScalableGrowth, tight, seed)
				},
				n: n, queries: uint64(s.Queries), seed: seed,
			}, filterJob{
				build: func() (core.Membership, error) {
					m, k, err := sized(n, scalableP0)
					if err != nil {
						return nil, err
					}
					return core.NewFilter(m, k, seed)
				},
				n: n, queries: uint64(s.Queries), seed: seed,
			})
		}
	}
	res, err := measureFilters(r, jobs, false)
	if err != nil {
		return Table{}, err
	}
	for i := range rows {
		rows[i].chain, rows[i].right = res[2*i], res[2*i+1]
	}
	t := scalableTable(s, rows)
	t.Notes = append(t.Notes,
		fmt.Sprintf("The first link holds %s keys at p0 = %s (m0 = %s bits, k = %d); link i holds %d^i times as many at p0 r^i, sized by the lab's sizing (m = -n ln p / (ln 2)^2, rounded up to whole words; k = round((m/n) ln 2)), with a seed of its own. "+
			"A key the chain already says maybe to is not inserted (as in Redis), so the chain holds a little fewer keys than it is given. "+
			"The right-sized filter is a standard one sized for all the keys given at p0 from the start.",
			group(s.Items), pct(scalableP0), group(int(m0)), k0, core.ScalableGrowth),
		"Theory: 1 - Π(1 - f_i^k_i) over the links, f_i a link's share of bits set; the chain's rate given its bits does not vary, so the interval is the queries' (95% Wilson).",
		scalableClaim(rows))
	return t, nil
}

func scalableTable(s Sizes, rows []scalableRow) Table {
	t := Table{
		Title: fmt.Sprintf("a scalable Bloom filter grown from %s keys at %s: %s absent queries per row", group(s.Items), pct(scalableP0), group(s.Queries)),
		Columns: []Column{{Key: "r", Title: "r", Kind: Float, Decimals: 1},
			{Key: "times", Title: "x first", Kind: Int},
			{Key: "keys", Title: "keys", Kind: Int},
			{Key: "links", Title: "links", Kind: Int},
			{Key: "bitsPerKey", Title: "bits/key", Kind: Float, Decimals: 3},
			{Key: "rightBitsPerKey", Title: "right-sized bits/key", Kind: Float, Decimals: 3},
			{Key: "memoryRatio", Title: "memory ratio", Kind: Float, Decimals: 3},
			{Key: "theory", Title: "theory", Kind: Float, Decimals: 7},
			{Key: "observed", Title: "observed", Kind: Float, Decimals: 7},
			{Key: "ci95", Title: "95% CI", Kind: Interval, Decimals: 7},
			{Key: "bound", Title: "bound p0/(1-r)", Kind: Float, Decimals: 7},
			{Key: "rightObserved", Title: "right-sized observed", Kind: Float, Decimals: 7},
			colFP},
		Chart: &Chart{Title: "the chain's rate as it grows, against its bound and a filter sized right from the start",
			X: "keys given, times the first link's capacity", Y: "false-positive rate", LogX: true, LogY: true},
	}
	series := map[string]int{}
	add := func(name, kind string, p Point) {
		i, ok := series[name]
		if !ok {
			i = len(t.Chart.Series)
			series[name] = i
			t.Chart.Series = append(t.Chart.Series, Series{Name: name, Kind: kind})
		}
		t.Chart.Series[i].Points = append(t.Chart.Series[i].Points, p)
	}
	for _, row := range rows {
		f := row.chain.filter
		chain := f.(core.Linked)
		bpk := float64(f.M()) / float64(row.n)
		right := float64(row.right.m) / float64(row.n)
		lo, hi := row.chain.ci()
		th := core.ScalableVariant.Theory(f, row.n).Rate
		t.Rows = append(t.Rows, []Cell{num(row.r), count(row.times), count(row.n), count(chain.Links()), num(bpk), num(right), ratio(bpk, right),
			num(th), num(row.chain.rate()), interval(lo, hi), num(chain.Bound()), num(row.right.rate()), count(row.chain.fp)})
		x, rs := float64(row.times), fmt.Sprint("r = ", row.r)
		add(rs+" theory", Line, Point{X: x, Y: th})
		add(rs+" measured", Points, Point{X: x, Y: row.chain.rate(), Lo: lo, Hi: hi})
		add(rs+" bound", Line, Point{X: x, Y: chain.Bound()})
		if row.r == scalableR[0] {
			rlo, rhi := row.right.ci()
			add("right-sized measured", Points, Point{X: x, Y: row.right.rate(), Lo: rlo, Hi: rhi})
		}
	}
	return t
}

// scalableClaim tests claim 4, the paper's: however far the chain grows,
// its rate stays below p0/(1 - r), and what that costs in memory against a
// filter sized right from the start; from the run, row by row.
func scalableClaim(rows []scalableRow) string {
	var b strings.Builder
	b.WriteString("Claim 4, the paper's (Almeida, Baquero, Preguiça and Hutchison, 2007): a scalable filter's rate stays below p0/(1 - r) however far it grows, at a price in memory. Measured: ")
	holds := true
	var parts []string
	for _, row := range rows {
		if row.times != scalableTimes[len(scalableTimes)-1] {
			lo, _ := row.chain.ci()
			chain := row.chain.filter.(core.Linked)
			holds = holds && lo <= chain.Bound()
			continue
		}
		chain := row.chain.filter.(core.Linked)
		lo, hi := row.chain.ci()
		holds = holds && lo <= chain.Bound()
		bpk, right := float64(row.chain.filter.M())/float64(row.n), float64(row.right.m)/float64(row.n)
		parts = append(parts, fmt.Sprintf("at r = %v and 100 times the first capacity (%d links) the chain measures %s [%s, %s] against its bound %s and p0 %s, in %.2f bits per key against %.2f for a filter sized right from the start (%.2f times the memory), which measures %s",
			row.r, chain.Links(), pct(row.chain.rate()), pct(lo), pct(hi), pct(chain.Bound()), pct(scalableP0), bpk, right, bpk/right, pct(row.right.rate())))
	}
	b.WriteString(strings.Join(parts, "; "))
	if holds {
		b.WriteString(". No row's interval lies above its bound: the claim holds here. The bound is not p0: the chain's rate passes p0 once it has grown, so a user who needs p0 must ask for p0 (1 - r) at the start; ")
		b.WriteString("a tighter r costs bits in every later link and buys a lower bound, a looser one the reverse.")
	} else {
		b.WriteString(". Some row's interval lies above its bound: the claim does not hold here.")
	}
	return b.String()
}
