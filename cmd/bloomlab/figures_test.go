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
		{"audit-360", "/audit?fault=one-hash", 360, waitAudit()},
		{"lab-fault-1280", "/?fault=clear-on-duplicate&duplicate-passes=2", 1280, waitLab()},
		{"lab-small-m-1280", "/?items=60&bits-per-key=10&hashes=7&large=on", 1280, waitLab()},
		{"lab-large-n-360", "/?items=1000000", 360, waitLab()},
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
		{"n = 200,000", "/?items=200000"},
	} {
		ctx := btab(t, 1280, 900)
		bdo(t, ctx, chromedp.Navigate(base+shape.query), waitLab())
		// Steady state: the one-off audit behind the badge has finished.
		bwaitText(t, ctx, "#audit-badge", func(s string) bool { return strings.Contains(s, "checks passed") })
		bdo(t, ctx, chromedp.Focus(chromedp.CSS("#bits-per-key")))
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
}

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
