package lab

import (
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Element IDs of the lab's Embed box: the snippet that puts the lab, in
// its settings, into another page.
const (
	idEmbedBox     = "embed-box"
	idEmbedSnippet = "embed-snippet"
	idEmbedCopy    = "embed-copy"
	idEmbedCopied  = "embed-copied"
)

// EmbedChoice turns the lab's settings into the embed a snippet puts in
// a page: the lab's own box embeds them as they are with the default
// sliders; a page built on the lab (a lesson) may embed what its reader
// sees.
type EmbedChoice func(s settings.Lab) (settings.Lab, settings.Embed)

// asShown is the lab's own choice: its settings, the default sliders.
func asShown(s settings.Lab) (settings.Lab, settings.Embed) { return s, settings.DefaultEmbed() }

// EmbedAs has the Embed box offer what choose makes of the lab's settings.
func (c *Page) EmbedAs(choose EmbedChoice) { c.embedAs = choose }

// renderEmbedBox is the Embed button: it opens the snippet for the lab in
// settings s, as choose embeds them (nil: as shown, with the default
// sliders), ready to copy. The snippet names the site it is on, which the
// prerendered page cannot know (a frame without it would load the
// writer's own site, and its script would never size the frame): there
// the box says the live lab writes it, and offers no copy.
func renderEmbedBox(s settings.Lab, choose EmbedChoice) app.UI {
	if choose == nil {
		choose = asShown
	}
	s, e := choose(s)
	shows := "the bit array, the counters and the sliders for bits per key, k and n"
	if e.Panel {
		shows += ", and the key panel with its keys"
	}
	snippet := ""
	if origin := ui.Origin(); origin != "" {
		snippet = settings.EmbedSnippet(settings.EmbedLink(origin+ui.Href(ui.RouteEmbed), s, e), origin)
	}
	return app.Details().ID(idEmbedBox).Class("embed-box").Body(
		app.Summary().Class("chip").Text("Embed"),
		app.P().Class("small").Body(
			app.Text("Put this lab, in these settings, into your own page: paste the frame and its script. "+
				"It shows "+shows+". In the link, "),
			app.Code().Text(settings.IDControls+"="),
			app.Text(" lists the sliders, "),
			app.Code().Text(settings.IDChart+"="+settings.ChartK),
			app.Text(" or "),
			app.Code().Text(settings.IDChart+"="+settings.ChartBitsPerKey),
			app.Text(" adds a chart, "),
			app.Code().Text(settings.IDPanel+"="+settings.PanelTry),
			app.Text(" the key panel. The script sizes the frame to the lab, so it never scrolls."),
		),
		// The snippet is the textarea's text, as HTML holds a textarea's
		// text: go-app's Text sets a value attribute, which it prerenders
		// in Go's quoting (the snippet's first \" ended it). The box is
		// read-only, so its text stays what the page sets.
		app.Textarea().ID(idEmbedSnippet).ReadOnly(true).Rows(7).Spellcheck(false).
			Placeholder("The snippet is written here once the lab is live: it names the site the lab is on.").
			Aria("label", "The embed's snippet").Body(app.Text(snippet)),
		app.Div().Class("embed-actions").Body(
			app.Button().ID(idEmbedCopy).Class("chip primary").Text("Copy").Disabled(snippet == "").OnClick(onCopySnippet),
			app.Output().ID(idEmbedCopied).Class("muted small").For(idEmbedSnippet),
		),
	)
}

// onCopySnippet selects the snippet and copies it. It writes its news
// straight into the page, as the bit array's hover does: it is no state
// of the lab's.
func onCopySnippet(ctx app.Context, e app.Event) {
	doc := app.Window().Get("document")
	area, out := doc.Call("getElementById", idEmbedSnippet), doc.Call("getElementById", idEmbedCopied)
	if !area.Truthy() || !out.Truthy() {
		return
	}
	area.Call("focus")
	area.Call("select")
	// The clipboard's own API wants a secure page and answers later; the
	// selection's copy works in a click on any page, at once.
	if doc.Call("execCommand", "copy").Bool() {
		out.Set("textContent", "Copied.")
		return
	}
	out.Set("textContent", "Selected: press Ctrl+C (⌘C on a Mac) to copy.")
}
