//go:build !js

package main

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bloomlab/bloomlab/app/settings"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// cspWatch runs in each new document before the page's own scripts and
// keeps every Content-Security-Policy violation the document reports.
const cspWatch = `window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.cspViolations.push(e.effectiveDirective + " blocked " + (e.blockedURI || "inline") + " at " + e.sourceFile + ":" + e.lineNumber);
});`

// cspProbe breaks the policy on purpose, with an image from elsewhere, and
// returns how many violations the watch saw for it: the check that the
// watch itself works.
const cspProbe = `new Promise((resolve) => {
  const before = window.cspViolations.length;
  const img = document.createElement("img");
  img.src = "https://example.invalid/probe.png";
  document.body.appendChild(img);
  setTimeout(() => { img.remove(); resolve(window.cspViolations.length - before); }, 500);
})`

// TestBrowserUnderCSP opens every page of the lab as bloomlab serve sends
// it, under its Content-Security-Policy, lets the app run (WebAssembly, the
// service worker, styles set by the app, an experiment's progress bar), and
// checks that the browser blocked nothing: no securitypolicyviolation event
// and no console line about the policy.
func TestBrowserUnderCSP(t *testing.T) {
	needBrowser(t)
	base := labURL(t)
	ctx := btab(t, 1280, 900)

	var mu sync.Mutex
	var cspConsole []string
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if strings.Contains(m.Text, "Content Security Policy") || strings.Contains(m.Text, "Content-Security-Policy") {
				mu.Lock()
				cspConsole = append(cspConsole, m.String())
				mu.Unlock()
			}
		}
	}()
	consoleLines := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), cspConsole...)
	}
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: cspWatch}); err != nil {
		t.Fatal(err)
	}

	for _, p := range []struct {
		path  string
		ready []chromedp.Action[chromedp.Void]
	}{
		{"/", []chromedp.Action[chromedp.Void]{waitLab()}},
		{"/calculator?" + params(settings.CalcN, "100000000", settings.CalcP, "0.01"), []chromedp.Action[chromedp.Void]{waitCalc("ready")}},
		{"/experiments?" + params(settings.ExpName, "rocksdb", settings.ExpItems, "5000", settings.ExpQueries, "50000"), []chromedp.Action[chromedp.Void]{
			waitExp("idle"), chromedp.Click(chromedp.CSS("#exp-run")), waitExp("done")}},
		{"/audit", []chromedp.Action[chromedp.Void]{waitAudit()}},
		{"/about", []chromedp.Action[chromedp.Void]{chromedp.WaitVisible(chromedp.CSS("#about-chart svg"))}},
	} {
		// A page blocked from compiling app.wasm never gets ready: fail in a
		// minute rather than at the tab's limit.
		wait, cancel := context.WithTimeout(ctx, 2*time.Minute)
		err := chromedp.Do(wait, append([]chromedp.Action[chromedp.Void]{chromedp.Navigate(base + p.path)}, p.ready...)...)
		cancel()
		if err != nil {
			t.Errorf("%s never got ready: %v; violations %v; state %q; the page says %q", p.path, err,
				beval[[]string](t, ctx, `window.cspViolations`), beval[string](t, ctx, `document.querySelector("[data-state]")?.dataset.state ?? "none"`),
				beval[string](t, ctx, `document.body.innerText.slice(0, 400)`))
			continue
		}
		policy := beval[string](t, ctx, `fetch(location.href, {method: "HEAD", cache: "no-store"}).then((r) => r.headers.get("Content-Security-Policy") ?? "")`)
		if !strings.Contains(policy, "default-src 'self'") {
			t.Errorf("%s came without the lab's policy: %q", p.path, policy)
		}
		if v := beval[[]string](t, ctx, `window.cspViolations`); len(v) > 0 {
			t.Errorf("%s broke the policy:\n%s", p.path, strings.Join(v, "\n"))
		}
		if strings.HasPrefix(p.path, "/experiments") {
			if got := waitEngines(t, ctx); strings.Contains(got, "thread") {
				t.Errorf("the policy kept the page's workers from starting: %q", got)
			}
		}
	}
	if lines := consoleLines(); len(lines) > 0 {
		t.Errorf("the console reports the policy:\n%s", strings.Join(lines, "\n"))
	}

	if n := beval[int](t, ctx, cspProbe); n != 1 {
		t.Errorf("an image from elsewhere made %d violations, want 1: the watch or the policy is not working", n)
	}
	deadline := time.Now().Add(waitFor) // a loaded machine may be slow to tell
	for len(consoleLines()) == 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if len(consoleLines()) == 0 {
		t.Error("the console said nothing of the probe's violation: the console check cannot see one")
	}
}

// firstLab keeps, on a new document, the lab's m and state as the page
// came (before the app runs): what the reader sees from the first paint.
const firstLab = `document.addEventListener("DOMContentLoaded", () => {
  const lab = document.getElementById("lab");
  window.firstLab = (lab ? lab.dataset.state : "no lab") + " " + (document.getElementById("out-m")?.textContent ?? "no m");
});`

// TestBrowserLinkPrerenderedUnderServiceWorker: once the service worker
// holds the site, a link with settings still comes as the server
// prerenders it for them, the link's figures from the first paint; the
// worker gave the cached page of the default settings, whose figures
// stood until the app was live.
func TestBrowserLinkPrerenderedUnderServiceWorker(t *testing.T) {
	needBrowser(t)
	base := labURL(t)
	ctx := btab(t, 1280, 900)
	bdo(t, ctx, chromedp.Navigate(base+"/"), waitLab())
	bwaitEval(t, ctx, swHolds("/"), func(s string) bool { return s == "cached" })
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: firstLab}); err != nil {
		t.Fatal(err)
	}
	bdo(t, ctx, chromedp.Navigate(base+"/?"+params(settings.IDBitsPerKey, "12", settings.IDHashes, "5")), waitLab())
	if got := beval[string](t, ctx, `window.firstLab + (navigator.serviceWorker.controller ? "" : " (no service worker)")`); got != "prerendered 48,000" {
		t.Errorf("a link of 12 bits per key under the service worker came as %q, want the lab prerendered for it, %q", got, "prerendered 48,000")
	}
	if got := btext(t, ctx, "#out-m"); got != "48,000" {
		t.Errorf("once live, out-m = %q, want 48,000", got)
	}
}
