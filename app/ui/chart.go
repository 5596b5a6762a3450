package ui

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"

	"github.com/bloomlab/bloomlab/app/ui/format"
)

// Chart is a small line-and-point chart the lab draws itself as SVG: axes
// with ticks and labels, each linear or log (or a row of categories along
// x), vertical marker lines, intervals as error bars, and a legend. Series
// are told apart by marker shape and line dash as well as by colour, so
// colour is never the only sign.
type Chart struct {
	Title, XLabel, YLabel string
	XMin, XMax            float64 // for a log axis, both > 0; unused with Categories
	YMin, YMax            float64 // for a log axis, both > 0
	LogX, LogY            bool
	// IntX puts ticks on whole numbers only (k is an integer).
	IntX bool
	// Categories, when set, make the x axis a row of categories: a point's
	// X is an index into them. The ticks are lettered A, B, ... (see
	// categoryLetter), since names rarely fit; the page keys the letters to
	// the names, and each marker's tooltip names its category.
	Categories []string
	Series     []Series
	Marks      []Mark
	// Width is the SVG's width in user units (default 440); pages narrow it
	// on narrow screens so the text stays legible when the SVG scales to
	// its container.
	Width float64
	// PlotHeight is the plot area's height in user units (default 176).
	PlotHeight float64
	// TitleAbove leaves the title out of the drawing because the page shows
	// it above the chart, where it can wrap. It stays the SVG's title.
	TitleAbove bool
}

// Series is one set of points, drawn as a line or as markers.
type Series struct {
	Name string
	// Class is the CSS class for colour: theory, measured, current, alt,
	// or g0 to g5 for groups.
	Class string
	Line  bool   // joined line (theory) or markers (measured)
	Dash  string // a line's stroke-dasharray, such as Dashed; "" is solid
	Shape Shape  // a marker's shape
	// Points, for markers, may carry intervals (Lo < Hi), drawn as error
	// bars.
	Points []Point
}

// Dashed is the dash of a second theory line beside a solid one.
const Dashed = "6 4"

// Shape is a marker's shape.
type Shape int

// The marker shapes, of about equal area.
const (
	Circle Shape = iota
	Square
	Triangle
	Diamond
)

// Point is one (x, y), with an interval [Lo, Hi] when Hi > Lo. A measured
// zero on a log axis is drawn as a hollow marker on the floor of the chart.
type Point struct {
	X, Y   float64
	Lo, Hi float64
}

// Mark is a vertical line, such as the optimum k.
type Mark struct {
	X     float64
	Label string
	Class string
}

// Chart geometry, in SVG user units; the SVG scales to its container.
const (
	defaultChartW = 440.0
	defaultPlotH  = 176.0
	padL, padR    = 62.0, 14.0
	padTitle      = 30.0 // above the plot, with the title drawn in the chart
	padBare       = 12.0 // above the plot, without
	legendRow     = 18.0
)

// SVG renders the chart. It never fails: an empty or degenerate chart draws
// its axes.
func (c Chart) SVG() string {
	f := c.frame()
	var b strings.Builder
	fmt.Fprintf(&b, `<title>%s</title>`, esc(c.Title))
	if !c.TitleAbove {
		fmt.Fprintf(&b, `<text class="chart-title" x="10" y="18">%s</text>`, esc(c.Title))
	}
	fmt.Fprintf(&b, `<rect class="plot" x="%g" y="%g" width="%g" height="%g"/>`, padL, f.padT, f.pw, f.ph)
	c.drawAxes(&b, f)
	c.drawData(&b, f)
	height := c.drawLegend(&b, f) + 14
	return fmt.Sprintf(`<svg class="chart" viewBox="0 0 %g %g" role="img" aria-label="%s" xmlns="http://www.w3.org/2000/svg">`,
		f.chartW, height, esc(c.name())) + b.String() + `</svg>`
}

// chartFrame is a chart's geometry: its width, the plot area's top, width
// and height, and its two axes.
type chartFrame struct {
	chartW, padT, pw, ph float64
	xa, ya               axis
}

// frame is c's geometry, its defaults filled in and its axes made usable.
func (c Chart) frame() chartFrame {
	f := chartFrame{chartW: c.Width, ph: c.PlotHeight, padT: padTitle}
	if !(f.chartW >= 200) {
		f.chartW = defaultChartW
	}
	if !(f.ph >= 50) {
		f.ph = defaultPlotH
	}
	if c.TitleAbove {
		f.padT = padBare
	}
	f.pw = f.chartW - padL - padR
	f.xa = axis{lo: c.XMin, hi: c.XMax, log: c.LogX, whole: c.IntX}.fixed()
	if n := len(c.Categories); n > 0 {
		f.xa = axis{lo: -0.5, hi: float64(n) - 0.5}
	}
	f.ya = axis{lo: c.YMin, hi: c.YMax, log: c.LogY}.fixed()
	return f
}

