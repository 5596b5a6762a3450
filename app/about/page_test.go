package about

import (
	"net/url"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// TestAboutLinksOpenTheirLessons: every link into the lab is a legal link
// (no clamp notice) that opens the settings its lesson needs, and every
// calculator link solves.
func TestAboutLinksOpenTheirLessons(t *testing.T) {
	t.Parallel()
	want := map[string]func(s settings.Lab) bool{
		"try-default":  func(s settings.Lab) bool { return s.Params == sim.Defaults() },
		"try-optimum":  func(s settings.Lab) bool { return s.OptimalK && s.Params.Hashes == 7 },
		"try-too-many": func(s settings.Lab) bool { return s.Params.Hashes == 20 },
		"try-ceil":     func(s settings.Lab) bool { return s.Params.BitsPerKey == 6.2 && s.Params.Hashes == 5 },
		"try-present":  func(s settings.Lab) bool { return s.Params.PresentShare == 50 },
		"try-clear": func(s settings.Lab) bool {
			return s.Params.Fault == core.ClearOnDuplicate && s.Params.DuplicatePasses == 2
		},
		"try-negative": func(s settings.Lab) bool { return s.Params.Fault == core.NegativeIndex },
		"try-weak-hash": func(s settings.Lab) bool {
			return s.Params.Fault == core.WeakHash
		},
		"try-overfill": func(s settings.Lab) bool { return s.Params.Items == 8000 },
		"try-wrap": func(s settings.Lab) bool {
			return s.Params.Variant == core.CountingVariant && s.Params.Fault == core.WrapCounters && s.Params.DuplicatePasses == 4
		},
	}
	seen := map[string]bool{}
	for section, links := range aboutLinks() {
		for _, l := range links {
			seen[l.ID] = true
			u, err := url.Parse(l.Href)
			if err != nil {
				t.Fatalf("%s: %v", l.ID, err)
			}
			switch u.Path {
			case ui.RouteLab:
				s, notices := settings.LabFromQuery(u.Query())
				if len(notices) > 0 {
					t.Errorf("%s (%s): the link is clamped: %v", l.ID, section, notices)
				}
				check, ok := want[l.ID]
				if !ok {
					t.Errorf("%s: a lab link without a test of its settings", l.ID)
				} else if !check(s) {
					t.Errorf("%s: settings %+v do not show the lesson", l.ID, s)
				}
			case ui.RouteCalculator:
				f, notice := settings.CalculatorFromQuery(u.Query())
				if r := f.Solve(); notice != "" || !r.OK {
					t.Errorf("%s: calculator link %s does not solve: %q %v %q", l.ID, l.Href, notice, r.Errors, r.Err)
				}
			case ui.RouteAudit:
				if _, err := core.ParseFault(u.Query().Get(settings.IDFault)); err != nil {
					t.Errorf("%s: %v", l.ID, err)
				}
			default:
				t.Errorf("%s: link to %s, not a page of the lab", l.ID, l.Href)
			}
		}
	}
	for id := range want {
		if !seen[id] {
			t.Errorf("no link %s", id)
		}
	}
}

// TestAboutWorksOffline: the page's formulas are MathML with plain-text
// twins, its chart is inline SVG, and nothing is fetched from elsewhere.
func TestAboutWorksOffline(t *testing.T) {
	t.Parallel()
	p := New()
	e := app.NewTestEngine()
	if err := e.Load(p); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	html := app.HTMLString(p)
	for _, id := range []string{"bits", "formula", "proof", "leaks", "questions", "sources",
		"formula-zero", "formula-rate", "formula-log", "formula-opt", "formula-bits", "formula-per-key", "about-chart"} {
		if !strings.Contains(html, `id="`+id+`"`) {
			t.Errorf("no #%s", id)
		}
	}
	if n := strings.Count(html, `<math display="block">`); n != 6 {
		t.Errorf("%d MathML formulas, want 6", n)
	}
	if n := strings.Count(html, `class="formula-plain"`); n != 6 {
		t.Errorf("%d plain-text formulas, want 6", n)
	}
	for _, bad := range []string{`src="http`, `href="http`, `url(http`, "cdn", "mathjax", "katex"} {
		if strings.Contains(strings.ToLower(html), bad) {
			t.Errorf("the page refers to %q: it must work offline", bad)
		}
	}
	for _, s := range []string{"958,505,838 bits (114.26 MiB)", "0.050269", "0.051029"} {
		if !strings.Contains(html, s) {
			t.Errorf("the page lacks the reference figure %q", s)
		}
	}
}

func TestAboutChart(t *testing.T) {
	t.Parallel()
	svg := kChartSVG()
	if n := strings.Count(svg, `<path class="series bpk`); n != 3 {
		t.Errorf("%d curves, want 3", n)
	}
	if !strings.Contains(svg, `class="mark optimum"`) || !strings.Contains(svg, "k = 6.93") {
		t.Error("no optimum mark at k = 6.93")
	}
	for _, label := range []string{"6 bits per key", "10 bits per key", "16 bits per key"} {
		if !strings.Contains(svg, label) {
			t.Errorf("no legend entry %q", label)
		}
	}
}
