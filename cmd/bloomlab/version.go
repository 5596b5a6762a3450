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
	fs := newFlags("version")
	if err := parse(fs, args); err != nil {
		return fail("version", fs, err, stderr)
	}
	fmt.Fprintln(stdout, buildinfo.Read())
	return 0
}
