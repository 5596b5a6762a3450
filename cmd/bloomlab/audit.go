package main

import (
	"io"

	"bloomlab/audit"
)

func init() {
	commands["audit"] = command{
		summary: "check the filter's contract (--json, --fault NAME, --hashing SCHEME, --faults); exit 1 if a check fails",
		run:     runAudit,
	}
}

// runAudit is `bloomlab audit`; the parsing, report and exit codes live in
// audit.Main, shared with the Node runner cmd/bloomaudit.
func runAudit(args []string, stdout, stderr io.Writer) int {
	return audit.Main("bloomlab audit", args, stdout, stderr)
}
