//go:build !js

package main

import (
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// noFirstView takes the first view's data out of the prerendered page
// before the lab starts, so the live lab finds none to take over and
// makes every measurement itself, as it does for a link it was not made for.
const noFirstView = `document.addEventListener("DOMContentLoaded", () => {
  document.getElementById("bit-array-first")?.removeAttribute("data-first-view");
});`

// TestBrowserTakeOver: the live lab takes the first view over from the
// prerendered page (the charts' sweep, the picture) rather than measuring
// again, and what it takes over is what a fresh run gives: the same page
// opened with its first view taken out, whose lab runs and sweeps on its
// own once live, shows every counter, control and chart alike, and the
// same canvas. For the lab's default link and the lessons' first step.
func TestBrowserTakeOver(t *testing.T) {
	needBrowser(t)
	base := labURL(t)
	for name, path := range map[string]string{"lab": "/", "lessons": "/lessons"} {
		t.Run(name, func(t *testing.T) {
			took := btab(t, 1280, 900)
			bdo(t, took, chromedp.Navigate(base+path), waitLab())
			if n := beval[int](t, took, `performance.getEntriesByName("bloomlab:first-view").length`); n != 1 {
				t.Fatalf("the lab took no first view over (%d marks)", n)
			}
			fresh := btab(t, 1280, 900)
			if _, err := chromedp.Call(fresh, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: noFirstView}); err != nil {
				t.Fatal(err)
			}
			bdo(t, fresh, chromedp.Navigate(base+path), waitLab())
			if n := beval[int](t, fresh, `performance.getEntriesByName("bloomlab:first-view").length`); n != 0 {
				t.Fatal("the lab took a first view over from a page that carries none")
			}
			// The fresh lab sweeps its charts once live: wait for both.
			swept := `["chart-k", "chart-bpk"].every((id) => document.getElementById(id).querySelectorAll(".dot.measured").length >= 5) && !document.getElementById("chart-status").textContent.includes("Measuring")`
			bwaitEval(t, fresh, `String(`+swept+`)`, func(s string) bool { return s == "true" })
			want := beval[map[string]string](t, took, firstViewState)
			got := beval[map[string]string](t, fresh, firstViewState)
			for k, v := range want {
				if got[k] != v {
					t.Errorf("%s: taken over %q, fresh %q", k, clip(v), clip(got[k]))
				}
			}
			a, b := beval[map[string]any](t, took, canvasPixels), beval[map[string]any](t, fresh, canvasPixels)
			if a["pix"] != b["pix"] || a["w"] != b["w"] {
				t.Errorf("the canvas differs: taken over %v x %v, fresh %v x %v", a["w"], a["h"], b["w"], b["h"])
			}
		})
	}
}

// clickDuringStart clicks the overlap view's toggle in the first turn the
// lab's start gives the browser: the click is queued (a timer of 0 ms)
// the moment the first view's run is made, and the start, which yields
// there on a timer of its own, resumes only after it (timers that are due
// run in order). It notes when the click ran.
const clickDuringStart = `(() => {
  const mark = performance.mark.bind(performance);
  performance.mark = (name, options) => {
    if (name === "bloomlab:first-view") setTimeout(() => {
      document.getElementById("overlap-toggle").click();
      window.clickedAt = performance.now();
      window.clickNote = document.querySelector(".early-note")?.textContent ?? "";
    }, 0);
    return mark(name, options);
  };
})();`

// TestBrowserClickDuringStart: the lab's start lets the browser in while
// go-app builds the page, so a click made then runs then, before the page
// is mounted, and is kept: once live the lab applies it, once (the
// toggle clicked is on, as a second replay would turn it off again).
func TestBrowserClickDuringStart(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: clickDuringStart}); err != nil {
		t.Fatal(err)
	}
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/"), waitLab())
	on := params(settings.IDOverlap, "on")
	bwaitEval(t, ctx, `location.search`, func(s string) bool { return strings.Contains(s, on) })
	bdo(t, ctx, chromedp.WaitVisible(chromedp.CSS("#overlap-legend")))
	at := beval[struct {
		Clicked, Mounted float64
		Note             string
		Pressed          string
	}](t, ctx, `({Clicked: window.clickedAt ?? -1, Mounted: performance.getEntriesByName("bloomlab:live")[0]?.startTime ?? -1,
  Note: window.clickNote, Pressed: document.getElementById("overlap-toggle").getAttribute("aria-pressed")})`)
	if at.Clicked < 0 || at.Mounted < 0 || at.Clicked > at.Mounted {
		t.Errorf("the click ran at %.1f ms, the page was mounted at %.1f ms: the start did not let the browser in", at.Clicked, at.Mounted)
	}
	if !strings.Contains(at.Note, "starting") {
		t.Errorf("the toggle clicked during the start says %q", at.Note)
	}
	if at.Pressed != "true" {
		t.Errorf("the toggle clicked once during the start is pressed=%q", at.Pressed)
	}
	if n := beval[int](t, ctx, `document.querySelectorAll(".early-note").length`); n != 0 {
		t.Errorf("%d notes still say the lab is starting", n)
	}
}
