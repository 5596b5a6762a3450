//go:build !js

package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/chromedp/chromedp/kb"

	"github.com/bloomlab/bloomlab/app/engine"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// watchCompile records, from the document's start, how the page comes by
// its WebAssembly: each call of WebAssembly's compiling functions made on
// the page, the module a worker posted to it, the module the page's
// instance was made from, and the modules the page sent its own workers
// (app/engine's boot message).
const watchCompile = `(() => {
  const w = window.__compile = {onPage: [], fromWorker: null, instantiated: null, booted: []};
  const wa = WebAssembly;
  for (const name of ["instantiateStreaming", "compileStreaming", "compile"]) {
    const f = wa[name];
    wa[name] = function (...args) { w.onPage.push(name); return f.apply(this, args); };
  }
  const instantiate = wa.instantiate;
  wa.instantiate = function (src, ...rest) {
    if (src instanceof wa.Module) w.instantiated = src;
    else w.onPage.push("instantiate from bytes");
    return instantiate.call(this, src, ...rest);
  };
  if (!self.Worker) return;
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (m, ...rest) {
    if (m && m.type === "boot") w.booted.push(m.module === undefined ? "none" : m.module === w.fromWorker ? "the page's" : "another");
    return post.call(this, m, ...rest);
  };
  self.Worker = class extends Worker {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (e) => {
        if (e.data && e.data.module instanceof wa.Module) w.fromWorker = e.data.module;
      });
    }
  };
})();`

// compileSeen is what watchCompile saw, read back.
type compileSeen struct {
	OnPage     []string
	FromWorker bool
	Same       bool // the page's instance, and bloomlabWasmModule, are from the worker's module
	Booted     []string
	ModuleKept bool
}

const readCompile = `(() => {
  const w = window.__compile;
  return {OnPage: w.onPage, FromWorker: !!w.fromWorker, Same: !!w.fromWorker && w.instantiated === w.fromWorker && bloomlabWasmModule === w.fromWorker,
    Booted: w.booted, ModuleKept: bloomlabWasmModule instanceof WebAssembly.Module};
})()`

// wasmCounter serves the lab as bloomlab serve does and counts the
// requests for app.wasm; when noWorkerScript is set it answers 404 to a
// worker that asks for web/start.js (Sec-Fetch-Dest: worker), as a host
// that refused the compiling worker would.
func wasmCounter(t *testing.T, noWorkerScript bool) (string, *atomic.Int64) {
	t.Helper()
	h, err := labServer(webDir(t), "")
	if err != nil {
		t.Fatal(err)
	}
	var asked atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/app.wasm") {
			asked.Add(1)
		}
		if noWorkerScript && strings.HasSuffix(r.URL.Path, "/start.js") && r.Header.Get("Sec-Fetch-Dest") == "worker" {
			http.NotFound(w, r)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, &asked
}

// compileTab opens a tab that runs script before the page's own, without
// the service worker, whose offline copy would answer requests for
// app.wasm out of the server's sight.
func compileTab(t *testing.T, script string) context.Context {
	t.Helper()
	ctx := btab(t, 1280, 900)
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `delete Navigator.prototype.serviceWorker;` + script}); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// TestBrowserCompiledInAWorker: the page's instance is made from a module
// a worker compiled and posted to it; the page itself never compiles (no
// instantiateStreaming, compileStreaming, compile, nor instantiate from
// bytes). The lab's worker, started by a move of a slider, and the
// experiments' workers, which run an experiment after a step inside the
// page to that page, start from that same module: app.wasm is asked for
// once in all.
func TestBrowserCompiledInAWorker(t *testing.T) {
	needBrowser(t)
	base, asked := wasmCounter(t, false)
	ctx := compileTab(t, watchCompile)
	bdo(t, ctx, chromedp.Navigate(base+"/"), waitLab())
	seen := beval[compileSeen](t, ctx, readCompile)
	if len(seen.OnPage) > 0 || !seen.FromWorker || !seen.Same {
		t.Errorf("the page compiled %v itself; a worker posted a module: %v; the page's instance and its kept module are that one: %v", seen.OnPage, seen.FromWorker, seen.Same)
	}
	// A move after the lab is live runs on the lab's worker.
	slide(t, ctx, settings.IDHashes, kb.ArrowRight)
	bdo(t, ctx, waitLab())
	if w := pageWork(t, ctx); w != (engine.PageWork{}) {
		t.Errorf("the page's thread ran the lab's run itself (%+v): the lab's worker did not start", w)
	}
	// A step, inside the page, to a small experiment, run on the
	// experiments' workers.
	exp := "/experiments?" + params(settings.ExpName, "rocksdb", settings.ExpItems, "5000", settings.ExpQueries, "50000")
	beval[bool](t, ctx, `(goappNav(`+strconv.Quote(exp)+`), true)`)
	bdo(t, ctx, waitExp("idle"))
	if status := waitEngines(t, ctx); strings.Contains(status, "thread") {
		t.Fatalf("no workers: %q", status)
	}
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#exp-run")), waitExp("done"))
	seen = beval[compileSeen](t, ctx, readCompile)
	t.Logf("the page's workers were booted with %v; app.wasm asked for %d times", seen.Booted, asked.Load())
	// On one core the lab's worker and the experiments' one may be one
	// (see app/engine): every worker booted counts, and there is one at
	// least.
	if len(seen.Booted) == 0 {
		t.Error("the page booted no worker")
	}
	for _, b := range seen.Booted {
		if b != "the page's" {
			t.Errorf("a worker was booted with %s module, not the page's: %v", b, seen.Booted)
			break
		}
	}
	if len(seen.OnPage) > 0 {
		t.Errorf("the page compiled %v itself", seen.OnPage)
	}
	if n := asked.Load(); n != 1 {
		t.Errorf("app.wasm was asked for %d times, want once", n)
	}
}

