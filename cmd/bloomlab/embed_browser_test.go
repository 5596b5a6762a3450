//go:build !js

package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// An embed's browser tests frame the lab in an article served by a second
// server: from "localhost" while the lab is at 127.0.0.1, another origin
// and another site, as a magazine's page framing the lab would be. Chrome
// runs such a frame as a target of its own, which embedFrame attaches to.

// snippet is the snippet for embed e of the lab at labBase in settings s,
// as the lab's Embed button writes it.
func snippet(labBase string, s settings.Lab, e settings.Embed) string {
	return settings.EmbedSnippet(settings.EmbedLink(labBase+ui.RouteEmbed, s, e), labBase)
}

// article serves a page that shows each snippet between paragraphs of an
// article. It returns the page's address.
func article(t *testing.T, snippets ...string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(`<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>How full is too full? A Bloom filter, explained</title>
<style>
body { margin: 0; background: #fdfcf8; color: #222; font: 18px/1.6 Georgia, "Times New Roman", serif; }
article { max-width: 44rem; margin: 0 auto; padding: 1.5rem 1rem 4rem; }
h1 { font-size: 1.9rem; line-height: 1.2; }
figure { margin: 1.5rem 0; }
figcaption { font-size: .85rem; color: #666; }
</style></head><body><article>
<h1>How full is too full? A Bloom filter, explained</h1>
<p>A Bloom filter answers "have I seen this key?" with no false negatives and a few false positives. Its bit array has m bits; each of n keys sets k of them. Move the sliders below and watch the array fill.</p>
`)
	for i, snip := range snippets {
		b.WriteString("<figure>" + snip + "<figcaption>Figure " + strconv.Itoa(i+1) + ": the lab, live.</figcaption></figure>\n")
		b.WriteString("<p>The rate rises as the array fills: with too few bits a key, every query finds its k bits set by other keys. With too many probes, each key fills the array faster than it helps.</p>\n")
	}
	b.WriteString(`<p>That is all there is to it.</p></article></body></html>`)
	page := b.String()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(page))
	}))
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	return "http://localhost:" + u.Port() + "/"
}

