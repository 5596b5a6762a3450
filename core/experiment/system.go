package experiment

import (
	"fmt"
	"math"

	"github.com/bloomlab/bloomlab/core"
)

// The two experiments of filters in a system (core's merge.go and
// estimate.go): how many keys a filter holds when nobody counted, and what
// a union and an intersection of two filters answer.

var estimate = Experiment{
	Name: "estimate",
	Summary: "the keys a filter holds, estimated from its set bits (Swamidass and Baldi), at fills 10% to 90%: " +
		"true n, the estimate, its SD and its error in SDs, over many seeds, standard and blocked",
	Quick:     Sizes{Items: 10_000, Replicates: 20, Seed: 1},
	Full:      Sizes{Items: 100_000, Replicates: 100, Seed: 1},
	ItemsMax:  systemMaxItems,
	ItemsHelp: "the n each filter is sized for at 10 bits per key (k = 7); the fills insert from 0.15 to 3.3 times as many",
	run:       runEstimate,
}

var merge = Experiment{
	Name: "merge",
	Summary: "two filters of one shape sharing 0% to 100% of their keys: the union's rate against one filter over both sets, " +
		"the intersection's against IntersectionFill and the filter of the shared keys, and the keys each is estimated to hold",
	Quick:     Sizes{Items: 10_000, Queries: 200_000, Seed: 1},
	Full:      Sizes{Items: 100_000, Queries: 2_000_000, Seed: 1},
	ItemsMax:  systemMaxItems,
	ItemsHelp: "the keys of each of the two filters, sized for them at 10 bits per key (k = 7)",
	run:       runMerge,
}

// Both experiments size their filters at systemBitsPerKey bits a key of
// Items, with k = systemK, the optimum there.
const (
	systemBitsPerKey = 10
	systemK          = 7
	// systemMaxItems bounds Items: the fullest estimate row inserts 3.3
	// times as many, a filter a replicate.
	systemMaxItems = MaxItems / 10
)

// estimateFills are the shares of bits set the estimate is read at.
var estimateFills = []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9}

// estimateLayouts are the layouts whose estimate the table reads: each has
// its own formula (core.EstimateKeys).
var estimateLayouts = []core.Variant{core.Standard, core.BlockedVariant}

// fillKeys is the n that sets share f of m bits with k hashes in
// expectation, n = -(m/k) ln(1 - f): Log1p, not Log, so that the browser
// computes the same bits as the command line.
func fillKeys(m uint64, k int, f float64) uint64 {
	return uint64(math.Round(-float64(m) / float64(k) * math.Log1p(-f)))
}

// estimateTrial is what one filter's estimate read.
type estimateTrial struct {
	Set   uint64
	N, SD float64
}

func runEstimate(s Sizes, r *runner) (Table, error) {
	m := uint64(s.Items) * systemBitsPerKey
	type task struct{ layout, fill, rep int }
	var tasks []task
	for li := range estimateLayouts {
		for fi, f := range estimateFills {
			for rep := 0; rep < s.Replicates; rep++ {
				tasks = append(tasks, task{li, fi, rep})
				r.plan(int(fillKeys(m, systemK, f)))
			}
		}
	}
	trials, err := spread(r, len(tasks), func(i int) (estimateTrial, error) {
		t := tasks[i]
		seed := derive(s.Seed, saltEstimate, uint64(t.layout), uint64(t.fill), uint64(t.rep))
		f, err := core.New(estimateLayouts[t.layout], core.NoFault, m, systemK, seed)
		if err != nil {
			return estimateTrial{}, err
		}
		if err := insert(r, f, fillKeys(m, systemK, estimateFills[t.fill]), seed); err != nil {
			return estimateTrial{}, err
		}
		e, err := core.EstimateKeys(f)
		if err != nil {
			return estimateTrial{}, fmt.Errorf("experiment: %w", err)
		}
		return estimateTrial{Set: f.SetBits(), N: e.N, SD: e.SD}, nil
	})
	if err != nil {
		return Table{}, err
	}
	return estimateTable(s, m, trials), nil
}

