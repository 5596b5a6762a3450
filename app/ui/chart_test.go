package ui

import (
	"fmt"
	"html"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestAxisTicks pins the one tick algorithm on whole, linear and log axes,
// with the axes the lab and the experiments draw.
func TestAxisTicks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		a    axis
		n    int
		want string // the labels, space-separated
	}{
		{"whole k from 1 labels k = 1", axis{lo: 1, hi: 15, whole: true}, 8, "1 3 5 7 9 11 13 15"},
		{"whole padded k range", axis{lo: 0.5, hi: 11.5, whole: true}, 8, "1 3 5 7 9 11"},
		{"whole steps over the whole numbers inside", axis{lo: 3.2, hi: 20.8, whole: true}, 8, "4 6 8 10 12 14 16 18 20"},
		{"whole without a whole number", axis{lo: 0.2, hi: 0.8, whole: true}, 8, ""},
		{"whole short range steps by 1", axis{lo: 3, hi: 6, whole: true}, 8, "3 4 5 6"},
		{"whole steps are round", axis{lo: 1, hi: 40, whole: true}, 8, "1 6 11 16 21 26 31 36"},
		{"whole never steps by 2.5", axis{lo: 0, hi: 14, whole: true}, 6, "0 5 10"},
		{"whole from below zero", axis{lo: -0.5, hi: 3.5, whole: true}, 8, "0 1 2 3"},
		{"linear bits per key", axis{lo: 0.5, hi: 20}, 6, "5 10 15 20"},
		{"linear small values keep their decimals", axis{lo: 0.0485, hi: 0.0575}, 5, "0.05 0.052 0.054 0.056"},
		{"linear quarter steps", axis{lo: 0, hi: 1}, 4, "0 0.25 0.5 0.75 1"},
		{"linear through zero writes no -0", axis{lo: -0.3, hi: 0.3}, 5, "-0.2 0 0.2"},
		{"linear empty range", axis{lo: 2, hi: 2}, 5, "2"},
		{"log decades", axis{lo: 1e-4, hi: 1, log: true}, 5, "1e-4 0.001 0.01 0.1 1"},
		{"log many decades, every other", axis{lo: 1e-7, hi: 1, log: true}, 5, "1e-7 1e-5 0.001 0.1"},
		{"log six decades, each", axis{lo: 1e-6, hi: 1, log: true}, 5, "1e-6 1e-5 1e-4 0.001 0.01 0.1 1"},
		{"log two decades, 1 2 5", axis{lo: 0.9, hi: 11, log: true}, 6, "1 2 5 10"},
		{"log small, 1 2 5", axis{lo: 1e-6, hi: 1e-4, log: true}, 5, "1e-6 2e-6 5e-6 1e-5 2e-5 5e-5 1e-4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ts, ls := tt.a.ticks(tt.n)
			if got := strings.Join(ls, " "); got != tt.want {
				t.Errorf("%+v.ticks(%d) labels %q, want %q", tt.a, tt.n, got, tt.want)
			}
			if len(ts) != len(ls) {
				t.Fatalf("%d ticks, %d labels", len(ts), len(ls))
			}
			for i, v := range ts {
				want, err := strconv.ParseFloat(ls[i], 64)
				if err != nil {
					t.Fatal(err)
				}
				if math.Abs(v-want) > 1e-9*math.Abs(want) {
					t.Errorf("tick %d is %v, labelled %q", i, v, ls[i])
				}
			}
		})
	}
}

func TestFormatTick(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		v    float64
		want string
	}{{1, "1"}, {0.1, "0.1"}, {0.001, "0.001"}, {1e-4, "1e-4"}, {1e-7, "1e-7"}, {2e-5, "2e-5"}, {0.002, "0.002"}} {
		if got := formatTick(c.v); got != c.want {
			t.Errorf("formatTick(%v) = %q, want %q", c.v, got, c.want)
		}
	}
	for i, want := range map[int]string{0: "A", 3: "D", 25: "Z", 26: "AA"} {
		if got := categoryLetter(i); got != want {
			t.Errorf("categoryLetter(%d) = %q, want %q", i, got, want)
		}
	}
}

