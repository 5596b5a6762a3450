// Command bloomaudit runs the Bloom Lab audit and nothing else. It imports
// only the audit's command line (cmd/internal/auditcli), the audit and core,
// so it builds for GOOS=js GOARCH=wasm and runs under Node, where the lab's
// browser start-up cannot:
//
//	GOOS=js GOARCH=wasm go build -o /tmp/bloomaudit.wasm ./cmd/bloomaudit
//	node "$(go env GOROOT)/lib/wasm/wasm_exec_node.js" /tmp/bloomaudit.wasm --json
//
// Its flags, report and exit status are those of `bloomlab audit`.
package main

import (
	"os"

	"github.com/bloomlab/bloomlab/cmd/internal/auditcli"
)

func main() {
	os.Exit(auditcli.Main("bloomaudit", os.Args[1:], os.Stdout, os.Stderr))
}
