//go:build !js

package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// TestBrowserWasmAfterFirstPaint: the page asks for app.wasm only once the
// browser has painted the prerendered page, so that downloading and
// compiling the WebAssembly never holds back the first frame; the lab
// still goes live. The page marks bloomlab:compile as it asks its worker
// (whose download is not in the page's timings) for the module.
func TestBrowserWasmAfterFirstPaint(t *testing.T) {
	needBrowser(t)
	base := labURL(t)
	for _, page := range []struct{ path, live string }{
		{"/", `#lab[data-state="ready"]`},
		{"/about", `body:not(:has(#app-wasm-loader))`},
	} {
		ctx := btab(t, 1280, 800)
		bdo(t, ctx, chromedp.Navigate(base+page.path), chromedp.WaitReady(chromedp.CSS(page.live)))
		got := beval[map[string]float64](t, ctx, `(() => {
  const paint = performance.getEntriesByName("first-contentful-paint")[0];
  const wasm = performance.getEntriesByName("bloomlab:compile")[0];
  return {paint: paint ? paint.startTime : -1, wasm: wasm ? wasm.startTime : -1};
})()`)
		t.Logf("%s: first contentful paint at %.0f ms, app.wasm asked for at %.0f ms", page.path, got["paint"], got["wasm"])
		if got["paint"] < 0 || got["wasm"] < 0 {
			t.Errorf("%s: no first paint or no app.wasm in the page's timings: %v", page.path, got)
		} else if got["wasm"] < got["paint"] {
			t.Errorf("%s: app.wasm was asked for at %.0f ms, before the first paint at %.0f ms", page.path, got["wasm"], got["paint"])
		}
	}
}

// TestBrowserWorkersStartFromThePagesModule: the workers start from the
// module the page compiled, so they never ask for app.wasm (before, each
// fetched or revalidated it and compiled it again, on the cores the page
// was starting on). The service worker, which would answer their requests
// from its copy and hide them, is left out of the page.
func TestBrowserWorkersStartFromThePagesModule(t *testing.T) {
	needBrowser(t)
	h, err := labServer(webDir(t), "")
	if err != nil {
		t.Fatal(err)
	}
	var asked atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/app.wasm") {
			asked.Add(1)
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	ctx := btab(t, 1280, 900)
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `delete Navigator.prototype.serviceWorker;`}); err != nil {
		t.Fatal(err)
	}
	bdo(t, ctx, chromedp.Navigate(srv.URL+"/experiments"), waitExp("idle"))
	pageAsked := asked.Load()
	status := waitEngines(t, ctx)
	t.Logf("the page asked for app.wasm %d times; then %s: %d more", pageAsked, status, asked.Load()-pageAsked)
	if strings.Contains(status, "thread") {
		t.Fatalf("no workers: %q", status)
	}
	if pageAsked != 1 {
		t.Errorf("the page asked for app.wasm %d times, want once", pageAsked)
	}
	if more := asked.Load() - pageAsked; more > 0 {
		t.Errorf("starting the workers asked for app.wasm %d more times", more)
	}
}

// TestBrowserLabAuditWaitsForIdle: the lab's audit, and the workers it
// runs on, start only once the page has nothing else to do: after the
// charts' measurements, which follow the first run, have ended, or, when
// the page starts on its first view and measures nothing, after its first
// draw. The page
// notes the wall-clock time the chart status stops saying "Measuring",
// the server the time the first worker's script is asked for. The service
// worker, whose install fetches that script for the offline copy, is left
// out of the page.
func TestBrowserLabAuditWaitsForIdle(t *testing.T) {
	needBrowser(t)
	h, err := labServer(webDir(t), "")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var workerAt time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/engine.js") {
			mu.Lock()
			if workerAt.IsZero() {
				workerAt = time.Now()
			}
			mu.Unlock()
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	ctx := btab(t, 1280, 900)
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `
delete Navigator.prototype.serviceWorker;
addEventListener("DOMContentLoaded", () => {
  let measuring = false;
  new MutationObserver(() => {
    const s = document.getElementById("chart-status")?.textContent ?? "";
    if (s.includes("Measuring")) measuring = true;
    else if (measuring && !self.measuredAt) self.measuredAt = Date.now();
  }).observe(document.body, {subtree: true, childList: true, characterData: true});
});`}); err != nil {
		t.Fatal(err)
	}
	bdo(t, ctx, chromedp.Navigate(srv.URL+"/"), waitLab())
	badge := bwaitText(t, ctx, "#audit-badge", func(s string) bool { return strings.Contains(s, "checks passed") })
	// A page that starts on its first view has the charts' points from
	// the prerendered page and measures nothing: then the audit waits
	// for the live page's first draw.
	measured := beval[float64](t, ctx, `self.measuredAt ?? (performance.timeOrigin + bloomlab.timings().firstDrawMs)`)
	mu.Lock()
	asked := workerAt
	mu.Unlock()
	if measured == 0 || asked.IsZero() {
		t.Fatalf("the charts' measurements never ended (%v) or no worker was asked for (%v); badge %q", measured, asked, badge)
	}
	gap := asked.Sub(time.UnixMilli(int64(measured)))
	t.Logf("the first worker was asked for %v after the charts' measurements ended; badge %q", gap.Round(time.Millisecond), badge)
	if gap < 0 {
		t.Errorf("the first worker was asked for %v before the charts' measurements ended", -gap)
	}
}
