package experiment

import (
	"fmt"
	"math"

	"github.com/bloomlab/bloomlab/core"
)

var smallM = Experiment{
	Name:    "small-m",
	Summary: "small filters, m = 10 to 100,000 bits at 10 bits per key: double, enhanced double and independent hashing against the formula over many seeds",
	Quick:   Sizes{Queries: 10_000, Replicates: 40, Seed: 1},
	Full:    Sizes{Queries: 20_000, Replicates: 200, Seed: 1},
	run:     runSmallM,
}

// The filters of small-m: m bits for m/10 keys, k = 7 (the optimum at 10
// bits per key).
var smallMs = []uint64{10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 100_000}

const smallMK = 7

// runSmallM builds Replicates filters of each size under each scheme. A
// replicate's keys and hash key are the same for every scheme, so the
// schemes are compared on the same keys. Each filter answers Queries absent
// keys; a row gives the mean of the filters' rates and its 95% interval
// over the seeds, so the spread from filter to filter is in it.
func runSmallM(s Sizes, r *runner) (Table, error) {
	rates, err := smallMRates(s, r)
	if err != nil {
		return Table{}, err
	}
	return smallMTable(s, rates), nil
}

// smallMRates is every filter's measured rate, by size, then scheme, then
// replicate.
func smallMRates(s Sizes, r *runner) ([]float64, error) {
	type task struct{ mi, hi, rep int }
	var tasks []task
	for mi, m := range smallMs {
		for hi := range core.Hashings {
			for rep := 0; rep < s.Replicates; rep++ {
				tasks = append(tasks, task{mi, hi, rep})
				r.plan(int(m/10) + s.Queries)
			}
		}
	}
	return spread(r, len(tasks), func(i int) (float64, error) {
		t := tasks[i]
		m := smallMs[t.mi]
		seed := derive(s.Seed, saltSmallM, uint64(t.mi), uint64(t.rep))
		f, err := core.NewHashed(core.Standard, core.NoFault, core.Hashings[t.hi], m, smallMK, seed)
		if err != nil {
			return 0, err
		}
		if err := insert(r, f, m/10, seed); err != nil {
			return 0, err
		}
		x, err := queryAbsent(r, f, seed, 0, uint64(s.Queries))
		return float64(x.fp) / float64(s.Queries), err
	})
}

// smallMTable is a row a size and scheme, from smallMRates' rates: the
// formula, what one filter expects, and the rates' mean and interval,
// charted over the formula; the note says from which m each scheme's
// interval holds what one filter expects.
func smallMTable(s Sizes, rates []float64) Table {
	t := Table{
		Title: fmt.Sprintf("small filters: m bits for m/10 keys, k = %d, %d filters a row with %s absent queries each; formula (1 - (1 - 1/m)^(kn))^k, "+
			"one filter: what one filter with independent positions expects, E[(S/m)^k]; ratio: measured over formula", smallMK, s.Replicates, group(s.Queries)),
		Columns: []Column{{Key: "m", Title: "m", Kind: Int}, {Key: "n", Title: "n", Kind: Int}, {Key: "hashing", Title: "hashing", Kind: Text},
			{Key: "theory", Title: "formula", Kind: Float, Decimals: 6},
			{Key: "oneFilter", Title: "one filter", Kind: Float, Decimals: 6},
			{Key: "measured", Title: "measured", Kind: Float, Decimals: 6},
			{Key: "ci95", Title: "95% CI, seeds", Kind: Interval, Decimals: 6},
			{Key: "ratio", Title: "ratio", Kind: Float, Decimals: 3}},
		Chart: &Chart{Title: "measured rate over the formula's, by filter size", X: "m bits", Y: "measured / formula", LogX: true},
	}
	for _, h := range core.Hashings {
		t.Chart.Series = append(t.Chart.Series, Series{Name: string(h) + " hashing", Kind: Points})
	}
	oneFilter := Series{Name: "one filter, independent positions", Kind: Line}
	agrees := make([]uint64, len(core.Hashings)) // the smallest m from which each scheme agrees
	reps := s.Replicates
	for mi, m := range smallMs {
		n := m / 10
		theory := core.RateExact(m, n, smallMK)
		expect, _ := core.FilterSpread(m, n, smallMK)
		oneFilter.Points = append(oneFilter.Points, Point{X: float64(m), Y: expect / theory})
		for hi, h := range core.Hashings {
			first := (mi*len(core.Hashings) + hi) * reps
			mean, half := meanAndHalf(rates[first : first+reps])
			t.Rows = append(t.Rows, []Cell{count(m), count(n), txt(string(h)), num(theory), num(expect), num(mean),
				interval(mean-half, mean+half), ratio(mean, theory)})
			t.Chart.Series[hi].Points = append(t.Chart.Series[hi].Points,
				Point{X: float64(m), Y: mean / theory, Lo: (mean - half) / theory, Hi: (mean + half) / theory})
			if math.Abs(mean-expect) > half {
				agrees[hi] = 0
			} else if agrees[hi] == 0 {
				agrees[hi] = m
			}
		}
	}
	t.Chart.Series = append(t.Chart.Series, oneFilter)
	t.Notes = append(t.Notes, smallMNote(agrees),
		"The formula assumes the fill of one filter is its expected fill; a small filter's fill varies, and E[(S/m)^k] is above (E[S]/m)^k (Jensen), "+
			"which is the gap between the formula and one filter with independent positions. Double hashing adds its own: "+
			"the k positions of one key, h1 + i*h2, are spread too evenly over a small array.")
	return t
}

// smallMNote says, for each scheme, the smallest m from which its
// interval holds what one filter expects (agrees, 0 for not even at the
// largest m).
func smallMNote(agrees []uint64) string {
	note := "Each scheme's interval over the seeds holds what one filter with independent positions expects"
	for hi, h := range core.Hashings {
		if agrees[hi] == 0 {
			note += fmt.Sprintf("; %s hashing: not at m = %d", h, smallMs[len(smallMs)-1])
		} else {
			note += fmt.Sprintf("; %s hashing: from m = %d on", h, agrees[hi])
		}
	}
	return note + "."
}

// meanAndHalf returns the mean of xs and the half width of its 95% normal
// interval.
func meanAndHalf(xs []float64) (mean, half float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	ss := 0.0
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, core.Z95 * math.Sqrt(ss/float64(len(xs)-1)/float64(len(xs)))
}
