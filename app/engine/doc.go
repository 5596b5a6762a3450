// Package engine runs the lab's work away from what draws it: the Web
// Workers that share an experiment or an audit (the pool), the lab's own
// worker for its large runs, key searches and key lists (the desk), the
// session's audit book, runs that a newer move cancels and that yield to
// the browser between slices, reading a user's key lists, and the bit
// store a run hands back for the picture. It speaks in core, experiment and
// audit types only and knows no page; outside a browser (native.go) there
// are no workers and every run takes the page's own path.
//
// Every js build tag of the app lives here: the other app packages build
// and test the same natively and in the browser.
package engine
