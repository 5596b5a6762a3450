package ui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// TestShellKeepsLargeType: with the projector mode on, every navigation
// link carries it, so the next page opens in large type too.
func TestShellKeepsLargeType(t *testing.T) {
	SetNavigation([]NavEntry{{RouteLab, "Lab"}, {RouteAbout, "About"}})
	for _, large := range []bool{false, true} {
		html := app.HTMLString(NewShell().Route(RouteLab).LargeType(large).Body(app.P().Text("x")))
		links := regexp.MustCompile(`<a [^>]*href="([^"]*)"`).FindAllStringSubmatch(html, -1)
		if len(links) == 0 || links[0][1] != "#"+IDMain {
			t.Fatalf("the first link is not the skip link to #%s: %q", IDMain, links)
		}
		links = links[1:] // the skip link stays on the page
		if len(links) != len(nav)+1 {
			t.Fatalf("%d links, want the brand and %d entries", len(links), len(nav))
		}
		for _, l := range links {
			if has := strings.HasSuffix(l[1], "?large=on"); has != large {
				t.Errorf("large %v: link %q", large, l[1])
			}
		}
	}
}
