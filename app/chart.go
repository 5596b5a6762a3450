package app

import (
	"bloomlab/app/ui/format"
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
)

// Chart is a small line-and-point chart the lab draws itself as SVG: axes
// with ticks and labels, a log or linear y axis, vertical marker lines and
// a legend. Series are told apart by shape and dash as well as by colour.
type Chart struct {
	Title, XLabel, YLabel string
	XMin, XMax            float64
	YMin, YMax            float64 // for a log axis, both > 0
	LogY                  bool
	Series                []Series
	Marks                 []Mark
	// IntX puts ticks on whole numbers only (k is an integer).
	IntX bool
	// Width is the SVG's width in user units (default 440); the lab
	// narrows it on narrow screens so the text stays legible when the SVG
	// scales to its container.
	Width float64
}

// Series is one set of points, drawn as a line or as markers.
type Series struct {
	Name   string
	Class  string // CSS class for colour: theory, measured, current, alt
	Line   bool   // joined line (theory) or markers (measured)
	Dashed bool
	Points []Point
}

// Point is one (x, y). A measured zero on a log axis is drawn as a hollow
// marker on the floor of the chart.
type Point struct{ X, Y float64 }

// Mark is a vertical line, such as the optimum k.
type Mark struct {
	X     float64
	Label string
	Class string
}

// Chart geometry, in SVG user units; the SVG scales to its container.
const (
	defaultChartW = 440.0
	plotH         = 176.0
	padL, padR    = 58.0, 12.0
	padT          = 30.0
	legendRow     = 17.0
)

// SVG renders the chart. It never fails: an empty or degenerate chart draws
// its axes.
func (c Chart) SVG() string {
	var b strings.Builder
	chartW := c.Width
	if !(chartW >= 200) {
		chartW = defaultChartW
	}
	pw, ph := chartW-padL-padR, plotH
	if !(c.XMax > c.XMin) {
		c.XMax = c.XMin + 1
	}
	if c.LogY {
		c.YMin = math.Max(c.YMin, 1e-9)
		if !(c.YMax > c.YMin) {
			c.YMax = c.YMin * 10
		}
	} else if !(c.YMax > c.YMin) {
		c.YMax = c.YMin + 1
	}
	x := func(v float64) float64 { return padL + (v-c.XMin)/(c.XMax-c.XMin)*pw }
	y := func(v float64) float64 {
		var t float64
		if c.LogY {
			if v <= 0 {
				return padT + ph
			}
			t = (math.Log10(v) - math.Log10(c.YMin)) / (math.Log10(c.YMax) - math.Log10(c.YMin))
		} else {
			t = (v - c.YMin) / (c.YMax - c.YMin)
		}
		t = math.Max(0, math.Min(1, t))
		return padT + ph*(1-t)
	}

	fmt.Fprintf(&b, `<title>%s</title>`, esc(c.Title))
	fmt.Fprintf(&b, `<text class="chart-title" x="10" y="18">%s</text>`, esc(c.Title))
	fmt.Fprintf(&b, `<rect class="plot" x="%g" y="%g" width="%g" height="%g"/>`, padL, padT, pw, ph)

	// Y ticks: decades on a log axis, five steps on a linear one.
	for _, t := range c.yTicks() {
		yy := y(t)
		fmt.Fprintf(&b, `<line class="grid" x1="%g" y1="%.1f" x2="%g" y2="%.1f"/>`, padL, yy, padL+pw, yy)
		fmt.Fprintf(&b, `<text class="tick" x="%g" y="%.1f" text-anchor="end">%s</text>`, padL-5, yy+4, esc(formatTick(t)))
	}
	xticks := niceTicks(c.XMin, c.XMax, 6)
	if c.IntX {
		xticks = intTicks(c.XMin, c.XMax, 8)
	}
	for _, t := range xticks {
		xx := x(t)
		fmt.Fprintf(&b, `<line class="grid" x1="%.1f" y1="%g" x2="%.1f" y2="%g"/>`, xx, padT, xx, padT+ph)
		fmt.Fprintf(&b, `<text class="tick" x="%.1f" y="%g" text-anchor="middle">%s</text>`, xx, padT+ph+15, format.Plain(t))
	}
	fmt.Fprintf(&b, `<text class="axis-label" x="%g" y="%g" text-anchor="middle">%s</text>`, padL+pw/2, padT+ph+33, esc(c.XLabel))
	fmt.Fprintf(&b, `<text class="axis-label" transform="translate(13 %g) rotate(-90)" text-anchor="middle">%s</text>`, padT+ph/2, esc(c.YLabel))

	for _, m := range c.Marks {
		if m.X < c.XMin || m.X > c.XMax {
			continue
		}
		xx := x(m.X)
		fmt.Fprintf(&b, `<line class="mark %s" x1="%.1f" y1="%g" x2="%.1f" y2="%g"/>`, m.Class, xx, padT, xx, padT+ph)
	}
	for _, s := range c.Series {
		if s.Line {
			var path strings.Builder
			for i, p := range s.Points {
				if p.X < c.XMin || p.X > c.XMax {
					continue
				}
				cmd := "L"
				if i == 0 || path.Len() == 0 {
					cmd = "M"
				}
				fmt.Fprintf(&path, "%s%.1f %.1f", cmd, x(p.X), y(p.Y))
			}
			dash := ""
			if s.Dashed {
				dash = ` stroke-dasharray="6 4"`
			}
			fmt.Fprintf(&b, `<path class="series %s" d="%s"%s/>`, s.Class, path.String(), dash)
			continue
		}
		for _, p := range s.Points {
			if p.X < c.XMin || p.X > c.XMax {
				continue
			}
			hollow := ""
			if c.LogY && p.Y <= 0 {
				hollow = " hollow"
			}
			fmt.Fprintf(&b, `<circle class="dot %s%s" cx="%.1f" cy="%.1f" r="4"><title>%s: %s at %s</title></circle>`,
				s.Class, hollow, x(p.X), y(p.Y), esc(s.Name), format.Rate(p.Y), format.Plain(round3(p.X)))
		}
	}

	// Legend under the axis label: one row per entry, with its own shape.
	ly := padT + ph + 52.0
	lx := padL
	entry := func(sample func(x, y float64) string, label string) {
		w := 26 + 7*float64(len(label))
		if lx+w > chartW-padR && lx > padL {
			lx = padL
			ly += legendRow
		}
		b.WriteString(sample(lx, ly))
		fmt.Fprintf(&b, `<text class="legend" x="%.1f" y="%.1f">%s</text>`, lx+24, ly+4, esc(label))
		lx += w + 10
	}
	line := func(class string, dashed bool) func(x, y float64) string {
		dash := ""
		if dashed {
			dash = ` stroke-dasharray="6 4"`
		}
		return func(x, y float64) string {
			return fmt.Sprintf(`<line class="%s" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"%s/>`, class, x, y, x+20, y, dash)
		}
	}
	for _, s := range c.Series {
		if s.Line {
			entry(line("series "+s.Class, s.Dashed), s.Name)
			continue
		}
		class := s.Class
		entry(func(x, y float64) string {
			return fmt.Sprintf(`<circle class="dot %s" cx="%.1f" cy="%.1f" r="4"/>`, class, x+10, y)
		}, s.Name)
	}
	for _, m := range c.Marks {
		entry(line("mark "+m.Class, false), m.Label)
	}
	height := ly + 12
	return fmt.Sprintf(`<svg class="chart" viewBox="0 0 %g %g" role="img" aria-label="%s" xmlns="http://www.w3.org/2000/svg">`,
		chartW, height, esc(c.Title)) + b.String() + `</svg>`
}

