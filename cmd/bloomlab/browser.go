package main

import (
	"github.com/bloomlab/bloomlab/app/site"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// routes registers the lab's pages; it runs in both builds, since the server
// and the static generator need the same routes as the browser.
func routes() { site.Routes() }

// runWhenOnBrowser starts the lab in the browser, with its JavaScript face,
// and never returns there; natively it returns at once.
func runWhenOnBrowser() {
	if app.IsClient {
		site.InstallJSFace()
	}
	app.RunWhenOnBrowser()
}
