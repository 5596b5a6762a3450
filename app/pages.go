package app

import (
	"bloomlab/app/about"
	"bloomlab/app/auditpage"
	"bloomlab/app/calculator"
	"bloomlab/app/experiments"
	"bloomlab/app/lab"
	"bloomlab/app/lessons"
	"bloomlab/app/ui"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// page is one page of the lab: its path, its label in the navigation, its
// style sheet under web/ ("" for none of its own) and its constructor.
type page struct {
	route, label, style string
	new                 func() app.Composer
}

// pages is the lab's one table of pages: the routes, the static site's page
// list, the offline cache, the style sheets and the navigation all come
// from it, so a new page is its package and one line here. lab.css holds
// the styles every page shares.
var pages = []page{
	{ui.RouteLab, "Lab", "/web/lab.css", func() app.Composer { return lab.New() }},
	{ui.RouteLessons, "Lessons", "/web/lessons.css", func() app.Composer { return lessons.New() }},
	{ui.RouteExperiments, "Experiments", "/web/experiments.css", func() app.Composer { return experiments.New() }},
	{ui.RouteCalculator, "Calculator", "/web/plan.css", func() app.Composer { return calculator.New() }},
	{ui.RouteAudit, "Audit", "", func() app.Composer { return auditpage.New() }},
	{ui.RouteAbout, "About", "", func() app.Composer { return about.New() }},
}

// Routes registers the lab's pages and sets the navigation. Both builds
// call it: the browser to render, the server and the static generator to
// prerender.
func Routes() {
	nav := make([]ui.NavEntry, len(pages))
	for i, p := range pages {
		nav[i] = ui.NavEntry{Route: p.route, Label: p.label}
		app.Route(p.route, p.new)
		if p.route != ui.RouteLab {
			// A static server that redirects /audit to /audit/ (Python's,
			// for one) lands here; the page is the same.
			app.RouteWithRegexp("^"+p.route+"/$", p.new)
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
