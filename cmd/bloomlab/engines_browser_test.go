//go:build !js

package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"bloomlab/audit"
	"bloomlab/core"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// watchMainThread records, from now on, the page's long tasks (the Long
// Tasks API: tasks over 50 ms on the main thread) and when the progress bar
// moved while the run was going, so that a test can tell the tasks during
// the run from those that start it and show its table.
const watchMainThread = `(() => {
  window.longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.longTasks.push({start: e.startTime, ms: e.duration});
  }).observe({type: "longtask"});
  window.progressAt = [];
  new MutationObserver(() => {
    const bar = document.getElementById("exp-progress");
    const state = document.getElementById("experiments").dataset.state;
    if (bar && state === "running") window.progressAt.push(performance.now());
  }).observe(document.body, {subtree: true, attributes: true, attributeFilter: ["aria-valuenow"]});
  return true;
})()`

type longTask struct {
	Start float64 `json:"start"`
	MS    float64 `json:"ms"`
}

// cliJSON is bloomlab experiment's --json output for name at sizes, and
// how long the command took.
func cliJSON(t *testing.T, args ...string) (string, time.Duration) {
	t.Helper()
	var out, errs bytes.Buffer
	start := time.Now()
	if code := commands["experiment"].run(append(args, "--json"), &out, &errs); code != 0 {
		t.Fatalf("bloomlab experiment %s: exit %d: %s", strings.Join(args, " "), code, errs.String())
	}
	return out.String(), time.Since(start)
}

// waitEngines waits until the experiments page says where it runs, and
// returns what it says.
func waitEngines(t *testing.T, ctx context.Context) string {
	t.Helper()
	return bwaitText(t, ctx, "#exp-engine", func(s string) bool { return strings.HasPrefix(s, "Runs on") })
}

// TestBrowserExperimentWorkers runs the full-size theory-vs-observed table
// on the page's workers: the page gives the command line's JSON byte for
// byte, and while the workers measure, no task holds the page's thread
// over 50 ms.
func TestBrowserExperimentWorkers(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/experiments?experiment=theory-vs-observed&items=500000&queries=10000000"), waitExp("idle"))
	cores := beval[int](t, ctx, `navigator.hardwareConcurrency`)
	want := fmt.Sprintf("Runs on %d workers, one per core this browser reports.", min(max(cores, 1), 8))
	if cores == 1 {
		want = "Runs on 1 worker, one per core this browser reports."
	}
	if got := waitEngines(t, ctx); got != want {
		t.Errorf("engine status %q, want %q", got, want)
	}
	beval[bool](t, ctx, watchMainThread)
	start := time.Now()
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#exp-run")), waitExp("running"), waitExp("done"))
	browser := time.Since(start)
	pageJSON := beval[string](t, ctx, `document.getElementById("exp-json").textContent`)
	cli, native := cliJSON(t, "theory-vs-observed", "--items", "500000", "--queries", "10000000")
	if pageJSON != cli {
		compareJSON(t, "the JSON of the page's workers", []byte(pageJSON), []byte(cli))
		t.Errorf("the page's JSON (%d bytes) is not the command line's (%d bytes)", len(pageJSON), len(cli))
	}
	t.Logf("full-size theory-vs-observed: %v in the browser on %d workers, %v on the command line: %.2fx",
		browser.Round(10*time.Millisecond), cores, native.Round(10*time.Millisecond), browser.Seconds()/native.Seconds())

	tasks := beval[[]longTask](t, ctx, `window.longTasks`)
	moves := beval[[]float64](t, ctx, `window.progressAt`)
	if len(moves) < 2 {
		t.Fatalf("the progress bar moved %d times during the run", len(moves))
	}
	from, to := moves[0], moves[len(moves)-1]
	var during, around []string
	longest := 0.0
	for _, lt := range tasks {
		s := fmt.Sprintf("%.0f ms at %.0f", lt.MS, lt.Start-from)
		if lt.Start+lt.MS > from && lt.Start < to {
			during = append(during, s)
			longest = max(longest, lt.MS)
		} else {
			around = append(around, s)
		}
	}
	t.Logf("progress moved %d times over %.1f s; long tasks during the run: %v; starting it and showing its table: %v",
		len(moves), (to-from)/1000, during, around)
	// While the workers measure, the page relays their messages and
	// redraws the progress bar five times a second, a few milliseconds
	// each. A host whose cores the workers fill can still stretch one such
	// task past 50 ms; work of the page's own (a collection, a run on its
	// thread) shows as many, or as one far longer.
	if len(during) > 1 || longest > 150 {
		t.Errorf("tasks over 50 ms on the page's thread while the workers measured: %v", during)
	}
}

