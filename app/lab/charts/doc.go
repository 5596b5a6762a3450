// Package charts is the lab's two charts: the false-positive rate against
// the hash probes k and against bits per key m/n, each with the theory
// curve for the filter shown, its points measured on smaller runs of the
// same shape (n sampled to at most 5,000 keys: the rate depends on bits
// per key and k, not on n), this run's own point, and a line under them
// saying how the points were made and which chart a layout has none of.
//
// Charts holds the drawn SVG and the measured points, and measures them
// (Sweep) on a goroutine of its own once the lab's controls rest,
// cancelled by the next move (Clear). The lab's page owns one Charts and
// gives it each run: Redraw after a run, Sweep when the controls rest,
// Render in the page; the first view's points, measured by the server
// (Measure), are handed over with Use, and a compact lab shows one chart
// (RenderOne). ChartOf builds a chart from a run and its points alone, as
// Redraw does, so a figure of the same settings (the lab's figure.go, the
// command line's bloomlab figure) is the chart the page shows; Downloads,
// set by the page, puts a figure's download buttons under each chart.
// What a layout has a chart against comes from core's variant
// record (UsesK, UsesM, Chain, Bloom), and why it has none from
// settings.ControlNote, never from a comparison of names here.
//
// It imports engine (the runs it cancels and the yielding step), settings,
// ui (the chart renderer, ui.Chart: one renderer for the site) and
// ui/format, and core; never the lab's page, which imports it.
//
// Where the next thing goes: a new chart is a function building a
// ui.Chart beside kChart and bpkChart, a field of Charts for its SVG, a
// line in Redraw and a box in Render; what it measures joins chartSweep.
package charts
