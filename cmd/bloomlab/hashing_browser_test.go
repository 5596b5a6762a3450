//go:build !js

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/settings"

	"github.com/chromedp/chromedp"
)

// TestBrowserSmallFilterSaysWhy: at m = 200 the lab's double hashing
// measures above the formula, and the page says so beside the rate, with
// both intervals and a link to the measurement; independent hashes, chosen
// in the page, travel in the link and the note about hashing goes.
func TestBrowserSmallFilterSaysWhy(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 1400)
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/?"+params(settings.IDItems, "20", settings.IDQueries, "20000", settings.IDPresentShare, "0")), waitLab())
	note := bwaitText(t, ctx, "#fpr-note", func(s string) bool { return s != "" })
	if !strings.HasPrefix(note, "At m = 200, double hashing measures above the formula") {
		t.Errorf("note at m = 200: %q", note)
	}
	if href := beval[string](t, ctx, `document.getElementById("fpr-note-link").getAttribute("href")`); !strings.HasSuffix(href, "/experiments?"+params(settings.ExpName, "small-m")) {
		t.Errorf("the note links to %q", href)
	}
	for _, sel := range []string{"#out-ci", "#out-ci-whole"} {
		if got := btext(t, ctx, sel); !strings.Contains(got, " to ") {
			t.Errorf("%s = %q", sel, got)
		}
	}
	if os.Getenv("BLOOMLAB_FIGURES") != "" {
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err == nil {
			os.WriteFile(filepath.Join(os.Getenv("BLOOMLAB_FIGURES"), "small-filter.png"), png, 0o644)
		}
	}
	bdo(t, ctx, chromedp.SetValue(chromedp.CSS("#"+settings.IDHashing), "independent"),
		discard(chromedp.Evaluate[bool](`document.getElementById("`+settings.IDHashing+`").dispatchEvent(new Event("change", {bubbles: true}))`)))
	bwaitEval(t, ctx, `location.search`, func(s string) bool { return strings.Contains(s, params(settings.IDHashing, "independent")) })
	bwaitText(t, ctx, "#"+settings.IDHashing+"-help", func(s string) bool { return strings.HasPrefix(s, "independent hashes") })
	if strings.Contains(beval[string](t, ctx, `(document.getElementById("fpr-note") || {}).textContent || ""`), "hashing measures above") {
		t.Error("the note about double hashing stays with independent hashes")
	}
	// A blocked filter has no other scheme: choosing it says so.
	bdo(t, ctx, chromedp.SetValue(chromedp.CSS("#"+settings.IDVariant), "blocked"),
		discard(chromedp.Evaluate[bool](`document.getElementById("`+settings.IDVariant+`").dispatchEvent(new Event("change", {bubbles: true}))`)))
	notice := bwaitText(t, ctx, "#clamp-notice", func(s string) bool { return strings.Contains(s, "hashing") })
	if !strings.Contains(notice, "hashing: independent is not used here: the blocked filter draws its positions") {
		t.Errorf("notice %q", notice)
	}
}
