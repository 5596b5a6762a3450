//go:build !js

package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// TestBrowserFirstPaint reports how long a first visit to the lab takes to
// show its bit array: the prerendered picture's paint (Element Timing),
// and the live canvas's first draw, to the animation frame after it
// (bloomlab.timings().firstDrawMs), both from navigation start. Each
// of five samples starts Chromium with a fresh profile, so nothing comes from
// a cache or a service worker, against the lab as `bloomlab serve` serves it
// (brotli or gzip as the browser asks), once on loopback and once with the
// tab's network emulated at 10 Mbit/s down and 40 ms latency. Like
// TestBrowserFigures it is a report, not an assertion: set BLOOMLAB_FIGURES
// to run it.
func TestBrowserFirstPaint(t *testing.T) {
	if os.Getenv("BLOOMLAB_FIGURES") == "" {
		t.Skip("set BLOOMLAB_FIGURES=DIR to report the time to the first bit array")
	}
	needBrowser(t)
	h, err := labServer(webDir(t), "")
	if err != nil {
		t.Fatal(err)
	}
	var wasm wasmResponses
	srv := httptest.NewServer(wasm.watch(h))
	t.Cleanup(srv.Close)

	// serve compresses app.wasm in the background from its start; wait for
	// both copies, so no sample waits for the compressor.
	raw := 0
	for _, coding := range []string{"identity", "br", "gzip"} {
		n, got := fetchWasm(t, srv.URL, coding)
		if coding == "identity" {
			raw = n
		}
		t.Logf("app.wasm asked with Accept-Encoding %s: %d bytes sent as %s (%.2f MB)", coding, n, got, float64(n)/1e6)
	}
	wasm.reset()

	conditions := []struct {
		name     string
		throttle *network.Conditions
	}{
		{"loopback", nil},
		{"10 Mbit/s down, 40 ms latency", &network.Conditions{Latency: 40, DownloadThroughput: 10e6 / 8, UploadThroughput: -1}},
	}
	for _, c := range conditions {
		var views, firsts, wasmStarts, wasmEnds, kbs []float64
		for range 5 {
			s := firstPaint(t, srv.URL+"/", c.throttle)
			views = append(views, s.FirstView)
			firsts = append(firsts, s.FirstDraw)
			wasmStarts = append(wasmStarts, s.WasmStart)
			wasmEnds = append(wasmEnds, s.WasmEnd)
			kbs = append(kbs, s.Bytes/1e3)
		}
		t.Logf("prerendered bit array painted, fresh profile, %s: median %.0f ms (runs %s)", c.name, median(views), fmtMs(views))
		t.Logf("live bit array drawn, fresh profile, %s: median %.0f ms (runs %s); app.wasm asked for after median %.0f ms (runs %s) and compiled and instantiated after median %.0f ms (runs %s); the page's own transfers median %.0f kB",
			c.name, median(firsts), fmtMs(firsts), median(wasmStarts), fmtMs(wasmStarts), median(wasmEnds), fmtMs(wasmEnds), median(kbs))
		t.Logf("app.wasm (%d bytes raw) sent during these runs: %s", raw, wasm.reset())
	}
}

// paintSample is one fresh visit: the first draw, when the page asked for
// app.wasm's module and when it had its instance, in milliseconds from
// navigation start; and the bytes the page itself transferred by then.
type paintSample struct {
	FirstView, FirstDraw, WasmStart, WasmEnd, Bytes float64
}

// firstViewTiming records when the prerendered bit array is painted,
// from the page's first moment (the Element Timing API reports a
// background image).
const firstViewTiming = `new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (e.identifier === "first-view") window.firstViewMs = e.renderTime || e.loadTime;
}).observe({type: "element", buffered: true});`