func estimateTable(s Sizes, m uint64, trials []estimateTrial) Table {
	reps := s.Replicates
	t := Table{
		Title: fmt.Sprintf("the keys in a filter estimated from its set bits: m = %s bits, k = %d, %d filters a row", group(int(m)), systemK, reps),
		Columns: []Column{{Key: "layout", Title: "layout", Kind: Text},
			{Key: "fill", Title: "fill", Kind: Float, Decimals: 0, Percent: true},
			{Key: "measuredFill", Title: "measured fill", Kind: Float, Decimals: 2, Percent: true},
			{Key: "n", Title: "true n", Kind: Int},
			{Key: "estimate", Title: "estimated n", Kind: Float, Decimals: 1},
			{Key: "sd", Title: "SD", Kind: Float, Decimals: 1},
			{Key: "meanError", Title: "mean error", Kind: Float, Decimals: 1},
			{Key: "errorSDs", Title: "error in SDs", Kind: Float, Decimals: 2},
			{Key: "rmsSDs", Title: "rms error in SDs", Kind: Float, Decimals: 2},
			{Key: "within3", Title: "within 3 SD", Kind: Int}},
		Chart: &Chart{Title: "the estimate's error against the fill, in the estimate's own SDs (mean and spread over the seeds)",
			X: "fill (share of bits set)", Y: "error in SDs"},
	}
	for li, v := range estimateLayouts {
		line := Series{Name: v.Name() + ": unbiased", Kind: Line}
		pts := Series{Name: v.Name() + ": error in SDs", Kind: Points}
		for fi, f := range estimateFills {
			n := fillKeys(m, systemK, f)
			var set, est, sd, zSum, zSq float64
			within := 0
			for _, tr := range trials[(li*len(estimateFills)+fi)*reps:][:reps] {
				z := (tr.N - float64(n)) / tr.SD
				set += float64(tr.Set)
				est += tr.N
				sd += tr.SD
				zSum += z
				zSq += z * z
				if math.Abs(z) <= 3 {
					within++
				}
			}
			per := float64(reps)
			est, sd, set = est/per, sd/per, set/per
			meanZ, rms := zSum/per, math.Sqrt(zSq/per)
			t.Rows = append(t.Rows, []Cell{txt(v.Name()), num(f), num(set / float64(m)), count(n), num(est), num(sd),
				num(est - float64(n)), num(meanZ), num(rms), count(within)})
			line.Points = append(line.Points, Point{X: f, Y: 0})
			// The spread of one filter's error is its rms; the mean's
			// interval is 1.96 rms / sqrt(reps).
			half := core.Z95 * rms / math.Sqrt(per)
			pts.Points = append(pts.Points, Point{X: f, Y: meanZ, Lo: meanZ - half, Hi: meanZ + half})
		}
		t.Chart.Series = append(t.Chart.Series, line, pts)
	}
	t.Notes = append(t.Notes,
		fmt.Sprintf("Each row fills %d filters of its layout (seeds of their own) with n = -(m/k) ln(1 - fill) keys and reads n̂ = -(m/k) ln(1 - x/m) from the x bits set, with sd = (sqrt(m)/k) sqrt(m/(m - x) - 1 + ln(1 - x/m)) (the blocked filter has its own forms of both).", reps),
		"error in SDs is the mean of (n̂ - n)/sd over the filters; rms error in SDs is their root mean square, which is 1 when the SD is right; within 3 SD counts the filters whose n lies within 3 sd of n̂ (99.7% of them when the SD is right).")
	return t
}

// mergeShares are the shares of each filter's keys the two hold in common.
var mergeShares = []float64{0, 0.1, 0.25, 0.5, 0.75, 1}

