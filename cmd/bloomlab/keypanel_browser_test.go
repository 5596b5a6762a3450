//go:build !js

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/core/sim"
	"github.com/bloomlab/bloomlab/core/try"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// cliTry runs bloomlab try --json with args and reads its answer.
func cliTry(t *testing.T, args ...string) tryOutput {
	t.Helper()
	code, stdout, stderr := run(append([]string{"try", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("bloomlab try %v: exit %d: %s", args, code, stderr)
	}
	var out tryOutput
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// typeKey puts key into the key panel's field, as typed.
func typeKey(key string) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(
		setKey(""),
		chromedp.SendKeys(chromedp.CSS("#try-key"), key),
	)
}

// setKey puts key into the field at once, as a paste does.
func setKey(key string) chromedp.Action[chromedp.Void] {
	return discard(chromedp.Evaluate[bool](`(document.getElementById("try-key").value = ` + strconv.Quote(key) + `) !== null`))
}

// waitPanel waits until the key panel has an answer: one that mentions
// “key” in its element id (try-positions for an insert, try-verdict for a
// query), or with key "" any answer there.
func waitPanel(id, key string) chromedp.Action[chromedp.Void] {
	return discard(chromedp.Poll[bool](`(() => {
  const el = document.querySelector('#try[data-state="ready"] #`+id+`');
  return el !== null && el.textContent.includes(`+strconv.Quote(key)+`);
})()`, chromedp.WithPollingTimeout(0)))
}

// TestBrowserKeyPanel types keys into the lab as a learner would: insert
// one and see its positions, query a member, a key that meets a zero and a
// false positive, each checked against bloomlab try on the same filter;
// the link carries the typed keys.
func TestBrowserKeyPanel(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	base := labURL(t)
	bdo(t, ctx, chromedp.Navigate(base+"/"), waitLab())

	// Insert "apple": its positions in probe order, and which it turned on.
	bdo(t, ctx, typeKey("apple"), chromedp.Click(chromedp.CSS("#try-insert")), waitPanel("try-positions", "“apple”"))
	want := cliTry(t, "--insert", "apple").Inserts[0]
	positions := btext(t, ctx, "#try-positions")
	at := 0
	for _, p := range want.Positions {
		i := strings.Index(positions[at:], thousands(p))
		if i < 0 {
			t.Fatalf("positions %q lack %s in probe order (want %v)", positions, thousands(p), want.Positions)
		}
		at += i
	}
	turned := 0
	for _, n := range want.New {
		if n {
			turned++
		}
	}
	if got := btext(t, ctx, "#try-new-bits"); !strings.Contains(got, "turned on "+strconv.Itoa(turned)+" of them") {
		t.Errorf("new bits %q, want %d turned on", got, turned)
	}
	if got := btext(t, ctx, "#bit-caption"); !strings.Contains(got, "ringed: the bits of “apple”") {
		t.Errorf("caption %q does not say the rings are apple's", got)
	}
	if search := beval[string](t, ctx, `location.search`); !strings.Contains(search, params(settings.IDTry, "apple")) {
		t.Errorf("link %q does not carry the typed key", search)
	}
	if got := btext(t, ctx, "#out-n"); got != "4,001" {
		t.Errorf("n = %q with one typed key, want 4,001", got)
	}

	// The pointer over a cell names its position and its bit.
	lab, err := sim.RunTyped(sim.Defaults(), []string{"apple"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	x0, y0 := cellAt(t, ctx, 0)
	state := map[bool]string{false: "off", true: "on"}
	bdo(t, ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x0, y0))
	if got, want := btext(t, ctx, "#bit-hover"), "bit 0 of 40,000: "+state[lab.Filter.Words()[0]&1 == 1]; !strings.HasPrefix(got, want) {
		t.Errorf("pointer over the first cell: %q, want %q", got, want)
	}

	// Query it back, by Enter in the field: a member.
	bdo(t, ctx, typeKey("apple"+kb.Enter), waitPanel("try-verdict", "“apple”"))
	if got := btext(t, ctx, "#try-verdict"); !strings.HasPrefix(got, "yes, a member: “apple” is typed and inserted") {
		t.Errorf("verdict for apple %q", got)
	}

	// A key that meets a zero: the probe that proved it.
	var absent string
	var q try.Query
	for _, w := range []string{"plum", "quince", "zebra", "walnut", "fig"} {
		if q = cliTry(t, "--insert", "apple", "--query", w).Queries[0]; q.Verdict == try.VerdictNo {
			absent = w
			break
		}
	}
	if absent == "" {
		t.Fatal("no candidate meets a zero at the default shape")
	}
	bdo(t, ctx, typeKey(absent), chromedp.Click(chromedp.CSS("#try-query")), waitPanel("try-verdict", "“"+absent+"”"))
	wantNo := "no: probe " + strconv.Itoa(q.FirstZero) + " read bit " + thousands(q.Probes[q.FirstZero-1].Position) + ", a zero"
	if got := btext(t, ctx, "#try-verdict"); !strings.HasPrefix(got, wantNo) {
		t.Errorf("verdict for %s %q, want it to start %q", absent, got, wantNo)
	}
	if n := beval[int](t, ctx, `document.querySelectorAll("#try-probes li").length`); n != len(q.Probes) {
		t.Errorf("%d probes listed, want %d", n, len(q.Probes))
	}

	// A false positive at a small, full filter, and its culprits.
	small := []string{"--items", "300", "--bits-per-key", "3", "--hashes", "2"}
	bdo(t, ctx, chromedp.Navigate(base+"/?"+params(settings.IDItems, "300", settings.IDBitsPerKey, "3", settings.IDHashes, "2", settings.IDTry, "apple")), waitLab(),
		chromedp.Click(chromedp.CSS("#try-find-fp")), waitPanel("try-verdict", ""))
	fp := cliTry(t, append(small, "--insert", "apple", "--find-fp")...).FindFalsePositive.Query
	if got := btext(t, ctx, "#try-verdict"); !strings.HasPrefix(got, "maybe: a false positive. “"+fp.Key+"” was never inserted") {
		t.Errorf("find a false positive: verdict %q, want %q's", got, fp.Key)
	}
	items := beval[[]string](t, ctx, `[...document.querySelectorAll("#try-culprits li")].map((li) => li.textContent)`)
	if len(items) != len(fp.Culprits) {
		t.Fatalf("%d culprit lines %q, want %d", len(items), items, len(fp.Culprits))
	}
	for i, c := range fp.Culprits {
		if !strings.HasPrefix(items[i], "bit "+thousands(c.Position)+": ") {
			t.Errorf("culprit line %q, want bit %d", items[i], c.Position)
		}
		for _, g := range c.Generated {
			if !strings.Contains(items[i], "member #"+thousands(g.Index)+" ("+g.Hex) {
				t.Errorf("culprit line %q lacks member #%d (%s)", items[i], g.Index, g.Hex)
			}
		}
		for _, k := range c.Typed {
			if !strings.Contains(items[i], "“"+k+"”") {
				t.Errorf("culprit line %q lacks typed %q", items[i], k)
			}
		}
	}

	// The typed keys survive a slider move and a reload.
	bdo(t, ctx, pressKey("#"+settings.IDHashes, kb.ArrowRight), waitLab())
	if search := beval[string](t, ctx, `location.search`); !strings.Contains(search, params(settings.IDTry, "apple")) {
		t.Errorf("after a slider move the link %q lost the typed key", search)
	}
	bdo(t, ctx, chromedp.Reload(), waitLab())
	if got := btext(t, ctx, "#try-typed"); !strings.Contains(got, "“apple”") {
		t.Errorf("after a reload the typed keys read %q", got)
	}
}

// TestBrowserKeyPanelBadInput: what cannot be a key gets a message beside
// the field, a link's bad keys a notice, and the lab keeps working.
func TestBrowserKeyPanelBadInput(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	base := labURL(t)
	bdo(t, ctx, chromedp.Navigate(base+"/"), waitLab())
	bdo(t, ctx, chromedp.WaitVisible(chromedp.CSS("#try-key")), setKey(""), chromedp.Click(chromedp.CSS("#try-insert")))
	if got := bwaitText(t, ctx, "#try-error", func(s string) bool { return s != "" }); !strings.HasPrefix(got, "Type a key first") {
		t.Errorf("empty key: %q", got)
	}
	bdo(t, ctx, setKey(strings.Repeat("é", 129)), chromedp.Click(chromedp.CSS("#try-query")))
	if got := bwaitText(t, ctx, "#try-error", func(s string) bool { return strings.Contains(s, "258 bytes") }); !strings.Contains(got, "a key is 1 to 256 bytes") {
		t.Errorf("long key: %q", got)
	}
	if got := btext(t, ctx, "#try-typed"); got != "" {
		t.Errorf("a refused key was typed: %q", got)
	}

	many := make([]string, 33)
	for i := range many {
		many[i] = "k" + strconv.Itoa(i)
	}
	link := "/?" + params(settings.IDTry, url.QueryEscape("pe\xffar,"+strings.Join(many, ",")))
	bdo(t, ctx, chromedp.Navigate(base+link), waitLab())
	notice := btext(t, ctx, "#clamp-notice")
	for _, w := range []string{"key 1", "is not UTF-8 text, so it was left out", "more than 32 keys given, so the first 32 are kept"} {
		if !strings.Contains(notice, w) {
			t.Errorf("notice %q lacks %q", notice, w)
		}
	}
	if got := btext(t, ctx, "#try-typed"); !strings.HasPrefix(got, "Typed and inserted (32 of 32)") {
		t.Errorf("typed keys %q", got)
	}
	bdo(t, ctx, typeKey("one more"), chromedp.Click(chromedp.CSS("#try-insert")))
	if got := bwaitText(t, ctx, "#try-error", func(s string) bool { return s != "" }); !strings.Contains(got, "32 keys are typed already") {
		t.Errorf("a 33rd key: %q", got)
	}
}

// TestBrowserPlayer: a stop in the link is the filter bloomlab simulate
// --m measures with that many keys; stepping moves the link; playing moves
// the counters and pausing keeps the stop.
func TestBrowserPlayer(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	base := labURL(t)
	bdo(t, ctx, chromedp.Navigate(base+"/?"+params(settings.IDPlayAt, "1234")), waitLab())
	code, stdout, stderr := run("simulate", "--json", "--m", "40000", "--hashes", "7", "--items", "1234")
	if code != 0 {
		t.Fatal(stderr)
	}
	var r sim.Result
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	for id, w := range map[string]string{
		"#out-m": "40,000", "#out-n": "1,234", "#out-k": "7",
		"#out-set-bits":        thousands(r.SetBits) + " (expected ",
		"#out-false-positives": thousands(r.FalsePositives) + " of " + thousands(r.AbsentQueries),
		"#play-at-value":       "1,234 of 4,000 keys inserted",
	} {
		if got := btext(t, ctx, id); !strings.HasPrefix(got, w) {
			t.Errorf("%s = %q at play-at=1234, want %q (bloomlab simulate --m 40000 --items 1234)", id, got, w)
		}
	}
	// Past 200 keys the stops are 5% apart.
	playAt := func(ok func(n int) bool) int {
		s := bwaitEval(t, ctx, `new URLSearchParams(location.search).get("`+settings.IDPlayAt+`") ?? ""`, func(s string) bool {
			n, err := strconv.Atoi(s)
			return err == nil && ok(n)
		})
		n, _ := strconv.Atoi(s)
		return n
	}
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#play-step")), waitLab())
	next := playAt(func(n int) bool { return n != 1234 })
	if next <= 1234 || next > 1234*106/100 {
		t.Errorf("a step from 1,234 went to %d, want the next stop, under 6%% on", next)
	}
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#play-back")), waitLab())
	if back := playAt(func(n int) bool { return n != next }); back > 1234 || back < 1234*94/100 {
		t.Errorf("a step back went to %d, want the stop at or below 1,234", back)
	}

	// From the first key: play, see the count climb, pause.
	bdo(t, ctx, chromedp.Navigate(base+"/?"+params(settings.IDPlayAt, "1")), waitLab(), chromedp.Click(chromedp.CSS("#play")))
	bwaitText(t, ctx, "#out-n", func(s string) bool { n, _ := strconv.Atoi(strings.ReplaceAll(s, ",", "")); return n >= 5 })
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#play")), waitLab())
	paused := btext(t, ctx, "#out-n")
	search := beval[string](t, ctx, `location.search`)
	if !strings.Contains(search, params(settings.IDPlayAt, strings.ReplaceAll(paused, ",", ""))) {
		t.Errorf("paused at %s, but the link says %q", paused, search)
	}
	if got := btext(t, ctx, "#play"); got != "Play" {
		t.Errorf("the play button reads %q after a pause", got)
	}

	// A filter built once from every key has nothing to play.
	bdo(t, ctx, chromedp.Navigate(base+"/?"+params(settings.IDVariant, "fuse", settings.IDPlayAt, "10")), waitLab())
	if !beval[bool](t, ctx, `document.getElementById("play").disabled`) {
		t.Error("the player plays a fuse filter")
	}
	if got := btext(t, ctx, "#clamp-notice"); !strings.Contains(got, "play-at: the fuse filter is built once from every key") {
		t.Errorf("notice %q", got)
	}
}

// cliArithmetic is the arithmetic bloomlab try --explain prints for the
// first typed key of args, its lines without the indent.
func cliArithmetic(t *testing.T, args ...string) string {
	t.Helper()
	code, stdout, stderr := run(append([]string{"try", "--explain"}, args...)...)
	if code != 0 {
		t.Fatalf("bloomlab try %v: exit %d: %s", args, code, stderr)
	}
	var lines []string
	in := false
	for _, l := range strings.Split(stdout, "\n") {
		switch {
		case strings.HasPrefix(l, "  arithmetic, "):
			if in {
				return strings.Join(lines, "\n")
			}
			in = true
			lines = append(lines, strings.TrimPrefix(l, "  arithmetic, "))
		case in && strings.HasPrefix(l, "    "):
			lines = append(lines, strings.TrimPrefix(l, "    "))
		case in:
			return strings.Join(lines, "\n")
		}
	}
	return strings.Join(lines, "\n")
}

// TestBrowserKeyArithmetic: the key panel folds each answer's arithmetic
// under it, and it is bloomlab try --explain's, number for number: an
// insert into the standard filter and a query of the cuckoo filter.
func TestBrowserKeyArithmetic(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	base := labURL(t)
	lines := `document.getElementById("try-arithmetic-lines").textContent`
	bdo(t, ctx, chromedp.Navigate(base+"/"), waitLab(),
		typeKey("apple"), chromedp.Click(chromedp.CSS("#try-insert")), waitPanel("try-positions", "“apple”"),
		chromedp.Click(chromedp.CSS("#try-arithmetic summary")))
	if got, want := beval[string](t, ctx, lines), cliArithmetic(t, "--insert", "apple"); got != want || want == "" {
		t.Errorf("the panel's arithmetic for apple:\n%s\nbloomlab try --explain:\n%s", got, want)
	}
	if open := beval[bool](t, ctx, `document.getElementById("try-arithmetic").open`); !open {
		t.Error("the arithmetic did not open")
	}
	bdo(t, ctx, chromedp.Navigate(base+"/?"+params(settings.IDVariant, "cuckoo")), waitLab(),
		typeKey("pear"), chromedp.Click(chromedp.CSS("#try-query")), waitPanel("try-verdict", "“pear”"))
	if got, want := beval[string](t, ctx, lines), cliArithmetic(t, "--variant", "cuckoo", "--query", "pear"); got != want || !strings.Contains(want, "fingerprint = ") {
		t.Errorf("the panel's arithmetic for pear in the cuckoo filter:\n%s\nbloomlab try --explain:\n%s", got, want)
	}
}

// overlapInk counts the canvas pixels in the colour of a bit that one key
// maps to, in the overlap view.
const overlapInk = `(() => {
  const c = document.getElementById("bit-array");
  const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
  let n = 0;
  for (let i = 0; i < d.length; i += 4) if (d[i] === 0x9d && d[i+1] === 0xb8 && d[i+2] === 0xe8) n++;
  return n;
})()`

// TestBrowserOverlap: the overlap view colours the bits by the keys that
// map to them, and its counts are core's, counted natively: the legend's
// bits a class, the pointer's number on a bit.
func TestBrowserOverlap(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/"), waitLab())
	if n := beval[int](t, ctx, overlapInk); n != 0 {
		t.Fatalf("%d pixels in the overlap colour before the view is on", n)
	}
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#overlap-toggle")), chromedp.WaitVisible(chromedp.CSS("#overlap-legend")))
	o, err := sim.OverlapOf(settings.DefaultLab().Run(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	legend := btext(t, ctx, "#overlap-legend")
	for c := 1; c <= 3; c++ {
		want := fmt.Sprintf("%d %s: %s bits", c, map[bool]string{true: "key", false: "keys"}[c == 1], thousands(o.Histogram[c]))
		if !strings.Contains(legend, want) {
			t.Errorf("legend %q lacks %q", legend, want)
		}
	}
	if n := bwaitEval(t, ctx, `String(`+overlapInk+`)`, func(s string) bool { return s != "0" }); n == "0" {
		t.Error("no bit drawn in the one-key colour")
	}
	x0, y0 := cellAt(t, ctx, 0)
	bdo(t, ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x0, y0))
	if got, want := btext(t, ctx, "#bit-hover"), fmt.Sprintf(", %d %s map here", o.Counts[0], map[bool]string{true: "key", false: "keys"}[o.Counts[0] == 1]); !strings.Contains(got, want) {
		t.Errorf("pointer over bit 0: %q, want it to say %q", got, want)
	}
	// Off again: the plain picture.
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#overlap-toggle")))
	bwaitEval(t, ctx, `String(`+overlapInk+`)`, func(s string) bool { return s == "0" })
}

// cliWho is bloomlab try --who's answer for position pos in the lab's
// filter made by args.
func cliWho(t *testing.T, pos uint64, args ...string) try.Culprit {
	t.Helper()
	out := cliTry(t, append(args, "--who", strconv.FormatUint(pos, 10))...)
	if len(out.Setters) != 1 {
		t.Fatalf("bloomlab try --who %d: %d answers", pos, len(out.Setters))
	}
	return out.Setters[0]
}

// whoNames are the names the page gives a position's setters: typed keys
// quoted, members by their index.
func whoNames(c try.Culprit) []string {
	var names []string
	for _, k := range c.Typed {
		names = append(names, "“"+k+"”")
	}
	for _, g := range c.Generated {
		names = append(names, "member #"+thousands(g.Index)+" ("+g.Hex+"…)")
	}
	return names
}

// TestBrowserWhoSetIt: the bit array answers who set a position, by
// keyboard (the arrows move a cursor, the live region says the position,
// its state and its setters) and by the pointer resting on a cell, each
// answer bloomlab try --who's for the same small filter.
func TestBrowserWhoSetIt(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	args := []string{"--items", "300", "--bits-per-key", "8", "--insert", "apple"}
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/?"+params(settings.IDItems, "300", settings.IDBitsPerKey, "8", settings.IDTry, "apple")), waitLab(),
		chromedp.Focus(chromedp.CSS("#bit-array")), chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight))
	said := func(pos uint64) string {
		return bwaitText(t, ctx, "#bit-hover", func(s string) bool {
			return strings.HasPrefix(s, "bit "+thousands(pos)+" of 2,400: ") && (strings.Contains(s, "Set by") || strings.Contains(s, "No inserted key"))
		})
	}
	for _, pos := range []uint64{1} {
		got, want := said(pos), cliWho(t, pos, args...)
		for _, name := range whoNames(want) {
			if !strings.Contains(got, name) {
				t.Errorf("bit %d: the page says %q, bloomlab try names %s", pos, got, name)
			}
		}
	}
	// The pointer on apple's first bit.
	apple := cliTry(t, args...).Inserts[0].Positions[0]
	x, y := cellAt(t, ctx, apple)
	bdo(t, ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x, y))
	got, want := said(apple), cliWho(t, apple, args...)
	if !strings.Contains(got, "“apple”") {
		t.Errorf("apple's first bit: the page says %q", got)
	}
	for _, name := range whoNames(want) {
		if !strings.Contains(got, name) {
			t.Errorf("bit %d: the page says %q, bloomlab try names %s", apple, got, name)
		}
	}
}

// playWatch records every value the key panel's data-playing takes.
const playWatch = `(() => {
  window.playing = [];
  const el = document.getElementById("try");
  new MutationObserver(() => window.playing.push(el.dataset.playing)).observe(el, {attributes: true, attributeFilter: ["data-playing"]});
  return true;
})()`

// TestBrowserKeyMotion: an insert plays its positions one after another,
// unless the reader asks for reduced motion, where the panel's motion
// starts off and the positions show at once.
func TestBrowserKeyMotion(t *testing.T) {
	needBrowser(t)
	base := labURL(t)
	for _, reduce := range []bool{false, true} {
		ctx := btab(t, 1280, 900)
		if reduce {
			reduceMotion(t, ctx)
		}
		bdo(t, ctx, chromedp.Navigate(base+"/"), waitLab())
		beval[bool](t, ctx, playWatch)
		pressed := beval[string](t, ctx, `document.getElementById("try-motion").getAttribute("aria-pressed")`)
		bdo(t, ctx, typeKey("apple"), chromedp.Click(chromedp.CSS("#try-insert")), waitPanel("try-positions", "“apple”"))
		bwaitEval(t, ctx, `document.getElementById("try").dataset.playing`, func(s string) bool { return s == "false" })
		played := beval[[]string](t, ctx, `window.playing`)
		if reduce {
			if pressed != "false" || slices.Contains(played, "true") {
				t.Errorf("reduced motion: motion pressed %q, the panel played %v", pressed, played)
			}
		} else if pressed != "true" || !slices.Contains(played, "true") {
			t.Errorf("motion pressed %q, the panel played %v: want it played", pressed, played)
		}
		// Every position is ringed in the end.
		if got := btext(t, ctx, "#bit-caption"); !strings.Contains(got, "ringed: the bits of “apple”") {
			t.Errorf("caption %q", got)
		}
	}
}

// reduceMotion has the tab ask for reduced motion, as a reader's
// browser setting does.
func reduceMotion(t *testing.T, ctx context.Context) {
	t.Helper()
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}},
	}); err != nil {
		t.Fatal(err)
	}
}

