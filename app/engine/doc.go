// Package engine runs the lab's work away from what draws it: the Web
// Workers that share an experiment or an audit (the pool), the lab's own
// worker for its large runs (the largest built in parts on the pool and
// merged in the lab's worker: sim.BuildPart, sim.RunMerged), key searches,
// key lists and the calculator's tables, the session's audit book, runs
// that a newer move cancels and that yield to the browser between
// slices, reading a user's key lists, and the bit store a run hands back for
// the picture. It speaks in core, experiment, plan and audit types only and knows
// no page; outside a browser (native.go) there are no workers and every run
// takes the page's own path.
//
// Every js build tag of the app that talks to the browser lives here: the
// other app packages build and test the same natively and in the browser.
// (The one other pair, app/lab's png.go and png_js.go, only keeps the PNG
// encoder the server's first view needs out of the WebAssembly.)
//
// It imports go-app, core, core/experiment, core/plan, audit and, of the
// app, only ui/format; the pages and the app's root import it, and it
// imports none of them, so a run never waits on how it is drawn.
//
// Where the next thing goes: a new kind of large job for the lab is a
// function beside SimulateRun, Answer and ReadKeys in where.go, with its
// page path and its path on the lab's worker (jobs_js.go, answered by
// worker_js.go, and a stub in native.go); what the page and the workers say
// to each other is wire.go, with its round trip in wire_test.go; a new job
// for the shared workers (as a sharded run or a share of checks are) is a
// message there, its page side in jobs_js.go and its worker side in
// worker_js.go.
package engine
