package charts

import (
	"math"

	"github.com/bloomlab/bloomlab/app/ui"
	"github.com/bloomlab/bloomlab/app/ui/format"
	"github.com/bloomlab/bloomlab/core"
)

// Filled is a filter at one fill, as the estimate's chart marks it: its
// nonzero positions X of M, and the keys N it truly holds.
type Filled struct {
	M, X, N uint64
}

// estimateFills is how many fills the estimate's chart draws its
// spread at: enough for a smooth curve, few enough that drawing it is
// nothing beside a run.
const estimateFills = 60

// EstimateChart is the error of the estimate of n (core.EstimateFrom)
// against the fill, for filters of layout v, m positions and k probes: the
// bands of one and two standard deviations, in percent of n, as the
// delta method gives them at each fill, from empty to nearly full, where
// they widen without bound; and the filter at, its estimate's error
// measured, with a line at its fill. Closed forms only, so the chart
// costs nothing to draw when its view opens. A layout without an
// estimate (core.Variant.Estimates) gives a chart with no series.
func EstimateChart(v core.Variant, k int, at Filled, width float64) ui.Chart {
	m := at.M
	fill := float64(at.X) / float64(max(m, 1))
	top := max(0.95, math.Min(fill, 0.999))
	// Each band is one outline: along its upper edge to the last fill,
	// and back along its lower edge.
	var one, two []ui.Point
	var ys []float64
	for i := 1; i <= estimateFills; i++ {
		f := top * float64(i) / estimateFills
		e, err := v.EstimateFrom(m, k, uint64(math.Round(f*float64(m))))
		if err != nil || e.N <= 0 {
			continue
		}
		rel := 100 * e.SD / e.N
		one, two = append(one, ui.Point{X: f, Y: rel}), append(two, ui.Point{X: f, Y: 2 * rel})
		ys = append(ys, 2*rel)
	}
	for i := len(one) - 1; i >= 0; i-- {
		one, two = append(one, ui.Point{X: one[i].X, Y: -one[i].Y}), append(two, ui.Point{X: two[i].X, Y: -two[i].Y})
	}
	series := []ui.Series{
		{Name: "± 2 SD", Class: "theory", Line: true, Points: two},
		{Name: "± 1 SD", Class: "theory", Line: true, Dash: ui.Dashed, Points: one},
	}
	if e, err := v.EstimateFrom(m, k, at.X); err == nil && at.N > 0 {
		n := float64(at.N)
		off, sd := 100*(e.N-n)/n, 100*e.SD/n
		series = append(series, ui.Series{Name: "this filter: n̂ = " + format.Int(uint64(math.Round(e.N))) + " of n = " + format.Int(at.N),
			Class: "current", Points: []ui.Point{{X: fill, Y: off, Lo: off - 2*sd, Hi: off + 2*sd}}})
		ys = append(ys, math.Abs(off)+2*sd)
	}
	// The curve grows without bound towards a full filter: the axis is
	// fitted to the band at the chart's last fill and the point.
	span := 1.0
	for _, y := range ys {
		span = max(span, y)
	}
	span *= 1.1
	return ui.Chart{
		Title:  "The estimate of n: its error against the fill",
		Width:  width,
		XLabel: "fill, the share of " + v.Terms().Nonzero,
		YLabel: "error of n̂, % of n",
		XMin:   0, XMax: 1,
		YMin: -span, YMax: span,
		Series: series,
		Marks:  []ui.Mark{{X: fill, Label: "this filter: fill " + format.Percent(fill), Class: "here"}},
	}
}
