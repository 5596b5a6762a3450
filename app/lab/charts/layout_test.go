package charts

import (
	"math"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/ui"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"
)

// Charts: none against k for the cuckoo filter, which draws its own theory
// against bits per key beside the Bloom filter's; none at all for the fuse
// filter, and the line under them says why.
func TestLayoutCharts(t *testing.T) {
	t.Parallel()
	p := sim.Defaults()
	p.Variant = core.CuckooVariant
	r, err := sim.Run(p)
	if err != nil {
		t.Fatal(err)
	}
	c := layoutBPKChart(r, 10, 0, 0, []ui.Point{{X: 2, Y: 0.03}}, true, 0, Play{})
	if len(c.Series) != 4 || c.Series[0].Name != "theory, cuckoo (auto width)" || len(c.Series[0].Points) != 40 {
		t.Fatalf("cuckoo chart series %+v", c.Series)
	}
	// At 10 bits per key the auto width is 8 bits at 80% load, the run's own.
	for _, pt := range c.Series[0].Points {
		if pt.X == 10 && math.Abs(pt.Y-r.TheoryFPRVariant) > 1e-12 {
			t.Errorf("theory at 10 bits per key %v, the run's %v", pt.Y, r.TheoryFPRVariant)
		}
	}
	if svg := c.SVG(); !strings.Contains(svg, "standard Bloom at the best k") {
		t.Error("the Bloom filter is not drawn beside the cuckoo filter")
	}
	if s := chartStatus(&r, false, false); !strings.HasPrefix(s, "k means nothing to the cuckoo filter (a key has two buckets of four slots)") {
		t.Errorf("cuckoo chart status %q", s)
	}
	p.Variant = core.FuseVariant
	if r, err = sim.Run(p); err != nil {
		t.Fatal(err)
	}
	if s := chartStatus(&r, false, true); s != "No charts: they sweep k and bits per key, and the fuse filter takes neither (a key has three cells; the fuse filter sizes itself from n, about 1.125 n cells of f bits). Its rate depends on its fingerprint bits alone: choose them above." {
		t.Errorf("fuse chart status %q", s)
	}
}
