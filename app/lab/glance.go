package lab

import (
	"slices"

	"github.com/bloomlab/bloomlab/app/engine"
	"github.com/bloomlab/bloomlab/app/lab/painter"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// glance is the lab's compact view of what a control changes, kept on
// screen beside the controls while one is in use: a small picture of the
// bit array and the fill, the theory rate and the measured rate. On a
// phone the counters and the bit array lie one to three screens below the
// sliders, and on a laptop the bit array lies below the fold: the glance
// stays at the foot of the controls' column (web/lab.css), so a slider's
// move shows what it did where the slider is.
//
// It needs nothing of the page: the page hands it the counters and the
// run's store, as it hands the counters' box its figures. Its figures are
// the counters' own, and its picture is the painter's, drawn from the
// store the bit array shows: the filter is never run for it. The compact
// lab in an article has no glance: its frame grows to its content, and its
// few sliders sit right above its counters and its picture.
type glance struct {
	// frame keeps the picture's buffers between moves, apart from the
	// bit array's: the two pictures differ in size.
	frame painter.Frame
	// arr and img are the JavaScript pixels, made again only when the
	// picture's size changes.
	arr, img   app.Value
	imgW, imgH int
	// cssW is the picture's width in CSS pixels, read once per resize:
	// reading it after a move would force a layout.
	cssW int
}

// The glance's elements.
const (
	idGlance     = "glance"
	idGlanceBits = "glance-bits"
)

// glanceCSSH is the picture's height in CSS pixels: a strip that leaves
// the controls most of a phone's screen.
const glanceCSSH = 40

// glanceFigures are the counters the glance shows, with the IDs it
// shows them under: the fill (a table's load, for the layouts that have
// no fill), the theory rate and the measured rate.
var glanceFigures = []struct {
	from []string
	id   string
}{
	{[]string{"out-fill", "load"}, "glance-fill"},
	{[]string{"out-fpr-theory"}, "glance-theory"},
	{[]string{"out-fpr-empirical"}, "glance-measured"},
}

// glanceRows are the glance's figures of counters cs, each the first of
// its counters the layout shows, under the glance's own ID.
func glanceRows(cs []counter) []counter {
	out := make([]counter, 0, len(glanceFigures))
	for _, f := range glanceFigures {
		for _, ct := range cs {
			if ct.hidden || !slices.Contains(f.from, ct.id) {
				continue
			}
			ct.id = f.id
			out = append(out, ct)
			break
		}
	}
	return out
}

// resized forgets the width, to read it again at the next paint.
func (g *glance) resized() { g.cssW = 0 }

// render is the glance with the figures of counters cs. Nothing in it
// takes the focus: the controls beside it are what a learner moves.
func (g *glance) render(cs []counter) app.UI {
	rows := glanceRows(cs)
	return app.Section().ID(idGlance).Class("glance").Aria("label", "The filter at a glance").Body(
		app.Canvas().ID(idGlanceBits).Class("glance-bits").Role("img").
			Aria("label", "the bit array in small; the same picture, full size, is under the counters"),
		app.Dl().Class("glance-figures").Body(
			app.Range(rows).Slice(func(i int) app.UI {
				return app.Div().Class("glance-figure").Title(rows[i].title).Body(
					app.Dt().Text(rows[i].label),
					app.Dd().ID(rows[i].id).Text(rows[i].value),
				)
			}),
		),
	)
}

// paint writes the figures of counters cs straight into the page, as the
// counters are written, and draws the store s (shaded by overlap, nil
// for none) as a strip of the bit array.
func (g *glance) paint(s engine.BitStore, overlap []uint8, cs []counter) {
	writeCounters(glanceRows(cs))
	canvas := app.Window().GetElementByID(idGlanceBits)
	if !canvas.Truthy() || s.M == 0 {
		return
	}
	if g.cssW <= 0 {
		g.cssW = canvas.Get("clientWidth").Int()
	}
	if g.cssW <= 0 {
		return // not laid out: hidden
	}
	scale := app.Window().Get("devicePixelRatio").Float()
	if !(scale >= 1) {
		scale = 1
	}
	l := glanceLayout(s.M, g.cssW, scale, s.Group)
	w, h := int(float64(g.cssW)*scale), int(glanceCSSH*scale)
	if canvas.Get("width").Int() != w || canvas.Get("height").Int() != h {
		canvas.Set("width", w)
		canvas.Set("height", h)
	}
	pix := g.frame.Render(s, overlap, l, painter.Marks{}, scale)
	if g.imgW != l.W || g.imgH != l.H {
		g.arr = app.Window().Get("Uint8ClampedArray").New(len(pix))
		g.img = app.Window().Get("ImageData").New(g.arr, l.W, l.H)
		g.imgW, g.imgH = l.W, l.H
	}
	app.CopyBytesToJS(g.arr, pix)
	ctx := canvas.Call("getContext", "2d")
	ctx.Call("clearRect", 0, 0, w, h)
	// A picture of large cells is shorter than the strip: centred in it.
	ctx.Call("putImageData", g.img, 0, max(0, (h-l.H)/2))
}

// glanceLayout lays m positions out across cssW CSS pixels within the
// strip's height.
func glanceLayout(m uint64, cssW int, scale float64, group int) painter.Layout {
	return painter.LayoutOf(m, cssW, glanceCSSH, scale, group)
}
