package app

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"bloomlab/app/ui/format"
	"bloomlab/core/experiment"
)

// The experiments page draws a table's Chart description itself: theory as
// lines, measurements as markers with their 95% intervals as error bars, on
// linear, log or category axes. It shares the lab's chart classes (plot,
// grid, tick, legend) and adds groups: series named "X theory" and
// "X measured" belong to group X and share its colour, while groups differ
// in marker shape and line dash as well, so colour is never the only sign.

// Geometry, in SVG user units; the SVG scales to its container.
const (
	expChartW      = 600.0
	expChartNarrow = 340.0
	expPlotH       = 220.0
	expPadL        = 62.0
	expPadR        = 14.0
	expPadT        = 12.0
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
	expShapes = []string{"circle", "square", "triangle", "diamond"}
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

// expAxis maps data values onto [0, 1] along one axis.
type expAxis struct {
	lo, hi float64
	log    bool
	ticks  []float64
	labels []string
}

func (a expAxis) frac(v float64) float64 {
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

// expXAxis is the x axis: categories, log or linear.
func expXAxis(c *experiment.Chart) expAxis {
	if n := len(c.XLabels); n > 0 {
		a := expAxis{lo: -0.5, hi: float64(n) - 0.5}
		for i := range n {
			a.ticks = append(a.ticks, float64(i))
			a.labels = append(a.labels, categoryLetter(i))
		}
		return a
	}
	var xs []float64
	for _, s := range c.Series {
		for _, p := range s.Points {
			if !c.LogX || p.X > 0 {
				xs = append(xs, p.X)
			}
		}
	}
	lo, hi := spanOf(xs, 0, 1)
	if c.LogX {
		if lo <= 0 {
			lo, hi = 1, 10
		}
		if hi <= lo {
			lo, hi = lo/2, hi*2
		}
		pad := (math.Log10(hi) - math.Log10(lo)) * 0.04
		a := expAxis{lo: lo / math.Pow(10, pad), hi: hi * math.Pow(10, pad), log: true}
		a.ticks = logTicks(a.lo, a.hi)
		for _, t := range a.ticks {
			a.labels = append(a.labels, format.Plain(t))
		}
		return a
	}
	if hi <= lo {
		lo, hi = lo-1, hi+1
	}
	whole := hi-lo <= 30
	for _, x := range xs {
		whole = whole && x == math.Trunc(x)
	}
	pad := (hi - lo) * 0.05
	a := expAxis{lo: lo - pad, hi: hi + pad}
	if whole {
		a.ticks, a.labels = axis{lo: lo, hi: hi, whole: true}.ticks(8)
		return a
	}
	a.ticks, a.labels = linearTicks(a.lo, a.hi, 6)
	return a
}

// expYAxis is the y axis, covering every value and interval end.
func expYAxis(c *experiment.Chart) expAxis {
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
		lo, hi := spanOf(pos, 1e-3, 1)
		lo = math.Pow(10, math.Floor(math.Log10(lo)))
		hi = math.Pow(10, math.Ceil(math.Log10(hi)))
		if hi <= lo {
			hi = lo * 10
		}
		a := expAxis{lo: lo, hi: hi, log: true}
		a.ticks = logTicks(lo, hi)
		for _, t := range a.ticks {
			a.labels = append(a.labels, formatTick(t))
		}
		return a
	}
	lo, hi := spanOf(ys, 0, 1)
	if hi <= lo {
		d := math.Max(math.Abs(lo)*0.1, 1e-9)
		lo, hi = lo-d, hi+d
	}
	pad := (hi - lo) * 0.08
	lo0 := lo
	lo, hi = lo-pad, hi+pad
	if lo0 >= 0 && lo < 0 {
		lo = 0
	}
	a := expAxis{lo: lo, hi: hi}
	a.ticks, a.labels = linearTicks(lo, hi, 5)
	return a
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

// linearTicks returns about n round ticks inside [lo, hi] and their labels,
// written with as many decimals as the step needs.
func linearTicks(lo, hi float64, n int) ([]float64, []string) {
	raw := (hi - lo) / float64(n)
	if !(raw > 0) {
		return []float64{lo}, []string{format.Plain(lo)}
	}
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * mag
	for _, f := range []float64{1, 2, 2.5, 5} {
		if f*mag >= raw {
			step = f * mag
			break
		}
	}
	dec := max(0, int(-math.Floor(math.Log10(step)))+1)
	var ts []float64
	var ls []string
	for i := math.Ceil(lo / step); i*step <= hi*(1+1e-12); i++ {
		t := i * step
		ts = append(ts, t)
		ls = append(ls, strconv.FormatFloat(roundTo(t, dec), 'f', -1, 64))
	}
	return ts, ls
}

// logTicks returns the decades in [lo, hi], over many decades about six of
// them; over two decades or less, 2 and 5 times each decade as well.
func logTicks(lo, hi float64) []float64 {
	first, last := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
	step := math.Max(1, math.Ceil((last-first)/6))
	mults := []float64{1}
	if math.Log10(hi/lo) <= 2.01 {
		mults = []float64{1, 2, 5}
	}
	var ts []float64
	for e := first; e <= last; e += step {
		for _, m := range mults {
			t := m * math.Pow(10, e)
			if t >= lo*(1-1e-9) && t <= hi*(1+1e-9) {
				ts = append(ts, t)
			}
		}
	}
	return ts
}

// expMarker draws group g's marker at (x, y); inner goes inside the element
// (a title).
func expMarker(g int, class string, x, y float64, inner string) string {
	switch expShapes[g%len(expShapes)] {
	case "square":
		return fmt.Sprintf(`<rect class="%s" x="%.1f" y="%.1f" width="8" height="8">%s</rect>`, class, x-4, y-4, inner)
	case "triangle":
		return fmt.Sprintf(`<path class="%s" d="M%.1f %.1fL%.1f %.1fL%.1f %.1fZ">%s</path>`, class, x, y-5.5, x+5, y+4, x-5, y+4, inner)
	case "diamond":
		return fmt.Sprintf(`<path class="%s" d="M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ">%s</path>`, class, x, y-5.5, x+5.5, y, x, y+5.5, x-5.5, y, inner)
	}
	return fmt.Sprintf(`<circle class="%s" cx="%.1f" cy="%.1f" r="4.5">%s</circle>`, class, x, y, inner)
}

// hasIntervals reports whether any of s's points has an interval.
func hasIntervals(s experiment.Series) bool {
	for _, p := range s.Points {
		if p.Hi > p.Lo {
			return true
		}
	}
	return false
}

// expNum writes a value for a tooltip: six significant digits.
func expNum(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

// expChartSVG draws c, width user units wide (0 for the default). It never
// fails: a chart without points draws its axes.
func expChartSVG(c *experiment.Chart, width float64) string {
	if c == nil {
		return ""
	}
	if !(width >= 200) {
		width = expChartW
	}
	pw, ph := width-expPadL-expPadR, expPlotH
	xa, ya := expXAxis(c), expYAxis(c)
	x := func(v float64) float64 { return expPadL + xa.frac(v)*pw }
	y := func(v float64) float64 { return expPadT + ph*(1-ya.frac(v)) }
	groups, ng := expGroups(c)
	class := func(i int) string {
		if ng == 1 {
			if c.Series[i].Kind == experiment.Line {
				return "theory"
			}
			return "measured"
		}
		return "g" + strconv.Itoa(groups[i]%6)
	}
	xName := func(v float64) string {
		if i := int(v); len(c.XLabels) > 0 && i >= 0 && i < len(c.XLabels) {
			return c.XLabels[i]
		}
		return c.X + " " + expNum(v)
	}

	var b strings.Builder
	// The title is the figure's caption in the page, where it can wrap.
	fmt.Fprintf(&b, `<title>%s</title>`, esc(c.Title))
	fmt.Fprintf(&b, `<rect class="plot" x="%g" y="%g" width="%g" height="%g"/>`, expPadL, expPadT, pw, ph)
	for i, t := range ya.ticks {
		yy := y(t)
		fmt.Fprintf(&b, `<line class="grid" x1="%g" y1="%.1f" x2="%g" y2="%.1f"/>`, expPadL, yy, expPadL+pw, yy)
		fmt.Fprintf(&b, `<text class="tick" x="%g" y="%.1f" text-anchor="end">%s</text>`, expPadL-5, yy+4, esc(ya.labels[i]))
	}
	for i, t := range xa.ticks {
		xx := x(t)
		fmt.Fprintf(&b, `<line class="grid" x1="%.1f" y1="%g" x2="%.1f" y2="%g"/>`, xx, expPadT, xx, expPadT+ph)
		fmt.Fprintf(&b, `<text class="tick" x="%.1f" y="%g" text-anchor="middle">%s</text>`, xx, expPadT+ph+15, esc(xa.labels[i]))
	}
	fmt.Fprintf(&b, `<text class="axis-label" x="%g" y="%g" text-anchor="middle">%s</text>`, expPadL+pw/2, expPadT+ph+33, esc(c.X))
	fmt.Fprintf(&b, `<text class="axis-label" transform="translate(14 %g) rotate(-90)" text-anchor="middle">%s</text>`, expPadT+ph/2, esc(c.Y))

	// Lines first, then the error bars, then the markers on top.
	for i, s := range c.Series {
		if s.Kind != experiment.Line || len(s.Points) == 0 {
			continue
		}
		var path strings.Builder
		for j, p := range s.Points {
			cmd := "L"
			if j == 0 {
				cmd = "M"
			}
			fmt.Fprintf(&path, "%s%.1f %.1f", cmd, x(p.X), y(p.Y))
		}
		dash := ""
		if d := expDashes[groups[i]%len(expDashes)]; d != "" {
			dash = ` stroke-dasharray="` + d + `"`
		}
		fmt.Fprintf(&b, `<path class="series %s" d="%s"%s><title>%s</title></path>`, class(i), path.String(), dash, esc(s.Name))
	}
	for i, s := range c.Series {
		if s.Kind != experiment.Points {
			continue
		}
		for _, p := range s.Points {
			if !(p.Hi > p.Lo) {
				continue
			}
			xx, y0, y1 := x(p.X), y(p.Lo), y(p.Hi)
			fmt.Fprintf(&b, `<path class="ebar %s" d="M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f"/>`,
				class(i), xx, y0, y1, xx-4, y0, xx+4, xx-4, y1, xx+4)
		}
	}
	for i, s := range c.Series {
		if s.Kind != experiment.Points {
			continue
		}
		for _, p := range s.Points {
			cl := "dot " + class(i)
			if c.LogY && p.Y <= 0 {
				cl += " hollow"
			}
			tip := s.Name + ": " + expNum(p.Y)
			if p.Hi > p.Lo {
				tip += " (95% interval " + expNum(p.Lo) + " to " + expNum(p.Hi) + ")"
			}
			tip += " at " + xName(p.X)
			b.WriteString(expMarker(groups[i], cl, x(p.X), y(p.Y), "<title>"+esc(tip)+"</title>"))
		}
	}

	// The legend, under the axis label, wrapping to as many rows as it needs.
	ly, lx := expPadT+ph+54, expPadL-40
	for i, s := range c.Series {
		w := 30 + 6.6*float64(len(s.Name))
		if lx+w > width-expPadR && lx > expPadL-40 {
			lx = expPadL - 40
			ly += 18
		}
		if s.Kind == experiment.Line {
			dash := ""
			if d := expDashes[groups[i]%len(expDashes)]; d != "" {
				dash = ` stroke-dasharray="` + d + `"`
			}
			fmt.Fprintf(&b, `<line class="series %s" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"%s/>`, class(i), lx, ly, lx+22, ly, dash)
		} else {
			if hasIntervals(s) {
				fmt.Fprintf(&b, `<path class="ebar %s" d="M%.1f %.1fV%.1f"/>`, class(i), lx+11, ly-7, ly+7)
			}
			b.WriteString(expMarker(groups[i], "dot "+class(i), lx+11, ly, ""))
		}
		fmt.Fprintf(&b, `<text class="legend" x="%.1f" y="%.1f">%s</text>`, lx+28, ly+4, esc(s.Name))
		lx += w + 8
	}
	height := ly + 14
	return fmt.Sprintf(`<svg class="chart exp-chart" viewBox="0 0 %g %g" role="img" aria-label="%s" xmlns="http://www.w3.org/2000/svg">`,
		width, height, esc(c.Title+": "+c.Y+" against "+c.X)) + b.String() + `</svg>`
}
