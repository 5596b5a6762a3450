//go:build !wasm

package main

import (
	"context"
	"io"
	"time"

	"github.com/bloomlab/bloomlab/audit"
	"github.com/bloomlab/bloomlab/audit/program"
	"github.com/bloomlab/bloomlab/cmd/internal/auditcli"
)

// runAudit is `bloomlab audit`; the parsing, report and exit codes live in
// auditcli, shared with the Node runner cmd/bloomaudit. On a terminal it
// shows the checks done as simulate shows its progress, and Ctrl-C stops
// the audit, and the program --exec started, with statusInterrupted.
func runAudit(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	p := newProgress(ctx, "audit", stderr)
	status := auditcli.MainWith(ctx, "bloomlab audit", args, stdout, stderr, auditcli.Options{Progress: p.step, Exec: execTarget})
	if p.finish() {
		return statusInterrupted
	}
	return status
}

// execTarget starts the program of --exec and returns its target.
func execTarget(ctx context.Context, argv []string, timeout time.Duration) (audit.Target, func(), error) {
	p, err := program.Start(ctx, argv, timeout)
	if err != nil {
		return audit.Target{}, nil, err
	}
	return p.Target(), p.Close, nil
}
