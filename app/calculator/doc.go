// Package calculator is the sizing calculator's page: a real filter sized
// from two of n, p and m, the third solved, and around the answer k by
// round and by ceil, the information floor, the exact set, the other
// structures at the same n and p (each measured, and the cheapest of each
// priced), the overfill line, the cost of a false positive, and a link to
// the lab when the shape fits its sliders. Every field lives in the link:
// typing recomputes, leaving a field (or Enter) records the link, and OnNav
// reads it back, so the prerendered page carries the answer too.
//
// The math is not here: core/plan sizes, measures and prices, and
// settings.Calculator reads the form and solves it, both plain Go tested
// without a browser; this package only shows and wires (measure.go adds
// the measured columns the link fuzzer is spared). The live page measures
// nothing as it starts: the default form's tables come with the program
// (default_tables.go, a Go literal a test holds to a fresh measurement
// and rewrites with -update), and another link's come in its first view,
// written there by the server. The live page's first render is the
// answer (Page.start), so OnNav, right after the mount, changes nothing.
// Every other form the live page shows answers at once with its figures
// (settings.Calculator.SolveFigures, microseconds) while the lab's worker
// finds its alternatives (the blocked rows' searches, up to a second at
// a slow laptop's pace), shown as soon as they are in, then measures its
// tables from them (engine.MeasurePlan, one search a form), which
// follow; a newer form cancels the work of the one it replaced, whose
// alternatives and tables are never drawn. The default form's
// alternatives and a first view's come with their tables. It
// imports core/plan, engine, settings, ui and ui/format, and no other
// page: the link into the lab is a URL built from settings.Lab.
//
// Where the next thing goes: a new field of the form is a settings.CalcField
// (and its parse in settings); a new figure is computed in core/plan and
// shown in one of renderOutput's sections (renderPlanCounters,
// renderKCompare, renderFloor) or in one of the tables (renderAlternatives,
// renderCheapest, renderOverfill, renderCost); a new section is a render
// function called from Render (a table through Page.table), or from
// renderOutput if it shows the plan, in the order a reader meets it. Its styles are in
// web/plan.css, which the about page shares.
package calculator
