package lab

import (
	"testing"

	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"
)

// The glance shows the counters' own figures for every layout: the fill,
// or a table's load where the layout has no fill, and the two rates.
func TestGlanceRows(t *testing.T) {
	t.Parallel()
	for _, v := range core.Variants {
		p := sim.Defaults()
		p.Variant, p.Items, p.Queries = v, 300, 600
		r, err := sim.Run(p)
		if err != nil {
			t.Fatalf("%s: %v", v.Name(), err)
		}
		cs := labCounters(theoryOf(p), v, 0, &r)
		rows := glanceRows(cs)
		if len(rows) != 3 || rows[0].id != "glance-fill" || rows[1].id != "glance-theory" || rows[2].id != "glance-measured" {
			t.Fatalf("%s: the glance shows %+v", v.Name(), rows)
		}
		fill := counterList(cs).at("out-fill")
		if fill.hidden {
			fill = counterList(cs).at("load")
		}
		for i, from := range []*counter{fill, counterList(cs).at("out-fpr-theory"), counterList(cs).at("out-fpr-empirical")} {
			if rows[i].value != from.value || rows[i].label != from.label || from.hidden {
				t.Errorf("%s: the glance's %s = %s %q, the counters' %s = %s %q", v.Name(), rows[i].id, rows[i].label, rows[i].value, from.id, from.label, from.value)
			}
		}
	}
}

// The glance's picture fits its strip, from a handful of cells to a
// density picture of the largest filters, at one and two device pixels a
// CSS pixel.
func TestGlanceLayout(t *testing.T) {
	t.Parallel()
	for _, m := range []uint64{1, 10, 64, 100, 256, 1000, 4000, 40_000, 1 << 30, core.MaxM} {
		for _, w := range []int{200, 310, 690} {
			for _, scale := range []float64{1, 2} {
				for _, group := range []int{1, 4} {
					l := glanceLayout(m, w, scale, group)
					if l.H > int(glanceCSSH*scale) || l.W != int(float64(w)*scale) || l.H <= 0 {
						t.Errorf("m %d across %d px at %gx, groups of %d: %d x %d device pixels, the strip %d x %d",
							m, w, scale, group, l.W, l.H, int(float64(w)*scale), int(glanceCSSH*scale))
					}
				}
			}
		}
	}
}