// intTicks returns whole-number ticks in [lo, hi], at most about n.
func intTicks(lo, hi float64, n int) []float64 {
	step := math.Max(1, math.Ceil((hi-lo)/float64(n)))
	var ts []float64
	for t := math.Ceil(lo); t <= hi; t += step {
		ts = append(ts, t)
	}
	return ts
}

// formatTick writes a log-axis tick: 1, 0.1, 0.01, 0.001, then 1e-4.
func formatTick(t float64) string {
	if t >= 0.001 {
		return format.Plain(round3(t))
	}
	e := math.Round(math.Log10(t))
	if math.Abs(t-math.Pow(10, e)) < 1e-12 {
		return "1e" + strconv.Itoa(int(e))
	}
	return strconv.FormatFloat(t, 'e', 0, 64)
}

func (c Chart) yTicks() []float64 {
	if !c.LogY {
		return niceTicks(c.YMin, c.YMax, 5)
	}
	var ts []float64
	lo, hi := math.Floor(math.Log10(c.YMin)), math.Ceil(math.Log10(c.YMax))
	step := math.Max(1, math.Ceil((hi-lo)/6))
	for e := lo; e <= hi; e += step {
		t := math.Pow(10, e)
		if t >= c.YMin*0.999 && t <= c.YMax*1.001 {
			ts = append(ts, t)
		}
	}
	return ts
}

// niceTicks returns about n round tick values covering [lo, hi].
func niceTicks(lo, hi float64, n int) []float64 {
	span := hi - lo
	if !(span > 0) {
		return []float64{lo}
	}
	raw := span / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, f := range []float64{1, 2, 2.5, 5, 10} {
		if f*mag >= raw {
			step = f * mag
			break
		}
	}
	var ts []float64
	for t := math.Ceil(lo/step) * step; t <= hi+step*1e-9; t += step {
		ts = append(ts, round3(t))
	}
	return ts
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

func esc(s string) string { return html.EscapeString(s) }
