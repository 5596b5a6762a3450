// Package embed is the lab inside an article: a compact lab for a frame in
// another site's page, with the sliders, chart and key panel the writer's
// link chooses, every lab setting the link carries, no site navigation,
// and a link to the full lab. It tells the page around it its height (see
// web/embed.js), so the frame never scrolls on its own. It is the one page
// any site may frame (the app's page table says so).
//
// It is a thin page: the lab itself (package lab) does the work and draws
// the compact view (lab.Page's InitFramed and Compact), and this package
// reads the embed's own link keys (settings.Embed) and hands them over. It
// imports lab, settings and go-app, nothing else.
//
// Where the next thing goes: a new choice for the writer is a link key in
// settings.Embed (with its snippet, which the lab's embed box writes), and
// what the compact lab shows for it is in app/lab's compact.go; this file
// changes only if the embed's page around the lab does.
package embed

import (
	"github.com/bloomlab/bloomlab/app/lab"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// labPage is lab.Page under a name of its own, embedded unexported: go-app
// copies a fresh page's exported fields onto the live one at every
// navigation (see the lessons page).
type labPage = lab.Page

// Page is the embed: the lab, shown compact, and the embed's own keys of
// the link.
type Page struct {
	labPage

	embed   settings.Embed
	notices []string
}

func New() *Page {
	c := &Page{embed: settings.DefaultEmbed()}
	c.labPage.InitFramed()
	return c
}

// OnNav reads the embed's keys, which the lab keeps in the link when a
// slider moves, and then the lab's settings.
func (c *Page) OnNav(ctx app.Context) {
	c.embed, c.notices = settings.EmbedFromQuery(ctx.Page().URL().Query())
	c.Keep(c.embed.Query())
	c.labPage.OnNav(ctx)
	ctx.Page().SetTitle("Bloom Lab, embedded: a Bloom filter to try")
}

func (c *Page) Render() app.UI {
	class := "embed"
	if c.Settings().Large {
		class += " large-type"
	}
	return app.Div().Class(class).DataSet("frame", c.embed.Frame).Body(
		app.Main().ID("main").Body(
			// The page's one h1, for a screen reader in the frame; the
			// article around it shows its own title.
			app.H1().Class("visually-hidden").Text("Bloom Lab, embedded"),
			c.Compact(c.embed, c.notices),
		),
		// The height teller: in the prerendered page, so the frame is
		// sized before the lab is live; the script runs once however often
		// the page renders it.
		app.Script().Src("/web/embed.js").Defer(true),
		ui.LiveMark(),
	)
}
