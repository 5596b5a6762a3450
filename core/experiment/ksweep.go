package experiment

import (
	"fmt"
	"math"

	"github.com/bloomlab/bloomlab/core"
)

var kSweep = Experiment{
	Name:    "k-sweep",
	Summary: "k = 1..16 at 9.585 bits per key and k = 9..13 at 16, over replicates: the optimum is flat",
	Quick:   Sizes{Items: 50_000, Queries: 500_000, Replicates: 5, Seed: 1},
	Full:    Sizes{Items: 200_000, Queries: 6_000_000, Replicates: 30, Seed: 1},
	run:     runKSweep,
}

// sweep is one sizing whose filters differ only in k. Its queries per k per
// replicate are the run's Queries divided by thin: at 9.585 bits per key the
// rates are twenty times those at 16, so a third of the queries resolves them
// better still, and the sweep's sixteen filters make each query cost more.
type sweep struct {
	m    uint64
	ks   []int
	thin int
}

func (sw sweep) queries(s Sizes) uint64 { return uint64(max(1, s.Queries/sw.thin)) }

func runKSweep(s Sizes, r *runner) (Table, error) {
	n := uint64(s.Items)
	m1, err := core.BitsFor(n, 0.01)
	if err != nil {
		return Table{}, err
	}
	sweeps := []sweep{{m1, span(1, 16), 3}, {16 * n, span(9, 13), 1}}
	reps := s.Replicates

	// fp[task][j] is the false positives of the j-th k in one replicate of
	// one sweep; task = sweep*reps + replicate.
	for _, sw := range sweeps {
		r.plan(reps * len(sw.ks) * int(n+sw.queries(s)))
	}
	fp, err := spread(r, len(sweeps)*reps, func(task int) ([]uint64, error) {
		sw := sweeps[task/reps]
		return sweepOnce(r, sw, n, sw.queries(s), derive(s.Seed, saltKSweep, uint64(task)))
	})
	if err != nil {
		return Table{}, err
	}

	t := Table{
		Title: fmt.Sprintf("the flat optimum of k: n = %s keys, %d replicates; absent queries per k per replicate: %s at %.3f bits per key, %s at 16",
			group(s.Items), reps, group(int(sweeps[0].queries(s))), float64(m1)/float64(n), group(int(sweeps[1].queries(s)))),
		Columns: []Column{colBPK, colK, colTheory, {Key: "observed", Title: "mean obs", Kind: Float, Decimals: 6}, colCI,
			{Key: "ratio", Title: "obs/theory", Kind: Float, Decimals: 4},
			{Key: "sd", Title: "sd across reps", Kind: Float, Decimals: 6}, {Key: "won", Title: "reps won", Kind: Int}},
		Chart: &Chart{Title: "false-positive rate against k", X: "hashes k", Y: "false-positive rate", LogY: true},
	}
	for si, sw := range sweeps {
		bpk, q := float64(sw.m)/float64(n), sw.queries(s)
		won := make([]int, len(sw.ks))
		for rep := 0; rep < reps; rep++ {
			row := fp[si*reps+rep]
			best := 0
			for j := range row {
				if row[j] < row[best] {
					best = j
				}
			}
			won[best]++
		}
		name := fmt.Sprintf("%.3f bits/key", bpk)
		line, pts := Series{Name: name + " theory", Kind: Line}, Series{Name: name + " measured", Kind: Points}
		pooledBest := 0
		pooled := make([]uint64, len(sw.ks))
		for j, k := range sw.ks {
			var rates []float64
			for rep := 0; rep < reps; rep++ {
				c := fp[si*reps+rep][j]
				pooled[j] += c
				rates = append(rates, float64(c)/float64(q))
			}
			if pooled[j] < pooled[pooledBest] {
				pooledBest = j
			}
			x := rateResult{queries: q * uint64(reps), fp: pooled[j]}
			theory := core.Rate(sw.m, n, k)
			row := append([]Cell{num(bpk), count(k)}, rateCells(theory, x)...)
			t.Rows = append(t.Rows, append(row, sampleSD(rates), count(won[j])))
			line.Points = append(line.Points, Point{X: float64(k), Y: theory})
			pts.Points = append(pts.Points, measured(float64(k), x))
		}
		t.Chart.Series = append(t.Chart.Series, line, pts)
		t.Notes = append(t.Notes, fmt.Sprintf("%.3f bits per key: (m/n) ln 2 = %.3f, theory's best k = %d, pooled minimum at k = %d, most replicates won by k = %d.",
			bpk, bpk*math.Ln2, bestK(sw, n), sw.ks[pooledBest], sw.ks[argmax(won)]))
	}
	t.Notes = append(t.Notes,
		"Within a replicate the filters for every k share the member keys, the queries and the hash seed, so the k's are compared on the same data; replicates are independent. A tie goes to the smaller k.")
	return t, nil
}

