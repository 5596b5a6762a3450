//go:build !js

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bloomlab/bloomlab/app/engine"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/audit"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"
	"github.com/bloomlab/bloomlab/core/try"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The browser tests drive the real lab in headless Chromium: served by
// labServer as `bloomlab serve` does, and written by writeSite as `bloomlab
// site` does, served under a path prefix by a plain static file server.
// app.wasm is built once per test run, into a temporary web directory.

const chromiumPath = "/usr/bin/chromium"

var (
	wasmOnce sync.Once
	wasmDir  string // a web directory: app.wasm plus the lab's styles and icons
	wasmErr  error

	browserOnce  sync.Once
	browserCtx   context.Context
	browserClose context.CancelFunc
)

func TestMain(m *testing.M) {
	routesOnceForServe()
	code := m.Run()
	if browserClose != nil {
		browserClose()
	}
	if wasmDir != "" {
		os.RemoveAll(wasmDir)
	}
	os.Exit(code)
}

var routesOnce sync.Once

// routesOnceForServe registers the pages, as main does before any command.
func routesOnceForServe() { routesOnce.Do(routes) }

// needBrowser skips the test when Chromium is missing, except in CI, where
// a missing browser is a failure.
func needBrowser(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("browser tests skipped in -short mode")
	}
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("browser tests need %s in CI: %v", chromiumPath, err)
		}
		t.Skipf("browser tests skipped: %s not found (install chromium, or set CI=true to make this a failure)", chromiumPath)
	}
}

// webDir builds app.wasm (stripped, as make wasm does) into a temporary
// copy of web/, once per test run.
func webDir(t *testing.T) string {
	t.Helper()
	wasmOnce.Do(func() {
		dir, err := os.MkdirTemp("", "bloomlab-web-")
		if err != nil {
			wasmErr = err
			return
		}
		wasmDir = dir
		if err := copyDir(filepath.Join("..", "..", "web"), dir); err != nil {
			wasmErr = err
			return
		}
		os.Remove(filepath.Join(dir, "app.wasm"))
		goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
		if _, err := os.Stat(goBin); err != nil {
			goBin = "go"
		}
		cmd := exec.Command(goBin, "build", "-ldflags=-s -w", "-o", filepath.Join(dir, "app.wasm"), ".")
		cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		if out, err := cmd.CombinedOutput(); err != nil {
			wasmErr = fmt.Errorf("building app.wasm: %v\n%s", err, out)
		}
	})
	if wasmErr != nil {
		t.Fatal(wasmErr)
	}
	return wasmDir
}

// labURL starts the lab as bloomlab serve runs it and returns its address.
func labURL(t *testing.T) string {
	t.Helper()
	h, err := labServer(webDir(t), "")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// siteURL writes the static site for prefix and serves it with a plain
// file server, as a static host would; it returns the site's address.
func siteURL(t *testing.T, prefix string) string {
	t.Helper()
	u, _ := siteServer(t, prefix)
	return u
}

// siteServer is siteURL that also returns the server, to stop it.
func siteServer(t *testing.T, prefix string) (string, *httptest.Server) {
	t.Helper()
	dir := t.TempDir()
	if err := writeSite(dir, webDir(t), prefix); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle(prefix+"/", http.StripPrefix(prefix, staticHost(dir)))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL + prefix, srv
}

// staticHost serves dir the way GitHub Pages does: /audit finds audit.html.
func staticHost(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		if p != "/" && !strings.HasSuffix(p, "/") && filepath.Ext(p) == "" {
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p)+".html")); err == nil {
				r2 := *r
				u := *r.URL
				u.Path = p + ".html"
				r2.URL = &u
				http.ServeFile(w, &r2, filepath.Join(dir, filepath.FromSlash(p)+".html"))
				return
			}
		}
		files.ServeHTTP(w, r)
	})
}

