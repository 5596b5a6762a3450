//go:build !js

package main

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserWasmAfterFirstPaint: the page asks for app.wasm only once the
// browser has painted the prerendered page, so that downloading and
// compiling the WebAssembly never holds back the first frame; the lab
// still goes live.
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
  const wasm = performance.getEntriesByType("resource").find((e) => new URL(e.name).pathname.endsWith("/app.wasm"));
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
