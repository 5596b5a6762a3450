//go:build !js

package main

import (
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bloomlab/bloomlab/app/settings"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserFigures takes the screenshots and the timings the lab reports
// on: set BLOOMLAB_FIGURES to a directory to run it. Screenshots of the lab
// and the audit at 1280 and 360 CSS pixels wide go there; the wasm size,
// the time to the first drawn bit array, and the median repaint after a
// slider move at the default shape and at n = 200,000 go to the test log.
func TestBrowserFigures(t *testing.T) {
	out := os.Getenv("BLOOMLAB_FIGURES")
	if out == "" {
		t.Skip("set BLOOMLAB_FIGURES=DIR to take screenshots and timings")
	}
	needBrowser(t)
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	base := labURL(t)
	if info, err := os.Stat(filepath.Join(webDir(t), "app.wasm")); err == nil {
		raw, _ := os.ReadFile(filepath.Join(webDir(t), "app.wasm"))
		gz, _ := gzipBytes(raw, gzip.BestCompression)
		t.Logf("app.wasm: %d bytes raw, %d bytes gzip -9 (%.2f MB, %.2f MB)", info.Size(), len(gz), float64(info.Size())/1e6, float64(len(gz))/1e6)
	}

	shots := []struct {
		name, path string
		width      int
		wait       chromedp.Action[chromedp.Void]
	}{
		{"lab-1280", "/", 1280, waitLab()},
		{"lab-360", "/", 360, waitLab()},
		{"audit-1280", "/audit", 1280, waitAudit()},
		{"audit-360", "/audit?" + params(settings.IDFault, "one-hash"), 360, waitAudit()},
		{"lab-fault-1280", "/?" + params(settings.IDFault, "clear-on-duplicate", settings.IDDuplicatePasses, "2"), 1280, waitLab()},
		{"lab-small-m-1280", "/?" + params(settings.IDItems, "60", settings.IDBitsPerKey, "10", settings.IDHashes, "7", settings.IDLarge, "on"), 1280, waitLab()},
		{"lab-large-n-360", "/?" + params(settings.IDItems, "1000000"), 360, waitLab()},
		{"player-midway-1280", "/?" + params(settings.IDPlayAt, "1234"), 1280, waitLab()},
		{"player-midway-360", "/?" + params(settings.IDPlayAt, "150"), 360, waitLab()},
	}
	for _, s := range shots {
		ctx := btab(t, s.width, 900)
		bdo(t, ctx, chromedp.Navigate(base+s.path), s.wait, chromedp.Sleep(1500*time.Millisecond))
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(out, s.name+".png")
		if err := os.WriteFile(name, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot %s", name)
	}

	// Time to the first bit array: navigation start to the animation frame
	// after the first draw, as the page measures it, over fresh loads.
	var firsts []float64
	for range 5 {
		ctx := btab(t, 1280, 900)
		bdo(t, ctx, chromedp.Navigate(base+"/"), waitLab())
		ms := bwaitFloat(t, ctx, `bloomlab.timings().firstDrawMs`)
		firsts = append(firsts, ms)
	}
	t.Logf("first bit array drawn after navigation: median %.0f ms (runs %v)", median(firsts), firsts)

	for _, shape := range []struct{ name, query string }{
		{"default shape (n = 4,000)", "/"},
		{"n = 200,000", "/?" + params(settings.IDItems, "200000")},
	} {
		ctx := btab(t, 1280, 900)
		bdo(t, ctx, chromedp.Navigate(base+shape.query), waitLab())
		// Steady state: the one-off audit behind the badge has finished.
		bwaitText(t, ctx, "#audit-badge", func(s string) bool { return strings.Contains(s, "checks passed") })
		bdo(t, ctx, chromedp.Focus(chromedp.CSS("#"+settings.IDBitsPerKey)))
		moves := 15
		for i := range moves {
			key := kb.ArrowRight
			if i%2 == 1 {
				key = kb.ArrowLeft
			}
			bdo(t, ctx, chromedp.KeyEvent(key), waitLab(), chromedp.Sleep(300*time.Millisecond))
		}
		us := beval[[]float64](t, ctx, `bloomlab.timings().updatesMs`)
		rs := beval[[]float64](t, ctx, `bloomlab.timings().repaintsMs`)
		cs := beval[[]float64](t, ctx, `bloomlab.timings().computeMs`)
		t.Logf("slider move at %s, over %d moves: bit array and counters written after median %.1f ms (%s); next animation frame after median %.1f ms (%s); simulation alone median %.1f ms",
			shape.name, len(us), median(us), fmtMs(us), median(rs), fmtMs(rs), median(cs))
	}

	// The key panel, as a learner uses it: screenshots of a member, a no
	// and a false positive with its culprits; then the time from pressing
	// Query to the verdict on screen, median of 10.
	for _, w := range []int{1280, 360} {
		ctx := btab(t, w, 900)
		for _, s := range []struct{ name, path, key string }{
			{"member", "/?" + params(settings.IDTry, "apple,pear"), "apple"},
			{"no", "/?" + params(settings.IDTry, "apple,pear"), "zebra"},
			{"false-positive", "/?" + params(settings.IDItems, "300", settings.IDBitsPerKey, "3", settings.IDHashes, "2", settings.IDTry, "apple"), ""},
		} {
			bdo(t, ctx, chromedp.Navigate(base+s.path), waitLab())
			answer := "“" + s.key + "”"
			if s.key == "" {
				answer = "maybe"
				bdo(t, ctx, chromedp.Click(chromedp.CSS("#try-find-fp")))
			} else {
				bdo(t, ctx, typeKey(s.key), chromedp.Click(chromedp.CSS("#try-query")))
			}
			bdo(t, ctx, waitPanel("try-verdict", answer), chromedp.Sleep(300*time.Millisecond))
			png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS(".lab-out")))
			if err != nil {
				t.Fatal(err)
			}
			name := filepath.Join(out, "key-panel-"+s.name+"-"+strconv.Itoa(w)+".png")
			if err := os.WriteFile(name, png, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("screenshot %s", name)
		}
	}
	for _, shape := range []struct{ name, query, fp string }{
		{"default shape (n = 4,000)", "/", "want"},
		{"n = 1,000,000", "/?" + params(settings.IDItems, "1000000"), ""},
	} {
		ctx := btab(t, 1280, 900)
		bdo(t, ctx, chromedp.Navigate(base+shape.query), waitLab())
		bwaitText(t, ctx, "#audit-badge", func(s string) bool { return strings.Contains(s, "checks passed") })
		ms := beval[float64](t, ctx, timeQueries+`(["zebra", "apple"], 10)`)
		t.Logf("key panel at %s: Query pressed to verdict shown (zebra, a no), median of 10: %.0f ms", shape.name, ms)
		fp := shape.fp
		if fp == "" {
			bdo(t, ctx, chromedp.Click(chromedp.CSS("#try-find-fp")), waitPanel("try-verdict", "maybe"))
			fp = strings.TrimSuffix(strings.TrimPrefix(btext(t, ctx, "#try-verdict"), "maybe: a false positive. “"), "” was never inserted, yet every bit it reads answers yes: other keys set them.")
		}
		ms = beval[float64](t, ctx, timeQueries+`([`+strconv.Quote(fp)+`, "apple"], 10)`)
		t.Logf("key panel at %s: Query pressed to a false positive (%q) shown with its culprits, median of 10: %.0f ms", shape.name, fp, ms)
	}
}

// timeQueries is a function of two keys and a count: it queries the first
// n times in the key panel, by the Query button, the second in between (so
// that each answer is new on screen), and returns the median time from the
// click to the frame that shows the first key's verdict.
const timeQueries = `(async ([timed, between], n) => {
  const field = document.getElementById("try-key"), button = document.getElementById("try-query");
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const ask = async (key) => {
    field.value = key;
    const t0 = performance.now();
    button.click();
    for (;;) {
      await frame();
      const v = document.getElementById("try-verdict");
      if (document.getElementById("try").dataset.state === "ready" && v && v.textContent.includes("“" + key + "”")) break;
    }
    return performance.now() - t0;
  };
  const times = [];
  for (let i = 0; i < n; i++) {
    times.push(await ask(timed));
    await ask(between);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(n / 2)];
})`

// bwaitFloat polls a script until it gives a positive number.
func bwaitFloat(t *testing.T, ctx context.Context, js string) float64 {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Poll[float64](`(() => { const v = `+js+`; return v > 0 ? v : null; })()`,
		chromedp.WithPollingInterval(20*time.Millisecond)))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}

func fmtMs(xs []float64) string {
	var b strings.Builder
	for i, x := range xs {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(strconv.FormatFloat(x, 'f', 1, 64))
	}
	return b.String()
}
