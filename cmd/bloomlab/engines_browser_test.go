//go:build !js

package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bloomlab/bloomlab/app/engine"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/audit"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// cliJSON is bloomlab experiment's --json output for name at sizes, and
// how long the command took.
func cliJSON(t *testing.T, args ...string) (string, time.Duration) {
	t.Helper()
	var out, errs bytes.Buffer
	start := time.Now()
	if code := dispatch(append([]string{"experiment"}, append(args, "--json")...), &out, &errs); code != 0 {
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
// byte, and its own thread does none of the run's work.
func TestBrowserExperimentWorkers(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/experiments?"+params(settings.ExpName, "theory-vs-observed", settings.ExpItems, "500000", settings.ExpQueries, "10000000")), waitExp("idle"))
	cores := beval[int](t, ctx, `navigator.hardwareConcurrency`)
	want := fmt.Sprintf("Runs on %d workers, one per core this browser reports.", min(max(cores, 1), 8))
	if cores == 1 {
		want = "Runs on 1 worker, one per core this browser reports."
	}
	if got := waitEngines(t, ctx); got != want {
		t.Errorf("engine status %q, want %q", got, want)
	}
	beval[bool](t, ctx, watchProgress)
	// Held at its first pause with work done, the run has moved the bar
	// once before the workers measure the rest, however fast they are.
	holdRuns(t, ctx, true)
	before := pageWork(t, ctx)
	start := time.Now()
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#exp-run")), waitExp("running"))
	bwaitEval(t, ctx, `String(window.progressSeen.some((v) => v > 0))`, func(s string) bool { return s == "true" })
	held := time.Since(start)
	holdRuns(t, ctx, false)
	bdo(t, ctx, waitExp("done"))
	browser := time.Since(start)
	pageJSON := beval[string](t, ctx, `document.getElementById("exp-json").textContent`)
	cli, native := cliJSON(t, "theory-vs-observed", "--items", "500000", "--queries", "10000000")
	if pageJSON != cli {
		compareJSON(t, "the JSON of the page's workers", []byte(pageJSON), []byte(cli))
		t.Errorf("the page's JSON (%d bytes) is not the command line's (%d bytes)", len(pageJSON), len(cli))
	}
	t.Logf("full-size theory-vs-observed: %v in the browser on %d workers (%v of it held at the start), %v on the command line; the progress bar took %d values",
		browser.Round(10*time.Millisecond), cores, held.Round(10*time.Millisecond), native.Round(10*time.Millisecond), beval[int](t, ctx, `window.progressSeen.length`))
	// The workers measure; the page's thread only relays their messages
	// and redraws the bar. A run of the page's own, or a share of the
	// work kept back on it, counts here.
	if got := pageWork(t, ctx); got != before {
		t.Errorf("the page's thread did some of the run's work itself: %+v, before the run %+v", got, before)
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
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/experiments?"+params(settings.ExpName, "rounding", settings.ExpItems, "30000", settings.ExpQueries, "600000", settings.ExpSeed, "7")), waitExp("idle"))
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
	bdo(t, ctx, chromedp.Navigate(strings.TrimSuffix(beval[string](t, ctx, `location.origin`), "/")+"/audit?"+params(settings.IDFault, "one-hash")), waitAudit())
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

// wasmCached is true once the service worker holds its offline copy of
// app.wasm, the last and largest thing it copies as a page starts.
const wasmCached = `(async () => {
  for (const k of await caches.keys()) if (await (await caches.open(k)).match("/web/app.wasm")) return true;
  return false;
})()`

// waitCached waits until the service worker holds app.wasm.
func waitCached(t *testing.T, ctx context.Context) {
	t.Helper()
	for deadline := time.Now().Add(waitFor); !beval[bool](t, ctx, wasmCached); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the service worker never kept app.wasm")
		}
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
	waitCached(t, ctx)
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

// labNative is the lab's run for link, natively.
func labNative(t *testing.T, link string) sim.Result {
	t.Helper()
	q, err := url.ParseQuery(link)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := settings.LabFromQuery(q)
	r, err := sim.RunTyped(s.Run(), s.Typed.List(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// checkLabCounters compares the lab's counters with the native run.
func checkLabCounters(t *testing.T, ctx context.Context, where string, r sim.Result) {
	t.Helper()
	for id, want := range map[string]string{
		"out-n":               thousands(r.N),
		"out-false-positives": thousands(r.FalsePositives) + " of " + thousands(r.AbsentQueries),
	} {
		if got := btext(t, ctx, "#"+id); got != want {
			t.Errorf("%s: %s = %q, want the native %q", where, id, got, want)
		}
	}
	if got := btext(t, ctx, "#out-set-bits"); !strings.HasPrefix(got, thousands(r.SetBits)+" ") {
		t.Errorf("%s: set bits %q, want the native %s", where, got, thousands(r.SetBits))
	}
}

// watchSlider notes, for the next change of slider id's shown value, the
// lab's state when it showed: "running" when the move was answered while
// a run was still under way.
func watchSlider(id string) string {
	return fmt.Sprintf(`(() => {
  const out = document.getElementById(%[1]q + "-value"), before = out.textContent;
  window.sliderState = "";
  new MutationObserver((_, mo) => {
    if (out.textContent === before) return;
    mo.disconnect();
    window.sliderState = document.getElementById("lab").dataset.state;
  }).observe(out, {childList: true, characterData: true, subtree: true});
  return true;
})()`, id)
}

// slide presses key on slider id and returns the lab's state when the
// slider showed its new value.
func slide(t *testing.T, ctx context.Context, id, key string) string {
	t.Helper()
	beval[bool](t, ctx, watchSlider(id))
	bdo(t, ctx, chromedp.Focus(chromedp.CSS("#"+id)), chromedp.KeyEvent(key))
	return bwaitEval(t, ctx, `window.sliderState`, func(s string) bool { return s != "" })
}

// keepProgressLabel keeps, from the document's start, the last text of the
// lab's progress label, which a short run shows only for a moment.
const keepProgressLabel = `new MutationObserver(() => {
  const l = document.querySelector('label[for="lab-progress"]');
  if (l) window.progressLabel = l.textContent;
}).observe(document, {subtree: true, childList: true, characterData: true});`

// TestBrowserLabWorker: a large lab run goes to the lab's own worker. The
// page says so, its thread does none of the run's work (where there are no
// workers it does it all, pausing), a slider moved during a run shows its
// value while the run is still under way, and the figures and the filter
// that come back are the native ones: the bit array, drawn cell by cell, is the picture the page draws when it
// runs the filter itself, as it does in a browser without workers. The
// key panel's search at a large size runs there too. Each large run is
// held mid-way until the test has looked, so it is still going then on
// any machine.
func TestBrowserLabWorker(t *testing.T) {
	needBrowser(t)
	base := labURL(t)
	big, cells := params(settings.IDItems, "2000000", settings.IDQueries, "2000000"), params(settings.IDItems, "4000", settings.IDQueries, "3000000")
	labels := map[string]string{"worker": "in the lab's worker", "page": "on this page's thread (this browser has no Web Workers)"}
	pictures := map[string]string{}
	for _, where := range []string{"worker", "page"} {
		ctx := btab(t, 1280, 900)
		script := keepProgressLabel
		if where == "page" {
			script += "delete self.Worker;"
		}
		if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: script}); err != nil {
			t.Fatal(err)
		}
		held := holdFromStart(t, ctx)
		bdo(t, ctx, chromedp.Navigate(base+"/?"+big))
		bwaitEval(t, ctx, labHeld, func(s string) bool { return s == "true" })
		if state := beval[string](t, ctx, `document.getElementById("lab").dataset.state`); state != "running" {
			t.Fatalf("%s: the lab's state is %q with its run held mid-way", where, state)
		}
		holdRuns(t, ctx, false)
		bdo(t, ctx, waitLab())
		checkLabCounters(t, ctx, where+" "+big, labNative(t, big))
		// The page's own count of the work it did for the run: none with
		// the run in the worker; all of it, in slices with pauses between,
		// on a page without workers.
		switch w := pageWork(t, ctx); {
		case where == "worker" && w != (engine.PageWork{}):
			t.Errorf("worker: the page's thread did some of the run itself: %+v", w)
		case where == "page" && (w.Runs == 0 || w.Work == 0 || w.Pauses == 0 || w.Largest >= w.Work):
			t.Errorf("page: the page's thread did the run as %+v, want one run cut by pauses", w)
		default:
			t.Logf("%s: the page's thread did %+v of the run", where, w)
		}
		// A slider moved during a run shows its new value while the run is
		// still under way: each move here replaces a run held mid-way with
		// one held at its first pause, so the lab is running until the
		// test lets it go. Every triple leaves k one step from where it
		// began; the three leave k = 8.
		for _, step := range [][2]string{{kb.ArrowRight, kb.ArrowLeft}, {kb.ArrowLeft, kb.ArrowRight}, {kb.ArrowRight, kb.ArrowLeft}} {
			holdRuns(t, ctx, true)
			slide(t, ctx, settings.IDHashes, step[0])
			for _, key := range []string{step[1], step[0]} {
				bwaitEval(t, ctx, labHeld, func(s string) bool { return s == "true" })
				if state := slide(t, ctx, settings.IDHashes, key); state != "running" {
					t.Errorf("%s: a slider moved during a run showed its value with the lab %q, want it still running", where, state)
				}
			}
			bwaitEval(t, ctx, labHeld, func(s string) bool { return s == "true" })
			holdRuns(t, ctx, false)
			bdo(t, ctx, waitLab())
		}
		checkLabCounters(t, ctx, where+" "+big, labNative(t, big+"&"+params(settings.IDHashes, "8")))
		// The progress label says where the run goes, seen mid-way.
		bdo(t, ctx, chromedp.Navigate(base+"/?"+cells))
		bwaitEval(t, ctx, labHeld, func(s string) bool { return s == "true" })
		if got := beval[string](t, ctx, `window.progressLabel || ""`); !strings.Contains(got, labels[where]) {
			t.Errorf("%s: progress label %q, want %q", where, got, labels[where])
		}
		held()
		holdRuns(t, ctx, false)
		bdo(t, ctx, waitLab())
		checkLabCounters(t, ctx, where+" "+cells, labNative(t, cells))
		pictures[where] = beval[string](t, ctx, `document.getElementById("bit-array").toDataURL()`)

		// The key panel's search for a false positive, and its culprits
		// among 200,000 members.
		bdo(t, ctx, chromedp.Navigate(base+"/?"+params(settings.IDItems, "200000", settings.IDBitsPerKey, "3", settings.IDHashes, "2", settings.IDTry, "apple")), waitLab(),
			chromedp.Click(chromedp.CSS("#try-find-fp")), waitPanel("try-verdict", ""))
		fp := cliTry(t, "--items", "200000", "--bits-per-key", "3", "--hashes", "2", "--insert", "apple", "--find-fp").FindFalsePositive.Query
		if got := btext(t, ctx, "#try-verdict"); !strings.HasPrefix(got, "maybe: a false positive. “"+fp.Key+"” was never inserted") {
			t.Errorf("%s: find a false positive: verdict %q, want %q's", where, got, fp.Key)
		}
		if n := beval[int](t, ctx, `document.querySelectorAll("#try-culprits li").length`); n != len(fp.Culprits) {
			t.Errorf("%s: %d culprit lines, want %d", where, n, len(fp.Culprits))
		}
	}
	if pictures["worker"] != pictures["page"] {
		t.Error("the bit array of the worker's run is not the page's own")
	}
}

// TestBrowserExperimentBeforeAudit: an experiment started while the audit
// runs on the same workers goes first. The audit pauses between its checks
// while the experiment works, so the experiment ends while the audit still
// has checks to run; without the pause it waited for them all. The audit
// is held after its first checks, and the experiment at its start, until
// both are under way, so that neither is over before the other began; the
// audit is held again as soon as the experiment has ended, so that the
// test reads where the experiment left it.
func TestBrowserExperimentBeforeAudit(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	defer holdFromStart(t, ctx)()
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/audit"))
	progress := `label[for="audit-progress"]`
	bwaitText(t, ctx, progress, func(s string) bool {
		return strings.HasPrefix(s, "Checks run: ") && !strings.HasPrefix(s, "Checks run: 0 ")
	})
	auditStart := time.Now()
	bdo(t, ctx, chromedp.Click(chromedp.CSS(`nav a[href="/experiments"]`)), waitExp("idle"))
	start := time.Now()
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#exp-run")), waitExp("running"))
	bwaitEval(t, ctx, expProgress, func(s string) bool { return s != "0" })
	holdRuns(t, ctx, false)
	bdo(t, ctx, waitExp("done"))
	holdRuns(t, ctx, true)
	took := time.Since(start)
	// The audit page mounts in parts; its progress is read once it is in,
	// the audit still held.
	bdo(t, ctx, chromedp.Click(chromedp.CSS(`nav a[href="/audit"]`)))
	during := bwaitText(t, ctx, progress, func(s string) bool { return strings.HasPrefix(s, "Checks run: ") })
	holdRuns(t, ctx, false)
	bdo(t, ctx, waitAudit())
	t.Logf("the experiment took %v while the audit ran; back on the audit: %q; the audit ended %v after the experiment began",
		took.Round(10*time.Millisecond), during, time.Since(auditStart).Round(10*time.Millisecond))
	var done, total int
	if _, err := fmt.Sscanf(during, "Checks run: %d of %d", &done, &total); err != nil || done >= total {
		t.Errorf("the audit had finished (%q) by the time the experiment did: the experiment waited behind it", during)
	}
}
