//go:build !js

package main

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/bloomlab/bloomlab/app/settings"

	"github.com/chromedp/chromedp"
)

// statusCovers lists, as one line, the controls the starting status's box
// meets: every input, button, select, link and summary, and the counters'
// figures, each shown on the page (a box of some size). "" when it meets
// none.
const statusCovers = `(() => {
  const s = document.getElementById("app-wasm-loader");
  if (!s) return "no status";
  const b = s.getBoundingClientRect();
  const meets = (r) => r.left < b.right && b.left < r.right && r.top < b.bottom && b.top < r.bottom;
  const out = [];
  for (const el of document.querySelectorAll("input, button, select, a, summary, .counter")) {
    if (s.contains(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (meets(r)) out.push((el.id ? "#" + el.id : el.tagName.toLowerCase() + "." + el.className) + " " + JSON.stringify((el.textContent || el.value || "").trim().slice(0, 30)));
  }
  return out.join("; ");
})()`

// statusShown is "" when the starting status is on screen: a box inside
// the window, its label the topmost thing at the label's middle; else what
// is wrong.
const statusShown = `(() => {
  const s = document.getElementById("app-wasm-loader");
  const label = document.getElementById("app-wasm-loader-label");
  if (!s || !label) return "no status";
  const b = s.getBoundingClientRect();
  if (b.width === 0 || b.height === 0) return "no box";
  if (b.left < 0 || b.top < 0 || b.right > innerWidth || b.bottom > innerHeight) return "out of the window: " + JSON.stringify(b);
  const l = label.getBoundingClientRect();
  // The status takes no clicks, so the hit test would pass through it.
  const was = s.style.pointerEvents;
  s.style.pointerEvents = "auto";
  const top = document.elementFromPoint(l.left + l.width / 2, l.top + l.height / 2);
  s.style.pointerEvents = was;
  if (!top || !s.contains(top)) return "hidden under " + (top ? top.tagName + "." + top.className : "nothing");
  return "";
})()`

// stateAndText is the starting status's state (data-state) and its text;
// a test that waits for a state shows the text the status had instead.
const stateAndText = `(() => {
  const s = document.getElementById("app-wasm-loader");
  return s ? (s.dataset.state || "") + " " + s.textContent.trim() : "no status";
})()`

// TestBrowserStartingStatusCoversNothing: while app.wasm is held (a slow
// network), the status that says the lab is starting is on screen and
// its box meets no control and no counter, at a phone's, a tablet's and a
// laptop's width, on the lab, the lessons and the embed. Before, at the
// window's bottom corner, it lay over the duplicate-passes slider at 360
// px and the key-bytes slider at 720.
func TestBrowserStartingStatusCoversNothing(t *testing.T) {
	needBrowser(t)
	hl := holdLab(t)
	for _, c := range []struct {
		path          string
		width, height int
	}{
		{"/", 360, 800}, {"/", 720, 900}, {"/", 1280, 800},
		{"/lessons", 360, 800}, {"/lessons", 720, 900}, {"/lessons", 1280, 800},
		{"/embed", 360, 800},
	} {
		// A tab of its own, closed when its case ends: each holds a
		// request for app.wasm, and a browser opens only a few connections
		// to one server.
		t.Run(fmt.Sprintf("%s %dx%d", c.path, c.width, c.height), func(t *testing.T) {
			ctx := btab(t, c.width, c.height)
			bdo(t, ctx, chromedp.Navigate(hl.URL+c.path), chromedp.WaitVisible(chromedp.CSS("#app-wasm-loader")))
			label := bwaitText(t, ctx, "#app-wasm-loader-label", func(s string) bool { return strings.HasPrefix(s, "Starting the lab: ") })
			if got := beval[string](t, ctx, statusShown); got != "" {
				t.Errorf("the starting status %q is not on screen: %s", label, got)
			}
			if got := beval[string](t, ctx, statusCovers); got != "" {
				t.Errorf("the starting status %q covers %s", label, got)
			}
		})
	}
}

// wasmSwitch serves the lab as bloomlab serve does, but answers app.wasm
// with fail until Mend: each request for it waits for Let before it is
// answered, so the test can move a control while the page still starts.
type wasmSwitch struct {
	URL  string
	mu   sync.Mutex
	fail func(w http.ResponseWriter) // nil: serve the real app.wasm
	let  chan struct{}
	once sync.Once
}

