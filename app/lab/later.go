package lab

import (
	"strconv"

	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Parts mounted later. go-app builds the live page's first tree in a few
// long tasks, and every element in it costs its share (at 4x slowed CPU
// the lab's tree took 160 to 190 ms a task). The parts below the fold or
// behind a click are left out of it: in their place is an empty box as
// tall as the part was on the prerendered page, so nothing below moves,
// and once the page is live they mount one a task (reveal), each in a
// frame of its own. A part a link or a click needs at once (the overlap
// view of overlap=on, the key panel of a link with typed keys, a <details>
// opened) is in the first tree, or mounts then.
//
// A new part that can wait is a later field of the page, listed in laters,
// and rendered through its render; one behind a click calls show in the
// click's handler, one a link opens is shown in openLaters.

// later is a part that mounts after the page's first tree.
type later struct {
	// id is the part's element ID, whose height on the prerendered page
	// the box in its place keeps.
	id     string
	shown  bool
	height float64
	// view is the context of the part's place (laterView) once mounted:
	// showing the part updates it, not the page around it.
	view app.Context
}

// measure reads the part's height on the prerendered page, still in the
// document while the live page starts.
func (l *later) measure() {
	if !app.IsClient || l.shown {
		return
	}
	if el := app.Window().GetElementByID(l.id); el.Truthy() {
		l.height = el.Call("getBoundingClientRect").Get("height").Float()
	}
}

// show mounts the part from the next render on, and for good.
func (l *later) show() { l.shown = true }

// render is part, or, until the part is shown, the box in its place. The
// server renders every part: the prerendered page is whole, and is what
// the box is measured on.
func (l *later) render(part func() app.UI) app.UI {
	if app.IsServer {
		return part()
	}
	return &laterView{Of: part, l: l}
}

// laterView is a later part's place in the live page: the part once
// shown, the box before.
type laterView struct {
	app.Compo
	// Of is exported, as go-app hands a component's new render only
	// through its exported fields (as ui.Part's).
	Of func() app.UI
	l  *later
}

func (v *laterView) OnMount(ctx app.Context) { v.l.view = ctx }

func (v *laterView) OnDismount() { v.l.view = app.Context{} }

func (v *laterView) Render() app.UI {
	if v.l.shown {
		return v.Of()
	}
	return v.l.box()
}

// box is what stands in the part's place until it is shown.
func (l *later) box() app.UI {
	box := app.Div().Class("later").DataSet("later", l.id).Aria("hidden", true)
	if l.height > 0 {
		box = box.Style("height", strconv.FormatFloat(l.height, 'f', 2, 64)+"px")
	}
	return box
}

// laters are the page's parts that mount later, in the order they mount.
func (c *Page) laters() []*later {
	return []*later{&c.player.later, &c.panel.later, &c.own.later}
}

// openLaters shows at once the parts the settings s open: the key panel
// of a link with typed keys, the player of a link at one of its stops.
func (c *Page) openLaters(s settings.Lab) {
	if s.Typed != "" {
		c.panel.later.show()
	}
	if s.Playing() {
		c.player.later.show()
	}
}

// startLaters, before the first render, shows the parts the link opens
// and reads the heights the boxes of the others keep.
func (c *Page) startLaters() {
	s, _ := settings.LabFromQuery(app.Window().URL().Query())
	c.openLaters(s)
	for _, l := range c.laters() {
		l.measure()
	}
}

// reveal mounts the parts not yet shown, one a task and each in an update
// of its own, then calls then. It starts once the page is live (OnMount),
// ctx the page's: a part waits for the browser to be let in, is shown,
// and the next waits for that update to be done (ctx.Defer runs after the
// frame's updates). The update is the part's place alone (laterView), not
// the whole page. A page taken away before the end stops the chain:
// go-app runs no dispatch or defer of a page no longer mounted.
func (c *Page) reveal(ctx app.Context, then func(ctx app.Context)) {
	for _, l := range c.laters() {
		if l.shown {
			continue
		}
		ctx.Async(func() {
			ui.LetBrowserIn()
			show := func(app.Context) {
				l.show()
				ctx.Defer(func(ctx app.Context) {
					// What draw writes straight into the page, the
					// part just in missed: the player's position.
					c.player.sync()
					c.reveal(ctx, then)
				})
			}
			if l.view.Src() == nil {
				ctx.Dispatch(show)
				return
			}
			ui.DispatchBelow(l.view, &c.ctx, show)
		})
		return
	}
	then(ctx)
}