// TestChartDrawnAtItsWidth: the SVG is as wide and as tall as its
// viewBox, in CSS pixels, so the page never scales it and its text keeps
// the sizes the style sheet gives it; a title or label too long for a
// narrow chart wraps inside it rather than running off its edge.
func TestChartDrawnAtItsWidth(t *testing.T) {
	t.Parallel()
	for _, w := range []float64{0, 240, 300, 417, 680} {
		c := Chart{Title: "False-positive rate vs the first link's bits per key", XLabel: "keys mapping to a bit (8 = 8 or more) over the whole array", YLabel: "rate",
			Width: w, XMin: 1, XMax: 31, IntX: true, YMin: 0, YMax: 1,
			Series: []Series{{Name: "theory, the cuckoo filter (8-bit fingerprints) at the best k for its size", Class: "theory", Line: true, Points: []Point{{X: 1, Y: 0.5}, {X: 31, Y: 0.2}}}}}
		svg := c.SVG()
		want := w
		if w == 0 {
			want = defaultChartW
		}
		var sw, sh, vw, vh float64
		if _, err := fmt.Sscanf(svg[strings.Index(svg, ` width="`):], ` width="%g" height="%g" viewBox="0 0 %g %g"`, &sw, &sh, &vw, &vh); err != nil {
			t.Fatalf("width %v: %v in %.200s", w, err, svg)
		}
		if sw != want || vw != want || sh != vh {
			t.Errorf("width %v: svg %v x %v, viewBox %v x %v", w, sw, sh, vw, vh)
		}
		// Every text's estimated extent lies inside the chart.
		for _, m := range regexp.MustCompile(`<text class="(chart-title|axis-label|legend|tick)" x="([0-9.]+)"[^>]*?( text-anchor="(middle|end)")?>([^<]*)</text>`).FindAllStringSubmatch(svg, -1) {
			x, _ := strconv.ParseFloat(m[2], 64)
			px := map[string]float64{"chart-title": titlePx, "axis-label": labelPx, "legend": legendPx, "tick": tickPx}[m[1]]
			tw := textW(html.UnescapeString(m[5]), px, m[1] == "chart-title")
			lo, hi := x, x+tw
			switch m[4] {
			case "middle":
				lo, hi = x-tw/2, x+tw/2
			case "end":
				lo, hi = x-tw, x
			}
			if lo < 0 || hi > want {
				t.Errorf("width %v: %s %q runs from %.0f to %.0f", w, m[1], m[5], lo, hi)
			}
		}
	}
}

// TestChartTicksFit: at a phone's width the x axis drops ticks rather
// than letting their labels touch.
func TestChartTicksFit(t *testing.T) {
	t.Parallel()
	for _, w := range []float64{240, 300, 440} {
		for _, c := range []Chart{
			{Width: w, XMin: 0.5, XMax: 64, YMin: 1e-8, YMax: 1, LogY: true},
			{Width: w, XMin: 1000, XMax: 9_000_000},
		} {
			f := c.frame()
			ts, ls := c.xTicks(f, 6)
			if len(ts) == 0 || !f.ticksFit(ts, ls) {
				t.Errorf("width %v: ticks %v do not fit", w, ls)
			}
		}
	}
	f := Chart{Width: 240, XMin: 1000, XMax: 9_000_000}.frame()
	if ts, ls := f.xa.ticks(6); f.ticksFit(ts, ls) {
		t.Errorf("six ticks %v of 7-digit labels fit in 164 px: the test shows nothing", ls)
	}
}

