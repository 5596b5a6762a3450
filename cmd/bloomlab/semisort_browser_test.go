//go:build !js

package main

import (
	"strconv"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserVariantCuckooSS picks the semi-sorted cuckoo filter by
// keyboard, reads its slots (stored encoded, drawn decoded) and its figures
// against core's for the same settings, narrows its fingerprints to 8 bits
// and keeps both in the link across a reload.
func TestBrowserVariantCuckooSS(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 1400)
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/"), waitLab())
	selectByKeyboard(t, ctx, "#"+settings.IDVariant, "cuckoo-ss")
	waitQuery(t, ctx, params(settings.IDVariant, "cuckoo-ss"))
	p := sim.Defaults()
	p.Variant = core.SemiSortedVariant
	r := simulateNative(t, p)
	// 10-bit fingerprints, 36 bits a bucket: 1,111 buckets in 40,000 bits.
	if r.M != 4444 || r.FingerprintBits != 10 || r.Relocations == 0 {
		t.Fatalf("native: %d slots, %d-bit fingerprints, %d relocations", r.M, r.FingerprintBits, r.Relocations)
	}
	bwaitText(t, ctx, "#out-m", func(s string) bool { return s == "4,444" })
	bdo(t, ctx, waitLab())
	shoot(t, ctx, "variant-cuckoo-ss-page-1280")

	checkSlots(t, ctx, r)
	if note := btext(t, ctx, "#"+settings.IDHashes+"-note"); note != "k does not apply: a key has two buckets of four slots, kept sorted" {
		t.Errorf("hashes note %q", note)
	}
	// The picture reads the slots decoded: the cursor on the first two
	// buckets says what core's filter holds in each slot, in ascending
	// order within a bucket, empty slots first.
	c := r.Filter.(*core.Cuckoo)
	bdo(t, ctx, chromedp.Focus(chromedp.CSS("#bit-array")))
	for pos := range uint64(2 * core.CuckooSlots) {
		bdo(t, ctx, chromedp.KeyEvent(kb.ArrowRight))
		state := "off"
		if fp := c.Fingerprint(pos); fp != 0 {
			state = "holds " + strconv.Itoa(int(fp))
		}
		want := "slot " + thousands(pos) + " of 4,444: " + state
		bwaitText(t, ctx, "#bit-hover", func(s string) bool { return strings.HasPrefix(s, "slot "+thousands(pos)+" of") })
		if got := btext(t, ctx, "#bit-hover"); !strings.HasPrefix(got, want) {
			t.Errorf("the cursor on slot %d says %q, want %q", pos, got, want)
		}
	}

	// 8-bit fingerprints in the same budget: 28 bits a bucket, 1,428
	// buckets, the table 70% full.
	selectByKeyboard(t, ctx, "#"+settings.IDFingerprintBits, "8")
	waitQuery(t, ctx, params(settings.IDFingerprintBits, "8"), params(settings.IDVariant, "cuckoo-ss"))
	p.FingerprintBits = 8
	r = simulateNative(t, p)
	check8 := func() {
		t.Helper()
		bwaitText(t, ctx, "#out-m", func(s string) bool { return s == thousands(r.M) })
		checkVariantFigures(t, ctx, r)
		for sel, want := range map[string]string{"#load": percent(r.Load), "#relocations": thousands(r.Relocations),
			"#" + settings.IDFingerprintBits + "-value": "8"} {
			if got := btext(t, ctx, sel); got != want {
				t.Errorf("%s = %q, native %q", sel, got, want)
			}
		}
	}
	check8()
	bdo(t, ctx, chromedp.Reload(), waitLab())
	check8()
	checkKept(t, ctx, "cuckoo-ss", "8")
}

// The semi-sorted filter's slots in the lab, at 1280 and 360 pixels.
func TestBrowserCuckooSSShots(t *testing.T) {
	shootPart(t, "variant-cuckoo-ss", "/?"+params(settings.IDVariant, "cuckoo-ss", settings.IDItems, "300", settings.IDTry, "apple"), "bit-array")
}