// x and y place a value on the drawing.
func (f chartFrame) x(v float64) float64 { return padL + f.xa.frac(v)*f.pw }
func (f chartFrame) y(v float64) float64 { return f.padT + f.ph*(1-f.ya.frac(v)) }

// inX reports whether x value v is drawn. Points beyond the x range are
// left out, but zero or less on a log axis is drawn on its floor, as on
// the y axis.
func (f chartFrame) inX(v float64) bool {
	return v >= f.xa.lo && v <= f.xa.hi || f.xa.log && v <= 0
}

// drawAxes draws the grid, the ticks and their labels, and the axes'
// labels.
func (c Chart) drawAxes(b *strings.Builder, f chartFrame) {
	yticks, ylabels := f.ya.ticks(5)
	for i, t := range yticks {
		yy := f.y(t)
		fmt.Fprintf(b, `<line class="grid" x1="%g" y1="%.1f" x2="%g" y2="%.1f"/>`, padL, yy, padL+f.pw, yy)
		fmt.Fprintf(b, `<text class="tick" x="%g" y="%.1f" text-anchor="end">%s</text>`, padL-5, yy+4, esc(ylabels[i]))
	}
	var xticks []float64
	var xlabels []string
	switch {
	case len(c.Categories) > 0:
		for i := range c.Categories {
			xticks = append(xticks, float64(i))
			xlabels = append(xlabels, categoryLetter(i))
		}
	case c.IntX:
		xticks, xlabels = f.xa.ticks(8)
	default:
		xticks, xlabels = f.xa.ticks(6)
	}
	for i, t := range xticks {
		xx := f.x(t)
		fmt.Fprintf(b, `<line class="grid" x1="%.1f" y1="%g" x2="%.1f" y2="%g"/>`, xx, f.padT, xx, f.padT+f.ph)
		fmt.Fprintf(b, `<text class="tick" x="%.1f" y="%g" text-anchor="middle">%s</text>`, xx, f.padT+f.ph+15, esc(xlabels[i]))
	}
	fmt.Fprintf(b, `<text class="axis-label" x="%g" y="%g" text-anchor="middle">%s</text>`, padL+f.pw/2, f.padT+f.ph+33, esc(c.XLabel))
	fmt.Fprintf(b, `<text class="axis-label" transform="translate(14 %g) rotate(-90)" text-anchor="middle">%s</text>`, f.padT+f.ph/2, esc(c.YLabel))
}

// drawData draws the marks, then the lines, then the error bars, then the
// markers on top.
func (c Chart) drawData(b *strings.Builder, f chartFrame) {
	for _, m := range c.Marks {
		if !f.inX(m.X) {
			continue
		}
		xx := f.x(m.X)
		fmt.Fprintf(b, `<line class="mark %s" x1="%.1f" y1="%g" x2="%.1f" y2="%g"/>`, m.Class, xx, f.padT, xx, f.padT+f.ph)
	}
	for _, s := range c.Series {
		if !s.Line {
			continue
		}
		var path strings.Builder
		for _, p := range s.Points {
			if !f.inX(p.X) {
				continue
			}
			cmd := "L"
			if path.Len() == 0 {
				cmd = "M"
			}
			fmt.Fprintf(&path, "%s%.1f %.1f", cmd, f.x(p.X), f.y(p.Y))
		}
		if path.Len() == 0 {
			continue
		}
		fmt.Fprintf(b, `<path class="series %s" d="%s"%s><title>%s</title></path>`, s.Class, path.String(), dashAttr(s.Dash), esc(s.Name))
	}
	for _, s := range c.Series {
		for _, p := range s.Points {
			if s.Line || !(p.Hi > p.Lo) || !f.inX(p.X) {
				continue
			}
			xx, y0, y1 := f.x(p.X), f.y(p.Lo), f.y(p.Hi)
			fmt.Fprintf(b, `<path class="ebar %s" d="M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f"/>`,
				s.Class, xx, y0, y1, xx-4, y0, xx+4, xx-4, y1, xx+4)
		}
	}
	for _, s := range c.Series {
		if s.Line {
			continue
		}
		for _, p := range s.Points {
			if !f.inX(p.X) {
				continue
			}
			class := "dot " + s.Class
			if c.LogY && p.Y <= 0 {
				class += " hollow"
			}
			tip := s.Name + ": " + tipNum(p.Y)
			if p.Hi > p.Lo {
				tip += " (95% interval " + tipNum(p.Lo) + " to " + tipNum(p.Hi) + ")"
			}
			tip += " at " + c.xName(p.X)
			b.WriteString(marker(s.Shape, class, f.x(p.X), f.y(p.Y), "<title>"+esc(tip)+"</title>"))
		}
	}
}