// sweepOnce builds one filter per k of sw from the same n member keys and
// hash seed, queries q absent keys against all of them, and returns each
// filter's false positives.
//
// Filters of the same m and seed read the same positions g_0, g_1, ... of a
// key (a filter of k hashes reads the first k), so a query hashes once and
// computes each position once, however many filters read it; the answers are
// exactly those of core.Filter.Contains, which a test checks.
func sweepOnce(r *runner, sw sweep, n, q, seed uint64) ([]uint64, error) {
	filters := make([]*core.Filter, len(sw.ks))
	words := make([][]uint64, len(sw.ks))
	for j, k := range sw.ks {
		f, err := core.NewFilter(sw.m, k, seed)
		if err != nil {
			return nil, err
		}
		filters[j], words[j] = f, f.Words()
	}
	var b keyBatch
	for i := uint64(0); i < n; {
		keys := b.next(core.Members, i, min(n-i, tick-i%tick), seed)
		for _, f := range filters {
			f.AddBatch(keys)
		}
		i += uint64(len(keys))
		if i%tick == 0 {
			if err := r.report(tick * len(filters)); err != nil {
				return nil, err
			}
		}
	}
	if err := r.report(int(n%tick) * len(filters)); err != nil {
		return nil, err
	}

	k0, k1 := core.SipKey(seed)
	key := make([]byte, 0, keyBytes)
	fp := make([]uint64, len(sw.ks))
	pos := make([]uint64, core.MaxK)
	for x := uint64(0); x < q; x++ {
		key = core.Key(key, core.Absent, x, seed, keyBytes)
		h1, h2 := core.Sip128(k0, k1, key)
		have := 0 // positions computed so far for this key
		for j, k := range sw.ks {
			w, hit := words[j], true
			for i := 0; i < k && hit; i++ {
				if i == have {
					pos[i] = core.Probe(h1, h2, i, sw.m)
					have++
				}
				hit = w[pos[i]>>6]&(1<<(pos[i]&63)) != 0
			}
			if hit {
				fp[j]++
			}
		}
		if (x+1)%tick == 0 {
			if err := r.report(tick * len(filters)); err != nil {
				return nil, err
			}
		}
	}
	return fp, r.report(int(q%tick) * len(filters))
}

// bestK is the k of sw with the lowest theoretical rate.
func bestK(sw sweep, n uint64) int {
	best := sw.ks[0]
	for _, k := range sw.ks {
		if core.Rate(sw.m, n, k) < core.Rate(sw.m, n, best) {
			best = k
		}
	}
	return best
}

func span(lo, hi int) []int {
	var s []int
	for k := lo; k <= hi; k++ {
		s = append(s, k)
	}
	return s
}

func argmax(xs []int) int {
	best := 0
	for i, x := range xs {
		if x > xs[best] {
			best = i
		}
	}
	return best
}

// sampleSD is the sample standard deviation, missing for fewer than two
// values.
func sampleSD(xs []float64) Cell {
	if len(xs) < 2 {
		return missing()
	}
	mean := 0.0
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	ss := 0.0
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return num(math.Sqrt(ss / float64(len(xs)-1)))
}
