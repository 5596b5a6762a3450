package ui

import (
	"html"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

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
	// Width is the chart's width in CSS pixels: the SVG is that wide and
	// is never scaled up, so its text keeps the sizes web/lab.css gives it
	// (12 to 14 px). A page that knows its column draws the chart that
	// wide; the default, 300, fits a phone's column, where a wider chart
	// would be scaled down and its text with it.
	Width float64
	// PlotHeight is the plot area's height in user units (default 176).
	PlotHeight float64
	// Class is added to the SVG's class, chart: a page that draws a chart
	// at several widths names each.
	Class string
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

// Point is one (x, y), with an interval [Lo, Hi] when Hi > Lo. A point
// outside the axes (a measured zero on a log axis, say) is drawn as an
// arrow at the edge it lies beyond, never on the edge as if it were there;
// its tooltip says its value.
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

// Chart geometry, in CSS pixels: the SVG is drawn at its size.
const (
	defaultChartW = 300.0
	defaultPlotH  = 176.0
	padL, padR    = 62.0, 14.0
	padBare       = 12.0 // above the plot, without a title drawn in the chart
	titleRow      = 18.0 // a line of the title drawn in the chart
	labelRow      = 16.0 // a line of the x axis label
	legendRow     = 18.0
	legendLine    = 14.0 // a second line of a legend entry's label
)

// The chart's text sizes in CSS pixels, as web/lab.css sets them: the
// layout reserves room for text by them, so no label runs into another.
const (
	tickPx   = 12.0
	labelPx  = 13.0
	titlePx  = 14.0
	legendPx = 12.0
)

// textW is about how wide s is at size px: an average glyph of the page's
// sans-serif is a little over half an em; bold ones are wider.
func textW(s string, px float64, bold bool) float64 {
	em := 0.54
	if bold {
		em = 0.6
	}
	return em * px * float64(utf8.RuneCountInString(s))
}

// wrapText cuts s at spaces into lines of at most w pixels at size px;
// a word wider than w is a line of its own.
func wrapText(s string, w, px float64, bold bool) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		try := word
		if line != "" {
			try = line + " " + word
		}
		if line != "" && textW(try, px, bold) > w {
			lines = append(lines, line)
			try = word
		}
		line = try
	}
	if line != "" || len(lines) == 0 {
		lines = append(lines, line)
	}
	return lines
}

// SVG renders the chart. It never fails: an empty or degenerate chart draws
// its axes.
func (c Chart) SVG() string {
	f := c.frame()
	b := c.newWriter()
	b.raw(`<title>`).text(c.Title).raw(`</title>`)
	for i, line := range f.title {
		b.nums(`<text class="chart-title" x="10" y="%g">`, 18+titleRow*float64(i)).text(line).raw(`</text>`)
	}
	b.nums(`<rect class="plot" x="%g" y="%g" width="%g" height="%g"/>`, padL, f.padT, f.pw, f.ph)
	below := c.drawAxes(b, f)
	off := c.drawData(b, f)
	height := math.Ceil(c.drawLegend(b, f, below, off) + 14)
	// The head is written last, as it holds the height, into a buffer of
	// its own; the two are joined once.
	var head svgWriter
	head.raw(`<svg class="chart`)
	if c.Class != "" {
		head.raw(" ").text(c.Class)
	}
	head.nums(`" width="%g" height="%g" viewBox="0 0 %g %g" role="img" aria-label="`, f.chartW, height, f.chartW, height).
		text(c.name()).raw(`" xmlns="http://www.w3.org/2000/svg">`)
	var out strings.Builder
	out.Grow(len(head.b) + len(b.b) + len(`</svg>`))
	out.Write(head.b)
	out.Write(b.b)
	out.WriteString(`</svg>`)
	return out.String()
}

// newWriter is a writer with room for about the whole of c's drawing.
func (c Chart) newWriter() *svgWriter {
	n := 0
	for _, s := range c.Series {
		n += len(s.Points)
	}
	return &svgWriter{b: make([]byte, 0, 2048+64*n)}
}

