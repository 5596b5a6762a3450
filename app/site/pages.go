package site

import (
	"github.com/bloomlab/bloomlab/app/about"
	"github.com/bloomlab/bloomlab/app/auditpage"
	"github.com/bloomlab/bloomlab/app/calculator"
	"github.com/bloomlab/bloomlab/app/embed"
	"github.com/bloomlab/bloomlab/app/experiments"
	"github.com/bloomlab/bloomlab/app/lab"
	"github.com/bloomlab/bloomlab/app/lessons"
	"github.com/bloomlab/bloomlab/app/ui"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// page is one page of the lab: its path, its label in the navigation (""
// for a page outside it), its style sheet under web/ ("" for none of its
// own), its constructor, and whether any site may show it in a frame (the
// others are framed by the lab's own site alone).
type page struct {
	route, label, style string
	new                 func() app.Composer
	framed              bool
}

// pages is the lab's one table of pages: the routes, the static site's page
// list, the offline cache, the style sheets and the navigation all come
// from it, so a new page is its package and one line here. lab.css holds
// the styles every page shares.
var pages = []page{
	{ui.RouteLab, "Lab", "/web/lab.css", func() app.Composer { return lab.New() }, false},
	{ui.RouteLessons, "Lessons", "/web/lessons.css", func() app.Composer { return lessons.New() }, false},
	{ui.RouteExperiments, "Experiments", "/web/experiments.css", func() app.Composer { return experiments.New() }, false},
	{ui.RouteCalculator, "Calculator", "/web/plan.css", func() app.Composer { return calculator.New() }, false},
	{ui.RouteAudit, "Audit", "", func() app.Composer { return auditpage.New() }, false},
	{ui.RouteAbout, "About", "", func() app.Composer { return about.New() }, false},
	{ui.RouteEmbed, "", "/web/embed.css", func() app.Composer { return embed.New() }, true},
}

// Routes registers the lab's pages and sets the navigation. Both builds
// call it: the browser to render, the server and the static generator to
// prerender.
func Routes() {
	var nav []ui.NavEntry
	for _, p := range pages {
		if p.label != "" {
			nav = append(nav, ui.NavEntry{Route: p.route, Label: p.label})
		}
		app.Route(p.route, p.new)
		if p.route != ui.RouteLab {
			// A static server that redirects /audit to /audit/ (Python's,
			// for one) lands here; the page is the same. A path, not a
			// pattern: compiling the patterns took about 80 ms of every
			// page's first task in a profile at a 4x slowed CPU.
			app.Route(p.route+"/", p.new)
		}
	}
	ui.SetNavigation(nav)
}

// PageRoutes lists every page, for the static generator and the offline
// cache.
func PageRoutes() []string {
	routes := make([]string, len(pages))
	for i, p := range pages {
		routes[i] = p.route
	}
	return routes
}

// FramedByAnyone lists the pages any site may show in a frame: bloomlab
// serve sends them with frame-ancestors *, and every other page with the
// lab's own site alone.
func FramedByAnyone() []string {
	var routes []string
	for _, p := range pages {
		if p.framed {
			routes = append(routes, p.route)
		}
	}
	return routes
}

// styles are the pages' style sheets, in the table's order.
func styles() []string {
	var sheets []string
	for _, p := range pages {
		if p.style != "" {
			sheets = append(sheets, p.style)
		}
	}
	return sheets
}
