// Package ui is what every page of the lab shares on screen, one of each:
// the shell around a page (the masthead, its navigation and the footer,
// shell.go), the routes' names and the links under the site's path prefix
// (routes.go, Href), the chart renderer (chart.go: axes, ticks, series,
// marks and legend drawn as SVG, the same in the browser, in the
// prerendered page and in a test), the progress bar (progress.go), the
// notices a page gives about its link (notices.go), a chart or picture
// as a self-contained figure for a slide and its downloads (figure.go,
// download.go: SVG, PNG, CSV, one download of the site), and the boolean
// attributes that prerender as they will be set (attrs.go). Number, size
// and duration formatting is its subpackage format.
//
// It holds no page and no state of one: a page builds what it shows from
// these. It imports go-app, settings (only for the projector mode's link
// key) and ui/format, never a page, the engine or core, so every page can
// import it and its tests run natively, without a browser.
//
// Where the next thing goes: a component or helper two pages need moves
// here, in a file of its own, once, so that there is never a second chart,
// progress bar or notice box waiting to disagree with the first; one page's
// own widget stays in its page's package. A new page's route is a constant
// in routes.go, named in the app's page table.
package ui
