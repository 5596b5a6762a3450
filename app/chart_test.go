package app

import (
	"encoding/xml"
	"strings"
	"testing"

	"bloomlab/app/ui/format"
	"bloomlab/core"
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
	cases := map[string]Chart{
		"k":              kChart(r, []Point{{1, 0.1}, {2, 0}, {3, 0.02}}, true, 0),
		"k narrow":       kChart(r, nil, false, 340),
		"bpk":            bpkChart(r, 10, []Point{{2, 0.3}, {4, 0}}, false, 0),
		"no queries":     kChart(zero, nil, false, 0),
		"empty":          {},
		"degenerate log": {LogY: true, YMin: 0, YMax: 0, Series: []Series{{Name: "x", Line: true, Points: []Point{{0, 0}}}}},
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
				if !strings.Contains(svg, ">"+esc(s.Name)+"</text>") {
					t.Errorf("legend lacks %q", s.Name)
				}
			}
			if c.XLabel != "" && !strings.Contains(svg, esc(c.XLabel)) {
				t.Errorf("no x axis label %q", c.XLabel)
			}
			if strings.Contains(svg, "NaN") || strings.Contains(svg, "Inf") {
				t.Errorf("SVG holds NaN or Inf:\n%s", svg)
			}
		})
	}
}

func TestTicks(t *testing.T) {
	t.Parallel()
	if got := intTicks(1, 15, 8); got[0] != 1 || got[1] != 3 {
		t.Errorf("intTicks(1, 15) = %v", got)
	}
	for _, c := range []struct {
		v    float64
		want string
	}{{1, "1"}, {0.1, "0.1"}, {0.001, "0.001"}, {1e-4, "1e-4"}, {1e-7, "1e-7"}} {
		if got := formatTick(c.v); got != c.want {
			t.Errorf("formatTick(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}

func TestFormat(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ got, want string }{
		{format.Int(40000), "40,000"}, {format.Int(999), "999"}, {format.Int(1000), "1,000"}, {format.Int(1234567), "1,234,567"},
		{format.Rate(0.008194), "0.008194"}, {format.Rate(0), "0"}, {format.Rate(0.1), "0.1"}, {format.Rate(0.00005), "5.0e-05"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
