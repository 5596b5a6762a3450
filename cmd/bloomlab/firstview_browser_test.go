//go:build !js

package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/bloomlab/bloomlab/app/settings"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// heldLab is the lab as bloomlab serve runs it, with app.wasm held back
// until release: the prerendered page is all a reader has, as on a slow
// network. ReleaseHead lets the first part of app.wasm through and holds
// the rest, so that a test sees the page at that stage of its start too,
// however fast the machine.
type heldLab struct {
	URL        string
	head, rest sync.Once
	release    chan struct{} // closed once app.wasm may start
	more       chan struct{} // closed once all of it may follow
}

// heldHead is how many bytes of app.wasm's body, as sent, ReleaseHead lets
// through: a small part of it, whatever its encoding.
const heldHead = 64 << 10

func holdLab(t *testing.T) *heldLab {
	t.Helper()
	h, err := labServer(webDir(t), "")
	if err != nil {
		t.Fatal(err)
	}
	hl := &heldLab{release: make(chan struct{}), more: make(chan struct{})}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/app.wasm") {
			h.ServeHTTP(w, r)
			return
		}
		select {
		case <-hl.release:
		case <-r.Context().Done():
			return
		}
		h.ServeHTTP(&headWriter{ResponseWriter: w, more: hl.more, done: r.Context().Done()}, r)
	}))
	hl.URL = srv.URL
	t.Cleanup(srv.Close)
	t.Cleanup(hl.Release)
	return hl
}

// ReleaseHead lets the first heldHead bytes of app.wasm through.
func (hl *heldLab) ReleaseHead() { hl.head.Do(func() { close(hl.release) }) }

// Release lets all of app.wasm through.
func (hl *heldLab) Release() {
	hl.ReleaseHead()
	hl.rest.Do(func() { close(hl.more) })
}

// headWriter writes the first heldHead bytes of a body, flushes them, and
// waits for more to close before it writes the rest.
type headWriter struct {
	http.ResponseWriter
	more, done <-chan struct{}
	sent       int
	waited     bool
}

func (w *headWriter) Write(p []byte) (int, error) {
	n := 0
	if w.sent < heldHead {
		m, err := w.ResponseWriter.Write(p[:min(len(p), heldHead-w.sent)])
		w.sent += m
		if n = m; err != nil || m == len(p) {
			return n, err
		}
		p = p[m:]
	}
	if !w.waited {
		w.Flush()
		select {
		case <-w.more:
		case <-w.done:
			return n, http.ErrAbortHandler
		}
		w.waited = true
	}
	m, err := w.ResponseWriter.Write(p)
	w.sent += m
	return n + m, err
}

func (w *headWriter) Flush() { http.NewResponseController(w.ResponseWriter).Flush() }

// holdInstantiate holds the page's start once app.wasm is all in and
// compiled, with its starting status at 100%, until the test calls
// bloomlabStart(): the last stage of a start, which a fast machine passes
// within a frame and a busy one shows for a while. web/start.js compiles
// app.wasm in a worker (or on the page when it has none) and makes the
// instance on the page from the compiled module, so the hold is on the
// page's WebAssembly.instantiate of a Module: the step after 100% on
// either path.
const holdInstantiate = `if (self.document) {
  const gate = new Promise((go) => { self.bloomlabStart = go; });
  const instantiate = WebAssembly.instantiate;
  WebAssembly.instantiate = async function (src, ...rest) {
    if (src instanceof WebAssembly.Module) await gate;
    return instantiate.call(this, src, ...rest);
  };
}`

// layoutShifts records the page's layout shifts from its first moment.
const layoutShifts = `window.shifts = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.shifts.push({value: e.value, input: e.hadRecentInput,
    sources: (e.sources || []).map((s) => (s.node ? (s.node.id || s.node.className || s.node.nodeName) : "?") +
      " " + JSON.stringify(s.previousRect) + " -> " + JSON.stringify(s.currentRect))});
}).observe({type: "layout-shift", buffered: true});`

// shoot saves a screenshot of the tab when BLOOMLAB_SHOTS names a folder.
func shoot(t *testing.T, ctx context.Context, name string) {
	dir := os.Getenv("BLOOMLAB_SHOTS")
	if dir == "" {
		return
	}
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), shot, 0o644); err != nil {
		t.Fatal(err)
	}
}

