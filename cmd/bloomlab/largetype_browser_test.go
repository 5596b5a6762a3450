//go:build !js

package main

import (
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/settings"

	"github.com/chromedp/chromedp"
)

// TestBrowserNavigationKeepsLargeType: a teacher who switches on large type
// keeps it while moving between pages by the navigation, and the calculator
// keeps it in its own link too.
func TestBrowserNavigationKeepsLargeType(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/?"+params(settings.IDLarge, "on")), waitLab())
	large := `document.querySelector(".shell").classList.contains("large-type") ? "on" : "off"`
	for _, page := range []string{"Calculator", "Audit", "About", "Experiments", "Lab"} {
		bdo(t, ctx, chromedp.Click(chromedp.Search(`//header//nav//a[normalize-space(.)="`+page+`"]`)))
		bwaitEval(t, ctx, `document.querySelector("nav a[aria-current=page]")?.textContent ?? ""`, func(s string) bool { return s == page })
		if got := bwaitEval(t, ctx, large, func(s string) bool { return s == "on" }); got != "on" {
			t.Fatalf("%s opened without large type", page)
		}
		if q := beval[string](t, ctx, `location.search`); !strings.Contains(q, params(settings.IDLarge, "on")) {
			t.Errorf("%s: the address %q dropped large=on", page, q)
		}
		links := beval[[]string](t, ctx, `[...document.querySelectorAll("header a")].map(a => a.getAttribute("href"))`)
		for _, l := range links {
			if !strings.HasSuffix(l, "?"+params(settings.IDLarge, "on")) {
				t.Errorf("on %s the link %q drops large type", page, l)
			}
		}
	}
	// Off again: the links go back to plain routes.
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#"+settings.IDLarge)))
	bwaitEval(t, ctx, large, func(s string) bool { return s == "off" })
	if l := beval[string](t, ctx, `document.querySelector('nav a[href*="calculator"]').getAttribute("href")`); strings.Contains(l, settings.IDLarge) {
		t.Errorf("with large type off the calculator link is %q", l)
	}
}
