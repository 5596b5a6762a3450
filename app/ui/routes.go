package ui

// Routes, as the user sees them; href adds the site's path prefix.
const (
	RouteLab         = "/"
	RouteLessons     = "/lessons"
	RouteExperiments = "/experiments"
	RouteCalculator  = "/calculator"
	RouteAudit       = "/audit"
	RouteAbout       = "/about"
	// RouteEmbed is the lab inside an article: a page for another site's
	// frame, outside the navigation.
	RouteEmbed = "/embed"
)
