package charts

import (
	"encoding/xml"
	"html"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/ui"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"
)

// TestChartSVG checks the charts are well-formed SVG with axes, labels and
// a legend entry per series, whatever the data.
func TestChartSVG(t *testing.T) {
	t.Parallel()
	r, err := sim.Run(sim.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	zero := r
	zero.AbsentQueries, zero.EmpiricalFPR = 0, 0
	cases := map[string]ui.Chart{
		"k":              kChart(r, []ui.Point{{X: 1, Y: 0.1}, {X: 2}, {X: 3, Y: 0.02}}, true, 0),
		"k narrow":       kChart(r, nil, false, 340),
		"bpk":            bpkChart(r, 10, []ui.Point{{X: 2, Y: 0.3}, {X: 4}}, false, 0),
		"no queries":     kChart(zero, nil, false, 0),
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
				if !strings.Contains(svg, ">"+html.EscapeString(s.Name)+"</text>") {
					t.Errorf("legend lacks %q", s.Name)
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
	c := chainKChart(r, p, nil, false, 0)
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
