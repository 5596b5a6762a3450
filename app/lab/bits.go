package lab

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/bloomlab/bloomlab/app/engine"
	"github.com/bloomlab/bloomlab/app/lab/painter"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui/format"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"
	"github.com/bloomlab/bloomlab/core/try"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

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
	shown *sim.Result
	drawn painter.Layout
	scale float64
	// overlap, when the overlap view is on and counted, is the keys
	// mapping to each position: the picture and the pointer show it.
	overlap []uint8
	// lab is the page; pointed is the position under the pointer, cursor
	// the keyboard's (-1 for none); said is what the live region says of
	// the position described last; who looks up its setters.
	lab     bitsLab
	pointed int64
	cursor  int64
	said    string
	who     engine.Runs
	// first is the prerendered page's picture, shown over the canvas
	// until the canvas is painted; firstGone once it is.
	first     *firstView
	firstGone bool
}

// The bit array's elements.
const (
	idBitArray      = "bit-array"
	idBitArrayFirst = "bit-array-first"
	idBitHover      = "bit-hover"
)

// resized forgets the width, to read it again at the next paint.
func (b *labBits) resized() { b.canvasW = 0 }

// narrow reports a canvas narrower than a phone's landscape width.
func (b *labBits) narrow() bool { return b.canvasW > 0 && b.canvasW < 480 }

// marks are the run's own marks, the last key inserted and the first
// absent query, unless the key panel gives its own (ring or box set).
func (b *labBits) marks(r *sim.Result, panel painter.Marks) painter.Marks {
	_, ring, box := painter.Caption(r, b.layout(r))
	m := painter.Marks{Ring: r.LastInserted, Box: r.FirstProbed, RingSays: ring, BoxSays: box}
	if panel.Ring != nil {
		m.Ring, m.RingSays = panel.Ring, panel.RingSays
	}
	if panel.Box != nil {
		m.Box, m.BoxSays = panel.Box, panel.BoxSays
	}
	return m
}

// layout is the picture's layout at the canvas's width, in CSS pixels.
func (b *labBits) layout(r *sim.Result) painter.Layout {
	w := b.canvasW
	if w <= 0 {
		w = 800
	}
	return painter.LayoutOf(r.M, w, painter.AreaCSSH, 1, b.store.Group)
}

// paint draws r with marks onto the canvas, and reports false when the
// canvas is not in the page yet.
func (b *labBits) paint(r *sim.Result, marks painter.Marks) bool {
	canvas := app.Window().GetElementByID(idBitArray)
	if !canvas.Truthy() {
		return false
	}
	if b.first != nil && !b.firstGone {
		// The canvas is painted under the first view's image in this
		// same task: hidden now, the image goes at the next render.
		if img := app.Window().GetElementByID(idBitArrayFirst); img.Truthy() {
			defer img.Set("hidden", true)
		}
		b.firstGone = true
	}
	if b.canvasW <= 0 {
		b.canvasW = canvas.Get("parentElement").Get("clientWidth").Int()
	}
	if b.cursor >= 0 {
		marks.Cursor = []uint64{uint64(b.cursor)}
	}
	b.scale = app.Window().Get("devicePixelRatio").Float()
	b.drawn = painter.Shared.Draw(canvas, b.store, b.overlap, marks, b.canvasW)
	b.shown = r
	return true
}

// bitsLab is what the bit array needs of the page to say who set a
// position: the settings the filter stands at, the user's lists, and a
// repaint (for the keyboard's cursor).
type bitsLab interface {
	current() settings.Lab
	ownKeys() *engine.OwnKeys
	draw(ctx app.Context)
}

// whoRest is how long the pointer rests on a position before the lab
// looks up who set it.
const whoRest = 120 * time.Millisecond

// onHover names the position under the pointer where every position is
// drawn as a cell, and once the pointer rests there, who set it. It
// writes the page itself: a render of the whole lab on every pointer move
// would be far too slow.
func (b *labBits) onHover(ctx app.Context, e app.Event) {
	pos, ok := b.under(e)
	if !ok {
		b.pointed = -1
		b.say(ctx, "")
		return
	}
	if int64(pos) == b.pointed {
		return
	}
	b.pointed = int64(pos)
	b.describe(ctx, pos)
	ctx.After(whoRest, func(ctx app.Context) {
		if b.pointed == int64(pos) {
			b.askWho(ctx, pos)
		}
	})
}

// onTap says at once who set the position tapped or clicked.
func (b *labBits) onTap(ctx app.Context, e app.Event) {
	if pos, ok := b.under(e); ok {
		b.pointed = int64(pos)
		b.describe(ctx, pos)
		b.askWho(ctx, pos)
	}
}

// under is the position under the pointer event e, if the picture draws
// one there.
func (b *labBits) under(e app.Event) (uint64, bool) {
	if b.shown == nil {
		return 0, false
	}
	scale := b.scale
	if !(scale >= 1) {
		scale = 1
	}
	return b.drawn.At(e.Get("offsetX").Float()*scale, e.Get("offsetY").Float()*scale)
}

