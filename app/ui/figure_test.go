//go:build !js

package ui

import (
	"encoding/csv"
	"strings"
	"testing"
)

// figureChart is a chart as the lab draws one: a theory line, measured
// points (one of them a zero, off the log axis), a ringed point and a mark.
func figureChart() Chart {
	return Chart{
		Title: "False-positive rate vs hash probes k", XLabel: "hash probes k", YLabel: "false-positive rate",
		XMin: 1, XMax: 8, IntX: true, LogY: true, YMin: 1e-4, YMax: 1, Width: 400,
		Series: []Series{
			{Name: "theory", Class: "theory", Line: true, Points: []Point{{X: 1, Y: 0.1}, {X: 4, Y: 0.01}, {X: 8, Y: 0.02}}},
			{Name: "measured, n sampled to 5,000", Class: "measured", Points: []Point{{X: 1, Y: 0.11}, {X: 4, Y: 0.012}, {X: 8, Y: 0}}},
			{Name: "this run", Class: "current", Points: []Point{{X: 3, Y: 0.015}}},
		},
		Marks: []Mark{{X: 4.2, Label: "optimum (m/n) ln 2 = 4.16", Class: "optimum"}},
	}
}

const figureLink = "https://example.org/lab?bits-per-key=6&hashes=3"

// TestChartFigure: the figure parses as XML, carries its own style (no
// class left without one, no style sheet), its title holds the link, and it
// holds every measured point and line; the ringed point keeps its radius.
func TestChartFigure(t *testing.T) {
	t.Parallel()
	c := figureChart()
	for _, large := range []bool{false, true} {
		svg := c.Figure(figureLink, large)
		if err := CheckFigure(svg, c, figureLink); err != nil {
			t.Fatalf("large %v: %v\n%s", large, err, svg)
		}
		if !strings.HasPrefix(svg, `<svg width="400" `) {
			t.Errorf("large %v: the figure is not drawn 400 px wide: %.80s", large, svg)
		}
		if !strings.Contains(svg, `font-family="system-ui,`) || !strings.Contains(svg, `sans-serif"`) {
			t.Errorf("large %v: no font named with fallbacks", large)
		}
		if !strings.Contains(svg, `class="dot current" style="stroke-width:2;fill:none;stroke:#1b2333;stroke-width:2.5" cx`) || !strings.Contains(svg, `r="7"`) {
			t.Errorf("large %v: the ringed point lost its style or its radius", large)
		}
	}
	// Large type draws the chart narrower under the same width: its text
	// is larger beside the plot.
	if small, large := c.Figure("", false), c.Figure("", true); !strings.Contains(small, `viewBox="0 0 400 `) || !strings.Contains(large, `viewBox="0 0 296 `) {
		t.Errorf("large type does not scale the drawing up:\n%.120s\n%.120s", small, large)
	}
}

// TestCheckFigureFails: the check finds a point missing, a class without
// its style, a title without the link and a figure that is not XML.
func TestCheckFigureFails(t *testing.T) {
	t.Parallel()
	c := figureChart()
	good := c.Figure(figureLink, false)
	for name, bad := range map[string]string{
		"a point missing": strings.Replace(good, "measured, n sampled to 5,000: 0.012", "measured: 0.012", 1),
		"a bare class":    strings.Replace(good, `class="tick" style="font-size:12px;fill:#5a6478"`, `class="tick"`, 1),
		"no link":         strings.Replace(good, "bits-per-key=6&amp;hashes=3", "", 1),
		"not XML":         strings.TrimSuffix(good, "</svg>"),
		"a style sheet":   strings.Replace(good, "</svg>", "<style>.tick{}</style></svg>", 1),
		"the page's SVG":  c.SVG(),
	} {
		if err := CheckFigure(bad, c, figureLink); err == nil {
			t.Errorf("%s: the check passed", name)
		}
	}
}

// TestChartCSV: a row for every point and mark, the names quoted where
// they hold a comma.
func TestChartCSV(t *testing.T) {
	t.Parallel()
	rows, err := csv.NewReader(strings.NewReader(figureChart().CSV())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1+3+3+1+1 {
		t.Fatalf("%d rows, want 9: %q", len(rows), rows)
	}
	if got := strings.Join(rows[4], "|"); got != "measured, n sampled to 5,000|points|1|0.11||" {
		t.Errorf("row 4 = %q", got)
	}
	if got := strings.Join(rows[8], "|"); got != "optimum (m/n) ln 2 = 4.16|mark|4.2|||" {
		t.Errorf("the mark's row = %q", got)
	}
}

// TestPictureFigure: the picture's figure parses, names its link, and
// holds its image and caption.
func TestPictureFigure(t *testing.T) {
	t.Parallel()
	p := Picture{Title: "The bit array", Image: "data:image/png;base64,AAAA", W: 300, H: 120,
		Caption: []string{"Every bit of the 1,000 drawn as a square, dark if set.", "◯ ringed: set by the last key inserted."}}
	svg := p.Figure(figureLink, false)
	if err := CheckFigure(svg, Chart{}, figureLink); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`href="data:image/png;base64,AAAA"`, "1,000 drawn", "ringed", `width="320"`} {
		if !strings.Contains(svg, want) {
			t.Errorf("no %q in %s", want, svg)
		}
	}
}