// firstViewState is what a reader sees of the lab, read from the page:
// every counter's text, every control's value, both charts.
const firstViewState = `(() => {
  const out = {};
  // The prerendered page's markup is indented: white space as it shows.
  const text = (el) => el.textContent.replace(/\s+/g, " ").trim();
  for (const el of document.querySelectorAll("#lab [id^=out-], #lab output")) out["#" + el.id] = text(el);
  for (const el of document.querySelectorAll("#lab input, #lab select")) out[el.id + ".value"] = el.type === "checkbox" ? String(el.checked) : el.value;
  for (const id of ["chart-k", "chart-bpk"]) out[id] = document.getElementById(id).innerHTML.replace(/>\s+</g, "><").trim();
  out["#bit-caption"] = text(document.getElementById("bit-caption"));
  return out;
})()`

// canvasPixels is the bit array canvas's pixels, RGBA, in base64.
const canvasPixels = `(() => {
  const c = document.getElementById("bit-array");
  const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
  let s = "";
  for (let i = 0; i < d.length; i += 8192) s += String.fromCharCode.apply(null, d.subarray(i, i + 8192));
  return {w: c.width, h: c.height, pix: btoa(s)};
})()`

// TestBrowserFirstView: the prerendered lab is the lab. With the
// WebAssembly held back, the page already shows the counters, the bit
// array and both charts; once live, the page shows the same: every
// counter and control alike, the charts' markup alike, the canvas pixel
// for pixel the prerendered picture, and nothing on the page moved.
func TestBrowserFirstView(t *testing.T) {
	needBrowser(t)
	hl := holdLab(t)
	ctx := btab(t, 1280, 900)
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: layoutShifts + holdInstantiate}); err != nil {
		t.Fatal(err)
	}
	bdo(t, ctx, chromedp.Navigate(hl.URL+"/"), chromedp.WaitVisible(chromedp.CSS("#bit-array-first")))
	if state := beval[string](t, ctx, `document.getElementById("lab").dataset.state`); state != "prerendered" {
		t.Fatalf("the held page's lab is %q, want the prerendered first view", state)
	}
	shoot(t, ctx, "lab-1280-held")
	before := beval[map[string]string](t, ctx, firstViewState)
	for sel, want := range map[string]string{"#out-m": "40,000", "#out-k": "7", "#out-fpr-theory": "0.008194"} {
		if before[sel] != want {
			t.Errorf("prerendered %s = %q, want %q", sel, before[sel], want)
		}
	}
	if !strings.HasPrefix(before["#out-false-negatives"], "0 of") || before["#out-fpr-empirical"] == "" || strings.Contains(before["#out-fpr-empirical"], "…") {
		t.Errorf("prerendered measurements: false negatives %q, measured rate %q", before["#out-false-negatives"], before["#out-fpr-empirical"])
	}
	for _, id := range []string{"chart-k", "chart-bpk"} {
		if n := strings.Count(before[id], `<circle class="dot measured"`); n < 5 {
			t.Errorf("prerendered %s has %d measured points, want its sweep", id, n)
		}
	}
	bg := beval[string](t, ctx, `getComputedStyle(document.getElementById("bit-array-first")).backgroundImage`)
	prerendered := decodePicture(t, bg)

	// The start, a stage at a time, each held until the test has seen it
	// drawn: the starting status's box stays as it was while its text
	// grows, so that nothing moves however long a stage lasts.
	first := startingStage(t, ctx, func(n int) bool { return n == 0 })
	hl.ReleaseHead()
	part := startingStage(t, ctx, func(n int) bool { return n > 0 && n < 100 })
	hl.Release()
	all := startingStage(t, ctx, func(n int) bool { return n == 100 })
	shoot(t, ctx, "lab-1280-starting")
	t.Logf("starting status: %q in %v, %q in %v, %q in %v", first.Text, first.Box, part.Text, part.Box, all.Text, all.Box)
	for _, s := range []startingStatus{part, all} {
		if s.Box != first.Box {
			t.Errorf("the starting status's box moved from %v (%q) to %v (%q)", first.Box, first.Text, s.Box, s.Text)
		}
	}
	beval[bool](t, ctx, `(bloomlabStart(), true)`)
	bdo(t, ctx, waitLab(), chromedp.WaitNotPresent(chromedp.CSS("#bit-array-first")))
	shoot(t, ctx, "lab-1280-live")
	after := beval[map[string]string](t, ctx, firstViewState)
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s: prerendered %q, live %q", k, clip(v), clip(after[k]))
		}
	}
	live := beval[struct {
		W, H int
		Pix  string
	}](t, ctx, canvasPixels)
	pix, err := base64.StdEncoding.DecodeString(live.Pix)
	if err != nil {
		t.Fatal(err)
	}
	b := prerendered.Bounds()
	if live.W != b.Dx() || live.H != b.Dy() {
		t.Fatalf("canvas %d x %d, prerendered picture %d x %d", live.W, live.H, b.Dx(), b.Dy())
	}
	differ := 0
	for i := 0; i < len(pix); i += 4 {
		if !bytes.Equal(pix[i:i+4], prerendered.Pix[i:i+4]) {
			differ++
		}
	}
	if differ > 0 {
		t.Errorf("%d of %d canvas pixels differ from the prerendered picture's", differ, len(pix)/4)
	}
	var shift float64
	for _, s := range beval[[]struct {
		Value   float64
		Input   bool
		Sources []string
	}](t, ctx, `window.shifts`) {
		if !s.Input {
			shift += s.Value
			t.Logf("layout shift %.6f: %s", s.Value, strings.Join(s.Sources, "; "))
		}
	}
	if shift != 0 {
		t.Errorf("the page moved by %.6f (layout shift) as the lab went live", shift)
	}
}

