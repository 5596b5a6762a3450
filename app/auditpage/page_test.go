package auditpage

import (
	"testing"

	"github.com/bloomlab/bloomlab/app/engine"
	"github.com/bloomlab/bloomlab/audit"
	"github.com/bloomlab/bloomlab/core"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

func TestAuditPageRenders(t *testing.T) {
	e := app.NewTestEngine()
	p := New()
	if err := e.Load(p); err != nil {
		t.Fatalf("empty: %v", err)
	}
	rep, err := audit.Run(audit.MustLab(core.Variant{}, core.OneHash, ""), nil)
	if err != nil {
		t.Fatal(err)
	}
	p.fault = core.OneHash
	p.run = engine.AuditRun{Fault: core.OneHash, Done: rep.Total, Total: rep.Total, Checks: rep.Checks, Report: &rep}
	if err := e.Load(p); err != nil {
		t.Fatalf("finished: %v", err)
	}
}
