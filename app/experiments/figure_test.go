//go:build !js

package experiments

import (
	"net/url"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/engine"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui"
)

// TestExperimentFigure: an experiment's chart as a figure holds every
// point and the page's link, in its own style, and its CSV a row a point.
func TestExperimentFigure(t *testing.T) {
	sel, notices := settings.ExperimentFromQuery(url.Values{settings.ExpName: {"overfill"}})
	if len(notices) > 0 {
		t.Fatal(notices)
	}
	f, err := FigureOf(sel, 480, "https://example.org", true)
	if err != nil {
		t.Fatal(err)
	}
	res, err := engine.RunHere(sel.Name, sel.Sizes, 0, func() bool { return true }, func(int, int) {})
	if err != nil {
		t.Fatal(err)
	}
	link := Link("https://example.org", sel, true)
	if !strings.Contains(link, "/experiments?") || !strings.Contains(link, "large=on") {
		t.Errorf("link %q", link)
	}
	c := expChart(res.Chart, 480)
	if err := ui.CheckFigure(f.SVG, c, link); err != nil {
		t.Fatal(err)
	}
	points := 0
	for _, s := range c.Series {
		points += len(s.Points)
	}
	if rows := strings.Count(f.CSV, "\n") - 1; rows != points {
		t.Errorf("CSV of %d rows for %d points", rows, points)
	}
	if f.W != 480 || !strings.HasPrefix(f.Name, "bloomlab-overfill-") {
		t.Errorf("figure %g px wide named %q", f.W, f.Name)
	}
}