// mergeTrial is what one pair of filters showed: the false positives of
// their union, their intersection and the filter of the shared keys on the
// same absent queries, the bits each has set, and the keys estimated in the
// union and the intersection.
type mergeTrial struct {
	UnionFP, AndFP, OwnFP    uint64
	UnionSet, AndSet, OwnSet uint64
	Union, Inter             core.Estimate
}

func runMerge(s Sizes, r *runner) (Table, error) {
	n := uint64(s.Items)
	m, q := n*systemBitsPerKey, uint64(s.Queries)
	for _, share := range mergeShares {
		r.plan(int(2*n+mergeShared(n, share)) + 3*s.Queries)
	}
	trials, err := spread(r, len(mergeShares), func(i int) (mergeTrial, error) {
		return mergeOnce(r, m, n, mergeShared(n, mergeShares[i]), q, derive(s.Seed, saltMerge, uint64(i)))
	})
	if err != nil {
		return Table{}, err
	}
	return mergeTable(s, m, trials), nil
}

// mergeShared is the keys two filters of n keys share at share.
func mergeShared(n uint64, share float64) uint64 { return uint64(math.Round(share * float64(n))) }

// mergeOnce builds filter A of members 0..n-1, filter B of members
// n-both..2n-both-1 and the filter of the both they share, all of one
// Shape, and queries their union, their intersection and the shared keys'
// filter with the same q absent keys.
func mergeOnce(r *runner, m, n, both, q, seed uint64) (mergeTrial, error) {
	var tr mergeTrial
	build := func(lo, hi uint64) (core.Membership, error) {
		f, err := core.NewFilter(m, systemK, seed)
		if err != nil {
			return nil, err
		}
		return f, insertTimed(r, f, lo, hi, seed, nil)
	}
	a, err := build(0, n)
	if err != nil {
		return tr, err
	}
	b, err := build(n-both, 2*n-both)
	if err != nil {
		return tr, err
	}
	own, err := build(n-both, n)
	if err != nil {
		return tr, err
	}
	u, err := core.Union(a, b)
	if err != nil {
		return tr, fmt.Errorf("experiment: %w", err)
	}
	and, err := core.Intersect(a, b)
	if err != nil {
		return tr, fmt.Errorf("experiment: %w", err)
	}
	if tr.Union, err = core.EstimateKeys(u.Filter); err != nil {
		return tr, fmt.Errorf("experiment: %w", err)
	}
	if tr.Inter, err = core.EstimateIntersection(a, b); err != nil {
		return tr, fmt.Errorf("experiment: %w", err)
	}
	for _, x := range []struct {
		f       core.Membership
		fp, set *uint64
	}{{u.Filter, &tr.UnionFP, &tr.UnionSet}, {and.Filter, &tr.AndFP, &tr.AndSet}, {own, &tr.OwnFP, &tr.OwnSet}} {
		res, err := queryAbsent(r, x.f, seed, 0, q)
		if err != nil {
			return tr, err
		}
		*x.fp, *x.set = res.fp, x.f.SetBits()
	}
	return tr, nil
}