// TestBrowserPlayerMotion: a step of the player rings its key's positions
// one after another, unless the reader asks for reduced motion.
func TestBrowserPlayerMotion(t *testing.T) {
	needBrowser(t)
	base := labURL(t)
	for _, reduce := range []bool{false, true} {
		ctx := btab(t, 1280, 900)
		if reduce {
			reduceMotion(t, ctx)
		}
		bdo(t, ctx, chromedp.Navigate(base+"/?"+params(settings.IDPlayAt, "100")), waitLab())
		beval[bool](t, ctx, playWatch)
		bdo(t, ctx, chromedp.Click(chromedp.CSS("#play-step")))
		bwaitEval(t, ctx, `new URLSearchParams(location.search).get("`+settings.IDPlayAt+`")`, func(s string) bool { return s == "101" })
		bdo(t, ctx, waitLab())
		bwaitEval(t, ctx, `document.getElementById("try").dataset.playing`, func(s string) bool { return s == "false" })
		played := beval[[]string](t, ctx, `window.playing`)
		if reduce == slices.Contains(played, "true") {
			t.Errorf("reduced motion %t: the step played %v", reduce, played)
		}
		if got := btext(t, ctx, "#bit-caption"); !strings.Contains(got, "ringed:") {
			t.Errorf("caption %q rings nothing after the step", got)
		}
	}
}
