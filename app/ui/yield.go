package ui

import (
	"runtime"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Yield lets the browser in while a page mounts. go-app builds a page's
// whole tree in one go, and on a slow laptop that one task held the lab
// for 300 ms at start, long enough to swallow a click. A Yield placed
// between a page's parts pauses the building there for one turn of the
// browser's event loop: input is handled (the prerendered page keeps an
// early move, web/early.js) and the build goes on. Nothing half-built is
// seen: go-app builds a newly mounted tree apart from the document and
// puts it in place whole. It shows nothing (an empty text).
//
// A Yield pauses when it mounts, so it belongs where it mounts with its
// page, never in a part that comes and goes with a move.
type Yield struct{ app.Compo }

// OnInit pauses, in the browser only, and marks the pause
// (bloomlab:pause), where a profile shows the page's start cut and a test
// can act while the page is half built.
func (y *Yield) OnInit() {
	if app.IsClient {
		MarkStart("pause")
		LetBrowserIn()
	}
}

func (y *Yield) Render() app.UI { return app.Text("") }

// LetBrowserIn ends the current task and resumes in a new one, a timer's
// of 0 ms, after what the browser had waiting. It waits for the browser's
// own timer: a goroutine merely asleep (time.Sleep) hands the thread back
// only if nothing else runs meanwhile, and at start Go's collector often
// does, so the sleeper woke in the same task. Outside a browser (go-app
// in a test) there is no browser to let in: it gives the other goroutines
// a turn.
func LetBrowserIn() {
	if !app.IsClient {
		runtime.Gosched()
		return
	}
	resumed := make(chan struct{})
	var f app.Func
	f = app.FuncOf(func(app.Value, []app.Value) any {
		f.Release()
		close(resumed)
		return nil
	})
	app.Window().Call("setTimeout", f, 0)
	<-resumed
}

// MarkStart marks a moment of the page's start in the browser's performance
// timeline as bloomlab:name (main, first-view, live, the lab's whole
// once the parts it mounts after live are in, and each Yield's pause),
// where a profile shows it among the tasks and a test can see what ran
// between two marks.
func MarkStart(name string) {
	if app.IsClient {
		app.Window().Get("performance").Call("mark", "bloomlab:"+name)
	}
}

// LiveMark marks bloomlab:live once the page it ends is mounted, and the
// page answers: until then the prerendered page is what is seen. The
// shell ends every page with one; a page outside the shell adds its own.
func LiveMark() app.UI { return &liveMark{} }

type liveMark struct{ app.Compo }

func (l *liveMark) OnMount(app.Context) { MarkStart("live") }

func (l *liveMark) Render() app.UI { return app.Text("") }

// Part renders a page's part when it mounts rather than when its page
// renders. go-app renders a page's whole tree before it mounts any of it,
// so the render of every part fell in the first task, before the first
// Yield; a Part's render and mount fall together between two Yields. It
// updates with its page: render is a new func at every render of the
// page, so go-app renders the Part again each time, as it would the
// elements inline.
func Part(render func() app.UI) app.UI { return &part{Of: render} }

// PartAt is Part, and keeps the part's context in *at while it is mounted:
// a component in the part whose news the part's render does not show
// updates alone (DispatchBelow with at).
func PartAt(at *app.Context, render func() app.UI) app.UI { return &part{Of: render, At: at} }

type part struct {
	app.Compo
	// Of is exported, as go-app hands a component's new render only
	// through its exported fields.
	Of func() app.UI
	At *app.Context
}

func (p *part) OnMount(ctx app.Context) {
	if p.At != nil {
		*p.At = ctx
	}
}

func (p *part) OnDismount() {
	if p.At != nil {
		*p.At = app.Context{}
	}
}

func (p *part) Render() app.UI { return p.Of() }

// Still renders a part of a page once, when it mounts, and never again: a
// part that depends on nothing its page changes (the about page's
// sections). A Part renders again, and go-app compares its tree again, at
// every render of its page, and a page renders again as soon as it is
// mounted (go-app calls its OnNav), so a page of Parts was built twice in
// its start, the second time in one task.
func Still(render func() app.UI) app.UI { return &still{of: render} }

type still struct {
	app.Compo
	// of is unexported, so go-app, finding a still where its page's new
	// render has one, hands it nothing and does not render it again.
	of func() app.UI
}

func (s *still) Render() app.UI { return s.of() }
