package main

import (
	"github.com/bloomlab/bloomlab/app/site"
	"github.com/bloomlab/bloomlab/app/ui"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// routes registers the lab's pages; it runs in both builds, since the server
// and the static generator need the same routes as the browser.
func routes() { site.Routes() }

// runWhenOnBrowser starts the lab in the browser, with its JavaScript face,
// and never returns there; natively it returns at once.
func runWhenOnBrowser() {
	if app.IsClient {
		// The WebAssembly's own start is one task; the page's is others.
		ui.MarkStart("main")
		ui.LetBrowserIn()
		site.InstallJSFace()
		// go-app's start (its engine, the page's route and first render,
		// up to the shell's pause) is a task of its own.
		ui.LetBrowserIn()
	}
	app.RunWhenOnBrowser()
}
