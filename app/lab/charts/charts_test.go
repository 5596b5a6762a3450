package charts

import (
	"encoding/xml"
	"html"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/ui"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// TestChartSVG checks the charts are well-formed SVG with axes, labels and
// a legend entry per series drawn (none for a series without points),
// whatever the data.
func TestChartSVG(t *testing.T) {
	t.Parallel()
	r, err := sim.Run(sim.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	zero := r
	zero.AbsentQueries, zero.EmpiricalFPR = 0, 0
	cases := map[string]ui.Chart{
		"k":              kChart(r, []ui.Point{{X: 1, Y: 0.1}, {X: 2}, {X: 3, Y: 0.02}}, true, 0, Play{}),
		"k narrow":       kChart(r, nil, false, 340, Play{}),
		"bpk":            bpkChart(r, 10, []ui.Point{{X: 2, Y: 0.3}, {X: 4}}, false, 0, Play{}),
		"no queries":     kChart(zero, nil, false, 0, Play{}),
		"empty":          {},
		"degenerate log": {LogY: true, YMin: 0, YMax: 0, Series: []ui.Series{{Name: "x", Line: true, Points: []ui.Point{{}}}}},
		"categories": {Title: "t", XLabel: "scheme", YLabel: "rate", Categories: []string{"a", "b"}, YMax: 1, TitleAbove: true,
			Series: []ui.Series{{Name: "measured", Class: "measured", Shape: ui.Diamond, Points: []ui.Point{{X: 0, Y: 0.5, Lo: 0.4, Hi: 0.6}, {X: 1, Y: 0.2}}}}},
		"log x": {LogX: true, XMin: 0, XMax: 0, LogY: true, YMin: 1e-3, YMax: 1,
			Series: []ui.Series{{Name: "m", Class: "g1", Shape: ui.Square, Points: []ui.Point{{X: 0, Y: 0}, {X: 10, Y: 0.1, Lo: 0.01, Hi: 0.2}}}}},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			svg := c.SVG()
			dec := xml.NewDecoder(strings.NewReader(svg))
			for {
				_, err := dec.Token()
				if err != nil {
					if err.Error() != "EOF" {
						t.Fatalf("not well-formed: %v\n%s", err, svg)
					}
					break
				}
			}
			for _, s := range c.Series {
				if in := strings.Contains(svg, ">"+html.EscapeString(s.Name)+"</text>"); in != (len(s.Points) > 0) {
					t.Errorf("legend names %q: %v, with %d points", s.Name, in, len(s.Points))
				}
			}
			if c.XLabel != "" && !strings.Contains(svg, html.EscapeString(c.XLabel)) {
				t.Errorf("no x axis label %q", c.XLabel)
			}
			if strings.Contains(svg, "NaN") || strings.Contains(svg, "Inf") {
				t.Errorf("SVG holds NaN or Inf:\n%s", svg)
			}
		})
	}
}

// A scalable chain's chart against k sweeps its first link's k: the theory
// at the design's k is the chain's own prediction for its n keys, and this
// run sits at that k, not at the sum of its links'.
func TestChainKChart(t *testing.T) {
	t.Parallel()
	p := sim.Defaults()
	p.Variant = core.ScalableVariant
	r, err := sim.Run(p)
	if err != nil {
		t.Fatal(err)
	}
	c := chainKChart(r, p, nil, false, 0, Play{})
	f, _ := p.Variant.Build(core.Spec{M: 40000, K: 7, N: 4000, Seed: 1})
	want := p.Variant.Theory(f, 4000).Rate
	theory, run := c.Series[0].Points, c.Series[len(c.Series)-1].Points
	if c.XMax < 12 || c.XMax > 20 || theory[6].X != 7 || theory[6].Y != want || run[0].X != 7 || run[0].Y != r.EmpiricalFPR {
		t.Errorf("k axis to %v, theory at k = %v: %v (want %v), this run at %v", c.XMax, theory[6].X, theory[6].Y, want, run[0])
	}
	if theory[0].Y <= theory[6].Y || c.XLabel != "the first link's hash probes k" {
		t.Errorf("theory at k = 1 %v, at 7 %v; x label %q", theory[0].Y, theory[6].Y, c.XLabel)
	}
}

