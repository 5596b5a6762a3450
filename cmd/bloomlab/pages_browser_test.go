//go:build !js

package main

import (
	"context"
	"testing"

	"github.com/bloomlab/bloomlab/app/site"

	"github.com/chromedp/chromedp"
)

// The tests here hold for every page of the site's page table, so a new
// page is held to them with no edit here.

// waitLive waits until the lab's wasm runs the page: it sets the console's
// window.bloomlab as it starts.
func waitLive(t *testing.T, ctx context.Context) {
	t.Helper()
	bwaitEval(t, ctx, `String(typeof window.bloomlab)`, func(s string) bool { return s == "object" })
}

// TestBrowserOneH1: every page has exactly one h1, its title; a part of a
// page (the lab under a lesson) titles itself with an h2.
func TestBrowserOneH1(t *testing.T) {
	needBrowser(t)
	base := labURL(t)
	ctx := btab(t, 1280, 900)
	for _, route := range site.PageRoutes() {
		bdo(t, ctx, chromedp.Navigate(base+route))
		waitLive(t, ctx)
		if hs := beval[[]string](t, ctx, `[...document.querySelectorAll("h1")].map(h => h.textContent.trim())`); len(hs) != 1 {
			t.Errorf("%s has %d h1: %q, want one", route, len(hs), hs)
		}
	}
}