// onKey moves the keyboard's cursor over the positions: the arrows by one
// position and one row, Home and End to the first and the last; the
// live region says each position and who set it.
func (b *labBits) onKey(ctx app.Context, e app.Event) {
	r, l := b.shown, b.drawn
	if r == nil {
		return
	}
	if !l.Cells {
		if key := e.Get("key").String(); strings.HasPrefix(key, "Arrow") {
			b.say(ctx, "Each dot of this picture is many "+r.Variant.Unit()+"s: the arrow keys move "+r.Variant.Unit()+" by "+r.Variant.Unit()+" where each is drawn as a square (fewer of them, or a wider window).")
		}
		return
	}
	cur, last, cols := b.cursor, int64(r.M)-1, int64(l.Cols)
	if cur < 0 {
		cur = 0
	} else {
		switch e.Get("key").String() {
		case "ArrowRight":
			cur++
		case "ArrowLeft":
			cur--
		case "ArrowDown":
			cur += cols
		case "ArrowUp":
			cur -= cols
		case "Home":
			cur = 0
		case "End":
			cur = last
		default:
			return
		}
	}
	e.PreventDefault()
	b.cursor = min(max(cur, 0), last)
	b.lab.draw(ctx)
	b.describe(ctx, uint64(b.cursor))
	b.askWho(ctx, uint64(b.cursor))
}

// onBlur takes the cursor away with the focus.
func (b *labBits) onBlur(ctx app.Context, e app.Event) {
	if b.cursor >= 0 {
		b.cursor = -1
		b.lab.draw(ctx)
	}
}

// describe says what position pos holds, at once.
func (b *labBits) describe(ctx app.Context, pos uint64) {
	r := b.shown
	state := "off"
	if v := b.store.Value(pos); v > 0 {
		state = "on"
		if unit := r.Variant.Unit(); unit != "bit" {
			state = "holds " + strconv.FormatUint(v, 10)
		}
	}
	if pos < uint64(len(b.overlap)) {
		state += ", " + overlapWords(int(b.overlap[pos])) + " map here"
	}
	b.said = r.Variant.Unit() + " " + format.Int(pos) + " of " + format.Int(r.M) + ": " + state
	b.say(ctx, b.said)
}

// askWho looks up the keys that set pos, as the key panel finds a false
// positive's culprits: on the page for a small filter, in the lab's
// worker for a large one. The answer follows what describe said.
func (b *labBits) askWho(ctx app.Context, pos uint64) {
	r, said := b.shown, b.said
	if b.lab.ownKeys() != nil {
		b.say(ctx, said+". With your own keys in use the lab does not trace who set it.")
		return
	}
	s := b.lab.current()
	req := try.Request{Params: s.Run(), Insert: s.Typed.List(), Setters: []uint64{pos}}
	run := b.who.Start()
	ctx.Async(func() {
		res, err := engine.Answer(engine.WorkOf(req.Params) > syncWork, req, false, run, func(int, int) {})
		ctx.Dispatch(func(ctx app.Context) {
			if !run.Live() || err != nil || len(res.Setters) != 1 || b.said != said {
				return
			}
			b.say(ctx, said+". "+whoText(res.Setters[0], r.Variant, b.store.Value(pos) != 0))
		})
	})
}

// whoText says who set a position: the keys that map to it
// (culpritNames).
func whoText(c try.Culprit, v core.Variant, set bool) string {
	who := culpritNames(c)
	list := format.List(who, "and")
	switch {
	case len(who) == 0 && set:
		return "No inserted key maps here: the fault wrote it."
	case len(who) == 0:
		return "No inserted key maps here."
	}
	return fmt.Sprintf(v.Terms().SetBy, list)
}

// say writes text into the live region under the picture.
func (b *labBits) say(ctx app.Context, text string) {
	if out := app.Window().GetElementByID(idBitHover); out.Truthy() {
		out.Set("textContent", text)
	}
}

// render is the figure: the canvas and its caption for r (nil before the
// first result) with marks.
func (b *labBits) render(r *sim.Result, marks painter.Marks) app.UI {
	caption, ring, box := "The bit array.", "set by the last key inserted", "read by the first absent query"
	label := "the filter's bit array"
	var strays int
	if r != nil {
		caption, _, _ = painter.Caption(r, b.layout(r))
		ring, box = marks.RingSays, marks.BoxSays
		label = "the filter's " + r.Variant.Unit() + "s"
		strays = painter.Outside(marks.Ring, r.M) + painter.Outside(marks.Box, r.M)
	}
	canvas := app.Canvas().ID(idBitArray).Aria("label", label+"; the arrow keys move from one to the next").Role("img").
		Attr("tabindex", 0).Aria("describedby", idBitHover).
		OnMouseMove(b.onHover).OnClick(b.onTap).OnKeyDown(b.onKey).OnBlur(b.onBlur)
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
				return app.Div().ID(idBitArrayFirst).Class("bits-first").Attr("elementtiming", "first-view").
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
				return app.Strong().Class("alarm-text").Text(" " + strconv.Itoa(strays) + " of those positions fall painter.Outside [0, m): the fault writes where it must not.")
			}),
			app.Output().ID(idBitHover).Class("bit-hover muted").For(idBitArray),
		),
	)
}
