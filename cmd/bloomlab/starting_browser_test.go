//go:build !js

package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/settings"

	"github.com/chromedp/chromedp"
)

// TestBrowserStartingStatus: while the WebAssembly is on its way (held
// here until the test ends, as a slow network holds it), the prerendered
// lab is the page: the status that says the lab is starting is a small
// box in the masthead, it covers no control and takes no click.
func TestBrowserStartingStatus(t *testing.T) {
	needBrowser(t)
	h, err := labServer(webDir(t), "")
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/app.wasm") {
			select {
			case <-release:
			case <-r.Context().Done():
				return
			}
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })

	for _, width := range []int{1280, 360} {
		ctx := btab(t, width, 800)
		bdo(t, ctx, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS("#app-wasm-loader")))
		label := bwaitText(t, ctx, "#app-wasm-loader-label", func(s string) bool { return strings.HasPrefix(s, "Starting the lab: ") })
		box := beval[map[string]float64](t, ctx, `(() => {
  const r = document.getElementById("app-wasm-loader").getBoundingClientRect();
  const m = document.querySelector(".masthead").getBoundingClientRect();
  return {left: r.left, top: r.top, width: r.width, height: r.height, vw: innerWidth, vh: innerHeight,
    inMasthead: r.left >= m.left && r.right <= m.right && r.top >= m.top && r.bottom <= m.bottom ? 1 : 0};
})()`)
		t.Logf("%d px: %q in a box %.0f x %.0f at (%.0f, %.0f)", width, label, box["width"], box["height"], box["left"], box["top"])
		if box["height"] > 60 || box["width"] > box["vw"]*0.8 || box["inMasthead"] != 1 {
			t.Errorf("%d px: the starting status covers %.0f x %.0f px from (%.0f, %.0f), not a small box in the masthead of the %.0f x %.0f window",
				width, box["width"], box["height"], box["left"], box["top"], box["vw"], box["vh"])
		}
		if pe := beval[string](t, ctx, `getComputedStyle(document.getElementById("app-wasm-loader")).pointerEvents`); pe != "none" {
			t.Errorf("%d px: the starting status takes clicks (pointer-events %s)", width, pe)
		}
		// The first slider's middle is the slider, not the status.
		if on := beval[string](t, ctx, `(() => {
  const r = document.getElementById("`+settings.IDBitsPerKey+`").getBoundingClientRect();
  return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)?.id ?? "";
})()`); on != settings.IDBitsPerKey {
			t.Errorf("%d px: the bits-per-key slider's middle shows %q", width, on)
		}
	}
}
