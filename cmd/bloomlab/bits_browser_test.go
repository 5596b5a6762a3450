//go:build !js

package main

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/lab/painter"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// bitsBox is the bit array as a reader sees it: the picture's box, its
// caption's box and words, and the top of what follows it, in CSS pixels.
type bitsBox struct {
	Picture, Caption [4]float64
	Text             string
	Below            float64
}

// measureBits reads the bit array's boxes once the page has drawn what it
// holds (two animation frames).
const measureBits = `new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; };
  const canvas = document.getElementById("bit-array"), caption = document.getElementById("bit-caption");
  const below = canvas.closest("figure").nextElementSibling;
  done({picture: box(canvas), caption: box(caption), text: caption.innerText.replace(/\s+/g, " ").trim(),
    below: below ? below.getBoundingClientRect().top : -1});
})))`

// TestBrowserBitsBoxSteady: the first view is the live view. With the
// WebAssembly held, the bit array's picture, its caption and what follows
// it are where and as they will be once the lab is live, at a phone's,
// a tablet's and a laptop's width, on the lab (in both type sizes) and in
// the embed: nothing moves and the caption says the same when the lab
// goes live.
func TestBrowserBitsBoxSteady(t *testing.T) {
	needBrowser(t)
	cases := []struct {
		path          string
		width, height int
	}{
		{ui.RouteLab, 360, 800}, {ui.RouteLab, 720, 900}, {ui.RouteLab, 1280, 800},
		{ui.RouteEmbed, 360, 800}, {ui.RouteEmbed, 720, 900},
		// Large type: another wide picture, and a narrower box.
		{ui.RouteLab + "?" + params(settings.IDLarge, "on"), 360, 800}, {ui.RouteLab + "?" + params(settings.IDLarge, "on"), 1280, 800},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s at %d", c.path, c.width), func(t *testing.T) {
			hl := holdLab(t)
			ctx := btab(t, c.width, c.height)
			bdo(t, ctx, chromedp.Navigate(hl.URL+c.path), chromedp.WaitVisible(chromedp.CSS("#bit-array-first")))
			before := beval[bitsBox](t, ctx, measureBits)
			name := strings.NewReplacer("/", "", "?", "-", "=", "-").Replace(c.path)
			shoot(t, ctx, fmt.Sprintf("bits-%s-%d-held", name, c.width))
			hl.Release()
			// The first view goes once the live canvas is painted under it.
			bdo(t, ctx, waitLab(), chromedp.WaitNotPresent(chromedp.CSS("#bit-array-first")))
			after := beval[bitsBox](t, ctx, measureBits)
			shoot(t, ctx, fmt.Sprintf("bits-%s-%d-live", name, c.width))
			t.Logf("picture %v, caption %v, below at %.1f; live: picture %v, caption %v, below at %.1f",
				before.Picture, before.Caption, before.Below, after.Picture, after.Caption, after.Below)
			for i := range 4 {
				if math.Abs(before.Picture[i]-after.Picture[i]) > 0.5 || math.Abs(before.Caption[i]-after.Caption[i]) > 0.5 {
					t.Errorf("the bit array moved as the lab went live: picture %v to %v, caption %v to %v", before.Picture, after.Picture, before.Caption, after.Caption)
					break
				}
			}
			if math.Abs(before.Below-after.Below) > 0.5 {
				t.Errorf("what follows the bit array moved from %.1f to %.1f", before.Below, after.Below)
			}
			if before.Text != after.Text {
				t.Errorf("the caption changed as the lab went live:\n %q\nto\n %q", before.Text, after.Text)
			}
		})
	}
}