// drawLegend draws the legend under the axis label and returns the
// baseline of its last row: a series' sample is its line, or its marker
// with a bar when it has intervals; a mark's is its line. Entries wrap to
// as many rows as they need.
func (c Chart) drawLegend(b *strings.Builder, f chartFrame) float64 {
	const legendL = padL - 40
	ly, lx := f.padT+f.ph+54, legendL
	place := func(label string) (float64, float64) {
		w := 30 + 6.6*float64(len(label))
		if lx+w > f.chartW-padR && lx > legendL {
			lx = legendL
			ly += legendRow
		}
		ex := lx
		lx += w + 8
		return ex, ly
	}
	text := func(ex, ey float64, label string) {
		fmt.Fprintf(b, `<text class="legend" x="%.1f" y="%.1f">%s</text>`, ex+28, ey+4, esc(label))
	}
	for _, s := range c.Series {
		ex, ey := place(s.Name)
		switch {
		case s.Line:
			fmt.Fprintf(b, `<line class="series %s" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"%s/>`, s.Class, ex, ey, ex+22, ey, dashAttr(s.Dash))
		case s.Intervals():
			fmt.Fprintf(b, `<path class="ebar %s" d="M%.1f %.1fV%.1f"/>`, s.Class, ex+11, ey-7, ey+7)
			fallthrough
		default:
			b.WriteString(marker(s.Shape, "dot "+s.Class, ex+11, ey, ""))
		}
		text(ex, ey, s.Name)
	}
	for _, m := range c.Marks {
		ex, ey := place(m.Label)
		fmt.Fprintf(b, `<line class="mark %s" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`, m.Class, ex, ey, ex+22, ey)
		text(ex, ey, m.Label)
	}
	return ly
}

// name is the chart's accessible name: its title, and what it plots
// against what.
func (c Chart) name() string {
	if c.XLabel == "" || c.YLabel == "" {
		return c.Title
	}
	return c.Title + ": " + c.YLabel + " against " + c.XLabel
}

// xName names x for a tooltip: its category, or the axis and the value.
func (c Chart) xName(v float64) string {
	if i := int(v); len(c.Categories) > 0 && i >= 0 && i < len(c.Categories) {
		return c.Categories[i]
	}
	if c.XLabel == "" {
		return tipNum(v)
	}
	return c.XLabel + " " + tipNum(v)
}

// Intervals reports whether any of s's points has an interval.
func (s Series) Intervals() bool {
	for _, p := range s.Points {
		if p.Hi > p.Lo {
			return true
		}
	}
	return false
}

// marker draws a marker of shape at (x, y); inner goes inside the element
// (a title).
func marker(shape Shape, class string, x, y float64, inner string) string {
	switch shape {
	case Square:
		return fmt.Sprintf(`<rect class="%s" x="%.1f" y="%.1f" width="8" height="8">%s</rect>`, class, x-4, y-4, inner)
	case Triangle:
		return fmt.Sprintf(`<path class="%s" d="M%.1f %.1fL%.1f %.1fL%.1f %.1fZ">%s</path>`, class, x, y-5.5, x+5, y+4, x-5, y+4, inner)
	case Diamond:
		return fmt.Sprintf(`<path class="%s" d="M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ">%s</path>`, class, x, y-5.5, x+5.5, y, x, y+5.5, x-5.5, y, inner)
	}
	return fmt.Sprintf(`<circle class="%s" cx="%.1f" cy="%.1f" r="4.5">%s</circle>`, class, x, y, inner)
}

func dashAttr(dash string) string {
	if dash == "" {
		return ""
	}
	return ` stroke-dasharray="` + esc(dash) + `"`
}

