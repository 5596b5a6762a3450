//go:build !wasm

package main

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"
	"github.com/bloomlab/bloomlab/core/system"

	"github.com/chromedp/chromedp"
)

// secondData reads data attribute name of the element id as a count.
func secondData(t *testing.T, ctx context.Context, id, name string) uint64 {
	t.Helper()
	raw := bwaitEval(t, ctx, `document.getElementById("`+id+`")?.dataset[`+strconv.Quote(name)+`] ?? ""`, func(s string) bool { return s != "" })
	v, err := strconv.ParseUint(raw, 10, 64)
	if err != nil {
		t.Fatalf("#%s's data-%s is %q, not a count", id, name, raw)
	}
	return v
}

// labFilter is a filter of the lab's shape p hashed with seed holding
// members first to last-1, built key by key with core alone.
func labFilter(t *testing.T, p sim.Params, seed, first, last uint64) core.Membership {
	t.Helper()
	m, k := p.Shape()
	f, err := p.Variant.Build(core.Spec{M: m, K: k, N: uint64(p.Items), Seed: seed, Hashing: p.Hashing, Fault: core.NoFault})
	if err != nil {
		t.Fatal(err)
	}
	for i := first; i < last; i++ {
		f.Add(core.Key(nil, core.Members, i, p.Seed, p.KeyBytes))
	}
	return f
}

// TestBrowserSecondFromClick: closed, the second view is one button and
// nothing of it is built; a click opens it in the link, and at the
// default shape its union has the set bits of one filter over both key
// sets, built here with core.
func TestBrowserSecondFromClick(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/"), waitLab())
	if n := beval[int](t, ctx, `document.querySelectorAll("#second canvas, #second-figures").length`); n != 0 {
		t.Fatalf("closed, the second view has %d pictures in the page", n)
	}
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#second-toggle")))
	bwaitEval(t, ctx, `location.search`, func(s string) bool { return strings.Contains(s, params(settings.IDSecond, "on")) })
	p := settings.DefaultLab().Run()
	n := uint64(p.Items)
	both := labFilter(t, p, p.Seed, 0, 2*n).SetBits()
	union, whole := secondData(t, ctx, "second-figures", "unionSet"), secondData(t, ctx, "second-figures", "bothSet")
	if union != both || whole != both {
		t.Errorf("the page's union has %d set bits and its filter over both sets %d; core's filter over both key sets has %d", union, whole, both)
	}
	if got := btext(t, ctx, "#second-rates"); !strings.Contains(got, "A ∩ B") {
		t.Errorf("the rates' table %q has no intersection row", got)
	}
	t.Logf("union %d set bits, one filter over both sets %d", union, both)
}

// TestBrowserSecondFromLink: second=salt,stale opens the view with both
// stories; the salted merge loses the members core counts, and the stale
// snapshot's lost keys and its lucky ones make the writes it missed; a
// word that is no story is said in the notices.
func TestBrowserSecondFromLink(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/?"+params(settings.IDSecond, "salt,stale")), waitLab())
	p := settings.DefaultLab().Run()
	n := uint64(p.Items)
	a := labFilter(t, p, p.Seed, 0, n)
	salted := labFilter(t, p, system.OtherSeed(p.Seed), n, 2*n)
	lost := uint64(0)
	for i := n; i < 2*n; i++ {
		for _, j := range a.Positions(nil, core.Key(nil, core.Members, i, p.Seed, p.KeyBytes)) {
			if !a.IsSet(j) && !salted.IsSet(j) {
				lost++
				break
			}
		}
	}
	if got := secondData(t, ctx, "second-salt", "lost"); got != lost {
		t.Errorf("salts changed: the page counts %d of B's members lost, core %d", got, lost)
	}
	if got := btext(t, ctx, "#second-salt"); !strings.Contains(got, "seeds differ") {
		t.Errorf("salts changed: %q does not say why core refuses the merge", got)
	}
	w := system.Missed(n)
	snap := labFilter(t, p, p.Seed, 0, n-w)
	lucky := uint64(0)
	for i := n - w; i < n; i++ {
		if yes, _ := snap.Contains(core.Key(nil, core.Members, i, p.Seed, p.KeyBytes)); yes {
			lucky++
		}
	}
	missed, staleLost, staleLucky := secondData(t, ctx, "second-stale", "missed"), secondData(t, ctx, "second-stale", "lost"), secondData(t, ctx, "second-stale", "lucky")
	if missed != w || staleLost != w-lucky || staleLucky != lucky {
		t.Errorf("stale snapshot: the page says %d missed, %d lost, %d by false positive; core: %d missed, %d of them false positives", missed, staleLost, staleLucky, w, lucky)
	}
	t.Logf("salt: %d of %d lost; stale: %d missed, %d lost, %d false positives", lost, n, w, staleLost, lucky)
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/?"+params(settings.IDSecond, "salt|purple")), waitLab())
	if got := btext(t, ctx, "#notices"); !strings.Contains(got, `second: "purple" is not on, off, salt, stale or replicas`) {
		t.Errorf("second=salt|purple: the notices say %q", got)
	}
	secondData(t, ctx, "second-salt", "lost")
}

