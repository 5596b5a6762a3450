package lab

import (
	"bloomlab/app/ui"
	"bloomlab/core"
	"encoding/xml"
	"html"
	"strings"
	"testing"
)

// TestChartSVG checks the charts are well-formed SVG with axes, labels and
// a legend entry per series, whatever the data.
func TestChartSVG(t *testing.T) {
	t.Parallel()
	r, err := core.Simulate(core.DefaultParams())
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