// tipNum writes a value for a tooltip: six significant digits.
func tipNum(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

// categoryLetter names category i on the axis: A, B, ..., Z, AA, AB, ...
func categoryLetter(i int) string {
	s := ""
	for i++; i > 0; i = (i - 1) / 26 {
		s = string(rune('A'+(i-1)%26)) + s
	}
	return s
}

// axis is one axis of a chart: its range, and whether it is log or counts
// whole numbers.
type axis struct {
	lo, hi     float64
	log, whole bool
}

// fixed returns a with a usable range: above zero on a log axis, and never
// empty.
func (a axis) fixed() axis {
	if a.log {
		a.lo = math.Max(a.lo, 1e-9)
		if !(a.hi > a.lo) {
			a.hi = a.lo * 10
		}
	} else if !(a.hi > a.lo) {
		a.hi = a.lo + 1
	}
	return a
}

// frac maps v onto [0, 1] along the axis, clamped to its ends; zero or
// less on a log axis is its floor.
func (a axis) frac(v float64) float64 {
	var t float64
	if a.log {
		if v <= 0 {
			return 0
		}
		t = (math.Log10(v) - math.Log10(a.lo)) / (math.Log10(a.hi) - math.Log10(a.lo))
	} else {
		t = (v - a.lo) / (a.hi - a.lo)
	}
	return math.Max(0, math.Min(1, t))
}

// ticks returns the axis's ticks inside its range, about n of them, and
// their labels. It is the one tick algorithm of every chart:
//
//   - a linear axis steps by a round number (1, 2, 2.5 or 5 times a power
//     of ten) no smaller than a nth of the range, at multiples of the step,
//     and writes as many decimals as the step needs;
//   - a whole axis (counts such as k) steps by a whole round number over
//     the whole numbers inside it, from the first, so a k axis from 1
//     labels k = 1 however far the axis is padded;
//   - a log axis puts ticks at powers of ten, the exponents being a whole
//     axis of about six ticks, and over two decades or less at 2 and 5
//     times each as well; it writes them as formatTick does.
func (a axis) ticks(n int) ([]float64, []string) {
	if a.log {
		var ts []float64
		var ls []string
		mults := []float64{1}
		if math.Log10(a.hi/a.lo) <= 2.01 {
			mults = []float64{1, 2, 5}
		}
		exps, _ := axis{lo: math.Floor(math.Log10(a.lo)), hi: math.Ceil(math.Log10(a.hi)), whole: true}.ticks(6)
		for _, e := range exps {
			for _, m := range mults {
				t := m * math.Pow(10, e)
				if t >= a.lo*(1-1e-9) && t <= a.hi*(1+1e-9) {
					ts = append(ts, t)
					ls = append(ls, formatTick(t))
				}
			}
		}
		return ts, ls
	}
	lo, hi, origin := a.lo, a.hi, 0.0
	if a.whole {
		lo, hi = math.Ceil(lo), math.Floor(hi)
		origin = lo
		if hi < lo {
			return nil, nil
		}
	}
	raw := (hi - lo) / float64(max(n, 1))
	if !(raw > 0) || math.IsInf(raw, 0) {
		return []float64{lo}, []string{format.Plain(lo)}
	}
	step := roundStep(raw, a.whole)
	dec := max(0, int(-math.Floor(math.Log10(step)))+1)
	var ts []float64
	var ls []string
	for i := math.Ceil((lo-origin)/step - 1e-9); ; i++ {
		t := origin + i*step + 0 // + 0 turns -0 into 0
		if t > hi+step*1e-9 {
			break
		}
		ts = append(ts, t)
		ls = append(ls, strconv.FormatFloat(roundTo(t, dec)+0, 'f', -1, 64))
	}
	return ts, ls
}

// roundStep returns the least round step at least raw: 1, 2, 2.5 or 5
// times a power of ten, and a whole number on a whole axis.
func roundStep(raw float64, whole bool) float64 {
	if whole && raw <= 1 {
		return 1
	}
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, f := range []float64{1, 2, 2.5, 5} {
		if s := f * mag; s >= raw && (!whole || s == math.Trunc(s)) {
			return s
		}
	}
	return 10 * mag
}

func roundTo(v float64, dec int) float64 {
	p := math.Pow(10, float64(dec))
	return math.Round(v*p) / p
}

// formatTick writes a log-axis tick: 1, 0.1, 0.01, 0.001, then 1e-4, 2e-4.
func formatTick(t float64) string {
	if t >= 0.001 {
		return format.Plain(Round3(t))
	}
	mant, exp, _ := strings.Cut(strconv.FormatFloat(t, 'e', 0, 64), "e")
	e, _ := strconv.Atoi(exp)
	return mant + "e" + strconv.Itoa(e)
}

func Round3(v float64) float64 { return math.Round(v*1000) / 1000 }

func esc(s string) string { return html.EscapeString(s) }