// startingStatus is go-app's starting status as drawn: its text, and its
// box (x, y, width, height) in CSS pixels.
type startingStatus struct {
	Text string
	Box  [4]float64
}

// startingStage waits until go-app's starting status shows a percentage
// the stage wants and the page has drawn it, and returns it.
func startingStage(t *testing.T, ctx context.Context, stage func(percent int) bool) startingStatus {
	t.Helper()
	re := regexp.MustCompile(`^Starting the lab: (\d+)%$`)
	bwaitEval(t, ctx, `document.getElementById("app-wasm-loader-label")?.innerText ?? ""`, func(s string) bool {
		m := re.FindStringSubmatch(s)
		if m == nil {
			return false
		}
		n, err := strconv.Atoi(m[1])
		return err == nil && stage(n)
	})
	// Two animation frames: the status as read has been laid out and
	// drawn, and a shift it made reported.
	return beval[startingStatus](t, ctx, `new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => {
  const r = document.getElementById("app-wasm-loader").getBoundingClientRect();
  done({text: document.getElementById("app-wasm-loader-label").innerText, box: [r.x, r.y, r.width, r.height]});
})))`)
}

// decodePicture reads a CSS url(data:image/png;base64,...) value.
func decodePicture(t *testing.T, css string) *image.RGBA {
	t.Helper()
	m := regexp.MustCompile(`url\("?data:image/png;base64,([A-Za-z0-9+/=]+)"?\)`).FindStringSubmatch(css)
	if m == nil {
		t.Fatalf("the first view's background is %q, not a PNG", clip(css))
	}
	b, err := base64.StdEncoding.DecodeString(m[1])
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	// Every pixel is opaque, so RGBA and the canvas's RGBA agree.
	rgba := image.NewRGBA(img.Bounds())
	draw.Draw(rgba, rgba.Rect, img, img.Bounds().Min, draw.Src)
	return rgba
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

// TestBrowserEarlyMove: a slider moved by keyboard before the
// WebAssembly is live says the lab is starting, and the live lab makes
// the move.
func TestBrowserEarlyMove(t *testing.T) {
	needBrowser(t)
	hl := holdLab(t)
	ctx := btab(t, 1280, 900)
	bdo(t, ctx, chromedp.Navigate(hl.URL+"/"), chromedp.WaitVisible(chromedp.CSS("#bit-array-first")),
		chromedp.Focus(chromedp.CSS("#"+settings.IDBitsPerKey)), chromedp.KeyEvent(kb.ArrowRight))
	note := bwaitText(t, ctx, ".early-note", func(s string) bool { return s != "" })
	if !strings.Contains(note, "starting") {
		t.Errorf("the moved slider says %q", note)
	}
	shoot(t, ctx, "lab-1280-early-move")
	hl.Release()
	bdo(t, ctx, waitLab())
	if m := bwaitText(t, ctx, "#out-m", func(s string) bool { return s != "40,000" }); m != "42,000" {
		t.Errorf("out-m after the early move = %q, want 42,000", m)
	}
	bwaitEval(t, ctx, `location.search`, func(s string) bool { return strings.Contains(s, params(settings.IDBitsPerKey, "10.5")) })
	if n := beval[int](t, ctx, `document.querySelectorAll(".early-note").length`); n != 0 {
		t.Errorf("%d notes still say the lab is starting", n)
	}
}

// TestBrowserFirstViewShots saves the lab before and after its
// WebAssembly is live, at 1280 and 360 px, for a person to look at: set
// BLOOMLAB_SHOTS to a folder to run it.
func TestBrowserFirstViewShots(t *testing.T) {
	if os.Getenv("BLOOMLAB_SHOTS") == "" {
		t.Skip("set BLOOMLAB_SHOTS=DIR to save the lab's first view and live page")
	}
	needBrowser(t)
	for _, width := range []int{1280, 360} {
		hl := holdLab(t)
		ctx := btab(t, width, 900)
		if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: holdInstantiate}); err != nil {
			t.Fatal(err)
		}
		bdo(t, ctx, chromedp.Navigate(hl.URL+"/"), chromedp.WaitVisible(chromedp.CSS("#bit-array-first")))
		startingStage(t, ctx, func(n int) bool { return n == 0 })
		shoot(t, ctx, fmt.Sprintf("lab-%d-held", width))
		hl.ReleaseHead()
		startingStage(t, ctx, func(n int) bool { return n > 0 && n < 100 })
		shoot(t, ctx, fmt.Sprintf("lab-%d-starting", width))
		hl.Release()
		startingStage(t, ctx, func(n int) bool { return n == 100 })
		shoot(t, ctx, fmt.Sprintf("lab-%d-starting-100", width))
		beval[bool](t, ctx, `(bloomlabStart(), true)`)
		bdo(t, ctx, waitLab(), chromedp.WaitNotPresent(chromedp.CSS("#bit-array-first")))
		shoot(t, ctx, fmt.Sprintf("lab-%d-live", width))
	}
}