// embedFrame waits for the frame listed at an address that starts with
// prefix and holds match, attaches to it, and returns a context whose
// actions run in the frame.
func embedFrame(t *testing.T, ctx context.Context, prefix, match string) context.Context {
	t.Helper()
	deadline := time.Now().Add(waitFor)
	var seen []string
	for time.Now().Before(deadline) {
		infos, err := chromedp.Targets(ctx)
		if err != nil {
			t.Fatal(err)
		}
		seen = seen[:0]
		for _, info := range infos {
			if info.Type != "iframe" {
				continue
			}
			seen = append(seen, info.URL)
			if strings.HasPrefix(info.URL, prefix) && strings.Contains(info.URL, match) {
				fctx, cancel := chromedp.NewContext(ctx, chromedp.WithTargetID(info.TargetID), chromedp.WithDetachOnCancel())
				t.Cleanup(cancel)
				// Attached here, the frame lives as long as fctx: attached
				// by a first action under a shorter context, it would end
				// with that.
				if err := chromedp.Do(fctx); err != nil {
					t.Fatal(err)
				}
				return fctx
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no frame of %s with %q in its address; the frames are at %q", prefix, match, seen)
	return nil
}

// reframe points the article's only frame at the address the script src
// makes of its own (f.src), as a writer editing the link would, waits
// until the frame has loaded it, and returns a context in the frame. A
// frame that navigated may still be listed under its first address, so
// the frame is asked its own.
func reframe(t *testing.T, ctx context.Context, src, prefix, match string) context.Context {
	t.Helper()
	bdo(t, ctx, chromedp.Evaluate[chromedp.Void](`(f => {
  window.reframed = false;
  f.addEventListener("load", () => { window.reframed = true; }, { once: true });
  f.src = `+src+`;
})(document.querySelector("iframe"))`))
	bwaitEval(t, ctx, `String(window.reframed)`, func(s string) bool { return s == "true" })
	fctx := embedFrame(t, ctx, prefix, "")
	if href := beval[string](t, fctx, `location.href`); !strings.HasPrefix(href, prefix) || !strings.Contains(href, match) {
		t.Fatalf("the frame is at %q, want %s with %q", href, prefix, match)
	}
	return fctx
}

// waitEmbed waits until the embed in fctx has drawn its first result, and
// fails after waitFor: a frame the browser refused to show holds an error
// page, where the wait would last as long as the tab.
func waitEmbed(t *testing.T, fctx context.Context) {
	t.Helper()
	wait, cancel := context.WithTimeout(fctx, waitFor)
	defer cancel()
	if err := chromedp.Do(wait, waitLab()); err != nil {
		t.Fatalf("the embed never drew its filter: %v", err)
	}
}

// frameHeights are the height the article gives frame i and the height of
// the document in it, in CSS pixels; the document's is read in fctx.
func frameHeights(t *testing.T, ctx, fctx context.Context, i int) (frame, doc float64) {
	t.Helper()
	frame = beval[float64](t, ctx, `document.querySelectorAll("iframe")[`+strconv.Itoa(i)+`].getBoundingClientRect().height`)
	doc = beval[float64](t, fctx, `document.documentElement.getBoundingClientRect().height`)
	return frame, doc
}

// waitFitted waits until frame i is as tall as the document in it (to the
// pixel the embed rounds up to), and returns that height.
func waitFitted(t *testing.T, ctx, fctx context.Context, i int, ok func(h float64) bool) float64 {
	t.Helper()
	deadline := time.Now().Add(waitFor)
	var frame, doc float64
	for time.Now().Before(deadline) {
		frame, doc = frameHeights(t, ctx, fctx, i)
		if frame >= doc && frame < doc+1 && ok(frame) {
			return frame
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("frame %d is %v px tall for a document of %v px", i, frame, doc)
	return 0
}

// noScrollBar waits until the document in fctx fits its frame, and fails
// if it never does: the frame's own size reaches the frame's document a
// moment after the article sets it.
func noScrollBar(t *testing.T, fctx context.Context, when string) {
	t.Helper()
	overflow := `(() => { const d = document.documentElement; return [d.scrollHeight - innerHeight, d.scrollWidth - innerWidth].join(" "); })()`
	deadline := time.Now().Add(waitFor)
	var last string
	for time.Now().Before(deadline) {
		if last = beval[string](t, fctx, overflow); last == "0 0" || strings.HasPrefix(last, "-") && strings.HasSuffix(last, " 0") {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Errorf("%s: the embed overflows its frame by %s px (down, across): it scrolls", when, last)
}

// counterIDs are the counters the embed and the lab both show.
var counterIDs = []string{"out-m", "out-n", "out-k", "out-bytes", "out-set-bits", "out-fill", "out-fpr-theory", "out-fpr-empirical", "out-false-positives", "out-false-negatives"}

// counters reads the counters of counterIDs in ctx.
func counters(t *testing.T, ctx context.Context) map[string]string {
	t.Helper()
	got := map[string]string{}
	for _, id := range counterIDs {
		got[id] = btext(t, ctx, "#"+id)
	}
	return got
}

// TestBrowserEmbedInArticle frames the embed in an article from another
// site, through the snippet the lab hands out: it shows the link's state,
// the counters the full lab shows for the same settings, a slider moves by
// keyboard, its frame follows its height with no scroll bar of its own,
// also when the writer adds a chart, and "Open in Bloom Lab" opens the
// full lab in the same state.
func TestBrowserEmbedInArticle(t *testing.T) {
	needBrowser(t)
	labBase := labURL(t)
	s := settings.DefaultLab()
	s.Params.BitsPerKey, s.Params.Hashes, s.Params.Items, s.Params.Seed = 12, 5, 2000, 42
	e := settings.DefaultEmbed()

	// The writer opens the lab in the settings, and its Embed button.
	full := btab(t, 1280, 900)
	bdo(t, full, chromedp.Navigate(labBase+ui.RouteLab+"?"+s.Query().Encode()), waitLab(),
		chromedp.Click(chromedp.CSS("#embed-box > summary")), chromedp.WaitVisible(chromedp.CSS("#embed-snippet")))
	inLab := counters(t, full)
	snip := beval[string](t, full, `document.getElementById("embed-snippet").value`)
	if want := snippet(labBase, s, e); snip != want {
		t.Errorf("the Embed box gives\n%s\nwant\n%s", snip, want)
	}
	bdo(t, full, chromedp.Click(chromedp.CSS("#embed-copy")))
	copied := bwaitText(t, full, "#embed-copied", func(s string) bool { return s != "" })
	if sel := beval[string](t, full, `(a => a.value.slice(a.selectionStart, a.selectionEnd))(document.getElementById("embed-snippet"))`); sel != snip {
		t.Errorf("Copy (%q) left %q selected, want the whole snippet", copied, sel)
	}

	host := article(t, snip)
	ctx := btab(t, 1280, 900)
	bdo(t, ctx, chromedp.Navigate(host))
	fctx := embedFrame(t, ctx, labBase+ui.RouteEmbed, "")
	waitEmbed(t, fctx)

	// The link's state: its sliders, in order, and nothing of the site's.
	if got := beval[[]string](t, fctx, `[...document.querySelectorAll("input[type=range]")].map(e => e.id)`); strings.Join(got, ",") != strings.Join(e.Sliders, ",") {
		t.Errorf("sliders %v, want %v", got, e.Sliders)
	}
	if n := beval[int](t, fctx, `document.querySelectorAll("nav, header, footer, .masthead").length`); n != 0 {
		t.Errorf("the embed shows %d parts of the site's frame", n)
	}
	for id, want := range map[string]string{"out-m": "24,000", "out-k": "5", "out-n": "2,000", settings.IDBitsPerKey + "-value": "12"} {
		if got := btext(t, fctx, "#"+id); got != want {
			t.Errorf("#%s = %q, want %q", id, got, want)
		}
	}
	if ink := beval[int](t, fctx, bitArrayInk); ink < 1000 {
		t.Errorf("the bit array has %d drawn pixels", ink)
	}
	shown := counters(t, fctx)
	if !equalMaps(shown, inLab) {
		t.Errorf("the embed shows\n%v\nthe lab\n%v", shown, inLab)
	}

	// Fitted: the frame is the document's height, and nothing scrolls.
	plain := waitFitted(t, ctx, fctx, 0, func(float64) bool { return true })
	noScrollBar(t, fctx, "as it opens")

	// "Open in Bloom Lab": the full lab, in a new tab, in the same state.
	open := beval[[]string](t, fctx, `(a => [a.href, a.target])(document.getElementById("embed-open"))`)
	if open[1] != "_blank" {
		t.Errorf("Open in Bloom Lab opens in %q, want a new tab (_blank)", open[1])
	}
	if !strings.HasPrefix(open[0], labBase+ui.RouteLab+"?") {
		t.Fatalf("Open in Bloom Lab goes to %q, want the lab at %s", open[0], labBase)
	}
	u, _ := url.Parse(open[0])
	if got, _ := settings.LabFromQuery(u.Query()); got != s {
		t.Errorf("Open in Bloom Lab carries %+v, want %+v", got, s)
	}
	opened := btab(t, 1280, 900)
	bdo(t, opened, chromedp.Navigate(open[0]), waitLab())
	if got := counters(t, opened); !equalMaps(got, shown) {
		t.Errorf("Open in Bloom Lab shows\n%v\nthe embed\n%v", got, shown)
	}

	// A slider by keyboard: the setting, the counters, the frame's address
	// (in place: the article's history is not the embed's) and the link
	// to the full lab follow.
	history := beval[int](t, ctx, `history.length`)
	bdo(t, fctx, chromedp.Focus(chromedp.CSS("#"+settings.IDHashes)), chromedp.KeyEvent(kb.ArrowRight))
	bwaitText(t, fctx, "#out-k", func(s string) bool { return s == "6" })
	if got := btext(t, fctx, "#"+settings.IDHashes+"-value"); got != "6" {
		t.Errorf("the hashes slider shows %q after one step right, want 6", got)
	}
	if got := btext(t, fctx, "#out-fpr-theory"); got == shown["out-fpr-theory"] {
		t.Errorf("the theory rate stayed %q after k moved", got)
	}
	search := bwaitEval(t, fctx, `location.search`, func(q string) bool { return strings.Contains(q, params(settings.IDHashes, "6")) })
	if !strings.Contains(search, settings.IDControls+"=") {
		t.Errorf("the frame's address %q lost the embed's own keys", search)
	}
	if got := beval[int](t, ctx, `history.length`); got != history {
		t.Errorf("a slider's move added %d entries to the article's history", got-history)
	}
	// The link is written by the page's next update, which may follow the
	// address's by a frame.
	bwaitEval(t, fctx, `document.getElementById("embed-open").href`, func(href string) bool {
		return strings.Contains(href, params(settings.IDHashes, "6"))
	})

	// The writer adds a chart: the frame grows to the new height.
	fctx = reframe(t, ctx, `f.src + "&`+params(settings.IDChart, settings.ChartK)+`"`, labBase+ui.RouteEmbed, params(settings.IDChart, settings.ChartK))
	waitEmbed(t, fctx)
	waitChartShown(t, fctx, "chart-k")
	charted := waitFitted(t, ctx, fctx, 0, func(h float64) bool { return h > plain+100 })
	noScrollBar(t, fctx, "with the chart")
	t.Logf("frame height %v px without the chart, %v px with it", plain, charted)
}

// TestBrowserEmbedLargeNarrow: an embed whose link asks for large type and
// names a slider the lab does not have keeps the large type, says what it
// left out, shows the sliders it knows, and fits a frame 280 px wide with
// no scroll bar either way.
func TestBrowserEmbedLargeNarrow(t *testing.T) {
	needBrowser(t)
	labBase := labURL(t)
	s := settings.DefaultLab()
	s.Large = true
	// The writer's link, with a slider the lab does not have.
	host := article(t, snippet(labBase, s, settings.Embed{Sliders: []string{settings.IDHashes, "colour"}, Chart: settings.ChartBitsPerKey}))
	ctx := btab(t, 1280, 900)
	bdo(t, ctx, chromedp.Navigate(host))
	fctx := embedFrame(t, ctx, labBase+ui.RouteEmbed, "colour")
	waitEmbed(t, fctx)
	if notice := btext(t, fctx, "#clamp-notice"); !strings.Contains(notice, `controls: "colour" is not one of the lab's sliders`) {
		t.Errorf("the notice %q does not name the unknown slider", notice)
	}
	if got := beval[[]string](t, fctx, `[...document.querySelectorAll("input[type=range]")].map(e => e.id)`); strings.Join(got, ",") != settings.IDHashes {
		t.Errorf("sliders %v, want only %s", got, settings.IDHashes)
	}
	if scale := beval[float64](t, fctx, `parseFloat(getComputedStyle(document.querySelector(".embed")).fontSize) / parseFloat(getComputedStyle(document.documentElement).fontSize)`); scale < 1.3 {
		t.Errorf("large type scales the embed's text by %v, want the lab's 1.35", scale)
	}
	if href := beval[string](t, fctx, `document.getElementById("embed-open").href`); !strings.Contains(href, params(settings.IDLarge, "on")) {
		t.Errorf("Open in Bloom Lab goes to %q, without the large type", href)
	}
	waitChartShown(t, fctx, "chart-bpk")
	wide := waitFitted(t, ctx, fctx, 0, func(float64) bool { return true })
	noScrollBar(t, fctx, "at the article's width")
	bdo(t, ctx, chromedp.Evaluate[chromedp.Void](`document.querySelector("iframe").style.width = "280px"`))
	narrow := waitFitted(t, ctx, fctx, 0, func(h float64) bool { return h > wide })
	if w := beval[float64](t, fctx, `innerWidth`); w != 280 {
		t.Fatalf("the frame is %v px wide, want 280", w)
	}
	noScrollBar(t, fctx, "280 px wide")
	t.Logf("frame height %v px at the article's width, %v px at 280 px", wide, narrow)
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestBrowserEmbedScreenshots takes screenshots of an article with two
// embeds, different in settings, sliders, chart and panel, at 1280 and
// 360 CSS pixels wide, each embed in a screenshot of its own too: set
// BLOOMLAB_EMBED_SHOTS to a directory to run it.
func TestBrowserEmbedScreenshots(t *testing.T) {
	out := os.Getenv("BLOOMLAB_EMBED_SHOTS")
	if out == "" {
		t.Skip("set BLOOMLAB_EMBED_SHOTS=DIR to take screenshots of embeds in an article")
	}
	needBrowser(t)
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	labBase := labURL(t)
	first, second := settings.DefaultLab(), settings.Presets()[3].Settings
	e1 := settings.Embed{Sliders: []string{settings.IDBitsPerKey, settings.IDHashes, settings.IDItems}, Chart: settings.ChartK, Frame: "fill"}
	e2 := settings.Embed{Sliders: []string{settings.IDItems}, Panel: true, Frame: "overfilled"}
	host := article(t, snippet(labBase, first, e1), snippet(labBase, second, e2))
	for _, width := range []int{1280, 360} {
		ctx := btab(t, width, 900)
		bdo(t, ctx, chromedp.Navigate(host))
		for i, match := range []string{"id=fill", "id=overfilled"} {
			fctx := embedFrame(t, ctx, labBase+ui.RouteEmbed, match)
			waitEmbed(t, fctx)
			// An upper bound, to the poll's step: the embed's first drawn
			// filter, from the start of its frame's navigation.
			t.Logf("%d px, %s: drawn %.0f ms after its frame started loading", width, match, beval[float64](t, fctx, `performance.now()`))
			if i == 0 {
				waitChartShown(t, fctx, "chart-k")
			}
			// Chrome stops drawing a frame from another site while it is
			// out of view, and its size goes unobserved until it is seen.
			bdo(t, ctx, chromedp.Evaluate[chromedp.Void](`document.querySelectorAll("iframe")[`+strconv.Itoa(i)+`].scrollIntoView()`))
			waitFitted(t, ctx, fctx, i, func(float64) bool { return true })
			noScrollBar(t, fctx, match)
		}
		// A viewport as tall as the article, so that every frame is in
		// view and drawn.
		height := beval[int](t, ctx, `document.documentElement.scrollHeight`)
		bdo(t, ctx, chromedp.EmulateViewport(int64(width), int64(height)), chromedp.Sleep(time.Second))
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(out, "article-"+strconv.Itoa(width)+".png")
		if err := os.WriteFile(name, png, 0o644); err != nil {
			t.Fatal(err)
		}
		for i := range 2 {
			r := beval[[]float64](t, ctx, `(r => [r.x, r.y, r.width, r.height])(document.querySelectorAll("figure")[`+strconv.Itoa(i)+`].getBoundingClientRect())`)
			shot, err := chromedp.Call(ctx, page.CaptureScreenshot, page.CaptureScreenshotParams{Clip: &page.Viewport{X: r[0], Y: r[1], Width: r[2], Height: r[3], Scale: 1}})
			if err != nil {
				t.Fatal(err)
			}
			png := shot.Data
			name := filepath.Join(out, "embed-"+strconv.Itoa(i+1)+"-"+strconv.Itoa(width)+".png")
			if err := os.WriteFile(name, png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		// The lab's Embed box, open.
		labTab := btab(t, width, 900)
		bdo(t, labTab, chromedp.Navigate(labBase+ui.RouteLab), waitLab(),
			chromedp.Click(chromedp.CSS("#embed-box > summary")), chromedp.Click(chromedp.CSS("#embed-copy")))
		png, err = chromedp.Run(labTab, chromedp.Screenshot(chromedp.CSS(".lab-head")))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, "lab-embed-box-"+strconv.Itoa(width)+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshots of the article at %d px in %s", width, out)
	}
}
