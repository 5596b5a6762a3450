package painter

import (
	"testing"

	"github.com/bloomlab/bloomlab/app/engine"
	"github.com/bloomlab/bloomlab/core/sim"
)

// The picture: each cell its colour, a white pixel between cells big
// enough for one, the marks around their positions, nothing else.
func TestPictureRender(t *testing.T) {
	t.Parallel()
	p := sim.Defaults()
	p.Items, p.Queries = 40, 40
	r, err := sim.Run(p)
	if err != nil {
		t.Fatal(err)
	}
	store := engine.StoreOf(r.Filter)
	l := LayoutOf(r.M, 400, AreaCSSH, 1, 1)
	if !l.Cells || l.Cell < 5 {
		t.Fatalf("layout %+v: want cells with gaps", l)
	}
	var pic Frame
	pix := pic.Render(store, nil, l, Marks{}, 1)
	at := func(x, y int) [4]byte { var c [4]byte; copy(c[:], pix[(y*l.W+x)*4:]); return c }
	for pos := uint64(0); pos < r.M; pos++ {
		x, y := l.Pad+int(pos%uint64(l.Cols))*l.Cell, l.Pad+int(pos/uint64(l.Cols))*l.Cell
		if set := at(x+l.Cell/2, y+l.Cell/2)[0] < 0x80; set != r.Filter.IsSet(pos) {
			t.Fatalf("position %d drawn set = %v", pos, set)
		}
		if g := at(x+l.Cell-1, y+1); g != white {
			t.Fatalf("position %d: no gap on its right, %v", pos, g)
		}
		if g := at(x+1, y+l.Cell-1); g != white {
			t.Fatalf("position %d: no gap under it, %v", pos, g)
		}
	}
	pix = pic.Render(store, nil, l, Marks{Ring: []uint64{0}, Box: []uint64{r.M - 1}}, 1)
	// The ring round position 0 and the box round the last one.
	cx, cy, rad, _ := l.centre(0)
	ringR := max(rad+1, 5)
	if got := at(int(cx+ringR), int(cy)); got != rgbRing {
		t.Errorf("no ring at (%v, %v): %v", cx+ringR, cy, got)
	}
	bx, by, brad, _ := l.centre(r.M - 1)
	boxR := max(brad+2, 7)
	if got := at(int(bx-boxR), int(by)); got != rgbBox {
		t.Errorf("no box at (%v, %v): %v", bx-boxR, by, got)
	}
}
