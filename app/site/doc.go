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
// Where the next thing goes: a new page is a package of its own under app/
// and one line in the table in pages.go (its route name in app/ui); a new
// function of the console is one entry in jsface.go, with its work done by
// the engine or the page it asks; a change to what the server sends (the
// offline worker, the icons, the cache) is in handler.go.
package site
