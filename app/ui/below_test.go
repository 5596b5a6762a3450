package ui

import (
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// belowPage is a page with one part: both count their renders, and the
// part keeps its context where the test reaches it.
type belowPage struct {
	app.Compo
	renders, partRenders int
	ctx, partCtx         app.Context
}

// OnPreRender, as the test engine is the server's, where OnMount is not called.
func (p *belowPage) OnPreRender(ctx app.Context) { p.ctx = ctx }

func (p *belowPage) Render() app.UI {
	p.renders++
	return app.Div().Body(&belowPart{page: p})
}

type belowPart struct {
	app.Compo
	page *belowPage
}

func (b *belowPart) OnPreRender(ctx app.Context) { b.page.partCtx = ctx }

func (b *belowPart) Render() app.UI {
	b.page.partRenders++
	return app.Span().Text("part")
}

// TestDispatchBelow: a part's news through DispatchBelow renders the part
// alone, not the page above it (go-app's Dispatch renders both), unless
// the page had news of its own before the same frame; a nil or unmounted
// above is a plain Dispatch.
func TestDispatchBelow(t *testing.T) {
	e := app.NewTestEngine()
	p := &belowPage{}
	if err := e.Load(p); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	for _, step := range []struct {
		name               string
		do                 func()
		wantPage, wantPart int
	}{
		{"below the page", func() { DispatchBelow(p.partCtx, &p.ctx, func(app.Context) {}) }, 0, 1},
		{"plain dispatch", func() { p.partCtx.Dispatch(func(app.Context) {}) }, 1, 1},
		{"page's own news in the same frame", func() {
			p.ctx.Dispatch(func(app.Context) {})
			DispatchBelow(p.partCtx, &p.ctx, func(app.Context) {})
		}, 1, 1},
		{"nil above", func() { DispatchBelow(p.partCtx, nil, func(app.Context) {}) }, 1, 1},
		{"above not mounted", func() { DispatchBelow(p.partCtx, &app.Context{}, func(app.Context) {}) }, 1, 1},
	} {
		page, part := p.renders, p.partRenders
		step.do()
		e.ConsumeAll()
		if got := p.renders - page; got != step.wantPage {
			t.Errorf("%s: the page rendered %d times, want %d", step.name, got, step.wantPage)
		}
		if got := p.partRenders - part; got != step.wantPart {
			t.Errorf("%s: the part rendered %d times, want %d", step.name, got, step.wantPart)
		}
	}
}
