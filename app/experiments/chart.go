package experiments

import (
	"math"
	"strconv"
	"strings"

	"github.com/bloomlab/bloomlab/app/ui"
	"github.com/bloomlab/bloomlab/core/experiment"
)

// The experiments page draws a table's Chart description with the lab's
// Chart: theory as lines, measurements as markers with their 95% intervals
// as error bars, on linear, log or category axes. It adds groups: series
// named "X theory" and "X measured" belong to group X and share its colour,
// while groups differ in marker shape and line dash as well, so colour is
// never the only sign.

// The chart's size, in SVG user units; the SVG scales to its container.
const (
	expChartW      = 600.0
	expChartNarrow = 340.0
	expPlotH       = 220.0
)

// expCaption says how to read c: which marks are theory, which are
// measurements, and whether bars show intervals.
func expCaption(c *experiment.Chart) string {
	lines, points, bars := false, false, false
	for _, s := range c.Series {
		for _, p := range s.Points {
			switch {
			case s.Kind == experiment.Line:
				lines = true
			case p.Hi > p.Lo:
				points, bars = true, true
			default:
				points = true
			}
		}
	}
	const all = " The table holds every figure."
	switch {
	case lines && bars:
		return "Lines are theory; markers are measurements, with bars for their 95% intervals." + all
	case bars:
		return "Markers are measurements, with bars for their 95% intervals." + all
	case lines && points:
		return "Lines are theory or limits; markers are measurements." + all
	}
	return "The markers show the table's figures."
}

// expShapes and expDashes tell groups apart without colour.
var (
	expShapes = []ui.Shape{ui.Circle, ui.Square, ui.Triangle, ui.Diamond}
	expDashes = []string{"", "7 4", "2 3", "9 3 2 3"}
)

// expGroups returns each series' group index and the number of groups.
func expGroups(c *experiment.Chart) ([]int, int) {
	index := map[string]int{}
	out := make([]int, len(c.Series))
	for i, s := range c.Series {
		name := s.Name
		for _, suffix := range []string{" theory", " measured"} {
			name = strings.TrimSuffix(name, suffix)
		}
		if name == "theory" || name == "measured" {
			name = ""
		}
		g, ok := index[name]
		if !ok {
			g = len(index)
			index[name] = g
		}
		out[i] = g
	}
	return out, len(index)
}

// expChartSVG draws c, width user units wide (0 for the default). It never
// fails: a chart without points draws its axes.
func expChartSVG(c *experiment.Chart, width float64) string {
	if c == nil {
		return ""
	}
	return expChart(c, width).SVG()
}

// expChart is c as the lab's Chart: axes fitted to every value and
// interval end, theory as lines and measurements as markers. With one group
// the series take the lab's theory and measured colours; with more, each
// group its own colour (g0 to g5), marker shape and line dash.
func expChart(c *experiment.Chart, width float64) ui.Chart {
	if !(width >= 200) {
		width = expChartW
	}
	ch := ui.Chart{
		Title: c.Title, XLabel: c.X, YLabel: c.Y,
		LogX: c.LogX, LogY: c.LogY, Categories: c.XLabels,
		Width: width, PlotHeight: expPlotH, TitleAbove: true,
	}
	ch.XMin, ch.XMax, ch.IntX = expXRange(c)
	ch.YMin, ch.YMax = expYRange(c)
	groups, ng := expGroups(c)
	for i, s := range c.Series {
		g := groups[i]
		cs := ui.Series{Name: s.Name, Class: "g" + strconv.Itoa(g%6), Line: s.Kind == experiment.Line, Shape: expShapes[g%len(expShapes)]}
		switch {
		case ng > 1:
		case cs.Line:
			cs.Class = "theory"
		default:
			cs.Class = "measured"
		}
		if cs.Line {
			cs.Dash = expDashes[g%len(expDashes)]
		}
		for _, p := range s.Points {
			pt := ui.Point{X: p.X, Y: p.Y}
			if s.Kind == experiment.Points {
				pt.Lo, pt.Hi = p.Lo, p.Hi
			}
			cs.Points = append(cs.Points, pt)
		}
		ch.Series = append(ch.Series, cs)
	}
	return ch
}

// expXRange is the x axis's range, padded a little beyond the points, and
// whether it counts whole numbers (a short range of integers, such as k).
// Categories place themselves.
func expXRange(c *experiment.Chart) (lo, hi float64, whole bool) {
	var xs []float64
	for _, s := range c.Series {
		for _, p := range s.Points {
			if !c.LogX || p.X > 0 {
				xs = append(xs, p.X)
			}
		}
	}
	lo, hi = spanOf(xs, 0, 1)
	if c.LogX {
		if lo <= 0 {
			lo, hi = 1, 10
		}
		if hi <= lo {
			lo, hi = lo/2, hi*2
		}
		pad := math.Pow(hi/lo, 0.04)
		return lo / pad, hi * pad, false
	}
	if hi <= lo {
		lo, hi = lo-1, hi+1
	}
	whole = hi-lo <= 30
	for _, x := range xs {
		whole = whole && x == math.Trunc(x)
	}
	pad := (hi - lo) * 0.05
	return lo - pad, hi + pad, whole
}

// expYRange is the y axis's range, covering every value and interval end:
// whole decades on a log axis; on a linear one a margin, but not below
// zero when nothing is.
func expYRange(c *experiment.Chart) (lo, hi float64) {
	var ys []float64
	for _, s := range c.Series {
		for _, p := range s.Points {
			ys = append(ys, p.Y)
			if s.Kind == experiment.Points && p.Hi > p.Lo {
				ys = append(ys, p.Lo, p.Hi)
			}
		}
	}
	if c.LogY {
		var pos []float64
		for _, y := range ys {
			if y > 0 {
				pos = append(pos, y)
			}
		}
		lo, hi = spanOf(pos, 1e-3, 1)
		lo = math.Pow(10, math.Floor(math.Log10(lo)))
		hi = math.Pow(10, math.Ceil(math.Log10(hi)))
		if hi <= lo {
			hi = lo * 10
		}
		return lo, hi
	}
	lo, hi = spanOf(ys, 0, 1)
	if hi <= lo {
		d := math.Max(math.Abs(lo)*0.1, 1e-9)
		lo, hi = lo-d, hi+d
	}
	pad := (hi - lo) * 0.08
	if lo >= 0 {
		return math.Max(0, lo-pad), hi + pad
	}
	return lo - pad, hi + pad
}

// spanOf returns the least and greatest of vs, or def when vs is empty.
func spanOf(vs []float64, defLo, defHi float64) (float64, float64) {
	if len(vs) == 0 {
		return defLo, defHi
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	return lo, hi
}
