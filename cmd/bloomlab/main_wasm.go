//go:build wasm

package main

// main starts the lab in the browser; the command line is native only.
func main() {
	routes()
	runWhenOnBrowser()
}