// loadTimings reads the sample's timings in the page. app.wasm is
// downloaded and compiled by a worker, whose requests are not in the
// page's timings: the page's marks tell when it asked for the module and
// when it had made its instance (so Bytes counts the page's own
// transfers; wasmResponses counts app.wasm's).
const loadTimings = `(() => {
  const mark = (name) => performance.getEntriesByName(name)[0]?.startTime ?? -1;
  const wasm = {startTime: mark("bloomlab:compile"), responseEnd: mark("bloomlab:instance")};
  const all = [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")];
  return {FirstView: window.firstViewMs ?? -1, FirstDraw: bloomlab.timings().firstDrawMs, WasmStart: wasm.startTime, WasmEnd: wasm.responseEnd,
    Bytes: all.reduce((n, e) => n + e.transferSize, 0)};
})()`

// firstPaint opens url in a new Chromium with an empty profile, with the
// tab's network throttled when throttle is not nil, and waits for the lab.
func firstPaint(t *testing.T, url string, throttle *network.Conditions) paintSample {
	t.Helper()
	dir, err := os.MkdirTemp("", "bloomlab-firstpaint-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	alloc, cancelAlloc := chromium(dir)
	defer cancelAlloc()
	browser, cancel := chromedp.NewContext(alloc)
	defer cancel()
	if err := chromedp.Do(browser); err != nil {
		t.Fatal(err)
	}
	ctx, cancelTimeout := context.WithTimeout(browser, 180*time.Second)
	defer cancelTimeout()
	bdo(t, ctx, chromedp.EmulateViewport(1280, 900))
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: firstViewTiming}); err != nil {
		t.Fatal(err)
	}
	if throttle != nil {
		if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Call(ctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
			MatchedNetworkConditions: []*network.Conditions{throttle},
		}); err != nil {
			t.Fatal(err)
		}
	}
	bdo(t, ctx, chromedp.Navigate(url), waitLab())
	bwaitFloat(t, ctx, `bloomlab.timings().firstDrawMs`)
	return beval[paintSample](t, ctx, loadTimings)
}

// fetchWasm asks the server for app.wasm in coding, and returns the bytes
// of the body and the coding it came in.
func fetchWasm(t *testing.T, base, coding string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, base+"/web/app.wasm", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept-Encoding", coding)
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	n, err := io.Copy(io.Discard, res.Body)
	if err != nil {
		t.Fatal(err)
	}
	got := res.Header.Get("Content-Encoding")
	if got == "" {
		got = "identity"
	}
	return int(n), got
}

// wasmResponses counts the responses for app.wasm by status, coding, bytes
// sent and what the client accepted: a fresh visit should get one brotli
// copy, and its service worker's request a 304 from the HTTP cache.
type wasmResponses struct {
	mu    sync.Mutex
	seen  map[string]int
	order []string
}

func (l *wasmResponses) watch(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/app.wasm") {
			h.ServeHTTP(w, r)
			return
		}
		cw := &countingWriter{ResponseWriter: w}
		h.ServeHTTP(cw, r)
		coding := w.Header().Get("Content-Encoding")
		if coding == "" {
			coding = "identity"
		}
		k := fmt.Sprintf("%d %s %d bytes (Accept-Encoding %q)", cw.status, coding, cw.n, r.Header.Get("Accept-Encoding"))
		l.mu.Lock()
		if l.seen == nil {
			l.seen = map[string]int{}
		}
		if l.seen[k] == 0 {
			l.order = append(l.order, k)
		}
		l.seen[k]++
		l.mu.Unlock()
	})
}

// reset returns the responses counted since the last reset.
func (l *wasmResponses) reset() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var parts []string
	for _, k := range l.order {
		parts = append(parts, fmt.Sprintf("%d × %s", l.seen[k], k))
	}
	l.seen, l.order = nil, nil
	return strings.Join(parts, "; ")
}

type countingWriter struct {
	http.ResponseWriter
	status int
	n      int64
}

func (c *countingWriter) WriteHeader(code int) {
	if c.status == 0 {
		c.status = code
	}
	c.ResponseWriter.WriteHeader(code)
}

func (c *countingWriter) Write(b []byte) (int, error) {
	if c.status == 0 {
		c.status = http.StatusOK
	}
	n, err := c.ResponseWriter.Write(b)
	c.n += int64(n)
	return n, err
}
