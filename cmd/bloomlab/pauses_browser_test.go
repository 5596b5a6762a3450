//go:build !js

package main

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/bloomlab/bloomlab/app/lessons"
	"github.com/bloomlab/bloomlab/app/ui"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// startInParts notes, as the page marks itself live, whether the element
// root is a new one (the prerendered one is kept aside as the page is
// parsed) and which of ids are missing; and, at the page's second pause
// (its shell's is the first), clicks the skip link, noting whether the
// page was live then and where the focus went. The click is queued (a
// timer of 0 ms) before the pause's own timer, so it runs in the pause.
func startInParts(root string, ids []string) string {
	return fmt.Sprintf(`(() => {
  const root = %s, ids = %s;
  document.addEventListener("DOMContentLoaded", () => { window.prerendered = document.getElementById(root); });
  window.pauses = 0;
  const mark = performance.mark.bind(performance);
  performance.mark = (name, options) => {
    if (name === "bloomlab:pause" && ++window.pauses === 2) setTimeout(() => {
      document.getElementById(%s).click();
      window.clicked = {live: performance.getEntriesByName("bloomlab:live").length > 0, focus: document.activeElement?.id ?? ""};
    }, 0);
    if (name === "bloomlab:live") {
      const el = document.getElementById(root);
      window.atLive = {fresh: !!el && el !== window.prerendered, missing: ids.filter((id) => !document.getElementById(id)), pauses: window.pauses};
    }
    return mark(name, options);
  };
})();`, strconv.Quote(root), jsList(ids...), strconv.Quote(ui.IDSkipLink))
}

// TestBrowserPagesStartInParts: the about page, the lessons and the
// experiments pause while they mount (their shell, then between their
// parts), and the page answers in a pause: the skip link clicked then moves the focus, before
// the page is live. Once it marks itself live, the new page is in place
// whole, every part of it.
func TestBrowserPagesStartInParts(t *testing.T) {
	needBrowser(t)
	base := labURL(t)
	for _, c := range []struct {
		path, root string
		ids        []string
	}{
		{"/about", "about", []string{"bits", "formula", "proof", "leaks", "questions", "sources",
			"formula-zero", "formula-rate", "formula-log", "formula-opt", "formula-bits", "formula-per-key", "about-chart", "about-calculator"}},
		{"/lessons", lessons.IDLessonPanel, []string{lessons.IDLessonPanel, lessons.IDLessonBar, lessons.IDLessonNext, "lab"}},
		{"/experiments", "experiments", []string{"exp-name", "exp-summary", "exp-run", "exp-engine", "exp-progress-row", "exp-status", "exp-cli"}},
	} {
		t.Run(c.path, func(t *testing.T) {
			ctx := btab(t, 1280, 900)
			if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: startInParts(c.root, c.ids)}); err != nil {
				t.Fatal(err)
			}
			bdo(t, ctx, chromedp.Navigate(base+c.path))
			waitLive(t, ctx)
			at := beval[struct {
				Fresh   bool
				Missing []string
				Pauses  int
			}](t, ctx, `window.atLive`)
			if !at.Fresh || len(at.Missing) > 0 {
				t.Errorf("at live, #%s is new: %v, and missing are %v: the page was not in place whole", c.root, at.Fresh, at.Missing)
			}
			if at.Pauses < 2 {
				t.Fatalf("the page paused %d times before it was live, want 2 or more", at.Pauses)
			}
			clicked := beval[struct {
				Live  bool
				Focus string
			}](t, ctx, `window.clicked ?? {live: true, focus: ""}`)
			if clicked.Live || clicked.Focus != ui.IDMain {
				t.Errorf("the skip link clicked in the start's second pause: live %v, focus on %q, want the start under way and the focus on #%s", clicked.Live, clicked.Focus, ui.IDMain)
			}
		})
	}
}