// chromium is an allocator for a headless Chromium with its profile in
// dataDir.
func chromium(dataDir string) (context.Context, context.CancelFunc) {
	return chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(chromiumPath),
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.UserDataDir(dataDir),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-dev-shm-usage", true),
	)
}

// tabLife bounds a tab's whole test, a net for a page that hangs: the
// longest test takes under a minute here, and several times that on one
// busy core.
const tabLife = 10 * time.Minute

// btab opens a new headless Chromium tab, width x height CSS pixels, in
// a browser context of its own: a test's server may get a port an earlier
// test's had, and the tab must not find that origin's service worker,
// cache or storage (TestBrowserTabsShareNothing).
func btab(t *testing.T, width, height int) context.Context {
	t.Helper()
	browserOnce.Do(func() {
		dataDir, _ := os.MkdirTemp("", "bloomlab-chromium-")
		alloc, cancelAlloc := chromium(dataDir)
		ctx, cancel := chromedp.NewContext(alloc)
		if err := chromedp.Do(ctx); err != nil {
			panic(err)
		}
		browserCtx = ctx
		browserClose = func() { cancel(); cancelAlloc(); os.RemoveAll(dataDir) }
	})
	ctx, cancel := chromedp.NewContext(browserCtx, chromedp.WithNewBrowserContext())
	ctx, cancelTimeout := context.WithTimeout(ctx, tabLife)
	bdo(t, ctx, chromedp.EmulateViewport(int64(width), int64(height)))
	// The page's console goes to the test log when the test fails.
	var mu sync.Mutex
	var console []string
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			mu.Lock()
			console = append(console, m.String())
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		if t.Failed() {
			mu.Lock()
			t.Logf("browser console:\n%s", strings.Join(console, "\n"))
			mu.Unlock()
		}
		cancelTimeout()
		cancel()
	})
	return ctx
}