// shootPart opens the lab at link at 1280 and 360 px, does actions,
// scrolls element id into view and saves what the window shows as
// name-WIDTH.png: set BLOOMLAB_SHOTS to a folder to run it.
func shootPart(t *testing.T, name, link, id string, actions ...chromedp.Action[chromedp.Void]) {
	if os.Getenv("BLOOMLAB_SHOTS") == "" {
		t.Skip("set BLOOMLAB_SHOTS=DIR to save " + name)
	}
	needBrowser(t)
	base := labURL(t)
	for _, width := range []int{1280, 360} {
		ctx := btab(t, width, 900)
		bdo(t, ctx, append([]chromedp.Action[chromedp.Void]{chromedp.Navigate(base + link), waitLab()}, actions...)...)
		beval[bool](t, ctx, `(document.getElementById("`+id+`").scrollIntoView(), true)`)
		shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(os.Getenv("BLOOMLAB_SHOTS"), fmt.Sprintf("%s-%d.png", name, width)), shot, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The key panel's arithmetic, open.
func TestBrowserArithmeticShots(t *testing.T) {
	shootPart(t, "arithmetic", "/", "try",
		typeKey("apple"), chromedp.Click(chromedp.CSS("#try-insert")), waitPanel("try-positions", "“apple”"),
		chromedp.Click(chromedp.CSS("#try-arithmetic summary")))
}

// The overlap view.
func TestBrowserOverlapShots(t *testing.T) {
	shootPart(t, "overlap", "/?"+params(settings.IDItems, "1000"), "bit-array",
		chromedp.Click(chromedp.CSS("#overlap-toggle")), chromedp.WaitVisible(chromedp.CSS("#overlap-legend")))
}

// The bit array answering who set a bit, by keyboard.
func TestBrowserWhoShots(t *testing.T) {
	shootPart(t, "who", "/?"+params(settings.IDItems, "300", settings.IDBitsPerKey, "8", settings.IDTry, "apple"), "bit-array",
		chromedp.Focus(chromedp.CSS("#bit-array")), chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowDown),
		discard(chromedp.Poll[bool](`/Set by|No inserted/.test(document.getElementById("bit-hover").textContent)`, chromedp.WithPollingTimeout(0))))
}
