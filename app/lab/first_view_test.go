package lab

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image/png"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/lab/painter"
	"github.com/bloomlab/bloomlab/app/settings"
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
	l := painter.LayoutOf(c.result.M, firstViewWidth, painter.AreaCSSH, 1, c.bits.store.Group)
	var p painter.Frame
	want := p.Render(c.bits.store, nil, l, c.bits.marks(c.result, painter.Marks{}), 1)
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
		one := painter.LayoutOf(m, 852, painter.AreaCSSH, 1, 4)
		for _, scale := range []float64{1.5, 1.75, 2, 3} {
			l := painter.LayoutOf(m, 852, painter.AreaCSSH, scale, 4)
			if l.Cells != one.Cells || l.Cols != one.Cols || l.Rows != one.Rows {
				t.Errorf("m = %d at %vx: %v cells, %d x %d; at 1x %v, %d x %d", m, scale, l.Cells, l.Cols, l.Rows, one.Cells, one.Cols, one.Rows)
			}
			if scale == 2 && l.H != 2*one.H {
				t.Errorf("m = %d at 2x: %d px tall, at 1x %d", m, l.H, one.H)
			}
		}
	}
}