// TestChartsAtAStop: at a stop of the player both charts keep the axes of
// the filter with every key in (the stop is the same m and k with fewer
// keys), the stop's own theory and point join them, its point against bits
// per key off the chart to the right while few keys are in, and the line
// under the charts says whether the player is playing or stopped.
func TestChartsAtAStop(t *testing.T) {
	t.Parallel()
	p := sim.Defaults()
	full, err := sim.Run(p)
	if err != nil {
		t.Fatal(err)
	}
	stop, err := sim.Run(p.At(5))
	if err != nil {
		t.Fatal(err)
	}
	play := Play{At: 5, Of: p.Items, Running: true}
	k0, k1 := kChart(full, nil, false, 300, Play{}), kChart(stop, nil, false, 300, play)
	b0, b1 := bpkChart(full, p.BitsPerKey, nil, false, 300, Play{}), bpkChart(stop, p.BitsPerKey, nil, false, 300, play)
	for _, c := range [][2]ui.Chart{{k0, k1}, {b0, b1}} {
		if c[0].XMin != c[1].XMin || c[0].XMax != c[1].XMax || c[0].YMin != c[1].YMin || c[0].YMax != c[1].YMax {
			t.Errorf("%s: axes x %v-%v y %v-%v at every key, x %v-%v y %v-%v at the stop", c[0].Title,
				c[0].XMin, c[0].XMax, c[0].YMin, c[0].YMax, c[1].XMin, c[1].XMax, c[1].YMin, c[1].YMax)
		}
		if c[0].Marks[0].X != c[1].Marks[0].X {
			t.Errorf("%s: the line at %v moved to %v", c[0].Title, c[0].Marks[0].X, c[1].Marks[0].X)
		}
	}
	svg := k1.SVG()
	for _, want := range []string{">theory at this stop, n = 5</text>", ">this stop</text>", "this stop: 0 at hash probes k 7, below the chart"} {
		if !strings.Contains(svg, want) {
			t.Errorf("the chart against k at the stop lacks %q", want)
		}
	}
	if strings.Contains(svg, ">measured</text>") {
		t.Error("the legend names measured points the stop does not draw")
	}
	if svg := b1.SVG(); !strings.Contains(svg, "right of the chart") || !strings.Contains(svg, ">this stop, m/n = 8,000</text>") {
		t.Errorf("the chart against bits per key lacks the stop off the chart to the right:\n%s", svg)
	}
	var ch Charts
	for _, c := range []struct {
		play      Play
		want, not string
	}{
		{play, "Playing: 5 of 4,000 keys in", "topped"},
		{Play{At: 5, Of: p.Items}, "Stopped at 5 of 4,000 keys in", "Playing"},
		{Play{Of: p.Items}, "Measured points come from", "stop"},
	} {
		got := ch.status(&stop, false, c.play, true, true)
		if !strings.Contains(got, c.want) || strings.Contains(got, c.not) {
			t.Errorf("%+v: the line says %q, want %q and no %q", c.play, got, c.want, c.not)
		}
	}
	// With one chart shown (the embed's), the line speaks of it alone.
	if got := ch.status(&stop, false, play, true, false); strings.Contains(got, "bits per key") || !strings.Contains(got, "The chart keeps") {
		t.Errorf("under the chart against k alone, the line says %q", got)
	}
}

// TestChartWidthsInTheStyleSheet: every width a chart is drawn at is shown
// by web/lab.css for the boxes from a twentieth narrower than it to a
// twentieth narrower than the next, so no box stretches a drawing by more
// than a third nor shrinks it by more than a twentieth (text drawn at 12
// to 14 px stays within 11 and 18), and a drawing of each width is made.
func TestChartWidthsInTheStyleSheet(t *testing.T) {
	t.Parallel()
	css, err := os.ReadFile("../../../web/lab.css")
	if err != nil {
		t.Fatal(err)
	}
	rules := string(css)
	for i, w := range ChartWidths {
		lo, hi := strconv.FormatFloat(0.95*w, 'f', -1, 64)+"px <= width", ""
		if i == 0 {
			lo = ""
		}
		if i+1 < len(ChartWidths) {
			next := ChartWidths[i+1]
			hi = "width < " + strconv.FormatFloat(0.95*next, 'f', -1, 64) + "px"
			if stretch := 0.95 * next / w; stretch > 18.0/14 {
				t.Errorf("a drawing %v px wide is stretched by up to %.3f: its 14 px title to %.1f px", w, stretch, 14*stretch)
			}
		}
		cond := strings.Trim(lo+" < "+strings.TrimPrefix(hi, "width < "), " <")
		if lo == "" {
			cond = hi
		} else if hi == "" {
			cond = lo
		}
		rule := "@container (" + cond + ") { .chart-fit > .w" + strconv.Itoa(int(w)) + " { display: block; } }"
		if !strings.Contains(rules, rule) {
			t.Errorf("web/lab.css lacks %q", rule)
		}
	}
	svg := fit(func(w float64) ui.Chart { return ui.Chart{Width: w} })
	for _, w := range ChartWidths {
		if !strings.Contains(svg, `<svg class="chart w`+strconv.Itoa(int(w))+`" width="`+strconv.Itoa(int(w))+`"`) {
			t.Errorf("no drawing %v px wide in %.300s", w, svg)
		}
	}
}

// TestChartsHeading: the charts' heading is a level under the lab's
// title: an h2 on the lab's page, an h3 where the lab is a part of a
// lesson under its h2.
func TestChartsHeading(t *testing.T) {
	t.Parallel()
	var ch Charts
	if got := app.HTMLString(ch.heading()); !strings.HasPrefix(got, `<h2 `) || !strings.Contains(got, `id="charts-title"`) {
		t.Errorf("on the lab's page the heading is %s", got)
	}
	ch.InPart = true
	if got := app.HTMLString(ch.heading()); !strings.HasPrefix(got, `<h3 `) || !strings.Contains(got, `id="charts-title"`) {
		t.Errorf("in a lesson the heading is %s", got)
	}
}
