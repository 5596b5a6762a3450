//go:build !wasm

package main

import (
	"fmt"
	"io"

	"github.com/bloomlab/bloomlab/cmd/internal/buildinfo"
)

// runVersion prints "bloomlab VERSION (GO)": the module version `go install`
// stamped (devel for a build from a checkout) and the Go that built it.
func runVersion(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		code := 2
		if args[0] == "-h" || args[0] == "--help" {
			code = 0
		} else {
			fmt.Fprintf(stderr, "bloomlab version: takes no arguments, got %q\n", args[0])
		}
		fmt.Fprintln(stderr, "usage: bloomlab version")
		return code
	}
	fmt.Fprintln(stdout, buildinfo.Read())
	return 0
}
