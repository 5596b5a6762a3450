package charts

import (
	"encoding/xml"
	"math"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"
)

// TestEstimateChart: the chart of the lab's default filter marks its
// fill and its estimate's error, as core estimates it from the filter
// itself; its bands are core's spread at each fill, the two SD band twice
// the one SD band; it is well-formed SVG; a layout without an estimate
// has nothing to draw.
func TestEstimateChart(t *testing.T) {
	t.Parallel()
	r, err := sim.Run(sim.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	e, err := core.EstimateKeys(r.Filter)
	if err != nil {
		t.Fatal(err)
	}
	c := EstimateChart(r.Variant, r.K, Filled{M: r.M, X: r.SetBits, N: r.N}, 0)
	if len(c.Series) != 3 || len(c.Marks) != 1 {
		t.Fatalf("%d series and %d marks, want the two bands and this filter, and its line", len(c.Series), len(c.Marks))
	}
	here := c.Series[2].Points[0]
	want := 100 * (e.N - float64(r.N)) / float64(r.N)
	if fill := float64(r.SetBits) / float64(r.M); here.X != fill || c.Marks[0].X != fill || math.Abs(here.Y-want) > 1e-9 {
		t.Errorf("this filter at (%v, %v), line at %v; want fill %v, error %v%%", here.X, here.Y, c.Marks[0].X, fill, want)
	}
	if sd := 100 * e.SD / float64(r.N); math.Abs(here.Hi-here.Y-2*sd) > 1e-9 {
		t.Errorf("this filter's interval reaches %v above it, want 2 SD = %v", here.Hi-here.Y, 2*sd)
	}
	two, one := c.Series[0].Points, c.Series[1].Points
	for i := range len(two) / 2 {
		f := two[i].X
		at, err := r.Variant.EstimateFrom(r.M, r.K, uint64(math.Round(f*float64(r.M))))
		if err != nil {
			t.Fatal(err)
		}
		if rel := 100 * at.SD / at.N; math.Abs(one[i].Y-rel) > 1e-9 || math.Abs(two[i].Y-2*rel) > 1e-9 || two[len(two)-1-i].Y != -two[i].Y {
			t.Errorf("fill %v: bands %v and %v, want %v and twice it, mirrored below", f, one[i].Y, two[i].Y, rel)
		}
	}
	if c.YMax < two[len(two)/2-1].Y || c.YMin != -c.YMax {
		t.Errorf("axis %v to %v leaves out the band's %v", c.YMin, c.YMax, two[len(two)/2-1].Y)
	}
	dec := xml.NewDecoder(strings.NewReader(c.SVG()))
	for {
		if _, err := dec.Token(); err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("not well-formed: %v", err)
			}
			break
		}
	}
	for _, s := range EstimateChart(core.CuckooVariant, 2, Filled{M: 1000, X: 100, N: 50}, 0).Series {
		if len(s.Points) > 0 {
			t.Errorf("cuckoo: series %q has points", s.Name)
		}
	}
}