func mergeTable(s Sizes, m uint64, trials []mergeTrial) Table {
	n, q := uint64(s.Items), uint64(s.Queries)
	t := Table{
		Title: fmt.Sprintf("two filters of %s keys each (m = %s bits, k = %d, one seed) and their union and intersection: %s absent queries a filter",
			group(s.Items), group(int(m)), systemK, group(s.Queries)),
		Columns: []Column{{Key: "shared", Title: "shared", Kind: Float, Decimals: 0, Percent: true},
			{Key: "unionKeys", Title: "keys in A∪B", Kind: Int},
			{Key: "unionEstimate", Title: "estimated", Kind: Float, Decimals: 1},
			{Key: "unionTheory", Title: "A∪B theory", Kind: Float, Decimals: 6},
			{Key: "unionObserved", Title: "A∪B observed", Kind: Float, Decimals: 6},
			{Key: "unionCI95", Title: "95% CI", Kind: Interval, Decimals: 6},
			{Key: "sharedKeys", Title: "keys in A∩B", Kind: Int},
			{Key: "interEstimate", Title: "estimated", Kind: Float, Decimals: 1},
			{Key: "interSD", Title: "its SD", Kind: Float, Decimals: 1},
			{Key: "andTheory", Title: "A AND B theory", Kind: Float, Decimals: 6},
			{Key: "andObserved", Title: "A AND B observed", Kind: Float, Decimals: 6},
			{Key: "andCI95", Title: "95% CI", Kind: Interval, Decimals: 6},
			{Key: "ownTheory", Title: "filter of A∩B theory", Kind: Float, Decimals: 6},
			{Key: "ownObserved", Title: "filter of A∩B observed", Kind: Float, Decimals: 6},
			{Key: "andFP", Title: "AND false pos", Kind: Int},
			{Key: "ownFP", Title: "A∩B false pos", Kind: Int}},
		Chart: &Chart{Title: "the union's and the intersection's rates against the share of keys the two filters hold in common",
			X: "share of each filter's keys held by both", Y: "false-positive rate"},
	}
	series := []Series{{Name: "A∪B theory: one filter over both sets", Kind: Line}, {Name: "A∪B measured", Kind: Points},
		{Name: "A AND B theory: IntersectionFill", Kind: Line}, {Name: "A AND B measured", Kind: Points},
		{Name: "filter of A∩B measured (the lower bound)", Kind: Points}}
	for i, share := range mergeShares {
		tr, both := trials[i], mergeShared(n, share)
		nu := 2*n - both
		unionTh := core.RateExact(m, nu, systemK)
		andFill, ownFill := core.IntersectionFill(m, systemK, n, n, both)
		andTh, ownTh := math.Pow(andFill, systemK), math.Pow(ownFill, systemK)
		ux, ax, ox := rateResult{fp: tr.UnionFP, queries: q}, rateResult{fp: tr.AndFP, queries: q}, rateResult{fp: tr.OwnFP, queries: q}
		ulo, uhi := ux.ci()
		alo, ahi := ax.ci()
		olo, ohi := ox.ci()
		t.Rows = append(t.Rows, []Cell{num(share), count(nu), num(tr.Union.N), num(unionTh), num(ux.rate()), interval(ulo, uhi),
			count(both), num(tr.Inter.N), num(tr.Inter.SD), num(andTh), num(ax.rate()), interval(alo, ahi), num(ownTh), num(ox.rate()),
			count(tr.AndFP), count(tr.OwnFP)})
		for j, p := range []Point{{X: share, Y: unionTh}, {X: share, Y: ux.rate(), Lo: ulo, Hi: uhi}, {X: share, Y: andTh},
			{X: share, Y: ax.rate(), Lo: alo, Hi: ahi}, {X: share, Y: ox.rate(), Lo: olo, Hi: ohi}} {
			series[j].Points = append(series[j].Points, p)
		}
	}
	t.Chart.Series = series
	t.Notes = append(t.Notes,
		"A holds members 0..n-1 and B members n-s..2n-s-1 of one seed, s = shared x n the keys both hold; all three filters answer the same absent keys.",
		"A∪B theory is one filter over both sets, (1 - (1 - 1/m)^(k n∪))^k: the OR of the bits is that very filter. "+
			"A AND B theory is and^k, and = own + (1 - own) fill(n - s) fill(n - s) with own = fill(s) (core.IntersectionFill; Broder and Mitzenmacher, 2004, section 2.2): "+
			"the AND keeps, beyond the shared keys' own bits, those a key of each side alone set, so it answers yes at least wherever the filter of A∩B does: AND false pos is at least A∩B false pos, query by query.",
		"The union's keys are estimated from its bits; the intersection's by inclusion and exclusion, n̂(A) + n̂(B) - n̂(A∪B), its SD the sum of the three (core.EstimateIntersection).")
	return t
}