// chartFrame is a chart's geometry: its width, the plot area's top, width
// and height, and its two axes.
type chartFrame struct {
	chartW, padT, pw, ph float64
	xa, ya               axis
	title                []string // the title's lines drawn in the chart
}

// frame is c's geometry, its defaults filled in and its axes made usable.
func (c Chart) frame() chartFrame {
	f := chartFrame{chartW: c.Width, ph: c.PlotHeight, padT: padBare}
	if !(f.chartW >= 200) {
		f.chartW = defaultChartW
	}
	f.chartW = math.Min(math.Round(f.chartW), 4000)
	if !(f.ph >= 50) {
		f.ph = defaultPlotH
	}
	if !c.TitleAbove {
		f.title = wrapText(c.Title, f.chartW-20, titlePx, true)
		f.padT = padBare + titleRow*float64(len(f.title))
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

// inX reports whether x value v is inside the x axis.
func (f chartFrame) inX(v float64) bool { return f.xa.side(v) == 0 }

// xTicks are the x axis's ticks and labels: about want of them, fewer
// when their labels would not fit side by side in the plot's width.
func (c Chart) xTicks(f chartFrame, want int) ([]float64, []string) {
	if len(c.Categories) > 0 {
		var ts []float64
		var ls []string
		for i := range c.Categories {
			ts = append(ts, float64(i))
			ls = append(ls, categoryLetter(i))
		}
		return ts, ls
	}
	for n := want; ; n-- {
		ts, ls := f.xa.ticks(n)
		if n <= 2 || f.ticksFit(ts, ls) {
			return ts, ls
		}
	}
}

// ticksFit reports whether x tick labels ls at ts leave a gap between
// each other.
func (f chartFrame) ticksFit(ts []float64, ls []string) bool {
	for i := 1; i < len(ts); i++ {
		room := f.x(ts[i]) - f.x(ts[i-1])
		if room < (textW(ls[i], tickPx, false)+textW(ls[i-1], tickPx, false))/2+6 {
			return false
		}
	}
	return true
}

// drawAxes draws the grid, the ticks and their labels, and the axes'
// labels, and returns the baseline of the x axis label's last line.
func (c Chart) drawAxes(b *svgWriter, f chartFrame) float64 {
	yticks, ylabels := f.ya.ticks(5)
	for i, t := range yticks {
		yy := f.y(t)
		b.nums(`<line class="grid" x1="%g" y1="%.1f" x2="%g" y2="%.1f"/>`, padL, yy, padL+f.pw, yy)
		b.nums(`<text class="tick" x="%g" y="%.1f" text-anchor="end">`, padL-5, yy+4).text(ylabels[i]).raw(`</text>`)
	}
	want := 6
	if c.IntX {
		want = 8
	}
	xticks, xlabels := c.xTicks(f, want)
	for i, t := range xticks {
		xx := f.x(t)
		b.nums(`<line class="grid" x1="%.1f" y1="%g" x2="%.1f" y2="%g"/>`, xx, f.padT, xx, f.padT+f.ph)
		b.nums(`<text class="tick" x="%.1f" y="%g" text-anchor="middle">`, xx, f.padT+f.ph+15).text(xlabels[i]).raw(`</text>`)
	}
	// The x axis label is centred on the plot while it fits there, and
	// on the chart, wrapped, when it does not.
	y, cx := f.padT+f.ph+33, padL+f.pw/2
	lines := []string{c.XLabel}
	if textW(c.XLabel, labelPx, false) > f.pw {
		cx = f.chartW / 2
		lines = wrapText(c.XLabel, f.chartW-20, labelPx, false)
	}
	for i, line := range lines {
		y = f.padT + f.ph + 33 + labelRow*float64(i)
		b.nums(`<text class="axis-label" x="%g" y="%g" text-anchor="middle">`, cx, y).text(line).raw(`</text>`)
	}
	b.nums(`<text class="axis-label" transform="translate(14 %g) rotate(-90)" text-anchor="middle">`, f.padT+f.ph/2).text(c.YLabel).raw(`</text>`)
	return y
}

// drawData draws the marks, then the lines, then the error bars, then the
// markers on top. What lies beyond the axes is drawn as an arrow at the
// edge it is past (offArrow), with a tooltip giving its value; it reports
// whether it drew any such arrow for a series, for the legend to explain.
func (c Chart) drawData(b *svgWriter, f chartFrame) bool {
	off := false
	for _, m := range c.Marks {
		if side := f.xa.side(m.X); side != 0 {
			x, dir := padL, arrowLeft
			if side > 0 {
				x, dir = padL+f.pw, arrowRight
			}
			b.offArrow("mark-off "+m.Class, dir, x, f.padT+8, m.Label+": "+tipNum(m.X)+", "+past(c.XLabel, side, f.xa, true))
			continue
		}
		xx := f.x(m.X)
		b.raw(`<line class="mark `).raw(m.Class).nums(`" x1="%.1f" y1="%g" x2="%.1f" y2="%g"><title>`, xx, f.padT, xx, f.padT+f.ph).text(m.Label).raw(`</title></line>`)
	}
	for _, s := range c.Series {
		if s.Line && c.drawLine(b, f, s) {
			off = true
		}
	}
	for _, s := range c.Series {
		for _, p := range s.Points {
			if s.Line || !(p.Hi > p.Lo) || !f.inX(p.X) {
				continue
			}
			xx, y0, y1 := f.x(p.X), f.y(p.Lo), f.y(p.Hi)
			b.raw(`<path class="ebar `).raw(s.Class).nums(`" d="M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f"/>`,
				xx, y0, y1, xx-4, y0, xx+4, xx-4, y1, xx+4)
		}
	}
	for _, s := range c.Series {
		if s.Line {
			continue
		}
		for _, p := range s.Points {
			tip := s.Name + ": " + tipNum(p.Y)
			if p.Hi > p.Lo {
				tip += " (95% interval " + tipNum(p.Lo) + " to " + tipNum(p.Hi) + ")"
			}
			tip += " at " + c.xName(p.X)
			sx, sy := f.xa.side(p.X), f.ya.side(p.Y)
			if sx == 0 && sy == 0 {
				b.marker(s.Shape, "dot "+s.Class, f.x(p.X), f.y(p.Y), tip)
				continue
			}
			off = true
			x, y := f.x(p.X), f.y(p.Y)
			// The arrow points past the x axis when the value is, and
			// the tooltip says every way it is off the chart.
			var dir arrow
			switch {
			case sx < 0:
				dir = arrowLeft
			case sx > 0:
				dir = arrowRight
			case sy < 0:
				dir = arrowDown
			default:
				dir = arrowUp
			}
			if sx != 0 {
				tip += ", " + past(c.XLabel, sx, f.xa, true)
			}
			if sy != 0 {
				tip += ", " + past(c.YLabel, sy, f.ya, false)
			}
			b.offArrow("off "+s.Class, dir, x, y, tip)
		}
	}
	return off
}

// past says where beyond axis a (the x axis when x is set) a value on
// side lies: "below the chart (under 1e-08 false-positive rate)".
func past(label string, side int, a axis, x bool) string {
	word, edge, end := "below the chart", "under", a.lo
	switch {
	case x && side < 0:
		word = "left of the chart"
	case x:
		word, edge, end = "right of the chart", "past", a.hi
	case side > 0:
		word, edge, end = "above the chart", "over", a.hi
	}
	s := word + " (" + edge + " " + tipNum(end)
	if label != "" {
		s += " " + label
	}
	return s + ")"
}

// drawLine draws line series s inside the plot: where it leaves the plot
// past the y axis, the line ends at the edge, and an arrow there says how
// far it stays out and its values; it is never drawn along the edge. It
// reports whether it drew such an arrow.
func (c Chart) drawLine(b *svgWriter, f chartFrame, s Series) bool {
	// The path is written in place, and taken back if it has no point;
	// the arrows follow it.
	start := len(b.b)
	b.raw(`<path class="series `).raw(s.Class).raw(`" d="`)
	inPath := len(b.b)
	move := true
	to := func(x, y float64) {
		cmd := "L%.1f %.1f"
		if move {
			cmd = "M%.1f %.1f"
		}
		move = false
		b.nums(cmd, x, y)
	}
	// The points inside the x axis, and the runs of them past the y axis.
	var pts []Point
	for _, p := range s.Points {
		if f.inX(p.X) {
			pts = append(pts, p)
		}
	}
	arrows := 0
	var arrowsSVG svgWriter
	for i := 0; i < len(pts); i++ {
		p := pts[i]
		side := f.ya.side(p.Y)
		if side == 0 {
			if i > 0 && f.ya.side(pts[i-1].Y) != 0 {
				if x, y, ok := f.cross(pts[i], pts[i-1]); ok {
					move = true
					to(x, y)
				}
			}
			to(f.x(p.X), f.y(p.Y))
			continue
		}
		// A run of points past the axis on one side, from i to j.
		j := i
		for j+1 < len(pts) && f.ya.side(pts[j+1].Y) == side {
			j++
		}
		ax, ay := f.x(p.X), f.y(p.Y)
		if i > 0 {
			if x, y, ok := f.cross(pts[i-1], p); ok {
				to(x, y)
				ax, ay = x, y
			}
		}
		move = true
		dir := arrowDown
		if side > 0 {
			dir = arrowUp
		}
		tip := s.Name + ": " + tipNum(p.Y) + " at " + c.xName(p.X)
		if j > i {
			tip += " to " + tipNum(pts[j].Y) + " at " + c.xName(pts[j].X)
		}
		arrowsSVG.offArrow("off "+s.Class, dir, ax, ay, tip+", "+past(c.YLabel, side, f.ya, false))
		arrows++
		i = j
	}
	if len(b.b) > inPath {
		b.raw(`"`).dash(s.Dash).raw(`><title>`).text(s.Name).raw(`</title></path>`)
	} else {
		b.b = b.b[:start]
	}
	b.b = append(b.b, arrowsSVG.b...)
	return arrows > 0
}

// cross is where the segment from p (inside the y axis) to q (past it)
// meets the plot's edge; not ok when q has no place on the axis (zero on
// a log axis), whose segment is left undrawn.
func (f chartFrame) cross(p, q Point) (x, y float64, ok bool) {
	fq := f.ya.pos(q.Y)
	if math.IsInf(fq, 0) || math.IsNaN(fq) {
		return 0, 0, false
	}
	fp, edge := f.ya.pos(p.Y), 0.0
	if fq > 1 {
		edge = 1
	}
	t := (edge - fp) / (fq - fp)
	xp, xq := f.xa.frac(p.X), f.xa.frac(q.X)
	return padL + (xp+t*(xq-xp))*f.pw, f.padT + f.ph*(1-edge), true
}

// arrow is the way an off-chart arrow points: out of the plot.
type arrow int

const (
	arrowDown arrow = iota
	arrowUp
	arrowLeft
	arrowRight
)

// offArrow is an arrow whose tip is at (x, y) on the plot's edge, pointing
// out of the plot: something of class lies beyond it, as tip says.
func (b *svgWriter) offArrow(class string, dir arrow, x, y float64, tip string) {
	const d = `" d="M%.1f %.1fL%.1f %.1fL%.1f %.1fZ">`
	b.raw(`<path class="`).raw(class)
	switch dir {
	case arrowDown:
		b.nums(d, x, y, x-5.5, y-9, x+5.5, y-9)
	case arrowUp:
		b.nums(d, x, y, x-5.5, y+9, x+5.5, y+9)
	case arrowLeft:
		b.nums(d, x, y, x+9, y-5.5, x+9, y+5.5)
	default:
		b.nums(d, x, y, x-9, y-5.5, x-9, y+5.5)
	}
	b.title(tip).raw(`</path>`)
}

// drawLegend draws the legend under the x axis label, whose last line is
// at below, and returns the baseline of its last row. It names only what
// is drawn: a series with points, by its line, or its marker with a bar
// when it has intervals; a mark, by its line, or by an arrow when it lies
// off the chart; and, when off is set, the arrow that stands for points
// off the chart. Entries wrap to as many rows as they need, and a label
// too long for a row wraps onto lines of its own.
func (c Chart) drawLegend(b *svgWriter, f chartFrame, below float64, off bool) float64 {
	const legendL = padL - 40
	ly, lx := below+21, legendL
	room := f.chartW - padR - legendL - 28
	extra := 0.0 // the extra lines the current row's labels take
	place := func(label string) (float64, float64, []string) {
		lines := []string{label}
		if textW(label, legendPx, false) > room {
			lines = wrapText(label, room, legendPx, false)
		}
		w := 30 + textW(lines[0], legendPx, false)
		for _, l := range lines[1:] {
			w = max(w, 30+textW(l, legendPx, false))
		}
		if lx+w > f.chartW-padR && lx > legendL {
			lx = legendL
			ly += legendRow + extra
			extra = 0
		}
		extra = max(extra, legendLine*float64(len(lines)-1))
		ex := lx
		lx += w + 8
		return ex, ly, lines
	}
	text := func(ex, ey float64, lines []string) {
		for i, l := range lines {
			b.nums(`<text class="legend" x="%.1f" y="%.1f">`, ex+28, ey+4+legendLine*float64(i)).text(l).raw(`</text>`)
		}
	}
	for _, s := range c.Series {
		if !c.drawn(f, s) {
			continue
		}
		ex, ey, lines := place(s.Name)
		b.raw(`<g class="legend-entry">`)
		switch {
		case s.Line:
			b.raw(`<line class="series `).raw(s.Class).nums(`" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"`, ex, ey, ex+22, ey).dash(s.Dash).raw(`/>`)
		case s.Intervals():
			b.raw(`<path class="ebar `).raw(s.Class).nums(`" d="M%.1f %.1fV%.1f"/>`, ex+11, ey-7, ey+7)
			fallthrough
		default:
			b.marker(s.Shape, "dot "+s.Class, ex+11, ey, "")
		}
		text(ex, ey, lines)
		b.raw(`</g>`)
	}
	for _, m := range c.Marks {
		ex, ey, lines := place(m.Label)
		b.raw(`<g class="legend-entry">`)
		if f.inX(m.X) {
			b.raw(`<line class="mark `).raw(m.Class).nums(`" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`, ex, ey, ex+22, ey)
		} else {
			b.offArrow("mark-off "+m.Class, arrowRight, ex+16, ey, "")
		}
		text(ex, ey, lines)
		b.raw(`</g>`)
	}
	if off {
		ex, ey, lines := place(OffChart)
		b.raw(`<g class="legend-entry">`)
		b.offArrow("off", arrowDown, ex+11, ey+5, "")
		text(ex, ey, lines)
		b.raw(`</g>`)
	}
	return ly + extra
}

// OffChart is the legend's name for the arrows that stand for values off
// the chart; each arrow's tooltip gives its value, and where it lies.
const OffChart = "off the chart"

// drawn reports whether any of s is drawn: a line needs a point inside
// the x axis; markers are all drawn, inside the axes or as arrows.
func (c Chart) drawn(f chartFrame, s Series) bool {
	if !s.Line {
		return len(s.Points) > 0
	}
	for _, p := range s.Points {
		if f.inX(p.X) {
			return true
		}
	}
	return false
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

// marker draws a marker of shape at (x, y), with tip as its title unless
// it is empty.
func (b *svgWriter) marker(shape Shape, class string, x, y float64, tip string) {
	switch shape {
	case Square:
		b.raw(`<rect class="`).raw(class).nums(`" x="%.1f" y="%.1f" width="8" height="8">`, x-4, y-4).title(tip).raw(`</rect>`)
	case Triangle:
		b.raw(`<path class="`).raw(class).nums(`" d="M%.1f %.1fL%.1f %.1fL%.1f %.1fZ">`, x, y-5.5, x+5, y+4, x-5, y+4).title(tip).raw(`</path>`)
	case Diamond:
		b.raw(`<path class="`).raw(class).nums(`" d="M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ">`, x, y-5.5, x+5.5, y, x, y+5.5, x-5.5, y).title(tip).raw(`</path>`)
	default:
		b.raw(`<circle class="`).raw(class).nums(`" cx="%.1f" cy="%.1f" r="4.5">`, x, y).title(tip).raw(`</circle>`)
	}
}

// svgWriter writes a chart's SVG into one buffer: numbers are appended in
// place by strconv, as fmt's %g and %.1f write them, and text is escaped
// as html.EscapeString does, byte by byte. A chart written with fmt and an
// escaping Replacer for every number and label took a sixth of a second of
// the about page's start at a slow laptop's pace.
type svgWriter struct{ b []byte }

func (b *svgWriter) raw(s string) *svgWriter {
	b.b = append(b.b, s...)
	return b
}

// nums writes layout with each %g or %.1f in it replaced by the next of
// vs, as fmt would write it. It panics on any other verb.
func (b *svgWriter) nums(layout string, vs ...float64) *svgWriter {
	for {
		i := strings.IndexByte(layout, '%')
		if i < 0 {
			break
		}
		b.b = append(b.b, layout[:i]...)
		layout = layout[i:]
		switch {
		case strings.HasPrefix(layout, "%g"):
			b.b = appendNum(b.b, vs[0], 'g', -1)
			layout = layout[2:]
		case strings.HasPrefix(layout, "%.1f"):
			b.b = appendNum(b.b, vs[0], 'f', 1)
			layout = layout[4:]
		default:
			panic("ui: a chart's layout has a verb other than %g and %.1f: " + layout)
		}
		vs = vs[1:]
	}
	b.b = append(b.b, layout...)
	return b
}

// appendNum appends v as fmt writes it with verb and prec: strconv's,
// without the sign strconv gives +Inf.
func appendNum(b []byte, v float64, verb byte, prec int) []byte {
	n := len(b)
	b = strconv.AppendFloat(b, v, verb, prec, 64)
	if b[n] == '+' {
		b = append(b[:n], b[n+1:]...)
	}
	return b
}

// text writes s escaped as html.EscapeString escapes it.
func (b *svgWriter) text(s string) *svgWriter {
	for i := 0; i < len(s); i++ {
		var to string
		switch s[i] {
		case '&':
			to = "&amp;"
		case '\'':
			to = "&#39;"
		case '<':
			to = "&lt;"
		case '>':
			to = "&gt;"
		case '"':
			to = "&#34;"
		default:
			continue
		}
		b.b = append(append(b.b, s[:i]...), to...)
		s, i = s[i+1:], -1
	}
	b.b = append(b.b, s...)
	return b
}

// title writes tip as the title of the element it is in, unless it is
// empty.
func (b *svgWriter) title(tip string) *svgWriter {
	if tip == "" {
		return b
	}
	return b.raw(`<title>`).text(tip).raw(`</title>`)
}

// dash writes a line's stroke-dasharray, unless it is solid.
func (b *svgWriter) dash(dash string) *svgWriter {
	if dash == "" {
		return b
	}
	return b.raw(` stroke-dasharray="`).text(dash).raw(`"`)
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

// pos is v's place along the axis, 0 at its low end and 1 at its high,
// not clamped: -Inf for zero or less on a log axis.
func (a axis) pos(v float64) float64 {
	if a.log {
		if v <= 0 {
			return math.Inf(-1)
		}
		return (math.Log10(v) - math.Log10(a.lo)) / (math.Log10(a.hi) - math.Log10(a.lo))
	}
	return (v - a.lo) / (a.hi - a.lo)
}

// side says where v lies: -1 below the axis's low end (zero or less on a
// log axis), 1 past its high end, 0 inside, a rounding error counting as
// inside.
func (a axis) side(v float64) int {
	switch t := a.pos(v); {
	case t < -1e-9:
		return -1
	case t > 1+1e-9:
		return 1
	}
	return 0
}

// frac maps v onto [0, 1] along the axis, clamped to its ends: where an
// arrow for a value off the chart goes.
func (a axis) frac(v float64) float64 {
	return math.Max(0, math.Min(1, a.pos(v)))
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
