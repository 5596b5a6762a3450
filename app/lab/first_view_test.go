package lab

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image/png"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/engine"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/core"
)

// The first view's picture is the picture the canvas gets: the same
// pixels, decoded from the PNG the server sends.
func TestFirstViewPicture(t *testing.T) {
	c := New()
	c.settings = settings.DefaultLab()
	c.setTheory()
	c.prerender()
	fv := c.bits.first
	if fv == nil || c.result == nil {
		t.Fatal("the default settings get no first view")
	}
	b, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(fv.Picture, "data:image/png;base64,"))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	l := layoutBits(c.result.M, firstViewWidth, bitAreaCSSH, 1, c.bits.store.Group)
	var p picture
	want := p.render(c.bits.store, nil, l, c.bits.marks(c.result, bitMarks{}), 1)
	if bb := img.Bounds(); bb.Dx() != l.W || bb.Dy() != l.H || fv.CSSH != l.H {
		t.Fatalf("picture %v, CSS height %d, for a %d x %d layout", bb, fv.CSSH, l.W, l.H)
	}
	for y := range l.H {
		for x := range l.W {
			r, g, bl, a := img.At(x, y).RGBA()
			i := (y*l.W + x) * 4
			if got := [4]byte{byte(r >> 8), byte(g >> 8), byte(bl >> 8), byte(a >> 8)}; !bytes.Equal(got[:], want[i:i+4]) {
				t.Fatalf("pixel (%d, %d) = %v, want %v", x, y, got, want[i:i+4])
			}
		}
	}
	if len(fv.K) == 0 || len(fv.BPK) == 0 {
		t.Errorf("first view measured %d and %d chart points", len(fv.K), len(fv.BPK))
	}
	// The view travels as an attribute and comes back whole.
	var back firstView
	if raw, err := base64.StdEncoding.DecodeString(fv.encode()); err != nil || json.Unmarshal(raw, &back) != nil || back.Key != fv.Key || len(back.K) != len(fv.K) || back.CSSH != fv.CSSH {
		t.Errorf("the view's attribute reads back as %+v (%v)", back, err)
	}
}

// The prerender does what the page does in a frame and no more: a link
// with a larger run gets no first view, and the views kept are bounded.
func TestFirstViewBounded(t *testing.T) {
	s := settings.DefaultLab()
	s.Params.Items = 1_000_000
	c := New()
	c.settings = s
	c.prerender()
	if c.result != nil || c.bits.first != nil {
		t.Error("a run of a million keys was prerendered")
	}
	for seed := range uint64(firstViewsKept + 8) {
		c := New()
		c.settings = settings.DefaultLab()
		c.settings.Params.Seed = seed + 100
		c.settings.Params.Items = 200
		c.prerender()
		if c.bits.first == nil {
			t.Fatalf("seed %d: no first view", seed)
		}
	}
	firstViews.Lock()
	defer firstViews.Unlock()
	if len(firstViews.views) > firstViewsKept || len(firstViews.keys) != len(firstViews.views) {
		t.Errorf("%d views kept under %d keys, at most %d", len(firstViews.views), len(firstViews.keys), firstViewsKept)
	}
}

// Every screen shows the same grid: the device pixel ratio makes the
// picture sharper, never different.
func TestLayoutSameAtEveryScale(t *testing.T) {
	t.Parallel()
	for _, m := range []uint64{60, 40_000, 130_000, 5_000_000} {
		one := layoutBits(m, 852, bitAreaCSSH, 1, 4)
		for _, scale := range []float64{1.5, 1.75, 2, 3} {
			l := layoutBits(m, 852, bitAreaCSSH, scale, 4)
			if l.Cells != one.Cells || l.Cols != one.Cols || l.Rows != one.Rows {
				t.Errorf("m = %d at %vx: %v cells, %d x %d; at 1x %v, %d x %d", m, scale, l.Cells, l.Cols, l.Rows, one.Cells, one.Cols, one.Rows)
			}
			if scale == 2 && l.H != 2*one.H {
				t.Errorf("m = %d at 2x: %d px tall, at 1x %d", m, l.H, one.H)
			}
		}
	}
}

// The picture: each cell its colour, a white pixel between cells big
// enough for one, the marks around their positions, nothing else.
func TestPictureRender(t *testing.T) {
	t.Parallel()
	p := core.DefaultParams()
	p.Items, p.Queries = 40, 40
	r, err := core.Simulate(p)
	if err != nil {
		t.Fatal(err)
	}
	store := engine.StoreOf(r.Filter)
	l := layoutBits(r.M, 400, bitAreaCSSH, 1, 1)
	if !l.Cells || l.Cell < 5 {
		t.Fatalf("layout %+v: want cells with gaps", l)
	}
	var pic picture
	pix := pic.render(store, nil, l, bitMarks{}, 1)
	at := func(x, y int) [4]byte { var c [4]byte; copy(c[:], pix[(y*l.W+x)*4:]); return c }
	for pos := uint64(0); pos < r.M; pos++ {
		x, y := int(pos%uint64(l.Cols))*l.Cell, int(pos/uint64(l.Cols))*l.Cell
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
	pix = pic.render(store, nil, l, bitMarks{Ring: []uint64{0}, Box: []uint64{r.M - 1}}, 1)
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