// The second view with its three stories.
func TestBrowserSecondShots(t *testing.T) {
	shootPart(t, "second", "/?"+params(settings.IDSecond, "salt,stale,replicas", settings.IDSecondShared, "25", settings.IDBitsPerKey, "6"), "second",
		chromedp.WaitVisible(chromedp.CSS("#second-replicas")))
}

// TestBrowserSecondShared: the slider of the keys both filters hold goes
// into the link and rebuilds B, and a story's switch tells its story; at 4 bits per key, with half of A's keys
// in B, the intersection answers yes for the absent queries at least as
// often as the filter of the keys both hold, and both counts are core's.
func TestBrowserSecondShared(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/?"+params(settings.IDSecond, "on", settings.IDBitsPerKey, "4")), waitLab())
	secondData(t, ctx, "second-rates", "sharedFp")
	beval[bool](t, ctx, `(() => {
		const s = document.getElementById("second-shared");
		s.value = "50";
		return s.dispatchEvent(new Event("change", {bubbles: true}));
	})()`)
	bwaitEval(t, ctx, `location.search`, func(s string) bool { return strings.Contains(s, params(settings.IDSecondShared, "50")) })
	bwaitEval(t, ctx, `document.getElementById("second-note")?.textContent ?? ""`, func(s string) bool { return strings.Contains(s, "2,000 of them A's") })
	s := settings.DefaultLab()
	s.Params.BitsPerKey = 4
	want, err := system.Build(system.Params{Lab: s.Run(), Shared: s.Params.Items / 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	inter, shared := secondData(t, ctx, "second-rates", "intersectionFp"), secondData(t, ctx, "second-rates", "sharedFp")
	if inter != want.RateIntersection.FalsePositives || shared != want.RateShared.FalsePositives {
		t.Errorf("half the keys shared: the page counts %d false positives of A ∩ B and %d of the shared keys' filter; core %d and %d",
			inter, shared, want.RateIntersection.FalsePositives, want.RateShared.FalsePositives)
	}
	if inter < shared || shared == 0 {
		t.Errorf("half the keys shared: A ∩ B has %d false positives, the shared keys' filter %d: want at least as many, and some", inter, shared)
	}
	t.Logf("half shared at 4 bits per key: A ∩ B %d false positives, the shared keys' filter %d", inter, shared)
	// A story switched by a click is built and told: the switch stays in
	// the page while B is rebuilt, so the build's answer comes back.
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#second-stale-toggle")))
	if got := secondData(t, ctx, "second-stale", "missed"); got != system.Missed(uint64(s.Params.Items)) {
		t.Errorf("stale snapshot switched on: %d writes missed, want %d", got, system.Missed(uint64(s.Params.Items)))
	}
}
