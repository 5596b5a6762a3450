package lab

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bloomlab/bloomlab/app/engine"
	"github.com/bloomlab/bloomlab/app/lab/painter"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui"
	"github.com/bloomlab/bloomlab/app/ui/format"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"
	"github.com/bloomlab/bloomlab/core/try"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// labBits is the lab's bit array: the canvas, its caption and the number
// of the position under the pointer.
type labBits struct {
	// boxW is the width in CSS pixels of the canvas's box, read once per
	// resize (reading it after a change would force a layout), 0 until
	// read: it chooses the wide or the narrow picture.
	boxW float64
	// store is the filter of the page's result, as the picture reads it:
	// the page sets it with the result.
	store engine.BitStore
	// shown, drawn and scale are the last picture's result, layout and
	// device pixel ratio, for the pointer.
	shown *sim.Result
	drawn painter.Layout
	scale float64
	// inPart is set when the lab is a part of another page, whose title
	// is an h2: the bit array's heading is then an h3.
	inPart bool
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
	idBitsTitle     = "bits-title"
)

// resized forgets the width, to read it again at the next paint.
func (b *labBits) resized() { b.boxW = 0 }

// narrow reports a canvas narrower than a phone's landscape width: it
// shows the narrow picture, as the page's CSS does (lab.css, .bits). A
// browser without container queries keeps the wide picture's box at every
// width, so it is drawn the wide picture.
func (b *labBits) narrow() bool {
	return b.boxW > 0 && b.boxW < painter.NarrowBelow && containerQueries()
}

// containerQueries reports whether the browser sizes the picture's box by
// its width (a container query).
var containerQueries = sync.OnceValue(func() bool {
	return app.IsClient && app.Window().Get("CSS").Call("supports", "container-type", "inline-size").Bool()
})

// marks are the run's own marks, the last key inserted and the first
// absent query, unless the key panel gives its own (ring or box set).
// What they say is the wide picture's, which the narrow one shares.
func (b *labBits) marks(r *sim.Result, panel painter.Marks) painter.Marks {
	_, ring, box := painter.Caption(r, b.fitted(r, false, 1))
	m := painter.Marks{Ring: r.LastInserted, Box: r.FirstProbed, RingSays: ring, BoxSays: box}
	if panel.Ring != nil {
		m.Ring, m.RingSays = panel.Ring, panel.RingSays
	}
	if panel.Box != nil {
		m.Box, m.BoxSays = panel.Box, panel.BoxSays
	}
	return m
}

// layout is the picture's layout in CSS pixels for the canvas's width:
// the wide one until the width is read (and on the server).
func (b *labBits) layout(r *sim.Result) painter.Layout {
	return b.fitted(r, b.narrow(), 1)
}

// fitted is r's picture for the narrow or the wide box, at scale device
// pixels per CSS pixel, in the page's type size.
func (b *labBits) fitted(r *sim.Result, narrow bool, scale float64) painter.Layout {
	large := b.lab != nil && b.lab.current().Large
	return painter.Fitted(r.M, b.store.Group, narrow, large, scale)
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
	if b.boxW <= 0 {
		b.boxW = canvas.Get("parentElement").Call("getBoundingClientRect").Get("width").Float()
	}
	// The keyboard's cursor and the cell under the pointer, marked alike.
	marks.Cursor = nil
	for _, pos := range []int64{b.cursor, b.pointed} {
		if pos >= 0 && pos < int64(r.M) && !slices.Contains(marks.Cursor, uint64(pos)) {
			marks.Cursor = append(marks.Cursor, uint64(pos))
		}
	}
	b.scale = app.Window().Get("devicePixelRatio").Float()
	if !(b.scale >= 1) {
		b.scale = 1
	}
	b.drawn = b.fitted(r, b.narrow(), b.scale)
	painter.Shared.Draw(canvas, b.store, b.overlap, marks, b.drawn, b.scale)
	b.shown = r
	// The positions marked as the cursor, for a test to read.
	canvas.Get("dataset").Set("cursor", positionList(marks.Cursor))
	return true
}

// positionList is positions as a comma-separated list.
func positionList(positions []uint64) string {
	s := make([]string, len(positions))
	for i, p := range positions {
		s[i] = strconv.FormatUint(p, 10)
	}
	return strings.Join(s, ",")
}

// bitsLab is what the bit array needs of the page to say who set a
// position: the settings the filter stands at, the user's lists, and a
// repaint (for the keyboard's cursor).
type bitsLab interface {
	current() settings.Lab
	ownKeys() *engine.OwnKeys
	draw(ctx app.Context)
	// figureButtons is the row of downloads of a figure, and onFigure
	// the handler of the element that holds it (figure.go).
	figureButtons(which, what string) app.UI
	onFigure(which string) app.EventHandler
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
		b.leave(ctx, e)
		return
	}
	if int64(pos) == b.pointed {
		return
	}
	b.pointed = int64(pos)
	b.lab.draw(ctx)
	b.describe(ctx, pos)
	ctx.After(whoRest, func(ctx app.Context) {
		if b.pointed == int64(pos) {
			b.askWho(ctx, pos)
		}
	})
}

// leave takes the pointer's mark away when the pointer leaves the cells.
func (b *labBits) leave(ctx app.Context, e app.Event) {
	if b.pointed < 0 {
		return
	}
	b.pointed = -1
	b.lab.draw(ctx)
	b.say(ctx, "")
}

