//go:build !wasm

package main

import (
	"io"

	"bloomlab/cmd/internal/auditcli"
)

func init() {
	commands["audit"] = command{
		summary: "check the filter's contract (--format text|json|junit|tap, --variant, --fault, --hashing, --faults); exit 1 if a check fails",
		run:     runAudit,
	}
}

// runAudit is `bloomlab audit`; the parsing, report and exit codes live in
// auditcli.Main, shared with the Node runner cmd/bloomaudit.
func runAudit(args []string, stdout, stderr io.Writer) int {
	return auditcli.Main("bloomlab audit", args, stdout, stderr)
}
