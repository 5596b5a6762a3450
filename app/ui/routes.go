package ui

// Routes, as the user sees them; href adds the site's path prefix.
const (
	RouteLab         = "/"
	RouteLessons     = "/lessons"
	RouteExperiments = "/experiments"
	RouteCalculator  = "/calculator"
	RouteAudit       = "/audit"
	RouteAbout       = "/about"
)
