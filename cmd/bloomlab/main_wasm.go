//go:build wasm

package main

import lab "bloomlab/app"

// main starts the lab in the browser, or one of its workers; the command
// line is native only.
func main() {
	if lab.IsEngineWorker() {
		lab.ServeEngine()
		return
	}
	routes()
	runWhenOnBrowser()
}
