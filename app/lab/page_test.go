package lab

import (
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/engine"
	"github.com/bloomlab/bloomlab/app/lab/charts"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/audit"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// TestLabPageRenders renders the lab in go-app's test engine in the states
// a user meets: before the first result, with a result, with a fault that
// loses keys, and with a finished audit.
func TestLabPageRenders(t *testing.T) {
	broken := settings.DefaultLab()
	broken.Params.Fault = core.ClearOnDuplicate
	broken.Params.DuplicatePasses = 2
	cases := map[string]settings.Lab{"default": settings.DefaultLab(), "clear-on-duplicate": broken}
	for name, s := range cases {
		t.Run(name, func(t *testing.T) {
			e := app.NewTestEngine()
			c := New()
			c.settings, c.theory = s, theoryOf(s.Params)
			if err := e.Load(c); err != nil {
				t.Fatalf("before the first result: %v", err)
			}
			if got := counterValue(c, "out-m"); got != "40,000" {
				t.Errorf("out-m before the simulation = %q, want the formula's 40,000", got)
			}
			r, err := sim.Run(s.Params)
			if err != nil {
				t.Fatal(err)
			}
			c.result = &r
			c.charts.Redraw(c.result, s.Params, charts.Play{})
			rep := audit.Report{Passed: 3, Failed: 1, Total: 4}
			c.audit = engine.AuditRun{Report: &rep, Total: 4, Done: 4}
			if err := e.Load(c); err != nil {
				t.Fatalf("with a result: %v", err)
			}
			fn := counterValue(c, "out-false-negatives")
			alarm := false
			for _, ct := range c.counterList() {
				if ct.id == "out-false-negatives" {
					alarm = ct.alarm
				}
			}
			if (r.FalseNegatives > 0) != alarm {
				t.Errorf("false negatives %q: alarm %v", fn, alarm)
			}
			if s.Params.Fault == core.ClearOnDuplicate && r.FalseNegatives == 0 {
				t.Error("clear-on-duplicate with two passes lost no keys; the alarm path is untested")
			}
			if svg := app.HTMLString(c.charts.Render(c.variant(), c.result, false, charts.Play{})); !strings.Contains(svg, "optimum") || !strings.Contains(svg, "bits per key") {
				t.Error("charts not drawn")
			}
		})
	}
}

func counterValue(c *Page, id string) string {
	for _, ct := range c.counterList() {
		if ct.id == id {
			return ct.value
		}
	}
	return ""
}

// TestDismountForgetsContext: the page gone, it keeps no context of its
// own for a late callback to update.
func TestDismountForgetsContext(t *testing.T) {
	e := app.NewTestEngine()
	h := &runHost{}
	if err := e.Load(h); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	c := New()
	c.ctx = h.ctx
	c.OnDismount()
	if c.ctx.Src() != nil {
		t.Errorf("the dismounted lab keeps the context of %T", c.ctx.Src())
	}
}
