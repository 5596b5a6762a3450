package lab

import (
	"strconv"

	"bloomlab/app/engine"
	"bloomlab/app/ui/format"
	"bloomlab/core"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// bitMarks are the positions ringed and boxed on the bit array, and what
// each set is, for the caption ("set by the last key inserted").
type bitMarks struct {
	Ring, Box         []uint64
	RingSays, BoxSays string
}

// labBits is the lab's bit array: the canvas, its caption and the number
// of the position under the pointer.
type labBits struct {
	// canvasW is the canvas's width in CSS pixels, read once per resize:
	// reading it after a change would force a layout.
	canvasW int
	// store is the filter of the page's result, as the picture reads it:
	// the page sets it with the result.
	store engine.BitStore
	// shown, drawn and scale are the last picture's result, layout and
	// device pixel ratio, for the pointer.
	shown *core.Result
	drawn bitLayout
	scale float64
	// overlap, when the overlap view is on and counted, is the keys
	// mapping to each position: the picture and the pointer show it.
	overlap []uint8
	// first is the prerendered page's picture, shown over the canvas
	// until the canvas is painted; firstGone once it is.
	first     *firstView
	firstGone bool
}

// The bit array's elements.
const (
	IDBitArray      = "bit-array"
	IDBitArrayFirst = "bit-array-first"
)

// resized forgets the width, to read it again at the next paint.
func (b *labBits) resized() { b.canvasW = 0 }

// narrow reports a canvas narrower than a phone's landscape width.
func (b *labBits) narrow() bool { return b.canvasW > 0 && b.canvasW < 480 }

// marks are the run's own marks, the last key inserted and the first
// absent query, unless the key panel gives its own (ring or box set).
func (b *labBits) marks(r *core.Result, panel bitMarks) bitMarks {
	_, ring, box := bitCaption(r, b.layout(r))
	m := bitMarks{Ring: r.LastInserted, Box: r.FirstProbed, RingSays: ring, BoxSays: box}
	if panel.Ring != nil {
		m.Ring, m.RingSays = panel.Ring, panel.RingSays
	}
	if panel.Box != nil {
		m.Box, m.BoxSays = panel.Box, panel.BoxSays
	}
	return m
}

// layout is the picture's layout at the canvas's width, in CSS pixels.
func (b *labBits) layout(r *core.Result) bitLayout {
	w := b.canvasW
	if w <= 0 {
		w = 800
	}
	return layoutBits(r.M, w, bitAreaCSSH, 1, b.store.Group)
}

// paint draws r with marks onto the canvas, and reports false when the
// canvas is not in the page yet.
func (b *labBits) paint(r *core.Result, marks bitMarks) bool {
	canvas := app.Window().GetElementByID(IDBitArray)
	if !canvas.Truthy() {
		return false
	}
	if b.first != nil && !b.firstGone {
		// The canvas is painted under the first view's image in this
		// same task: hidden now, the image goes at the next render.
		if img := app.Window().GetElementByID(IDBitArrayFirst); img.Truthy() {
			defer img.Set("hidden", true)
		}
		b.firstGone = true
	}
	if b.canvasW <= 0 {
		b.canvasW = canvas.Get("parentElement").Get("clientWidth").Int()
	}
	b.scale = app.Window().Get("devicePixelRatio").Float()
	b.drawn = bitPainter.draw(canvas, b.store, b.overlap, marks, b.canvasW)
	b.shown = r
	return true
}

// onHover names the position under the pointer where every position is
// drawn as a cell. It writes the page itself: a render of the whole lab on
// every pointer move would be far too slow.
func (b *labBits) onHover(ctx app.Context, e app.Event) {
	out, r := app.Window().GetElementByID("bit-hover"), b.shown
	if !out.Truthy() || r == nil {
		return
	}
	scale := b.scale
	if !(scale >= 1) {
		scale = 1
	}
	pos, ok := b.drawn.at(e.Get("offsetX").Float()*scale, e.Get("offsetY").Float()*scale)
	if !ok {
		out.Set("textContent", "")
		return
	}
	state := "off"
	if v := b.store.Value(pos); v > 0 {
		state = "on"
		if unit := r.Variant.Unit(); unit != "bit" {
			state = "holds " + strconv.FormatUint(v, 10)
		}
	}
	if pos < uint64(len(b.overlap)) {
		n := int(b.overlap[pos])
		state += ", " + overlapWords(n) + " map here"
	}
	out.Set("textContent", r.Variant.Unit()+" "+format.Int(pos)+": "+state)
}

// render is the figure: the canvas and its caption for r (nil before the
// first result) with marks.
func (b *labBits) render(r *core.Result, marks bitMarks) app.UI {
	caption, ring, box := "The bit array.", "set by the last key inserted", "read by the first absent query"
	label := "the filter's bit array"
	var strays int
	if r != nil {
		caption, _, _ = bitCaption(r, b.layout(r))
		ring, box = marks.RingSays, marks.BoxSays
		label = "the filter's " + r.Variant.Unit() + "s"
		strays = outside(marks.Ring, r.M) + outside(marks.Box, r.M)
	}
	canvas := app.Canvas().ID(IDBitArray).Aria("label", label).Role("img").OnMouseMove(b.onHover)
	if b.first != nil {
		// The first view's height, kept for the page's life: the painter
		// sets the canvas's own height, and a style go-app never changes
		// is one it never writes over.
		canvas = canvas.Style("height", strconv.Itoa(b.first.CSSH)+"px")
	}
	return app.Figure().Class("bits").Body(
		app.Div().Class("canvas-wrap").Body(
			canvas,
			app.If(b.first != nil && !b.firstGone, func() app.UI {
				fv := b.first
				return app.Div().ID(IDBitArrayFirst).Class("bits-first").Attr("elementtiming", "first-view").
					Style("background-image", "url("+fv.Picture+")").DataSet("first-view", fv.encode())
			}),
		),
		app.FigCaption().ID("bit-caption").Body(
			app.Text(caption+" "),
			// Each text starts with a space: the prerendered page puts a
			// line break between an element and the text after it.
			app.Span().Class("key-ring").Text("◯ ringed:"),
			app.Text(" "+ring+". "),
			app.Span().Class("key-box").Text("▢ boxed:"),
			app.Text(" "+box+"."),
			app.If(strays > 0, func() app.UI {
				return app.Strong().Class("alarm-text").Text(" " + strconv.Itoa(strays) + " of those positions fall outside [0, m): the fault writes where it must not.")
			}),
			app.Output().ID("bit-hover").Class("bit-hover muted").For(IDBitArray),
		),
	)
}
