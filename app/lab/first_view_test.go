package lab

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/png"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/lab/painter"
	"github.com/bloomlab/bloomlab/app/settings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
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
	for _, narrow := range []bool{false, true} {
		picture := fv.Wide
		if narrow {
			picture = fv.Narrow
		}
		b, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(picture, "data:image/png;base64,"))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := img.(*image.Paletted); !ok {
			t.Errorf("the picture is a %T, not paletted", img)
		}
		l := painter.Fitted(c.result.M, c.bits.store.Group, narrow, false, 1)
		var p painter.Frame
		want := p.Render(c.bits.store, nil, l, c.bits.marks(c.result, painter.Marks{}), 1)
		if bb := img.Bounds(); bb.Dx() != l.W || bb.Dy() != l.H {
			t.Fatalf("narrow %v: picture %v for a %d x %d layout", narrow, bb, l.W, l.H)
		}
		for y := range l.H {
			for x := range l.W {
				r, g, bl, a := img.At(x, y).RGBA()
				i := (y*l.W + x) * 4
				if got := [4]byte{byte(r >> 8), byte(g >> 8), byte(bl >> 8), byte(a >> 8)}; !bytes.Equal(got[:], want[i:i+4]) {
					t.Fatalf("narrow %v: pixel (%d, %d) = %v, want %v", narrow, x, y, got, want[i:i+4])
				}
			}
		}
	}
	if len(fv.K) == 0 || len(fv.BPK) == 0 {
		t.Errorf("first view measured %d and %d chart points", len(fv.K), len(fv.BPK))
	}
	// The view travels as an attribute and comes back whole.
	var back firstView
	if raw, err := base64.StdEncoding.DecodeString(fv.encode()); err != nil || json.Unmarshal(raw, &back) != nil || back.Key != fv.Key || len(back.K) != len(fv.K) {
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

// A fresh link that finds the prerender budget full is served at once
// with its controls and without a first view, the page saying its run
// starts when the lab is live; a link whose view is kept needs no slot,
// and the slot, once free, serves the next fresh link. The budget is held
// full by a first view stopped halfway (prerenderHeld), never by timing.
func TestPrerenderBudget(t *testing.T) {
	LimitPrerenders(1)
	t.Cleanup(func() { prerenders, prerenderHeld = nil, nil })
	page := func(seed uint64) *Page {
		c := New()
		c.settings = settings.DefaultLab()
		c.settings.Params.Seed = seed
		c.setTheory()
		return c
	}
	kept := page(4_242_000)
	kept.prerender()
	if kept.bits.first == nil {
		t.Fatal("the budget's one slot was free, yet no first view")
	}
	entered, release := make(chan struct{}), make(chan struct{})
	prerenderHeld = func() {
		close(entered)
		<-release
	}
	held, done := page(4_242_001), make(chan struct{})
	go func() {
		defer close(done)
		held.prerender()
	}()
	<-entered

	busy := page(4_242_002)
	busy.prerender()
	if busy.bits.first != nil || busy.result != nil || !busy.deferred {
		t.Fatal("a fresh link was prerendered with the budget full")
	}
	e := app.NewTestEngine()
	if err := e.Load(busy); err != nil {
		t.Fatal(err)
	}
	html := app.HTMLString(busy)
	for _, want := range []string{`id="` + idStartsLive + `"`, "The server is busy", `id="` + settings.IDItems + `"`, `id="` + settings.IDSeed + `"`, `data-state="prerendered"`} {
		if !strings.Contains(html, want) {
			t.Errorf("the page served with the budget full lacks %q", want)
		}
	}
	if strings.Contains(html, idBitArrayFirst) {
		t.Error("the page served with the budget full has a first view")
	}
	again := page(4_242_000)
	again.prerender()
	if again.bits.first == nil {
		t.Error("a link whose view is kept was refused with the budget full")
	}

	close(release)
	<-done
	prerenderHeld = nil
	if held.bits.first == nil {
		t.Error("the held prerender ended without its first view")
	}
	next := page(4_242_003)
	next.prerender()
	if next.bits.first == nil || next.deferred {
		t.Error("the slot, freed, did not serve the next fresh link")
	}
}

// A picture of more colours than a palette holds goes as it is, every
// pixel kept.
func TestPNGPastPalette(t *testing.T) {
	t.Parallel()
	const w, h = 30, 20 // 600 colours
	pix := make([]byte, 4*w*h)
	for i := range w * h {
		pix[4*i], pix[4*i+1], pix[4*i+2], pix[4*i+3] = byte(i), byte(i>>8), 7, 255
	}
	b, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(pngDataURL(pix, w, h), "data:image/png;base64,"))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	for i := range w * h {
		r, g, bl, a := img.At(i%w, i/w).RGBA()
		if got := [4]byte{byte(r >> 8), byte(g >> 8), byte(bl >> 8), byte(a >> 8)}; !bytes.Equal(got[:], pix[4*i:4*i+4]) {
			t.Fatalf("pixel %d = %v, want %v", i, got, pix[4*i:4*i+4])
		}
	}
}
