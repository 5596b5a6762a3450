//go:build !js

package main

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The cuckoo and fuse filters in the real lab: chosen by keyboard, drawn
// slot by slot or cell by cell, their own figures beside the Bloom ones,
// each equal to what core measures natively for the same settings (the
// core is deterministic, so the measured rate is compared exactly), the
// controls that mean nothing to them off with a note, and their settings
// kept in the link.

// thousands writes n as the lab does: 4,000.
func thousands(n uint64) string {
	s := strconv.FormatUint(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// percent writes a share as the lab does: 80%, 96.9%.
func percent(x float64) string { return strconv.FormatFloat(x*100, 'g', 3, 64) + "%" }

// simulateNative is sim.Run of p, failing the test on error.
func simulateNative(t *testing.T, p sim.Params) sim.Result {
	t.Helper()
	r, err := sim.Run(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// waitQuery waits until the address carries every one of parts.
func waitQuery(t *testing.T, ctx context.Context, parts ...string) string {
	t.Helper()
	return bwaitEval(t, ctx, `location.search`, func(s string) bool {
		for _, p := range parts {
			if !strings.Contains(s, p) {
				return false
			}
		}
		return true
	})
}

// selectByKeyboard focuses the select sel and presses ArrowDown or ArrowUp
// until its value is want, as a keyboard user does; Chromium fires change
// on each press, so each option passed on the way is chosen in turn.
func selectByKeyboard(t *testing.T, ctx context.Context, sel, want string) {
	t.Helper()
	q := `document.querySelector(` + strconv.Quote(sel) + `)`
	at := beval[int](t, ctx, q+`.selectedIndex`)
	to := beval[int](t, ctx, `[...`+q+`.options].findIndex(o => o.value === `+strconv.Quote(want)+`)`)
	if to < 0 {
		t.Fatalf("%s has no option %q", sel, want)
	}
	key := kb.ArrowDown
	if to < at {
		key = kb.ArrowUp
	}
	bdo(t, ctx, chromedp.Focus(chromedp.CSS(sel)))
	for i := at; i != to; i += (to - at) / max(1, abs(to-at)) {
		bdo(t, ctx, chromedp.KeyEvent(key))
	}
	bwaitEval(t, ctx, q+`.value`, func(v string) bool { return v == want })
}

func abs(n int) int { return max(n, -n) }

// shownCounter reports whether counter id's box is shown.
func shownCounter(t *testing.T, ctx context.Context, id string) bool {
	t.Helper()
	return beval[bool](t, ctx, `(() => { const e = document.getElementById(`+strconv.Quote(id)+`); return !!e && !e.parentElement.hidden && e.offsetParent !== null; })()`)
}

// disabled reports whether the control id is disabled.
func disabled(t *testing.T, ctx context.Context, id string) bool {
	t.Helper()
	return beval[bool](t, ctx, `document.getElementById(`+strconv.Quote(id)+`).disabled`)
}

// sameRate reports whether the page's text for a rate shows v: to its six
// decimals, or to the two digits of its scientific form below 0.001.
func sameRate(text string, v float64) bool {
	shown, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return false
	}
	if strings.Contains(text, "e") {
		return math.Abs(shown-v) <= 0.05*v*1.0001
	}
	return math.Abs(shown-v) <= 5e-7
}

// checkVariantFigures compares the page's figures with core's r for the
// same settings: the counts exactly, the rates to the digits shown.
func checkVariantFigures(t *testing.T, ctx context.Context, r sim.Result) {
	t.Helper()
	if text := btext(t, ctx, "#out-fpr-empirical"); !sameRate(text, r.EmpiricalFPR) {
		t.Errorf("measured rate %q, native %v", text, r.EmpiricalFPR)
	}
	want := map[string]string{
		"#out-m":               thousands(r.M),
		"#out-k":               strconv.Itoa(r.K),
		"#out-false-positives": thousands(r.FalsePositives) + " of " + thousands(r.AbsentQueries),
		"#out-false-negatives": thousands(r.FalseNegatives) + " of " + thousands(r.PresentQueries),
		"#out-set-bits":        thousands(r.SetBits) + " of " + thousands(r.M),
		"#memory-bits-per-key": strconv.FormatFloat(r.MemoryBitsPerKey, 'f', 2, 64),
	}
	for sel, w := range want {
		if got := btext(t, ctx, sel); got != w {
			t.Errorf("%s = %q, native %q", sel, got, w)
		}
	}
	if text := btext(t, ctx, "#out-fpr-theory"); !sameRate(text, r.TheoryFPRVariant) {
		t.Errorf("theory rate %q, native %v", text, r.TheoryFPRVariant)
	}
}

// TestBrowserVariantCuckoo picks the cuckoo filter by keyboard on the real
// page and reads its picture, counters and notes; then 12-bit fingerprints,
// which overfill the same memory: the failed inserts are a problem the page
// names, and a reload restores it all.
func TestBrowserVariantCuckoo(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 1400)
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/"), waitLab())
	if shownCounter(t, ctx, "load") || beval[bool](t, ctx, `!!document.getElementById("`+settings.IDFingerprintBits+`")`) {
		t.Error("the standard filter shows a load or a fingerprint width")
	}
	selectByKeyboard(t, ctx, "#"+settings.IDVariant, "cuckoo")
	waitQuery(t, ctx, params(settings.IDVariant, "cuckoo"))
	bwaitText(t, ctx, "#out-m", func(s string) bool { return s == "5,000" })
	bdo(t, ctx, waitLab())

	p := sim.Defaults()
	p.Variant = core.CuckooVariant
	r := simulateNative(t, p)
	checkSlots(t, ctx, r)
	if caption := btext(t, ctx, "#bit-caption"); !strings.Contains(caption, "ringed: the buckets of the last key inserted") {
		t.Errorf("caption %q", caption)
	}
	if r.Relocations == 0 || r.Load != 0.8 {
		t.Fatalf("native cuckoo: %d relocations at load %v; the comparison is idle", r.Relocations, r.Load)
	}
	for id, want := range map[string]bool{"load": true, "relocations": true, "insert-failures": true, settings.IDFingerprintBits + "-value": true,
		"out-fpr-exact": false, "out-fill": false, "build-retries": false} {
		if got := shownCounter(t, ctx, id); got != want {
			t.Errorf("counter %s shown %v, want %v", id, got, want)
		}
	}
	if lbl := beval[string](t, ctx, `document.getElementById("out-k").previousElementSibling.textContent`); lbl != "slots a query reads" {
		t.Errorf("out-k labelled %q", lbl)
	}

	// The controls that mean nothing say why; the others stay on.
	for id, want := range map[string]bool{settings.IDHashes: true, settings.IDOptimalK: true, settings.IDHashing: true, settings.IDBitsPerKey: false, settings.IDFingerprintBits: false} {
		if got := disabled(t, ctx, id); got != want {
			t.Errorf("#%s disabled %v, want %v", id, got, want)
		}
	}
	if note := btext(t, ctx, "#"+settings.IDHashes+"-note"); note != "k does not apply: a key has two buckets of four slots" {
		t.Errorf("hashes note %q", note)
	}
	if note := btext(t, ctx, "#"+settings.IDHashing+"-note"); !strings.HasPrefix(note, "the scheme does not apply: the cuckoo filter finds its two buckets") {
		t.Errorf("hashing note %q", note)
	}
	if d := beval[string](t, ctx, `document.getElementById("`+settings.IDOptimalK+`").getAttribute("aria-describedby")`); d != settings.IDHashes+"-note" {
		t.Errorf("optimal k described by %q", d)
	}
	// The sliders' values stay in the link.
	waitQuery(t, ctx, params(settings.IDHashes, "7"), params(settings.IDBitsPerKey, "10"))
	// One chart: against bits per key, the cuckoo filter's own theory.
	if beval[bool](t, ctx, `document.getElementById("chart-k").offsetParent !== null`) {
		t.Error("the chart against k is shown for the cuckoo filter")
	}
	bwaitText(t, ctx, "#chart-bpk", func(s string) bool { return strings.Contains(s, "theory, cuckoo (auto width)") })

	// 12-bit fingerprints in the same 40,000 bits: 3,332 slots for 4,000 keys.
	selectByKeyboard(t, ctx, "#"+settings.IDFingerprintBits, "12")
	waitQuery(t, ctx, params(settings.IDFingerprintBits, "12"), params(settings.IDVariant, "cuckoo"))
	p.FingerprintBits = 12
	r = simulateNative(t, p)
	if r.InsertFailures == 0 || r.FalseNegatives == 0 {
		t.Fatalf("native cuckoo at 12 bits: %d failures, %d false negatives; the alarm is untested", r.InsertFailures, r.FalseNegatives)
	}
	bwaitText(t, ctx, "#insert-failures", func(s string) bool { return s == thousands(r.InsertFailures) })
	checkCuckoo := func() {
		t.Helper()
		checkVariantFigures(t, ctx, r)
		for sel, want := range map[string]string{"#load": percent(r.Load), "#relocations": thousands(r.Relocations),
			"#insert-failures": thousands(r.InsertFailures), "#" + settings.IDFingerprintBits + "-value": "12"} {
			if got := btext(t, ctx, sel); got != want {
				t.Errorf("%s = %q, native %q", sel, got, want)
			}
		}
		if !beval[bool](t, ctx, `document.getElementById("insert-failures").parentElement.classList.contains("alarm")`) {
			t.Error("insert failures are not marked as a problem")
		}
		warn := btext(t, ctx, "#insert-failure-warning")
		if !strings.HasPrefix(warn, "⚠ "+thousands(r.InsertFailures)+" inserts failed: the table is too full") || !strings.Contains(warn, "not in the filter") {
			t.Errorf("warning %q", warn)
		}
		if fn := btext(t, ctx, "#false-negative-warning"); !strings.HasSuffix(fn, "They are the inserts that failed above.") {
			t.Errorf("false negative warning %q", fn)
		}
	}
	checkCuckoo()

	bdo(t, ctx, chromedp.Reload(), waitLab())
	bwaitText(t, ctx, "#insert-failures", func(s string) bool { return s == thousands(r.InsertFailures) })
	checkKept(t, ctx, "cuckoo", "12")
	checkCuckoo()
}

// checkSlots compares a cuckoo table's page with core's run r at its
// default width: the caption and ink of its slots, the shared figures, and
// its load, relocations, no failed insert, and the width it chose.
func checkSlots(t *testing.T, ctx context.Context, r sim.Result) {
	t.Helper()
	if caption := btext(t, ctx, "#bit-caption"); !strings.HasPrefix(caption, "Every slot of the "+thousands(r.M)+" drawn as a square, 4 to a bucket, dark when it holds a fingerprint.") {
		t.Errorf("caption %q", caption)
	}
	if ink := beval[int](t, ctx, bitArrayInk); ink < 1000 {
		t.Errorf("the slots drew %d pixels", ink)
	}
	checkVariantFigures(t, ctx, r)
	for sel, want := range map[string]string{
		"#load": percent(r.Load), "#relocations": thousands(r.Relocations), "#insert-failures": "0",
		"#" + settings.IDFingerprintBits + "-value": strconv.Itoa(r.FingerprintBits) + " (auto)", "#memory-bits-per-key": "10.00",
	} {
		if got := btext(t, ctx, sel); got != want {
			t.Errorf("%s = %q, native %q", sel, got, want)
		}
	}
}

// checkKept checks that a reload kept the variant and fingerprint width
// chosen, from the link.
func checkKept(t *testing.T, ctx context.Context, variant, width string) {
	t.Helper()
	for sel, want := range map[string]string{"#" + settings.IDVariant: variant, "#" + settings.IDFingerprintBits: width} {
		if got := beval[string](t, ctx, `document.querySelector("`+sel+`").value`); got != want {
			t.Errorf("after reload %s = %q, want %q", sel, got, want)
		}
	}
}

// staticLab is what the lab shows of a static filter, one built once from
// the whole key set: its array drawn unit by unit, its figures and notes,
// and a fingerprint width whose units straddle words.
type staticLab struct {
	variant    core.Variant
	unit       string // "cell" or "row", as the caption names them
	k          string // what #out-k shows: the units a query reads at most
	hashesNote string // why k does not apply
	bitsNote   string // why bits per key does not apply
	charts     string // the chart status's opening
	straddle   int    // a width that does not divide 64
}

// checkStaticLab picks s's variant by keyboard and checks the page against
// core's run at its default width and at s.straddle, whose units straddle
// words. It returns the settings it left the page at.
func checkStaticLab(t *testing.T, ctx context.Context, s staticLab) sim.Params {
	t.Helper()
	name := s.variant.Name()
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/"), waitLab())
	selectByKeyboard(t, ctx, "#"+settings.IDVariant, name)
	waitQuery(t, ctx, params(settings.IDVariant, name))
	p := sim.Defaults()
	p.Variant = s.variant
	r := simulateNative(t, p)
	bwaitText(t, ctx, "#out-m", func(v string) bool { return v == thousands(r.M) })
	bdo(t, ctx, waitLab())

	if caption := btext(t, ctx, "#bit-caption"); !strings.HasPrefix(caption, "Every "+s.unit+" of the "+thousands(r.M)+" drawn as a square, dark when it is nonzero.") {
		t.Errorf("caption %q", caption)
	}
	if ink := beval[int](t, ctx, bitArrayInk); ink < 1000 {
		t.Errorf("the %ss drew %d pixels", s.unit, ink)
	}
	checkVariantFigures(t, ctx, r)
	for sel, want := range map[string]string{"#build-retries": thousands(r.BuildRetries),
		"#" + settings.IDFingerprintBits + "-value": strconv.Itoa(r.FingerprintBits) + " (auto)", "#out-k": s.k} {
		if got := btext(t, ctx, sel); got != want {
			t.Errorf("%s = %q, native %q", sel, got, want)
		}
	}
	for id, want := range map[string]bool{"build-retries": true, "memory-bits-per-key": true, "load": false, "relocations": false, "out-fpr-exact": false} {
		if got := shownCounter(t, ctx, id); got != want {
			t.Errorf("counter %s shown %v, want %v", id, got, want)
		}
	}
	if beval[bool](t, ctx, `!!document.getElementById("build-error")`) {
		t.Errorf("a %s filter that built shows a build error", name)
	}
	for id, want := range map[string]bool{settings.IDHashes: true, settings.IDOptimalK: true, settings.IDBitsPerKey: true, settings.IDHashing: true, settings.IDItems: false} {
		if got := disabled(t, ctx, id); got != want {
			t.Errorf("#%s disabled %v, want %v", id, got, want)
		}
	}
	for sel, want := range map[string]string{
		"#" + settings.IDHashes + "-note":     "k does not apply: " + s.hashesNote,
		"#" + settings.IDBitsPerKey + "-note": "bits per key does not apply: " + s.bitsNote,
	} {
		if got := btext(t, ctx, sel); got != want {
			t.Errorf("%s = %q, want %q", sel, got, want)
		}
	}
	if beval[bool](t, ctx, `document.querySelector(".charts").offsetParent !== null`) {
		t.Errorf("charts shown for the %s filter", name)
	}
	if status := btext(t, ctx, "#chart-status"); !strings.HasPrefix(status, "No charts: they sweep k and bits per key, and "+s.charts+" takes neither") {
		t.Errorf("chart status %q", status)
	}

	width := strconv.Itoa(s.straddle)
	selectByKeyboard(t, ctx, "#"+settings.IDFingerprintBits, width)
	waitQuery(t, ctx, params(settings.IDFingerprintBits, width), params(settings.IDVariant, name))
	p.FingerprintBits = s.straddle
	r = simulateNative(t, p)
	bwaitText(t, ctx, "#"+settings.IDFingerprintBits+"-value", func(v string) bool { return v == width })
	checkVariantFigures(t, ctx, r)
	if ink := beval[int](t, ctx, bitArrayInk); ink < 1000 {
		t.Errorf("the %d-bit %ss drew %d pixels", s.straddle, s.unit, ink)
	}
	return p
}

// TestBrowserVariantFuse checks the binary fuse filter's page at 8 and 7
// bits, then 16, whose theory the page writes in scientific form, and
// switches to the cuckoo filter, which keeps the width.
func TestBrowserVariantFuse(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 1400)
	p := checkStaticLab(t, ctx, staticLab{variant: core.FuseVariant, unit: "cell", k: "3",
		hashesNote: "a key has three cells",
		bitsNote:   "the fuse filter sizes itself from n, about 1.125 n cells of f bits",
		charts:     "the fuse filter", straddle: 7})

	selectByKeyboard(t, ctx, "#"+settings.IDFingerprintBits, "16")
	waitQuery(t, ctx, params(settings.IDFingerprintBits, "16"), params(settings.IDVariant, "fuse"))
	p.FingerprintBits = 16
	bwaitText(t, ctx, "#"+settings.IDFingerprintBits+"-value", func(s string) bool { return s == "16" })
	checkVariantFigures(t, ctx, simulateNative(t, p))
	if got := btext(t, ctx, "#out-fpr-theory"); got != "1.5e-05" {
		t.Errorf("theory at 16 bits %q", got)
	}

	// The cuckoo filter has 16-bit fingerprints too: the width stays.
	selectByKeyboard(t, ctx, "#"+settings.IDVariant, "cuckoo")
	waitQuery(t, ctx, params(settings.IDVariant, "cuckoo"), params(settings.IDFingerprintBits, "16"))
	bwaitText(t, ctx, "#"+settings.IDFingerprintBits+"-value", func(s string) bool { return s == "16" })
	if beval[bool](t, ctx, `!!document.getElementById("clamp-notice")`) {
		t.Errorf("a width both layouts have gave a notice: %q", btext(t, ctx, "#clamp-notice"))
	}
	p.Variant = core.CuckooVariant
	checkVariantFigures(t, ctx, simulateNative(t, p))
}

// TestBrowserVariantRibbon checks the Ribbon filter's page at 7 bits and
// at 12, and photographs it under BLOOMLAB_SHOTS at 1280 and 360 pixels.
func TestBrowserVariantRibbon(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 1400)
	checkStaticLab(t, ctx, staticLab{variant: core.RibbonVariant, unit: "row", k: "64",
		hashesNote: "a key selects about half the 64 rows from its start",
		bitsNote:   "the Ribbon filter sizes itself from n, about 1.1 n rows of r bits",
		charts:     "the ribbon filter", straddle: 12})
	shoot(t, ctx, "variant-ribbon-1280")

	narrow := btab(t, 360, 900)
	bdo(t, narrow, chromedp.Navigate(labURL(t)+"/?"+params(settings.IDVariant, "ribbon")), waitLab())
	p := sim.Defaults()
	p.Variant = core.RibbonVariant
	m := thousands(simulateNative(t, p).M)
	bwaitText(t, narrow, "#out-m", func(s string) bool { return s == m })
	shoot(t, narrow, "variant-ribbon-360")
}

