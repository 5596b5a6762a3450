//go:build !js

package main

import (
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/settings"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// livesJS is how many times a page has marked itself live in this
// document: once at its start and once for each page the app moves to.
const livesJS = `String(performance.getEntriesByName("bloomlab:live").length)`

// TestBrowserNavigatesBetweenPages follows the navigation links inside the
// running app, the way a reader moves around, and checks the lab still
// draws and answers a slider after coming back to it from other pages.
func TestBrowserNavigatesBetweenPages(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/about"))
	// Until the page is live, its links are the prerendered page's, which
	// the app's own replace as it mounts.
	waitLive(t, ctx)
	for _, page := range []string{"Lab", "Audit", "Calculator", "Lab", "Experiments", "Lab"} {
		lives := beval[string](t, ctx, livesJS)
		bdo(t, ctx, chromedp.Click(chromedp.Search(`//header//nav//a[normalize-space(.)="`+page+`"]`)))
		// The new page mounts in parts, a task each (the shell's pause),
		// and is put in place whole; it marks itself live once mounted.
		bwaitEval(t, ctx, livesJS, func(s string) bool { return s != lives })
		if cur := btext(t, ctx, `header nav a[aria-current="page"]`); cur != page {
			t.Fatalf("after a click on %q in the navigation, the page marked current is %q", page, cur)
		}
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

// linkInAPause, on a new document, counts the page's loads in the tab's
// session and, once armed, clicks the navigation's link to the calculator
// in the next pause of a page's mount, keeping whether the click's default
// (the browser following the link, a load afresh) was turned off. The
// click is queued (a timer of 0 ms) before the pause's own timer, so it
// runs in the pause, with the program mid-mount.
const linkInAPause = `(() => {
  sessionStorage.setItem("loads", String(Number(sessionStorage.getItem("loads") ?? 0) + 1));
  const mark = performance.mark.bind(performance);
  performance.mark = (name, options) => {
    if (name === "bloomlab:pause" && window.armed) {
      window.armed = false;
      setTimeout(() => {
        const link = document.evaluate('//header//nav//a[normalize-space(.)="Calculator"]', document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue;
        const followed = link.dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true, view: window}));
        sessionStorage.setItem("followed", String(followed));
      }, 0);
    }
    return mark(name, options);
  };
})();`

// TestBrowserLinkClickedInAPause: a link clicked while a page mounts (in
// one of its pauses, the program mid-task) is followed inside the app,
// once the mount is done, not by the browser loading the page afresh:
// go-app hands a click to its queue and turns the browser's default off
// only when its queue gets to it, after the pause.
func TestBrowserLinkClickedInAPause(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: linkInAPause}); err != nil {
		t.Fatal(err)
	}
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/about"))
	waitLive(t, ctx)
	beval[bool](t, ctx, `window.armed = true`)
	bdo(t, ctx, chromedp.Click(chromedp.Search(`//header//nav//a[normalize-space(.)="Lab"]`)))
	bwaitEval(t, ctx, `sessionStorage.getItem("followed") ?? ""`, func(s string) bool { return s != "" })
	if followed := beval[string](t, ctx, `sessionStorage.getItem("followed")`); followed != "false" {
		t.Fatalf("a link clicked in a pause of the lab's mount was followed by the browser (the click's default was not turned off), and the calculator loaded afresh")
	}
	bdo(t, ctx, chromedp.WaitVisible(chromedp.Search(`//header//nav//a[@aria-current="page" and normalize-space(.)="Calculator"]`)))
	if got := beval[string](t, ctx, `location.pathname + " " + sessionStorage.getItem("loads")`); got != "/calculator 1" {
		t.Fatalf("after the link clicked in a pause, the path and the tab's loads are %q, want %q: the calculator came in the app, in the same page", got, "/calculator 1")
	}
}
