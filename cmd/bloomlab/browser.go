package main

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// routes registers the lab's pages; it runs in both builds, since the server
// and the static generator need the same routes as the browser.
func routes() {}

// runWhenOnBrowser starts the lab in the browser and never returns there;
// natively it returns at once.
func runWhenOnBrowser() { app.RunWhenOnBrowser() }