// TestBrowserVariantRibbon128 checks the Ribbon filter at w = 128, whose
// queries select up to 128 rows, at 7 bits and at 12.
func TestBrowserVariantRibbon128(t *testing.T) {
	needBrowser(t)
	checkStaticLab(t, btab(t, 1280, 1400), staticLab{variant: core.RibbonWideVariant, unit: "row", k: "128",
		hashesNote: "a key selects about half the 128 rows from its start",
		bitsNote:   "the Ribbon filter sizes itself from n, about 1.05 n rows of r bits",
		charts:     "the ribbon-128 filter", straddle: 12})
}

// linkColours counts the bit array's pixels by shade family: warm ones
// (red above blue), which only the sand grey of a chain's odd links
// gives at a low fill, and cool ones, the first link's grey.
const linkColours = `(() => {
  const c = document.getElementById("bit-array");
  const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
  let warm = 0, cool = 0;
  for (let i = 0; i < d.length; i += 4) {
    if (d[i] === 255 && d[i+1] === 255 && d[i+2] === 255) continue;
    if (d[i] > d[i+2]) warm++; else cool++;
  }
  return [warm, cool];
})()`

// TestBrowserVariantScalable picks the scalable filter by keyboard (End:
// the last variant) and reads the chain on the real page: its links drawn
// one after another in two greys, its counters equal to core's for the
// same settings, the sliders' help saying what they shape, the hashing
// scheme off with its reason, the charts against the first link's k and
// bits per key; then a bigger first link by the bits-per-key slider, moved
// by keyboard, and a reload that keeps it all.
func TestBrowserVariantScalable(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 1400)
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/"), waitLab())
	bdo(t, ctx, chromedp.Focus(chromedp.CSS("#"+settings.IDVariant)), chromedp.KeyEvent(kb.End))
	waitQuery(t, ctx, params(settings.IDVariant, "scalable"))
	p := sim.Defaults()
	p.Variant = core.ScalableVariant
	r := simulateNative(t, p)
	if r.Links != 4 {
		t.Fatalf("native chain of %d links; the picture's links are untested", r.Links)
	}
	bwaitText(t, ctx, "#out-m", func(s string) bool { return s == thousands(r.M) })
	bdo(t, ctx, waitLab())

	check := func(r sim.Result) {
		t.Helper()
		if text := btext(t, ctx, "#out-fpr-empirical"); !sameRate(text, r.EmpiricalFPR) {
			t.Errorf("measured rate %q, native %v", text, r.EmpiricalFPR)
		}
		for sel, want := range map[string]string{
			"#out-m": thousands(r.M), "#out-k": strconv.Itoa(r.K), "#links": strconv.Itoa(r.Links),
			"#memory-bits-per-key": strconv.FormatFloat(r.MemoryBitsPerKey, 'f', 2, 64),
			"#out-set-bits":        thousands(r.SetBits) + " (expected " + thousands(uint64(math.Round(r.ExpectedSetBits))) + ")",
			"#out-false-positives": thousands(r.FalsePositives) + " of " + thousands(r.AbsentQueries),
			"#out-false-negatives": thousands(r.FalseNegatives) + " of " + thousands(r.PresentQueries),
		} {
			if got := btext(t, ctx, sel); got != want {
				t.Errorf("%s = %q, native %q", sel, got, want)
			}
		}
		for sel, want := range map[string]float64{"#out-fpr-theory": r.TheoryFPRVariant, "#rate-bound": r.RateBound} {
			if text := btext(t, ctx, sel); !sameRate(text, want) {
				t.Errorf("%s = %q, native %v", sel, text, want)
			}
		}
		caption := btext(t, ctx, "#bit-caption")
		if !strings.Contains(caption, thousands(r.M)+" bits") || !strings.Contains(caption, "Its "+strconv.Itoa(r.Links)+" links lie one after another") {
			t.Errorf("caption %q", caption)
		}
		if c := beval[[]int](t, ctx, linkColours); c[0] < 500 || c[1] < 500 {
			t.Errorf("the chain drew %d warm and %d cool pixels: its links do not show apart", c[0], c[1])
		}
	}
	check(r)
	for id, want := range map[string]bool{"links": true, "rate-bound": true, "memory-bits-per-key": true, "load": false, "out-fpr-exact": false} {
		if got := shownCounter(t, ctx, id); got != want {
			t.Errorf("counter %s shown %v, want %v", id, got, want)
		}
	}
	if lbl := beval[string](t, ctx, `document.getElementById("out-k").previousElementSibling.textContent`); lbl != "k probes, all links" {
		t.Errorf("out-k labelled %q", lbl)
	}
	for id, want := range map[string]bool{settings.IDHashes: false, settings.IDBitsPerKey: false, settings.IDItems: false, settings.IDHashing: true} {
		if got := disabled(t, ctx, id); got != want {
			t.Errorf("#%s disabled %v, want %v", id, got, want)
		}
	}
	for sel, want := range map[string]string{
		"#" + settings.IDBitsPerKey + "-help": "the first link's bits per key: it holds an eighth of the items",
		"#" + settings.IDHashes + "-help":     "the first link's k; each later link takes the optimal k for its own rate",
		"#" + settings.IDItems + "-help":      "keys given to the chain: the first link's capacity is an eighth of them",
		"#" + settings.IDHashing + "-note":    "the scheme does not apply: the scalable filter has a seed of its own in each link of its chain",
	} {
		if got := btext(t, ctx, sel); !strings.HasPrefix(got, want) {
			t.Errorf("%s = %q, want it to start %q", sel, got, want)
		}
	}
	bwaitText(t, ctx, "#chart-k", func(s string) bool { return strings.Contains(s, "the first link's hash probes k") })
	bwaitText(t, ctx, "#chart-bpk", func(s string) bool { return strings.Contains(s, "theory, the chain of links") })
	shoot(t, ctx, "variant-scalable-1280")

	// Twelve bits per key for the first link: a looser chain's links
	// are bigger, the page's figures are core's again, and the link and
	// a reload keep them.
	bdo(t, ctx, chromedp.Focus(chromedp.CSS("#"+settings.IDBitsPerKey)))
	shown := func() string { return btext(t, ctx, "#"+settings.IDBitsPerKey+"-value") }
	for i := 0; i < 40 && shown() != "12"; i++ {
		bdo(t, ctx, chromedp.KeyEvent(kb.ArrowRight))
	}
	if shown() != "12" {
		t.Fatalf("the bits-per-key slider shows %q after 40 presses, not 12", shown())
	}
	waitQuery(t, ctx, params(settings.IDBitsPerKey, "12"), params(settings.IDVariant, "scalable"))
	p.BitsPerKey = 12
	r = simulateNative(t, p)
	bwaitText(t, ctx, "#out-m", func(s string) bool { return s == thousands(r.M) })
	bdo(t, ctx, waitLab())
	check(r)
	bdo(t, ctx, chromedp.Reload(), waitLab())
	bwaitText(t, ctx, "#out-m", func(s string) bool { return s == thousands(r.M) })
	if got := beval[string](t, ctx, `document.getElementById("`+settings.IDVariant+`").value`); got != "scalable" {
		t.Errorf("after reload the variant is %q", got)
	}
	check(r)

	// The narrow screen draws the same chain.
	narrow := btab(t, 360, 1400)
	bdo(t, narrow, chromedp.Navigate(labURL(t)+"/?"+params(settings.IDVariant, "scalable")), waitLab())
	bwaitText(t, narrow, "#links", func(s string) bool { return s == "4" })
	if c := beval[[]int](t, narrow, linkColours); c[0] < 100 || c[1] < 100 {
		t.Errorf("at 360 px the chain drew %d warm and %d cool pixels", c[0], c[1])
	}
	shoot(t, narrow, "variant-scalable-360")
}