// bdo runs chromedp actions and fails the test on error.
func bdo(t *testing.T, ctx context.Context, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

// waitLab waits until the lab has drawn its first result and every part
// left out of its first tree is in (app/lab/later.go).
func waitLab() chromedp.Action[chromedp.Void] {
	return chromedp.WaitVisible(chromedp.CSS(`#lab[data-state="ready"]:not(:has(.later))`))
}

// waitAudit waits until the audit page has its report.
func waitAudit() chromedp.Action[chromedp.Void] {
	return chromedp.WaitVisible(chromedp.CSS(`#audit[data-state="done"]`))
}

func textJS(sel string) string {
	return `(document.querySelector(` + strconv.Quote(sel) + `)?.textContent ?? "").trim()`
}

// btext returns the trimmed text of the element sel, "" if there is none.
func btext(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	return beval[string](t, ctx, textJS(sel))
}

// beval evaluates a script, waiting for a promise it returns.
func beval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

// bwaitText polls until sel's text satisfies ok, or fails after a while.
func bwaitText(t *testing.T, ctx context.Context, sel string, ok func(string) bool) string {
	t.Helper()
	return bwaitEval(t, ctx, textJS(sel), ok)
}

// waitFor bounds every wait for something the page will do. It is a net
// for a page that never does it, not a verdict: a machine half as fast,
// or a core shared with the rest of the suite, must not reach it.
const waitFor = 3 * time.Minute

// bwaitEval polls a script until its string value (a promise's, awaited)
// satisfies ok.
func bwaitEval(t *testing.T, ctx context.Context, js string, ok func(string) bool) string {
	t.Helper()
	deadline := time.Now().Add(waitFor)
	var last string
	for time.Now().Before(deadline) {
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
		if err == nil {
			last = v
			if ok(v) {
				return v
			}
		}
		time.Sleep(40 * time.Millisecond)
	}
	t.Fatalf("%s = %q never became what the test waits for", js, last)
	return ""
}

// bitArrayInk counts the canvas pixels that are not background white: a
// drawn bit array has many.
const bitArrayInk = `(() => {
  const c = document.getElementById("bit-array");
  if (!c || !c.width || !c.height) return 0;
  const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
  let n = 0;
  for (let i = 0; i < d.length; i += 4) if (d[i] !== 255 || d[i+1] !== 255 || d[i+2] !== 255) n++;
  return n;
})()`

func TestBrowserLabLoads(t *testing.T) {
	needBrowser(t)
	for _, site := range []struct{ name, url string }{
		{"served", ""},
		{"static site under a prefix", "site"},
	} {
		t.Run(site.name, func(t *testing.T) {
			base := labURL(t) + "/"
			if site.url == "site" {
				base = siteURL(t, "/bloomlab") + "/"
			}
			ctx := btab(t, 1280, 900)
			bdo(t, ctx, chromedp.Navigate(base), waitLab())
			want := map[string]string{"#out-m": "40,000", "#out-k": "7", "#out-fpr-theory": "0.008194"}
			for sel, w := range want {
				if got := btext(t, ctx, sel); got != w {
					t.Errorf("%s = %q, want %q", sel, got, w)
				}
			}
			if fn := btext(t, ctx, "#out-false-negatives"); !strings.HasPrefix(fn, "0 of") {
				t.Errorf("false negatives = %q, want 0 of ...", fn)
			}
			if ink := beval[int](t, ctx, bitArrayInk); ink < 1000 {
				t.Errorf("bit array has %d drawn pixels, want a drawn array", ink)
			}
			badge := bwaitText(t, ctx, "#audit-badge", func(s string) bool { return strings.Contains(s, "checks passed") })
			if want := labAudit().Tally(); !strings.Contains(badge, want) {
				t.Errorf("audit badge = %q, want %q", badge, want)
			}
			if site.url == "site" {
				href := beval[string](t, ctx, `document.querySelector('nav a[href$="/audit"]').getAttribute("href")`)
				if href != "/bloomlab/audit" {
					t.Errorf("audit link = %q, want it under the prefix", href)
				}
				// A page other than the start page, opened directly.
				bdo(t, ctx, chromedp.Navigate(strings.TrimSuffix(base, "/")+"/audit"),
					chromedp.WaitVisible(chromedp.CSS(`#audit`)))
			}
		})
	}
}

func TestBrowserSliderByKeyboard(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/"), waitLab())
	before := btext(t, ctx, "#out-fpr-theory")
	bdo(t, ctx, chromedp.Focus(chromedp.CSS("#"+settings.IDBitsPerKey)), chromedp.KeyEvent(kb.ArrowRight))
	m := bwaitText(t, ctx, "#out-m", func(s string) bool { return s != "40,000" })
	if m != "42,000" {
		t.Errorf("out-m after one step right = %q, want 42,000", m)
	}
	if after := btext(t, ctx, "#out-fpr-theory"); after == before {
		t.Errorf("out-fpr-theory stayed %q after the move", after)
	}
	if v := btext(t, ctx, "#"+settings.IDBitsPerKey+"-value"); v != "10.5" {
		t.Errorf("shown value = %q, want 10.5", v)
	}
	search := bwaitEval(t, ctx, `location.search`, func(s string) bool { return strings.Contains(s, params(settings.IDBitsPerKey, "10.5")) })
	if !strings.Contains(search, params(settings.IDHashes, "7")) {
		t.Errorf("URL query %q does not carry every control", search)
	}

	// Back restores the previous settings, forward the new ones.
	bdo(t, ctx, chromedp.NavigateBack())
	bwaitText(t, ctx, "#out-m", func(s string) bool { return s == "40,000" })
	bdo(t, ctx, chromedp.NavigateForward())
	bwaitText(t, ctx, "#out-m", func(s string) bool { return s == "42,000" })
}

func TestBrowserURLRestores(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	q := params(settings.IDBitsPerKey, "12", settings.IDHashes, "5", settings.IDDuplicatePasses, "2", settings.IDItems, "2000", settings.IDQueries, "3000", settings.IDPresentShare, "20", settings.IDKeyBytes, "24", settings.IDSeed, "42", settings.IDVariant, "blocked", settings.IDFault, "none", settings.IDOptimalK, "off")
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/?"+q), waitLab())
	for sel, want := range map[string]string{
		"#out-k": "5", "#out-n": "2,000",
		"#" + settings.IDBitsPerKey + "-value": "12", "#" + settings.IDHashes + "-value": "5", "#" + settings.IDDuplicatePasses + "-value": "2",
		"#" + settings.IDItems + "-value": "2,000", "#" + settings.IDQueries + "-value": "3,000", "#" + settings.IDPresentShare + "-value": "20", "#" + settings.IDKeyBytes + "-value": "24",
	} {
		if got := btext(t, ctx, sel); got != want {
			t.Errorf("%s = %q, want %q", sel, got, want)
		}
	}
	for sel, want := range map[string]string{"#" + settings.IDSeed: "42", "#" + settings.IDVariant: "blocked", "#" + settings.IDFault: "none", "#" + settings.IDBitsPerKey + "-exact": "12"} {
		if got := beval[string](t, ctx, `document.querySelector("`+sel+`").value`); got != want {
			t.Errorf("%s value = %q, want %q", sel, got, want)
		}
	}
	if beval[bool](t, ctx, `!!document.getElementById("clamp-notice")`) {
		t.Error("a legal link shows the clamp notice")
	}
	// The page measured exactly what core measures for these settings.
	p := sim.Params{BitsPerKey: 12, Hashes: 5, DuplicatePasses: 2, Items: 2000, Queries: 3000, PresentShare: 20,
		KeyBytes: 24, Seed: 42, Variant: core.BlockedVariant, Fault: core.NoFault}
	r, err := sim.Run(p)
	if err != nil {
		t.Fatal(err)
	}
	// Blocked filters round m up to whole 512-bit blocks: 24,000 becomes 24,064.
	if r.M != 24064 {
		t.Fatalf("core gives m = %d for 24,000 blocked bits, want 24,064", r.M)
	}
	if got := btext(t, ctx, "#out-m"); got != "24,064" {
		t.Errorf("out-m = %q, want 24,064", got)
	}
	if got, want := btext(t, ctx, "#out-false-positives"), fmt.Sprintf("%d of 2,400", r.FalsePositives); got != want {
		t.Errorf("false positives = %q, want %q", got, want)
	}
}

func TestBrowserClampNotice(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/?"+params(settings.IDBitsPerKey, "abc", settings.IDHashes, "999", settings.IDItems, "-5", settings.IDVariant, "bogus")), waitLab())
	notice := btext(t, ctx, "#clamp-notice")
	for _, want := range []string{settings.IDBitsPerKey, "hashes: 999 is above the maximum, so it was lowered to 32", settings.IDItems, settings.IDVariant} {
		if !strings.Contains(notice, want) {
			t.Errorf("clamp notice %q does not mention %q", notice, want)
		}
	}
	if got := btext(t, ctx, "#out-k"); got != "32" {
		t.Errorf("out-k = %q, want the clamped 32", got)
	}
	if got := btext(t, ctx, "#out-n"); got != "1" {
		t.Errorf("out-n = %q, want the clamped 1", got)
	}
}

func TestBrowserJSFace(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/"), waitLab())

	native, err := audit.Run(audit.MustLab(core.Variant{}, "", ""), nil)
	if err != nil {
		t.Fatal(err)
	}
	rep := beval[audit.Report](t, ctx, `bloomlab.runAudit()`)
	if rep.Digest != native.Digest || rep.Passed != native.Passed || rep.Total != native.Total {
		t.Errorf("browser audit %s %d/%d, native %s %d/%d", rep.Digest, rep.Passed, rep.Total, native.Digest, native.Passed, native.Total)
	}

	want, err := sim.Run(sim.Params{BitsPerKey: 8, Hashes: 4, Items: 3000, Queries: 4000, PresentShare: 0,
		KeyBytes: 16, DuplicatePasses: 1, Seed: 9, Variant: core.Standard, Fault: core.NoFault})
	if err != nil {
		t.Fatal(err)
	}
	got := beval[sim.Result](t, ctx, `bloomlab.simulate({bitsPerKey: 8, hashes: 4, items: 3000, queries: 4000, presentShare: 0, seed: 9})`)
	if got.Digest != want.Digest || got.FalsePositives != want.FalsePositives || got.M != want.M {
		t.Errorf("browser simulate digest %s fp %d m %d, native %s fp %d m %d", got.Digest, got.FalsePositives, got.M, want.Digest, want.FalsePositives, want.M)
	}
	msg := beval[string](t, ctx, `bloomlab.simulate({items: -1}).then(() => "resolved", e => e.message)`)
	if !strings.Contains(msg, "items") {
		t.Errorf("simulate with bad items: %q, want a rejection naming items", msg)
	}

	// The key panel's answers: the same positions, verdicts and culprits
	// as the core's, natively.
	req := try.Request{Params: sim.Defaults(), Insert: []string{"apple", "pear"}, Query: []string{"plum", "apple", "want"}}
	req.Params.Items, req.Params.BitsPerKey = 300, 4
	tried, err := try.Run(req, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantTry, _ := json.Marshal(tried)
	gotTry := beval[string](t, ctx, `bloomlab.tryKeys({params: {items: 300, bitsPerKey: 4}, insert: ["apple", "pear"], query: ["plum", "apple", "want"]}).then(r => JSON.stringify(r))`)
	compareJSON(t, "bloomlab.tryKeys", []byte(gotTry), wantTry)
	msg = beval[string](t, ctx, `bloomlab.tryKeys({insert: [""]}).then(() => "resolved", e => e.message)`)
	if !strings.Contains(msg, "empty") {
		t.Errorf("tryKeys with an empty key: %q, want a rejection naming the empty key", msg)
	}
}

func TestBrowserAuditPage(t *testing.T) {
	needBrowser(t)
	base := labURL(t)
	ctx := btab(t, 1280, 900)
	total := len(audit.Checks())
	bdo(t, ctx, chromedp.Navigate(base+"/audit"), waitAudit())
	native := labAudit()
	if got, want := btext(t, ctx, "#audit-summary"), native.Tally(); got != want || !strings.HasPrefix(want, fmt.Sprintf("%d/%d checks passed", native.Passed, native.Passed)) || native.Passed+native.Skipped != total {
		t.Errorf("summary = %q, want the native %q", got, want)
	}
	if got, want := btext(t, ctx, "#audit-coverage"), "A"+strings.TrimPrefix(native.Coverage(), "a")+"."; got != want {
		t.Errorf("coverage = %q, want the native %q", got, want)
	}
	// On a phone the headline is the tally alone: two lines at most.
	bdo(t, ctx, chromedp.EmulateViewport(360, 800))
	if lines := beval[int](t, ctx, `(() => {
		const r = document.createRange();
		r.selectNodeContents(document.getElementById("audit-summary"));
		return new Set([...r.getClientRects()].map(c => Math.round(c.top))).size;
	})()`); lines > 2 {
		t.Errorf("the audit's headline takes %d lines at 360 px, want at most 2", lines)
	}
	bdo(t, ctx, chromedp.EmulateViewport(1280, 900))
	if got := btext(t, ctx, "#audit-digest"); got != native.Digest {
		t.Errorf("digest = %q, want the native %q", got, native.Digest)
	}
	if got := btext(t, ctx, "#audit-engine"); !strings.HasPrefix(got, "Runs on ") || strings.Contains(got, "thread") {
		t.Errorf("the audit ran %q, want its checks shared by the page's workers", got)
	}

	bdo(t, ctx, chromedp.Navigate(base+"/audit?"+params(settings.IDFault, "one-hash")), waitAudit())
	broken, _ := audit.Run(audit.MustLab(core.Variant{}, core.OneHash, ""), nil)
	if got, want := btext(t, ctx, "#audit-summary")+" ("+strings.ToLower(strings.TrimSuffix(btext(t, ctx, "#audit-coverage"), "."))+")", strings.ToLower(broken.Summary()); got != want {
		t.Errorf("summary with one-hash = %q, want %q", got, want)
	}
	if broken.Passed == total {
		t.Fatal("the one-hash fault passed every check natively")
	}
	caught := btext(t, ctx, "#audit-caught")
	if !strings.Contains(caught, "caught by") {
		t.Errorf("audit-caught = %q", caught)
	}
	if n := beval[int](t, ctx, `document.querySelectorAll('#audit-checks tr.fail').length`); n != broken.Failed {
		t.Errorf("%d failing rows, want %d", n, broken.Failed)
	}
	if n := beval[int](t, ctx, `document.querySelectorAll('#audit-checks tr.skip').length`); n != broken.Skipped || n == 0 {
		t.Errorf("%d skipped rows, want %d", n, broken.Skipped)
	}
	fpr := btext(t, ctx, "#audit-reported-fpr")
	var shown float64
	if m := regexp.MustCompile(`rate of ([0-9.e+-]+)`).FindStringSubmatch(fpr); m == nil {
		t.Errorf("reported rate line %q shows no rate", fpr)
	} else if shown, _ = strconv.ParseFloat(m[1], 64); math.Abs(shown-broken.ReportedFPR) > 1e-6 {
		t.Errorf("reported rate %v, native %v", shown, broken.ReportedFPR)
	}
}

// TestBrowserLongRunCancels opens the lab on a large shape, held mid-way,
// checks the page shows progress and answers while it runs, the run's work
// in the lab's worker and none of it on the page's thread, then moves a
// slider: the newer move must cancel the running one and win.
func TestBrowserLongRunCancels(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	defer holdFromStart(t, ctx)()
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/?"+params(settings.IDItems, "1000000", settings.IDQueries, "1000000")))
	bwaitEval(t, ctx, labHeld, func(s string) bool { return s == "true" })
	// While it runs, the page answers.
	var slowest time.Duration
	for range 5 {
		start := time.Now()
		if state := beval[string](t, ctx, `document.getElementById("lab").dataset.state`); state != "running" {
			t.Fatalf("lab state %q while the large run is held mid-way", state)
		}
		slowest = max(slowest, time.Since(start))
	}
	t.Logf("slowest answer during the large run: %v", slowest)
	progress := beval[float64](t, ctx, `document.getElementById("lab-progress").value`)
	if !(progress > 0 && progress < 1) {
		t.Errorf("progress %v during the run, want between 0 and 1", progress)
	}
	if got := pageWork(t, ctx); got != (engine.PageWork{}) {
		t.Errorf("the page's thread did some of the large run itself: %+v, want all of it in the lab's worker", got)
	}
	// Home moves items to 1: a newer run, let go with the one it replaced.
	bdo(t, ctx, chromedp.Focus(chromedp.CSS("#"+settings.IDItems)), chromedp.KeyEvent(kb.Home))
	holdRuns(t, ctx, false)
	bdo(t, ctx, waitLab())
	if got := btext(t, ctx, "#out-n"); got != "1" {
		t.Fatalf("out-n = %q after the move, want 1", got)
	}
	// Once the lab's worker has ended every run it was sent, the replaced
	// one must not have come back to overwrite the newer result.
	beval[bool](t, ctx, `bloomlab.settled()`)
	if got := btext(t, ctx, "#out-n"); got != "1" {
		t.Errorf("out-n = %q once the lab's worker ended its runs: the cancelled run overwrote the newer one", got)
	}
	if beval[bool](t, ctx, `!!document.getElementById("lab-progress")`) {
		t.Error("the progress bar is still shown after the newer run finished")
	}
}

// pageWork is what the page's own thread has done, since the page started,
// of the runs a worker takes when there is one (see engine.PageWork): a
// count the page keeps, the same on a fast machine as on a busy one.
func pageWork(t *testing.T, ctx context.Context) engine.PageWork {
	t.Helper()
	return beval[engine.PageWork](t, ctx, `bloomlab.pageWork()`)
}

// holdFromStart holds the runs of the pages the tab opens from now on from
// their first (see bloomlab.hold); the returned func stops doing so for
// pages opened after it.
func holdFromStart(t *testing.T, ctx context.Context) (stop func()) {
	t.Helper()
	id, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `self.bloomlabHold = true;`})
	if err != nil {
		t.Fatal(err)
	}
	return func() {
		if _, err := chromedp.Call(ctx, page.RemoveScriptToEvaluateOnNewDocument, page.RemoveScriptToEvaluateOnNewDocumentParams{Identifier: id.Identifier}); err != nil {
			t.Fatal(err)
		}
	}
}