func newWasmSwitch(t *testing.T, fail func(w http.ResponseWriter)) *wasmSwitch {
	t.Helper()
	h, err := labServer(webDir(t), "")
	if err != nil {
		t.Fatal(err)
	}
	ws := &wasmSwitch{fail: fail, let: make(chan struct{})}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/app.wasm") {
			select {
			case <-ws.let:
			case <-r.Context().Done():
				return
			}
			ws.mu.Lock()
			fail := ws.fail
			ws.mu.Unlock()
			if fail != nil {
				fail(w)
				return
			}
		}
		h.ServeHTTP(w, r)
	}))
	ws.URL = srv.URL
	t.Cleanup(srv.Close)
	t.Cleanup(ws.Let)
	return ws
}

// Let answers the requests for app.wasm, held until now, and every later
// one at once.
func (ws *wasmSwitch) Let() { ws.once.Do(func() { close(ws.let) }) }

// Mend makes the server send the real app.wasm from now on.
func (ws *wasmSwitch) Mend() {
	ws.mu.Lock()
	ws.fail = nil
	ws.mu.Unlock()
}

// TestBrowserFailedStartSaysSo: when app.wasm cannot be had (the server
// answers 404, or the connection breaks), the status says in words that
// the lab could not load and why, with no figure and no exception's text;
// a slider moved meanwhile says its move was not applied; the status's
// Retry, once the server sends app.wasm again, brings the lab live.
// Before, a 404 showed "TypeError: WebAssembly.instantiateStreaming(): HTTP
// status code is not ok", a broken connection "TypeError: Failed to
// fetch", and the slider kept promising to apply.
func TestBrowserFailedStartSaysSo(t *testing.T) {
	needBrowser(t)
	for _, c := range []struct {
		name string
		fail func(w http.ResponseWriter)
		why  string
	}{
		{"404", func(w http.ResponseWriter) { http.NotFound(w, nil) }, "the server answered 404"},
		{"broken connection", func(w http.ResponseWriter) { panic(http.ErrAbortHandler) }, "the network connection failed"},
	} {
		ws := newWasmSwitch(t, c.fail)
		ctx := btab(t, 360, 800)
		bdo(t, ctx, chromedp.Navigate(ws.URL+"/"), chromedp.WaitVisible(chromedp.CSS("#app-wasm-loader")))
		bwaitText(t, ctx, "#app-wasm-loader-label", func(s string) bool { return strings.HasPrefix(s, "Starting the lab: ") })
		// early.js, deferred, keeps the moves once it has run.
		bwaitEval(t, ctx, `typeof window.bloomlabLive`, func(s string) bool { return s == "function" })
		// A move before the lab is live: the slider says it applies once
		// the lab is.
		beval[bool](t, ctx, `(() => {
  const el = document.getElementById("`+settings.IDBitsPerKey+`");
  el.value = "12";
  el.dispatchEvent(new Event("input", { bubbles: true }));
  return true;
})()`)
		note := `(document.getElementById("` + settings.IDBitsPerKey + `").closest(".control")?.querySelector(".early-note")?.textContent ?? "")`
		if got := beval[string](t, ctx, note); !strings.Contains(got, "applies as soon as it is live") {
			t.Fatalf("%s: the moved slider's note before the failure is %q", c.name, got)
		}
		ws.Let()
		bwaitEval(t, ctx, stateAndText, func(s string) bool { return strings.HasPrefix(s, "failed ") })
		status := btext(t, ctx, "#app-wasm-loader")
		t.Logf("%s: the status says %q", c.name, status)
		if !strings.Contains(status, "The lab could not load") || !strings.Contains(status, c.why) || !strings.Contains(status, "moves made on this page were not applied") {
			t.Errorf("%s: the status says %q, not that the lab could not load because %s", c.name, status, c.why)
		}
		for _, raw := range []string{"TypeError", "Failed to fetch", "Error:", "%"} {
			if strings.Contains(status, raw) {
				t.Errorf("%s: the status still shows %q: %q", c.name, raw, status)
			}
		}
		if got := beval[string](t, ctx, note); !strings.Contains(got, "Not applied") {
			t.Errorf("%s: the moved slider's note after the failure is %q, not that the move was not applied", c.name, got)
		}
		if got := beval[string](t, ctx, statusShown); got != "" {
			t.Errorf("%s: the failed status is not on screen: %s", c.name, got)
		}
		if got := beval[string](t, ctx, statusCovers); got != "" {
			t.Errorf("%s: the failed status covers %s", c.name, got)
		}
		retry := `#app-wasm-loader button.goapp-retry`
		if got := btext(t, ctx, retry); got != "Retry" {
			t.Fatalf("%s: the failed status has no Retry button (%q)", c.name, got)
		}
		ws.Mend()
		bdo(t, ctx, chromedp.Click(chromedp.CSS(retry)), waitLab())
		if got := beval[bool](t, ctx, `!!document.getElementById("app-wasm-loader")`); got {
			t.Errorf("%s: the lab is live after Retry, and the status is still there", c.name)
		}
	}
}

