//go:build !js

package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/engine"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/core/sim"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// TestBrowserLabInParts: a lab run of sim.PartsFrom members or more builds
// its filter in parts, one a shared worker, merged in the lab's worker.
// Held mid-way, the progress line says so; once done, the run
// (bloomlab.lastRun) was built in as many parts as there are workers, and
// its digest, which folds the filter's storage, is the one of the same run
// built whole: natively, and on the page's thread (bloomlab.simulate).
// The standard, blocked and counting filters, the counting one at three
// passes with typed keys.
func TestBrowserLabInParts(t *testing.T) {
	needBrowser(t)
	base := labURL(t)
	items := fmt.Sprint(sim.PartsFrom + 1001)
	for _, tc := range []struct {
		name, link string
		whole      bool // also run it whole on the page's thread
	}{
		{"standard", params(settings.IDItems, items, settings.IDQueries, "100000"), true},
		{"blocked", params(settings.IDItems, items, settings.IDQueries, "100000", settings.IDVariant, "blocked"), false},
		{"counting", params(settings.IDItems, items, settings.IDQueries, "100000", settings.IDVariant, "counting", settings.IDDuplicatePasses, "3", settings.IDTry, "apple,pear"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := btab(t, 1280, 900)
			if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: keepProgressLabel}); err != nil {
				t.Fatal(err)
			}
			held := holdFromStart(t, ctx)
			bdo(t, ctx, chromedp.Navigate(base+"/?"+tc.link))
			bwaitEval(t, ctx, labHeld, func(s string) bool { return s == "true" })
			workers := beval[int](t, ctx, `Math.min(Math.max(navigator.hardwareConcurrency, 1), 8)`)
			if workers < 2 {
				t.Skipf("this browser reports %d core: a run builds in parts on two workers or more", workers)
			}
			want := fmt.Sprintf("on %d workers, the filter built in %d parts and merged in the lab's worker", workers, workers)
			if got := beval[string](t, ctx, `window.progressLabel || ""`); !strings.Contains(got, want) {
				t.Errorf("progress label %q, want it to say %q", got, want)
			}
			held()
			holdRuns(t, ctx, false)
			// Done, or refused: a run whose parts do not merge into its
			// filter says why on the page, where waiting for it to be
			// done would wait for ever.
			bwaitEval(t, ctx, `String(!!document.querySelector('#lab[data-state="ready"], #lab-error'))`, func(s string) bool { return s == "true" })
			if msg := btext(t, ctx, "#lab-error"); msg != "" {
				t.Fatalf("the run built in parts failed: %s", msg)
			}
			native := labNative(t, tc.link)
			checkLabCounters(t, ctx, tc.name, native)
			run := beval[engine.LabRun](t, ctx, `bloomlab.lastRun()`)
			if run.Parts != workers || run.Digest != native.Digest {
				t.Errorf("the lab's run: %d parts, digest %s; want %d parts and the whole run's digest %s", run.Parts, run.Digest, workers, native.Digest)
			}
			if got := pageWork(t, ctx); got != (engine.PageWork{}) {
				t.Errorf("the page's thread did some of the run itself: %+v", got)
			}
			if tc.whole {
				whole := beval[string](t, ctx, fmt.Sprintf(`bloomlab.simulate({items: %s, queries: 100000}).then(r => r.digest)`, items))
				if whole != run.Digest {
					t.Errorf("built whole on the page's thread the run's digest is %s, built in parts %s", whole, run.Digest)
				}
			}
			t.Logf("%s: %d parts, digest %s, the whole run's %s", tc.name, run.Parts, run.Digest, native.Digest)
		})
	}
}