// TestBrowserScalableProbeLinks: the key panel names the link each probe
// of a scalable chain reads, as bloomlab try does.
func TestBrowserScalableProbeLinks(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 1400)
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/?"+params(settings.IDVariant, "scalable", settings.IDTry, "apple")), waitLab(),
		typeKey("apple"+kb.Enter), waitPanel("try-verdict", "“apple”"))
	r := cliTry(t, "--variant", "scalable", "--insert", "apple", "--query", "apple")
	q := r.Queries[0]
	got := beval[[]string](t, ctx, `[...document.querySelectorAll("#try-probes li")].map(li => li.textContent)`)
	if len(got) != len(q.Probes) || len(r.Links) < 2 {
		t.Fatalf("%d probes listed, the CLI %d over %d links", len(got), len(q.Probes), len(r.Links))
	}
	for i, p := range q.Probes {
		want := fmt.Sprintf("%d. bit %s in link %d: %d", i+1, thousands(p.Position), r.LinkAt(p.Position), map[bool]int{true: 1}[p.Set])
		if got[i] != want {
			t.Errorf("probe %d reads %q, want %q", i+1, got[i], want)
		}
	}
}

// TestBrowserVariantLinks: a link restores a cuckoo filter with 12-bit
// fingerprints, after a reload too; bad links say what they changed; a
// switch to a layout without the width says so; and the density pictures
// of large filters name their unit.
func TestBrowserVariantLinks(t *testing.T) {
	needBrowser(t)
	base := labURL(t)
	ctx := btab(t, 1280, 1400)

	q := params(settings.IDVariant, "cuckoo", settings.IDFingerprintBits, "12", settings.IDBitsPerKey, "14", settings.IDItems, "3000", settings.IDQueries, "6000", settings.IDPresentShare, "0", settings.IDSeed, "42")
	bdo(t, ctx, chromedp.Navigate(base+"/?"+q), waitLab())
	p := sim.Defaults()
	p.Variant, p.FingerprintBits, p.BitsPerKey, p.Items, p.Queries, p.PresentShare, p.Seed = core.CuckooVariant, 12, 14, 3000, 6000, 0, 42
	r := simulateNative(t, p)
	for range 2 {
		bwaitText(t, ctx, "#out-m", func(s string) bool { return s == thousands(r.M) })
		if beval[bool](t, ctx, `!!document.getElementById("clamp-notice")`) {
			t.Errorf("a legal link shows %q", btext(t, ctx, "#clamp-notice"))
		}
		for sel, want := range map[string]string{"#" + settings.IDVariant: "cuckoo", "#" + settings.IDFingerprintBits: "12", "#" + settings.IDBitsPerKey + "-exact": "14"} {
			if got := beval[string](t, ctx, `document.querySelector("`+sel+`").value`); got != want {
				t.Errorf("%s = %q, want %q", sel, got, want)
			}
		}
		checkVariantFigures(t, ctx, r)
		for sel, want := range map[string]string{"#load": percent(r.Load), "#relocations": thousands(r.Relocations),
			"#insert-failures": thousands(r.InsertFailures), "#" + settings.IDFingerprintBits + "-value": "12"} {
			if got := btext(t, ctx, sel); got != want {
				t.Errorf("%s = %q, native %q", sel, got, want)
			}
		}
		bdo(t, ctx, chromedp.Reload(), waitLab())
	}

	// To the fuse filter, which has 12-bit fingerprints too: the width
	// stays, with no notice.
	bdo(t, ctx, chromedp.SetValue(chromedp.CSS("#"+settings.IDVariant), "fuse"),
		discard(chromedp.Evaluate[bool](`document.getElementById("`+settings.IDVariant+`").dispatchEvent(new Event("change", {bubbles: true}))`)))
	waitQuery(t, ctx, params(settings.IDVariant, "fuse"), params(settings.IDFingerprintBits, "12"))
	bwaitText(t, ctx, "#"+settings.IDFingerprintBits+"-value", func(s string) bool { return s == "12" })
	if notice := btext(t, ctx, "#clamp-notice"); notice != "" {
		t.Errorf("cuckoo to fuse at 12 bits: notice %q", notice)
	}

	// A fuse width the select does not list is listed while chosen; one
	// past 32 bits goes back to auto with a notice.
	bdo(t, ctx, chromedp.Navigate(base+"/?"+params(settings.IDVariant, "fuse", settings.IDFingerprintBits, "13")), waitLab())
	bwaitText(t, ctx, "#"+settings.IDFingerprintBits+"-value", func(s string) bool { return s == "13" })
	if got := beval[string](t, ctx, `document.getElementById("`+settings.IDFingerprintBits+`").value`); got != "13" {
		t.Errorf("fuse at 13 bits: the select shows %q", got)
	}
	bdo(t, ctx, chromedp.Navigate(base+"/?"+params(settings.IDVariant, "fuse", settings.IDFingerprintBits, "33")), waitLab())
	if notice := btext(t, ctx, "#clamp-notice"); !strings.Contains(notice, "fingerprint-bits: the fuse filter's fingerprints are 1 to 32 bits wide, so 33 became auto (the filter's choice)") {
		t.Errorf("fuse at 33 bits: notice %q", notice)
	}
	if got := beval[string](t, ctx, `document.getElementById("`+settings.IDFingerprintBits+`").value`); got != "0" {
		t.Errorf("fuse at 33 bits: the select shows %q, want auto", got)
	}

	for _, c := range []struct{ link, notice, variant string }{
		{params(settings.IDVariant, "cuckoo", settings.IDFingerprintBits, "7"), "fingerprint-bits: the cuckoo filter's fingerprints are 8, 12 or 16 bits wide, so 7 became auto (the filter's choice)", "cuckoo"},
		{params(settings.IDVariant, "cuckoo", settings.IDFingerprintBits, "abc"), `fingerprint-bits: "abc" is not a width in bits, so the cuckoo filter chooses its own (auto)`, "cuckoo"},
		{params(settings.IDVariant, "cuckoo", settings.IDFault, "one-hash"), "fault: one-hash lives in the standard filter, so the variant is standard, not cuckoo", "standard"},
	} {
		bdo(t, ctx, chromedp.Navigate(base+"/?"+c.link), waitLab())
		if notice := btext(t, ctx, "#clamp-notice"); !strings.Contains(notice, c.notice) {
			t.Errorf("%s: notice %q, want %q", c.link, notice, c.notice)
		}
		if got := beval[string](t, ctx, `document.getElementById("`+settings.IDVariant+`").value`); got != c.variant {
			t.Errorf("%s runs %q, want %q", c.link, got, c.variant)
		}
		if got := beval[string](t, ctx, `(document.getElementById("`+settings.IDFingerprintBits+`") || {value: "none"}).value`); got != map[string]string{"cuckoo": "0", "standard": "none"}[c.variant] {
			t.Errorf("%s: fingerprint bits select %q", c.link, got)
		}
	}

	// Large filters: density pictures of slots and of cells.
	fuse := sim.Defaults()
	fuse.Variant, fuse.Items, fuse.Queries = core.FuseVariant, 200000, 20000
	for _, c := range []struct{ link, want string }{
		{params(settings.IDVariant, "cuckoo", settings.IDItems, "200000", settings.IDQueries, "20000"), "Density picture: 250,000 slots, each dot shaded by the share of its slots that hold a fingerprint."},
		{params(settings.IDVariant, "fuse", settings.IDItems, "200000", settings.IDQueries, "20000"), fmt.Sprintf("Density picture: %s cells, each dot shaded by the share of its cells that are nonzero.", thousands(simulateNative(t, fuse).M))},
	} {
		bdo(t, ctx, chromedp.Navigate(base+"/?"+c.link), waitLab())
		caption := bwaitText(t, ctx, "#bit-caption", func(s string) bool { return strings.HasPrefix(s, "Density") })
		if !strings.HasPrefix(caption, c.want) {
			t.Errorf("%s: caption %q, want %q", c.link, caption, c.want)
		}
		if ink := beval[int](t, ctx, bitArrayInk); ink < 1000 {
			t.Errorf("%s: the density picture drew %d pixels", c.link, ink)
		}
	}
}