// TestBrowserStalledStartSaysSo: a download that makes no progress for a
// while (app.wasm held) is said to be slow, in words, with a Retry, in
// the status's own place, still covering nothing; once app.wasm comes the
// lab goes live all the same.
func TestBrowserStalledStartSaysSo(t *testing.T) {
	needBrowser(t)
	hl := holdLab(t)
	ctx := btab(t, 360, 800)
	bdo(t, ctx, chromedp.Navigate(hl.URL+"/"))
	bwaitEval(t, ctx, stateAndText, func(s string) bool { return strings.HasPrefix(s, "slow ") })
	status := btext(t, ctx, "#app-wasm-loader")
	t.Logf("stalled: the status says %q", status)
	if !strings.Contains(status, "Slow download") || !strings.Contains(status, "Retry") {
		t.Errorf("a stalled download's status says %q, not that it is slow, with a Retry", status)
	}
	if got := beval[string](t, ctx, statusShown); got != "" {
		t.Errorf("the stalled status is not on screen: %s", got)
	}
	if got := beval[string](t, ctx, statusCovers); got != "" {
		t.Errorf("the stalled status covers %s", got)
	}
	hl.Release()
	bdo(t, ctx, waitLab())
}

// TestBrowserFailedStartOnTheSite: the static site sends the same app.js
// as serve: on a host without app.wasm (404), the status says the lab
// could not load, in words, with a Retry.
func TestBrowserFailedStartOnTheSite(t *testing.T) {
	needBrowser(t)
	dir := t.TempDir()
	if err := writeSite(dir, webDir(t), ""); err != nil {
		t.Fatal(err)
	}
	files := staticHost(dir)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/app.wasm") {
			http.NotFound(w, r)
			return
		}
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	ctx := btab(t, 360, 800)
	bdo(t, ctx, chromedp.Navigate(srv.URL+"/"))
	status := bwaitEval(t, ctx, stateAndText, func(s string) bool { return strings.HasPrefix(s, "failed ") })
	t.Logf("the site without app.wasm: %q", status)
	// No control was moved: the status speaks of no moves.
	if !strings.Contains(status, "The lab could not load: the server answered 404") || strings.Contains(status, "moves") || strings.Contains(status, "%") || strings.Contains(status, "TypeError") {
		t.Errorf("the site without app.wasm says %q", status)
	}
	if got := btext(t, ctx, "#app-wasm-loader button.goapp-retry"); got != "Retry" {
		t.Errorf("the site's failed status has no Retry (%q)", got)
	}
}

// TestBrowserTabsShareNothing: each test's tab starts with nothing of an
// earlier tab's: no service worker, no cache, no storage. A test's server
// takes a free port, and the system may give it one an earlier test's
// server had, the same origin to the browser; a tab in the shared profile
// then ran the earlier lab from that origin's service worker, and a test
// of a failing download saw the lab go live ("no status").
func TestBrowserTabsShareNothing(t *testing.T) {
	needBrowser(t)
	h, err := labServer(webDir(t), "")
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	first := &http.Server{Handler: h}
	go first.Serve(ln)
	bdo(t, btab(t, 800, 800), chromedp.Navigate("http://"+addr+"/"), waitLab())
	first.Close()

	// The same port, now without app.wasm.
	ln, err = net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	second := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/app.wasm") {
			http.NotFound(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})}
	go second.Serve(ln)
	t.Cleanup(func() { second.Close() })
	ctx := btab(t, 800, 800)
	bdo(t, ctx, chromedp.Navigate("http://"+addr+"/"))
	got := bwaitEval(t, ctx, stateAndText, func(s string) bool { return strings.HasPrefix(s, "failed ") || s == "no status" })
	if !strings.Contains(got, "404") {
		t.Errorf("a new tab on a port an earlier tab used ran the earlier lab: the status is %q, not the 404", got)
	}
}