// onTap says at once who set the position tapped or clicked.
func (b *labBits) onTap(ctx app.Context, e app.Event) {
	if pos, ok := b.under(e); ok {
		if int64(pos) != b.pointed {
			b.pointed = int64(pos)
			b.lab.draw(ctx)
		}
		b.describe(ctx, pos)
		b.askWho(ctx, pos)
	}
}

// under is the position under the pointer event e, if the picture draws
// one there. The canvas is shown at its box's width, so a CSS pixel of
// the box is not a pixel of the picture: the box's size converts.
func (b *labBits) under(e app.Event) (uint64, bool) {
	canvas := e.Get("target")
	w, h := canvas.Get("clientWidth").Float(), canvas.Get("clientHeight").Float()
	if b.shown == nil || !(w > 0 && h > 0) {
		return 0, false
	}
	return b.drawn.At(e.Get("offsetX").Float()*float64(b.drawn.W)/w, e.Get("offsetY").Float()*float64(b.drawn.H)/h)
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
	// Only the keys that move the cursor are the picture's: Tab and the
	// rest go on to the page. The first of them puts the cursor on the
	// first position.
	cur, last, cols := b.cursor, int64(r.M)-1, int64(l.Cols)
	key := e.Get("key").String()
	switch key {
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
	if b.cursor < 0 && strings.HasPrefix(key, "Arrow") {
		cur = 0
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
	startRun(ctx, &b.who, func(run engine.Run) (try.Result, error) {
		return engine.Answer(engine.WorkOf(req.Params) > syncWork, req, false, run, func(int, int) {})
	}, func(ctx app.Context, res try.Result, err error) {
		if err != nil || len(res.Setters) != 1 || b.said != said {
			return
		}
		b.say(ctx, said+". "+whoText(res.Setters[0], r.Variant, b.store.Value(pos) != 0))
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
// first result) with marks. The picture's box and caption are those of
// the wide and the narrow picture both, the page's CSS showing the one its
// width wants (lab.css, .bits): the server, which does not know the width,
// writes the page the live lab will draw.
func (b *labBits) render(r *sim.Result, marks painter.Marks) app.UI {
	caption, ring, box := app.UI(app.Text("The bit array. ")), "set by the last key inserted", "read by the first absent query"
	label := "the filter's bit array"
	var strays int
	wrap := app.Div().Class("canvas-wrap")
	if r != nil {
		wide, narrow := b.fitted(r, false, 1), b.fitted(r, true, 1)
		wideSays, _, _ := painter.Caption(r, wide)
		narrowSays, _, _ := painter.Caption(r, narrow)
		caption = app.Text(wideSays + " ")
		if narrowSays != wideSays {
			caption = app.Span().Body(
				app.Span().Class("fit-wide").Text(wideSays+" "),
				app.Span().Class("fit-narrow").Text(narrowSays+" "),
			)
		}
		wrap = wrap.Style("--fit-wide", wide.Aspect()).Style("--fit-narrow", narrow.Aspect())
		ring, box = marks.RingSays, marks.BoxSays
		label = "the filter's " + r.Variant.Unit() + "s"
		strays = painter.Outside(marks.Ring, r.M) + painter.Outside(marks.Box, r.M)
	}
	canvas := app.Canvas().ID(idBitArray).Aria("label", label+"; the arrow keys move from one to the next").Role("img").
		Attr("tabindex", 0).Aria("describedby", idBitHover).
		OnMouseMove(b.onHover).OnMouseLeave(b.leave).OnClick(b.onTap).OnKeyDown(b.onKey).OnBlur(b.onBlur)
	heading := ui.PartHeading(b.inPart, idBitsTitle, "bits-title", "The bit array")
	fig := app.Figure().Class("bits")
	if b.lab != nil {
		fig = fig.OnClick(b.lab.onFigure(FigureBits))
	}
	return fig.Body(
		heading,
		wrap.Body(
			canvas,
			app.If(b.first != nil && !b.firstGone, func() app.UI {
				fv := b.first
				first := app.Div().ID(idBitArrayFirst).Class("bits-first").Attr("elementtiming", "first-view").
					Style("--first-wide", "url("+fv.Wide+")").Style("--first-narrow", "url("+fv.Narrow+")")
				if app.IsServer {
					// Only the live page's start reads the view back
					// (readFirstView): the live page has no use for it.
					first = first.DataSet("first-view", fv.encode())
				}
				return first
			}),
		),
		app.FigCaption().ID("bit-caption").Body(
			caption,
			// Each text starts with a space: the prerendered page puts a
			// line break between an element and the text after it.
			app.Span().Class("key-ring").Text("◯ ringed:"),
			app.Text(" "+ring+". "),
			app.Span().Class("key-box").Text("▢ boxed:"),
			app.Text(" "+box+"."),
			app.If(strays > 0, func() app.UI {
				return app.Strong().Class("alarm-text").Text(" " + strconv.Itoa(strays) + " of those positions fall outside [0, m): the fault writes where it must not.")
			}),
			app.Output().ID(idBitHover).Class("bit-hover muted").For(idBitArray),
		),
		app.If(r != nil && b.lab != nil, func() app.UI { return b.lab.figureButtons(FigureBits, "the bit array") }),
	)
}
