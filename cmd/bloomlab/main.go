//go:build !wasm

// Command bloomlab is Bloom Lab: built for the browser it is the lab itself
// (go-app routes, then RunWhenOnBrowser); built natively it is the command line:
// serve, site, audit, size, simulate, try, experiment, lesson, figure and filter. The command line is
// left out of the WebAssembly build, which never reaches it.
package main

import (
	"fmt"
	"io"
	"os"
)

// command is one subcommand: its name, its one-line summary and its entry
// point, which returns the process exit status (0 ok, 1 failure, 2 bad usage).
type command struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

// commands names every subcommand once, in the order usage lists them.
// Adding a subcommand is a line here and its own file.
var commands = []command{
	{"audit", "check the filter's contract (--format text|json|junit|tap, --variant, --fault, --hashing, --faults), or a program's filters (--exec -- CMD); exit 1 if a check fails", interruptible(runAudit).run},
	{"experiment", "reproduce a classic measurement as a table (--list names them)", interruptible(runExperiment).run},
	{"figure", "print a chart or the bit array as a figure for a slide: figure --chart k 'bits-per-key=6&hashes=3' (SVG, or --format csv)", runFigure},
	{"filter", "a filter as a file: build, test, merge, intersect and info (filter -h); exit 2 on bad input", runFilter},
	{"lesson", "check a lesson file as the lessons page reads it (check FILE), or print a template (new)", runLesson},
	{"serve", "serve the lab on localhost (needs web/app.wasm: make wasm)", runServe},
	{"simulate", "run the lab's simulation with its controls as flags", interruptible(runSimulate).run},
	{"site", "write the lab as a static site: site -o DIR [--prefix /path]", runSite},
	{"size", "size a filter from two of n, p and m (with units), or rate m, n and k", runSize},
	{"try", "insert and query your own keys: the positions they light up, and why a key answers maybe", interruptible(runTry).run},
	{"version", "print the lab's module version and the Go it was built with", runVersion},
}

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
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "bloomlab: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: bloomlab COMMAND [flags]")
	fmt.Fprintln(w, "commands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-11s %s\n", c.name, c.summary)
	}
}