// TestBrowserCompiledOnThePage: where there is no worker to compile in (a
// browser without Worker, or a compiling worker that cannot start), the
// page compiles app.wasm itself, as go-app did, and the lab goes live;
// with its status saying the download's progress on the way.
func TestBrowserCompiledOnThePage(t *testing.T) {
	needBrowser(t)
	for _, c := range []struct {
		name    string
		script  string
		refused bool
	}{
		{"no Worker", watchCompile + "delete self.Worker;", false},
		{"worker refused", watchCompile, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			base, asked := wasmCounter(t, c.refused)
			ctx := compileTab(t, c.script+keepStartStatus)
			bdo(t, ctx, chromedp.Navigate(base+"/"))
			if got := bwaitEval(t, ctx, liveOrFailed, func(s string) bool { return s != "" }); got != "live" {
				t.Fatalf("the lab did not go live: %s", got)
			}
			seen := beval[compileSeen](t, ctx, readCompile)
			said := beval[[]string](t, ctx, `window.__status`)
			t.Logf("the page compiled with %v; its status said %v", seen.OnPage, said)
			if seen.FromWorker || len(seen.OnPage) == 0 || !seen.ModuleKept {
				t.Errorf("the page did not compile app.wasm itself (%v; a worker's module: %v; a module kept for the workers: %v)", seen.OnPage, seen.FromWorker, seen.ModuleKept)
			}
			if len(said) == 0 || !strings.HasSuffix(said[len(said)-1], "100%") {
				t.Errorf("the status said %v, not the download's progress to 100%%", said)
			}
			if n := asked.Load(); n != 1 {
				t.Errorf("app.wasm was asked for %d times, want once", n)
			}
		})
	}
}

// keepStartStatus keeps, from the document's start, each text the
// starting status's label shows.
const keepStartStatus = `
window.__status = [];
addEventListener("DOMContentLoaded", () => {
  const l = document.getElementById("app-wasm-loader-label");
  if (l) new MutationObserver(() => { if (window.__status.at(-1) !== l.textContent) window.__status.push(l.textContent); })
    .observe(l, {childList: true, characterData: true, subtree: true});
});`

// liveOrFailed is "live" once the lab is, the starting status's state and
// text once it says the start failed or stopped, else "".
const liveOrFailed = `(() => {
  if (document.querySelector('#lab[data-state="ready"]')) return "live";
  const s = document.getElementById("app-wasm-loader");
  return s && (s.dataset.state === "failed" || s.dataset.state === "stopped") ? s.dataset.state + " " + s.textContent.trim() : "";
})()`

// keepErrors keeps, from the document's start, what the page writes with
// console.error, and notes the exit code of the page's Go program when it
// ends (window.__exited), in Go's own exit, which the page's start calls
// before its own.
const keepErrors = `
window.__errors = [];
{
  const error = console.error;
  console.error = (...args) => {
    window.__errors.push(args.map(String).join(" "));
    error.apply(console, args);
  };
}
addEventListener("DOMContentLoaded", () => {
  globalThis.Go = class extends Go {
    constructor() {
      super();
      const exit = this.exit;
      this.exit = (code) => { window.__exited = code; exit(code); };
    }
  };
});`

// TestBrowserPanicSaysSo: a Go panic once the lab is live (forced through
// go-app's own goappNav, which panics when called without its path, so
// no hook of ours is needed) ends the program; the page says so in words,
// above its content, with a Reload, and the panic's message goes to the
// console's errors. The Reload brings the lab live again.
func TestBrowserPanicSaysSo(t *testing.T) {
	needBrowser(t)
	ctx := compileTab(t, keepErrors)
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/"), waitLab())
	if got := beval[bool](t, ctx, `!!document.getElementById("app-wasm-loader")`); got {
		t.Fatal("the starting status is still there once the lab is live")
	}
	beval[bool](t, ctx, `(setTimeout(() => goappNav()), true)`)
	bwaitEval(t, ctx, `String(window.__exited)`, func(s string) bool { return s != "undefined" })
	got := beval[string](t, ctx, stateAndText)
	t.Logf("after the panic the page says %q", got)
	if !strings.HasPrefix(got, "stopped ") || !strings.Contains(got, "The lab stopped working") {
		t.Errorf("after a panic the page says %q, not that the lab stopped", got)
	}
	for _, raw := range []string{"panic", "runtime error", "index out of range", "goroutine"} {
		if strings.Contains(got, raw) {
			t.Errorf("the notice shows Go's own text %q: %q", raw, got)
		}
	}
	if got := beval[string](t, ctx, statusShown); got != "" {
		t.Errorf("the notice is not on screen: %s", got)
	}
	if above := beval[bool](t, ctx, `document.getElementById("app-wasm-loader").nextElementSibling === document.getElementById("main")`); !above {
		t.Error("the notice is not above the page's content")
	}
	errors := beval[[]string](t, ctx, `window.__errors`)
	if !slices.ContainsFunc(errors, func(e string) bool {
		return strings.Contains(e, "panic: ") && strings.Contains(e, "index out of range")
	}) {
		t.Errorf("the console's errors do not have the panic's message: %q", errors)
	}
	reload := `#app-wasm-loader button.goapp-retry`
	if got := btext(t, ctx, reload); got != "Reload" {
		t.Fatalf("the notice has no Reload button (%q)", got)
	}
	bdo(t, ctx, chromedp.Click(chromedp.CSS(reload)), waitLab())
}
