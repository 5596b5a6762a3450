//go:build wasm

package main

import "github.com/bloomlab/bloomlab/app/engine"

// main starts the lab in the browser, or one of its workers; the command
// line is native only.
func main() {
	if engine.IsWorker() {
		engine.Serve()
		return
	}
	routes()
	runWhenOnBrowser()
}