// TestBrowserBitsPointer: the cell under the pointer is marked as the
// keyboard's cursor is, in the wide picture and in a phone's narrow one.
func TestBrowserBitsPointer(t *testing.T) {
	needBrowser(t)
	base := labURL(t)
	for _, width := range []int{1280, 360} {
		t.Run(strconv.Itoa(width), func(t *testing.T) {
			ctx := btab(t, width, 900)
			bdo(t, ctx, chromedp.Navigate(base+"/?"+params(settings.IDItems, "30")), waitLab())
			m, err := strconv.ParseUint(strings.ReplaceAll(btext(t, ctx, "#out-m"), ",", ""), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			l := bitsLayout(t, ctx, m)
			if !l.Cells {
				t.Fatalf("m = %d drawn as a density picture", m)
			}
			pos := uint64(l.Cols + 2) // the second row's third cell
			x, y := cellAt(t, ctx, pos)
			col, row := int(pos%uint64(l.Cols)), int(pos/uint64(l.Cols))
			// The canvas's pixels round the cell: its margin is as wide as
			// the picture's.
			around := fmt.Sprintf(`(() => {
  const c = document.getElementById("bit-array"), d = c.getContext("2d").getImageData(%d, %d, %d, %d).data;
  let n = 0;
  for (let i = 0; i < d.length; i += 4) if (d[i] === 0x11 && d[i+1] === 0x11 && d[i+2] === 0x11) n++;
  return n;
})()`, col*l.Cell, row*l.Cell, l.Cell+2*l.Pad, l.Cell+2*l.Pad)
			if n := beval[int](t, ctx, around); n != 0 {
				t.Fatalf("%d cursor pixels round position %d before the pointer came", n, pos)
			}
			bdo(t, ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x, y))
			// The page says the position in the same handler that marks it.
			if said := bwaitText(t, ctx, "#bit-hover", func(s string) bool { return s != "" }); !strings.HasPrefix(said, "bit "+strconv.FormatUint(pos, 10)+" of") {
				t.Errorf("the pointer on position %d: %q", pos, said)
			}
			if got := beval[string](t, ctx, `document.getElementById("bit-array").dataset.cursor ?? ""`); got != strconv.FormatUint(pos, 10) {
				t.Errorf("the pointer on position %d marks %q", pos, got)
			}
			if n := beval[int](t, ctx, around); n == 0 {
				t.Errorf("no cursor drawn round position %d under the pointer", pos)
			}
			shoot(t, ctx, fmt.Sprintf("bits-pointer-%d", width))
		})
	}
}

// bitsLayout is the bit array's layout for m positions at the canvas's
// width, worked out here as the page must (painter.Fitted), at 1x.
func bitsLayout(t *testing.T, ctx context.Context, m uint64) painter.Layout {
	t.Helper()
	w := beval[float64](t, ctx, `document.getElementById("bit-array").getBoundingClientRect().width`)
	return painter.Fitted(m, 1, w < painter.NarrowBelow, false, 1)
}

// cellAt is where in the window, in CSS pixels, the bit array draws
// position pos, the canvas scrolled to the middle of the window: the
// centre of its cell.
func cellAt(t *testing.T, ctx context.Context, pos uint64) (x, y float64) {
	t.Helper()
	m, err := strconv.ParseUint(strings.ReplaceAll(btext(t, ctx, "#out-m"), ",", ""), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	r := beval[[]float64](t, ctx, `(() => { const c = document.getElementById("bit-array"); c.scrollIntoView({block: "center"}); const r = c.getBoundingClientRect(); return [r.left, r.top, r.width]; })()`)
	l := bitsLayout(t, ctx, m)
	if !l.Cells {
		t.Fatalf("m = %d drawn as a density picture: no cell to point at", m)
	}
	zoom := r[2] / float64(l.W)
	col, row := float64(pos%uint64(l.Cols)), float64(pos/uint64(l.Cols))
	return r[0] + (float64(l.Pad)+(col+0.5)*float64(l.Cell))*zoom, r[1] + (float64(l.Pad)+(row+0.5)*float64(l.Cell))*zoom
}

// TestBrowserBitsTab: Tab goes into the bit array and, the next press,
// out of it: the picture keeps only the keys that move its cursor.
func TestBrowserBitsTab(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/"), waitLab())
	// The element before the picture in the tab order.
	beval[bool](t, ctx, `(() => {
  const all = [...document.querySelectorAll("a[href], button, input, select, textarea, [tabindex]")]
    .filter((e) => !e.disabled && e.tabIndex >= 0 && e.getClientRects().length > 0);
  all[all.indexOf(document.getElementById("bit-array")) - 1].focus();
  return true;
})()`)
	active := func() string {
		return beval[string](t, ctx, `document.activeElement.id || document.activeElement.tagName`)
	}
	bdo(t, ctx, chromedp.KeyEvent("\t"))
	if got := active(); got != "bit-array" {
		t.Fatalf("Tab from the element before the bit array went to %q", got)
	}
	bdo(t, ctx, chromedp.KeyEvent("\t"))
	if got := active(); got == "bit-array" {
		t.Errorf("a second Tab stays on the bit array")
	}
}
