// Package site is Bloom Lab as one web application: the go-app handler
// that serves the site and prerenders its static copy (handler.go), the
// global window.bloomlab that headless browsers and a teacher's console
// drive (jsface.go), and the one table of pages (pages.go). From that table
// come the routes, the static site's page list, the offline cache, the
// style sheets and the navigation, so a page is never registered twice.
//
// It sits above every other package of the app: it imports the page
// packages (lab, lessons, experiments, calculator, auditpage, about,
// embed), the engine, ui and core, and only cmd/bloomlab imports it, once
// for the browser build (Routes, InstallJSFace, then app.RunWhenOnBrowser)
// and once for the server and the static generator (NewHandler,
// PageRoutes, FramedByAnyone). No page imports it, so a page never reaches
// its neighbours through it.
//
// # The start
//
// A page starts in this order; web/start.js is the script of it, and
// each step says on which thread it runs and where the page's thread
// pauses (a pause is a task's end: the browser paints and answers input
// there).
//
//  1. The server's prerendered page is painted: the lab's first view,
//     its counters and charts, already figures. go-app's loader (a small
//     status in the masthead, id app-wasm-loader) says the lab is starting.
//  2. Deferred scripts, in order, on the page's thread: wasm_exec.js (Go's
//     Go class), app.js (go-app's, from which AppJS took out the two calls
//     that started it as the script ran), web/early.js (keeps the moves
//     made before the lab is live), web/start.js. Pause.
//     From here on, a file dropped on the page is never opened by the
//     browser in the tab, in place of the page (bloomlabKeepDrops); a drop
//     zone of the live page reads it.
//  3. start.js waits for the first contentful paint (or startLimit, or
//     the next frame of a page in the background). Pause.
//  4. start.js starts web/start.js again as a worker, which downloads
//     app.wasm and compiles it as it comes (WebAssembly.compileStreaming),
//     posting the download's share to the page's status; on the page, a
//     message a step, each its own short task. Without Worker, or if the
//     worker does not start, the page downloads and compiles it itself, as
//     go-app did. A failed or stalled download is said in words, with a
//     Retry (bloomlabStatus).
//  5. The worker posts the compiled module; the page makes its instance
//     (WebAssembly.instantiate, one task), keeps the module as
//     bloomlabWasmModule for its own workers, and pauses.
//  6. Go's runtime and package set-up, then main: Routes (bloomlab:main),
//     a pause, InstallJSFace, a pause, app.RunWhenOnBrowser, which makes
//     go-app's engine and renders the page, and mounts it. The shell
//     pauses before its first element, and the page's own start (the
//     lab's, the lessons', the calculator's, the about page's) yields
//     between its parts (app/ui's yield.go): a pause at each
//     (bloomlab:pause). start.js removes the loader once main has
//     blocked, and registers the service worker. A link clicked in a
//     pause is held for go-app, which follows it once the mount is done
//     (bloomlabKeepLinks); the browser would load the page afresh.
//  7. Live: the page calls window.bloomlabLive and the moves kept are made
//     again. The lab's worker and the experiments' and the audit's
//     workers (app/engine) start from bloomlabWasmModule when first needed:
//     app.wasm is downloaded and compiled once.
//
// If the Go program ends after that (a panic), start.js puts the notice
// back above the page's content, in words, with a Reload, and writes the
// panic's message to the console's errors.
//
// Where the next thing goes: a new page is a package of its own under app/
// and one line in the table in pages.go (its route name in app/ui); a new
// function of the console is one entry in jsface.go, with its work done by
// the engine or the page it asks; a change to what the server sends (the
// offline worker, the icons, the cache) is in handler.go; a change to the
// start is in web/start.js and the list above.
package site