// TestChartOffChart: a value beyond the axes is an arrow at the edge it is
// past, with a tooltip giving the value and where it lies, never a marker
// on the edge; a line leaving the plot stops at its edge; the legend names
// only what is drawn, and the arrows when there are any.
func TestChartOffChart(t *testing.T) {
	t.Parallel()
	c := Chart{XLabel: "k", YLabel: "rate", XMin: 1, XMax: 10, IntX: true, LogY: true, YMin: 1e-8, YMax: 1,
		Series: []Series{
			{Name: "theory", Class: "theory", Line: true, Points: []Point{{X: 1, Y: 0.1}, {X: 2, Y: 1e-6}, {X: 3, Y: 1e-10}, {X: 4, Y: 1e-12}, {X: 5, Y: 1e-7}}},
			{Name: "measured", Class: "measured", Points: []Point{{X: 2, Y: 0.01}, {X: 3, Y: 0}, {X: 40, Y: 0.5}}},
			{Name: "not measured yet", Class: "alt"},
			{Name: "left of the axis", Class: "alt", Line: true, Points: []Point{{X: -3, Y: 0.1}}},
		},
		Marks: []Mark{{X: 5, Label: "in range", Class: "optimum"}, {X: 1732.87, Label: "optimum 1,732.87", Class: "optimum"}},
	}
	svg := c.SVG()
	f := c.frame()
	floor := f.padT + f.ph
	// The measured zero and the point at k = 40: arrows, down at the
	// floor and right at the right edge, with their values.
	for _, want := range []string{
		"measured: 0 at k 3, below the chart (under 1e-08 rate)",
		"measured: 0.5 at k 40, right of the chart (past 10 k)",
		"theory: 1e-10 at k 3 to 1e-12 at k 4, below the chart (under 1e-08 rate)",
		"optimum 1,732.87: 1732.87, right of the chart (past 10 k)",
	} {
		if !strings.Contains(svg, "<title>"+esc(want)+"</title>") {
			t.Errorf("no arrow titled %q in\n%s", want, svg)
		}
	}
	if n := strings.Count(svg, `<path class="off measured"`); n != 2 {
		t.Errorf("%d arrows for measured points, want 2", n)
	}
	// Only the one measured point inside the axes is a dot; none sits on
	// the floor.
	if n := strings.Count(svg, `class="dot measured"`); n != 1+1 { // and the legend's
		t.Errorf("%d measured dots, want 1 and the legend's", n)
	}
	if strings.Contains(svg, "hollow") {
		t.Error("a value off the chart drawn as a hollow marker on the floor")
	}
	// The theory line: down from k = 1 to where it crosses 1e-8 between
	// k = 2 and 3, and back up from the crossing between 4 and 5; never
	// along the floor.
	d := regexp.MustCompile(`<path class="series theory" d="([^"]*)"`).FindStringSubmatch(svg)
	if d == nil {
		t.Fatalf("no theory line in\n%s", svg)
	}
	if got := strings.Count(d[1], "M"); got != 2 {
		t.Errorf("theory line %q in %d pieces, want 2", d[1], got)
	}
	for _, pt := range regexp.MustCompile(`[ML]([0-9.]+) ([0-9.]+)`).FindAllStringSubmatch(d[1], -1) {
		y, _ := strconv.ParseFloat(pt[2], 64)
		if y > floor+0.1 {
			t.Errorf("theory line goes to y %v, under the plot's floor %v", y, floor)
		}
	}
	if n := strings.Count(d[1], fmt.Sprintf(" %.1f", floor)); n != 2 {
		t.Errorf("theory line %q meets the floor %d times, want 2 (leaving, coming back)", d[1], n)
	}
	// The legend: what is drawn, and the arrows.
	for name, want := range map[string]bool{"theory": true, "measured": true, "in range": true, "optimum 1,732.87": true,
		OffChart: true, "not measured yet": false, "left of the axis": false} {
		if got := strings.Contains(svg, ">"+esc(name)+"</text>"); got != want {
			t.Errorf("legend names %q: %v, want %v", name, got, want)
		}
	}
	// Inside the axes, no arrow and no arrow's legend entry.
	in := Chart{XMin: 1, XMax: 10, YMin: 0, YMax: 1, Series: []Series{{Name: "m", Class: "measured", Points: []Point{{X: 2, Y: 0.5}}}}}.SVG()
	if strings.Contains(in, `class="off`) || strings.Contains(in, OffChart) {
		t.Errorf("arrows or their legend on a chart with every value inside:\n%s", in)
	}
}

// benchChart is a chart as the lab draws one: a theory line of 77 points
// on a log axis, two measured series of 20 points with intervals, a point
// off the chart, and a mark.
func benchChart() Chart {
	c := Chart{
		Title: "False-positive rate against k", XLabel: "k, hashes per key", YLabel: "rate (log scale)",
		XMin: 1, XMax: 20, YMin: 1e-4, YMax: 1, LogY: true, IntX: true, Width: 480,
		Marks: []Mark{{X: 10 * math.Ln2, Label: "optimum k = 6.93", Class: "optimum"}},
	}
	theory := Series{Name: "theory", Class: "theory", Line: true}
	for k := 1.0; k <= 20.0001; k += 0.25 {
		theory.Points = append(theory.Points, Point{X: k, Y: math.Pow(-math.Expm1(-k/10), k)})
	}
	c.Series = append(c.Series, theory)
	for i, shape := range []Shape{Circle, Square} {
		s := Series{Name: "measured " + strconv.Itoa(i), Class: "measured", Shape: shape}
		for k := 1.0; k <= 20; k++ {
			y := math.Pow(-math.Expm1(-k/10), k) * (1 + 0.1*float64(i))
			s.Points = append(s.Points, Point{X: k, Y: y, Lo: y * 0.8, Hi: y * 1.2})
		}
		s.Points[19].Y = 0
		c.Series = append(c.Series, s)
	}
	return c
}

func BenchmarkChartSVG(b *testing.B) {
	c := benchChart()
	b.ReportAllocs()
	for b.Loop() {
		c.SVG()
	}
}
