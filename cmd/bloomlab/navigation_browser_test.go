//go:build !js

package main

import (
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/settings"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserNavigatesBetweenPages follows the navigation links inside the
// running app, the way a reader moves around, and checks the lab still
// draws and answers a slider after coming back to it from other pages.
func TestBrowserNavigatesBetweenPages(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/about"))
	bwaitEval(t, ctx, `String(!!window.bloomlab)`, func(s string) bool { return s == "true" })
	for _, page := range []string{"Lab", "Audit", "Calculator", "Lab", "Experiments", "Lab"} {
		bdo(t, ctx, chromedp.Click(chromedp.Search(`//header//nav//a[normalize-space(.)="`+page+`"]`)),
			// The new page mounts in parts, a task each (the shell's
			// pause), and is put in place whole: its own entry marked
			// current says it is in.
			chromedp.WaitVisible(chromedp.Search(`//header//nav//a[@aria-current="page" and normalize-space(.)="`+page+`"]`)))
		if page == "Lab" {
			bdo(t, ctx, waitLab())
			if ink := beval[int](t, ctx, bitArrayInk); ink == 0 {
				t.Fatalf("back on the lab from the navigation, the bit array is blank")
			}
		}
	}
	before := btext(t, ctx, "#out-m")
	bdo(t, ctx, chromedp.Focus(chromedp.CSS("#"+settings.IDBitsPerKey)),
		chromedp.KeyEvent(kb.ArrowRight))
	bwaitText(t, ctx, "#out-m", func(s string) bool { return s != before && s != "" })
	if alive := beval[string](t, ctx, `typeof window.bloomlab.simulate`); !strings.Contains(alive, "function") {
		t.Fatalf("the app stopped after navigating: bloomlab.simulate is %s", alive)
	}
}
