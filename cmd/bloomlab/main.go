//go:build !wasm

// Command bloomlab is Bloom Lab: built for the browser it is the lab itself
// (go-app routes, then RunWhenOnBrowser); built natively it is the command line:
// serve, site, audit, size, simulate and experiment. The command line is
// left out of the WebAssembly build, which never reaches it.
package main

import (
	"fmt"
	"io"
	"os"
)

// command is one subcommand: its one-line summary and its entry point, which
// returns the process exit status (0 ok, 1 failure, 2 bad usage).
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

// commands is filled by each subcommand's file in init, so adding a
// subcommand touches only its own file.
var commands = map[string]command{}

func main() {
	routes()
	runWhenOnBrowser()
	os.Exit(dispatch(os.Args[1:], os.Stdout, os.Stderr))
}

func dispatch(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "bloomlab: unknown command %q\n", args[0])
		usage(stderr)
		return 2
	}
	return c.run(args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: bloomlab COMMAND [flags]")
	fmt.Fprintln(w, "commands:")
	for _, name := range sortedNames() {
		fmt.Fprintf(w, "  %-11s %s\n", name, commands[name].summary)
	}
}
