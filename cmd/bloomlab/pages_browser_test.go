//go:build !js

package main

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/site"
	"github.com/bloomlab/bloomlab/app/ui"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The tests here hold for every page of the site's page table, so a new
// page is held to them with no edit here.

// waitLive waits until the lab's wasm runs the page: the shell marks
// bloomlab:live once the page is mounted.
func waitLive(t *testing.T, ctx context.Context) {
	t.Helper()
	bwaitEval(t, ctx, `String(performance.getEntriesByName("bloomlab:live").length > 0)`, func(s string) bool { return s == "true" })
}

// TestBrowserSkipLink: on every page in the shell, the first Tab focuses
// "Skip to content", shown on the screen, and following it moves the focus
// to the page's content, past the navigation, without a navigation.
func TestBrowserSkipLink(t *testing.T) {
	needBrowser(t)
	base := labURL(t)
	ctx := btab(t, 1280, 900)
	for _, route := range site.PageRoutes() {
		if route == ui.RouteEmbed {
			continue // a frame's page: no shell, no navigation to skip
		}
		bdo(t, ctx, chromedp.Navigate(base+route))
		waitLive(t, ctx)
		bdo(t, ctx, chromedp.KeyEvent(kb.Tab))
		focused := beval[string](t, ctx, `(() => {
  const a = document.activeElement, r = a.getBoundingClientRect();
  return a.id + "|" + a.textContent.trim() + "|" + (r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < innerHeight);
})()`)
		if focused != ui.IDSkipLink+"|Skip to content|true" {
			t.Errorf("%s: the first Tab focuses %q, want the skip link, on the screen", route, focused)
			continue
		}
		bdo(t, ctx, chromedp.KeyEvent(kb.Enter))
		if id := beval[string](t, ctx, `document.activeElement.id`); id != ui.IDMain {
			t.Errorf("%s: following the skip link focuses %q, want #%s", route, id, ui.IDMain)
		}
		bdo(t, ctx, chromedp.KeyEvent(kb.Tab))
		where := beval[string](t, ctx, `(() => {
  const a = document.activeElement;
  return a.closest(".masthead") ? "navigation" : a.closest("main") ? "main" : a.tagName;
})()`)
		if where != "main" {
			t.Errorf("%s: the Tab after the skip link lands in %s, want the page's content", route, where)
		}
		if u := beval[string](t, ctx, `location.hash`); strings.Contains(u, ui.IDMain) {
			t.Errorf("%s: the skip link navigated to %q", route, u)
		}
	}
}

// ungroupedJS lists the counts of four or more digits a page shows without
// thousands separators, in its text outside code, inputs and links: a
// teacher's projector shows 4,000 on every page, not 4000 on one. Digits
// after a decimal point, in a hex digest or a key, years in a citation, a
// power's exponent and the forms a field's help shows as typed are not
// counts.
const ungroupedJS = `(() => {
  const out = [];
  const walk = document.createTreeWalker(document.querySelector("main") || document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest("code, pre, kbd, samp, textarea, input, option, script, style, a[href^='http'], .key, [id$='-help'], cite")) continue;
    if (!el.checkVisibility || !el.checkVisibility()) continue;
    for (const m of n.textContent.matchAll(/(^|[^\d.,^#\w-])(\d{4,})(?!\w)/g)) {
      const v = Number(m[2]);
      if (v >= 1900 && v <= 2099 && /\b(19|20)\d\d\b/.test(m[0])) continue; // a year
      out.push(m[2] + " in " + JSON.stringify(n.textContent.trim().slice(0, 80)));
    }
  }
  return out;
})()`

// TestBrowserEveryPage visits every page once live: one h1, its title;
// headings that make an outline, none more than a level under the one
// before it, and the lab's parts a level under the lab's title wherever
// the lab is shown (an h2 on its page, an h3 in a lesson, whose lab is an
// h2 part); every count written with thousands separators.
func TestBrowserEveryPage(t *testing.T) {
	needBrowser(t)
	base := labURL(t)
	ctx := btab(t, 1280, 900)
	for _, route := range site.PageRoutes() {
		bdo(t, ctx, chromedp.Navigate(base+route))
		waitLive(t, ctx)
		want := map[string]string{ui.RouteLab: "H2", ui.RouteLessons: "H3"}[route]
		if want != "" {
			// The key panel mounts once the lab is live.
			bdo(t, ctx, waitLab())
		}
		hs := beval[[]string](t, ctx, `[...document.querySelectorAll("h1, h2, h3, h4, h5, h6")].map(h => h.tagName + " " + h.textContent.trim())`)
		h1 := 0
		level := 0
		for i, h := range hs {
			l := int(h[1] - '0')
			if l == 1 {
				h1++
			}
			if (i == 0 && l != 1) || l > level+1 {
				t.Errorf("%s: %q follows an h%d: %q", route, h, level, hs)
				break
			}
			level = l
		}
		if h1 != 1 {
			t.Errorf("%s has %d h1, want one: %q", route, h1, hs)
		}
		for _, part := range []string{"One key at a time", "The bit array", "Charts"} {
			if want != "" && !slices.Contains(hs, want+" "+part) {
				t.Errorf("%s: no %s %q among %q", route, want, part, hs)
			}
		}
		if bad := beval[[]string](t, ctx, ungroupedJS); len(bad) > 0 {
			t.Errorf("%s shows counts without separators: %q", route, bad)
		}
	}
}