// TestBrowserExperimentNoWorkers: in a browser without Web Workers the page
// says so and runs the experiment on its own thread, with the same table.
func TestBrowserExperimentNoWorkers(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `delete self.Worker;`}); err != nil {
		t.Fatal(err)
	}
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/experiments?experiment=rounding&items=30000&queries=600000&seed=7"), waitExp("idle"))
	if got, want := waitEngines(t, ctx), "Runs on this page's one thread: this browser has no Web Workers."; got != want {
		t.Errorf("engine status %q, want %q", got, want)
	}
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#exp-run")), waitExp("done"))
	cli, _ := cliJSON(t, "rounding", "--items", "30000", "--queries", "600000", "--seed", "7")
	if got := beval[string](t, ctx, `document.getElementById("exp-json").textContent`); got != cli {
		compareJSON(t, "the JSON of the page's own thread", []byte(got), []byte(cli))
		t.Error("the page's JSON is not the command line's")
	}

	// The audit too runs its checks on the page's thread, to the same report.
	bdo(t, ctx, chromedp.Navigate(strings.TrimSuffix(beval[string](t, ctx, `location.origin`), "/")+"/audit?fault=one-hash"), waitAudit())
	native, err := audit.Run(audit.MustLab(core.Variant{}, core.OneHash, ""), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := btext(t, ctx, "#audit-digest"); got != native.Digest {
		t.Errorf("the page's audit without workers: digest %q, want the native %q", got, native.Digest)
	}
	if got := btext(t, ctx, "#audit-engine"); !strings.Contains(got, "one thread") {
		t.Errorf("audit engine status %q", got)
	}
}

// TestBrowserWorkersReuseTheWasm: the workers start from the app.wasm the
// page already has, so starting them downloads no second copy.
func TestBrowserWorkersReuseTheWasm(t *testing.T) {
	needBrowser(t)
	h, err := labServer(webDir(t), "")
	if err != nil {
		t.Fatal(err)
	}
	var asked, sent atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/app.wasm") {
			h.ServeHTTP(w, r)
			return
		}
		cw := &countingWriter{ResponseWriter: w}
		h.ServeHTTP(cw, r)
		asked.Add(1)
		sent.Add(cw.n)
	}))
	t.Cleanup(srv.Close)
	ctx := btab(t, 1280, 900)
	bdo(t, ctx, chromedp.Navigate(srv.URL+"/about"), chromedp.WaitVisible(chromedp.CSS("#about-chart svg")))
	// The service worker keeps its own copy for offline use; wait for it.
	const swCopy = `(async () => {
	  for (const k of await caches.keys()) if (await (await caches.open(k)).match("/web/app.wasm")) return true;
	  return false;
	})()`
	for deadline := time.Now().Add(time.Minute); !beval[bool](t, ctx, swCopy); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the service worker never kept app.wasm")
		}
	}
	pageAsked, pageSent := asked.Load(), sent.Load()
	bdo(t, ctx, chromedp.Click(chromedp.CSS(`nav a[href="/experiments"]`)), waitExp("idle"))
	status := waitEngines(t, ctx)
	t.Logf("the page and its service worker: %d requests for app.wasm, %d bytes; then %s: %d more requests, %d bytes",
		pageAsked, pageSent, status, asked.Load()-pageAsked, sent.Load()-pageSent)
	if strings.Contains(status, "thread") {
		t.Fatalf("no workers: %q", status)
	}
	if more := sent.Load() - pageSent; more > 0 {
		t.Errorf("starting the workers downloaded %d more bytes of app.wasm", more)
	}
}