// holdRuns turns the page's hold on or off: while it is on, every run
// waits at its first pause with some of its work done, so a test sees it
// mid-way on any machine.
func holdRuns(t *testing.T, ctx context.Context, on bool) {
	t.Helper()
	beval[bool](t, ctx, fmt.Sprintf(`(bloomlab.hold(%v), true)`, on))
}

// labHeld is true once the lab's run shows some of its work done: with the
// hold on, it stands there.
const labHeld = `String(document.getElementById("lab-progress")?.value > 0)`

// swHolds is a script whose value is "cached" once the service worker
// controls the page and one of its caches holds every path.
func swHolds(paths ...string) string {
	quoted, _ := json.Marshal(paths)
	return `(async () => {
  if (!navigator.serviceWorker.controller) return "";
  for (const k of await caches.keys()) {
    const c = await caches.open(k);
    const held = await Promise.all(` + string(quoted) + `.map((p) => c.match(p)));
    if (held.every(Boolean)) return "cached";
  }
  return "";
})()`
}

// TestBrowserOfflineSite loads the static site once, waits for the service
// worker to cache it, stops the server, and opens the lab and the audit
// again: both must work offline, with a query in the link.
func TestBrowserOfflineSite(t *testing.T) {
	needBrowser(t)
	base, srv := siteServer(t, "/bloomlab")
	ctx := btab(t, 1280, 900)
	bdo(t, ctx, chromedp.Navigate(base+"/"), waitLab())
	bwaitEval(t, ctx, swHolds("/bloomlab/web/app.wasm", "/bloomlab/index.html"), func(s string) bool { return s == "cached" })
	srv.Close()
	bdo(t, ctx, chromedp.Navigate(base+"/?"+params(settings.IDBitsPerKey, "12", settings.IDHashes, "5")), waitLab())
	if got := btext(t, ctx, "#out-m"); got != "48,000" {
		t.Errorf("offline lab: out-m = %q, want 48,000", got)
	}
	bdo(t, ctx, chromedp.Navigate(base+"/audit?"+params(settings.IDFault, "one-hash")), waitAudit())
	if got := btext(t, ctx, "#audit-summary"); !strings.Contains(got, "checks passed") {
		t.Errorf("offline audit: summary %q", got)
	}
	// The workers start from the cached engine.js and app.wasm, under the
	// site's prefix.
	bdo(t, ctx, chromedp.Navigate(base+"/experiments?"+params(settings.ExpName, "rocksdb", settings.ExpItems, "5000", settings.ExpQueries, "50000")), waitExp("idle"))
	if got := waitEngines(t, ctx); strings.Contains(got, "thread") {
		t.Errorf("offline experiments: %q", got)
	}
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#exp-run")), waitExp("done"))
}

// labAudit is the native audit of the lab's default filter, run once for
// the browser tests that compare the page's audit with it.
var labAudit = sync.OnceValue(func() audit.Report {
	r, err := audit.Run(audit.MustLab(core.Variant{}, "", ""), nil)
	if err != nil {
		panic(err)
	}
	return r
})
