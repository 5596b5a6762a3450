//go:build !js

package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// TestBrowserStatusBoxWhileParsed: the starting status keeps its box while
// the page is still being read. go-app writes the status at the end of the
// page, its icon before its label, and a browser may draw a frame between
// the two (a slow machine did, in CI: a layout shift). The test holds the
// page's HTML just before the label and has the browser lay out what it
// has read, then lets the rest through: the status's box and its icon's
// are where they were.
func TestBrowserStatusBoxWhileParsed(t *testing.T) {
	needBrowser(t)
	h, err := labServer(webDir(t), "")
	if err != nil {
		t.Fatal(err)
	}
	rest := make(chan struct{})
	release := sync.OnceFunc(func() { close(rest) })
	t.Cleanup(release)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/app.wasm":
			// Held for the test's length: the status stays.
			<-r.Context().Done()
			return
		case "/":
		default:
			h.ServeHTTP(w, r)
			return
		}
		// Plain, so that the cut falls where the label starts.
		r.Header.Del("Accept-Encoding")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		body := rec.Body.Bytes()
		cut := bytes.LastIndex(body[:max(0, bytes.Index(body, []byte(`id="app-wasm-loader-label"`)))], []byte("<p "))
		if cut < 0 {
			t.Errorf("the page has no status label to hold before: %q", body[max(0, len(body)-300):])
			cut = len(body)
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		w.Write(body[:cut])
		w.(http.Flusher).Flush()
		select {
		case <-rest:
		case <-r.Context().Done():
			return
		}
		w.Write(body[cut:])
	}))
	t.Cleanup(srv.Close)

	ctx := btab(t, 1280, 900)
	if _, err := chromedp.Call(ctx, page.Navigate, page.NavigateParams{URL: srv.URL + "/"}); err != nil {
		t.Fatal(err)
	}
	// The box as the browser lays the page out, once its styles are in:
	// asking for it lays out what has been read so far.
	const box = `(() => {
  const el = document.getElementById("app-wasm-loader"), icon = document.getElementById("app-wasm-loader-icon");
  if (!icon || [...document.querySelectorAll("link[rel=stylesheet]")].some((l) => !l.sheet)) return "";
  const r = el.getBoundingClientRect();
  // The icon spins: its place in the status, not its turning box.
  return "status " + [r.x, r.y, r.width, r.height].join(" ") + ", icon at " + [icon.offsetLeft, icon.offsetTop, icon.offsetWidth, icon.offsetHeight].join(" ") +
    (document.getElementById("app-wasm-loader-label") ? " label" : "");
})()`
	held := bwaitEval(t, ctx, box, func(s string) bool { return s != "" })
	if strings.HasSuffix(held, "label") {
		t.Fatalf("the held page already has the status's label: %q", held)
	}
	release()
	whole := bwaitEval(t, ctx, box, func(s string) bool { return strings.HasSuffix(s, " label") })
	if want := held + " label"; whole != want {
		t.Errorf("the starting status moved as its label was read: %q, then %q", held, whole)
	}
}
