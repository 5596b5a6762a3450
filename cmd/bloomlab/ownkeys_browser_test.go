//go:build !js

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/core/sim"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// ownLists are the lists the browser tests paste: 2,000 members with one
// repeated, and 5,000 absent keys with one member among them.
func ownLists() (members, absent []string) {
	for i := range 2000 {
		members = append(members, fmt.Sprintf("user-%04d@example.com", i))
	}
	members = append(members, members[7])
	for i := range 5000 {
		absent = append(absent, fmt.Sprintf("guest-%04d@example.org", i))
	}
	absent = append(absent, members[42])
	return members, absent
}

func asBytes(keys []string) [][]byte {
	out := make([][]byte, len(keys))
	for i, k := range keys {
		out[i] = []byte(k)
	}
	return out
}

// setBox puts text into a box as a paste would, through the page.
func setBox(t *testing.T, ctx context.Context, id, text string) {
	t.Helper()
	beval[bool](t, ctx, `(() => { const b = document.getElementById(`+strconv.Quote(id)+`); b.value = `+strconv.Quote(text)+`; b.dispatchEvent(new Event("input", {bubbles: true})); return true })()`)
}

// openOwnKeys opens the lab and its "Your own keys" section.
func openOwnKeys(t *testing.T, ctx context.Context, base string) {
	t.Helper()
	bdo(t, ctx, chromedp.Navigate(base+"/"), waitLab(), chromedp.Click(chromedp.CSS("#own-keys > summary")),
		chromedp.WaitVisible(chromedp.CSS("#own-members")))
}

// useOwnKeys presses "Use these keys" and waits for the run on them.
func useOwnKeys(t *testing.T, ctx context.Context, report func(string) bool) string {
	t.Helper()
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#own-use")))
	r := bwaitText(t, ctx, "#own-report", report)
	bdo(t, ctx, waitLab())
	return r
}

func TestBrowserOwnKeys(t *testing.T) {
	needBrowser(t)
	members, absent := ownLists()
	ctx := btab(t, 1280, 900)
	openOwnKeys(t, ctx, labURL(t))
	setBox(t, ctx, "own-members", strings.Join(members, "\n")+"\n")
	setBox(t, ctx, "own-absent", strings.Join(absent, "\r\n"))
	report := useOwnKeys(t, ctx, func(s string) bool { return strings.Contains(s, "measured") })

	p := sim.Defaults()
	want, err := sim.RunKeys(p, asBytes(members), asBytes(absent), nil)
	if err != nil {
		t.Fatal(err)
	}
	if want.MemberDuplicates != 1 || want.AbsentMembers != 1 || want.N != 2000 || want.FalsePositives == 0 {
		t.Fatalf("core: %d duplicates, %d absent members, n %d, %d false positives; the lists do not test what they should",
			want.MemberDuplicates, want.AbsentMembers, want.N, want.FalsePositives)
	}
	for _, s := range []string{"2,001 member lines read, 1 duplicate dropped", "n = 2,000",
		"5,001 absent lines read, 0 duplicates dropped, 1 member left out of the rate", "5,000 absent queries measured"} {
		if !strings.Contains(report, s) {
			t.Errorf("report %q lacks %q", report, s)
		}
	}
	for sel, w := range map[string]string{
		"#out-m": "20,000", "#out-n": "2,000", "#out-k": "7",
		"#out-false-negatives":            "0 of 2,000",
		"#out-false-positives":            fmt.Sprintf("%d of 5,000", want.FalsePositives),
		"#" + settings.IDItems + "-value": "2,000", "#" + settings.IDQueries + "-value": "7,000", "#" + settings.IDKeyBytes + "-value": "varies",
	} {
		if got := btext(t, ctx, sel); got != w {
			t.Errorf("%s = %q, want %q", sel, got, w)
		}
	}
	if !beval[bool](t, ctx, jsList(settings.IDItems, settings.IDQueries, settings.IDPresentShare, settings.IDKeyBytes)+`.every(id => document.getElementById(id).disabled) && !document.getElementById("`+settings.IDBitsPerKey+`").disabled`) {
		t.Error("the sliders the lists decide are not the only ones off")
	}
	if ink := beval[int](t, ctx, bitArrayInk); ink < 1000 {
		t.Errorf("bit array has %d drawn pixels with own keys", ink)
	}
	if q := beval[string](t, ctx, `location.search`); strings.Contains(q, "user-") {
		t.Errorf("the keys went into the link: %q", q)
	}

	// A slider that shapes the filter still works on the same keys.
	bdo(t, ctx, chromedp.Focus(chromedp.CSS("#"+settings.IDBitsPerKey)), chromedp.KeyEvent(kb.ArrowRight))
	bwaitText(t, ctx, "#out-m", func(s string) bool { return s == "21,000" })
	p.BitsPerKey = 10.5
	want, err = sim.RunKeys(p, asBytes(members), asBytes(absent), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, w := btext(t, ctx, "#out-false-positives"), fmt.Sprintf("%d of 5,000", want.FalsePositives); got != w {
		t.Errorf("at 10.5 bits per key: false positives %q, want %q", got, w)
	}
	if got := btext(t, ctx, "#out-n"); got != "2,000" {
		t.Errorf("after the move out-n = %q: the lab left the own keys", got)
	}

	// Bad lists: a clear error beside the box, and the run on the good
	// lists stays.
	for _, bad := range []struct{ name, js, says string }{
		{"NUL", `"alpha\nbe\u0000ta\n"`, "members: keys must be text: line 2 holds a NUL byte"},
		{"5000-char line", `"ok\n" + "x".repeat(5000)`, "members: key too long: line 2 is over 4096 bytes"},
		{"empty", `"\n\n"`, "members: no keys"},
	} {
		beval[bool](t, ctx, `(document.getElementById("own-members").value = `+bad.js+`, true)`)
		bdo(t, ctx, chromedp.Click(chromedp.CSS("#own-use")))
		msg := bwaitText(t, ctx, "#own-error", func(s string) bool { return strings.Contains(s, bad.says) })
		if role := beval[string](t, ctx, `document.getElementById("own-error").getAttribute("role")`); role != "alert" {
			t.Errorf("%s: error %q has role %q, want alert", bad.name, msg, role)
		}
		if got := btext(t, ctx, "#out-n"); got != "2,000" {
			t.Errorf("%s: out-n = %q, the good run should stay", bad.name, got)
		}
	}

	// Back to generated keys: the default lab, every slider on.
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#own-back")))
	bwaitText(t, ctx, "#out-m", func(s string) bool { return s == "42,000" })
	if got := btext(t, ctx, "#out-n"); got != "4,000" {
		t.Errorf("back on generated keys: out-n = %q", got)
	}
	// The counters are written at once; go-app's update, which drops the
	// report and enables the sliders, follows a tick later.
	bwaitEval(t, ctx, `String(!!document.getElementById("own-report") || document.getElementById("`+settings.IDItems+`").disabled || !!document.getElementById("own-error"))`,
		func(s string) bool { return s == "false" })
	bdo(t, ctx, chromedp.Focus(chromedp.CSS("#"+settings.IDBitsPerKey)), chromedp.KeyEvent(kb.ArrowLeft))
	bwaitText(t, ctx, "#out-m", func(s string) bool { return s == "40,000" })
	if got := btext(t, ctx, "#out-fpr-theory"); got != "0.008194" {
		t.Errorf("default theory rate = %q", got)
	}
}

func TestBrowserOwnKeysUpload(t *testing.T) {
	needBrowser(t)
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	good := write("keys.txt", "one\ntwo\nthree\ntwo\nfour\n")
	absentFile := write("absent.txt", "five\nsix\none\n")
	binary := write("keys.bin", "ok\n\xff\xfe\x00\x01binary\n")

	ctx := btab(t, 1280, 900)
	openOwnKeys(t, ctx, labURL(t))
	setBox(t, ctx, "own-members", "ignored\n")
	bdo(t, ctx, chromedp.SetUploadFiles(chromedp.CSS("#own-members-file"), []string{good}),
		chromedp.SetUploadFiles(chromedp.CSS("#own-absent-file"), []string{absentFile}))
	bwaitText(t, ctx, "#own-members-file-note", func(s string) bool { return strings.HasPrefix(s, "keys.txt (") })
	report := useOwnKeys(t, ctx, func(s string) bool { return strings.Contains(s, "measured") })
	for _, s := range []string{"5 member lines read, 1 duplicate dropped", "n = 4", "1 member left out of the rate", "2 absent queries measured"} {
		if !strings.Contains(report, s) {
			t.Errorf("report %q lacks %q: the files were not read", report, s)
		}
	}
	want, err := sim.RunKeys(sim.Defaults(), asBytes([]string{"one", "two", "three", "four"}), asBytes([]string{"five", "six", "one"}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, w := btext(t, ctx, "#out-false-positives"), fmt.Sprintf("%d of 2", want.FalsePositives); got != w {
		t.Errorf("false positives %q, want %q", got, w)
	}

	// A binary file: its raw bytes reach the reader, which refuses them.
	bdo(t, ctx, chromedp.SetUploadFiles(chromedp.CSS("#own-members-file"), []string{binary}))
	bwaitText(t, ctx, "#own-members-file-note", func(s string) bool { return strings.HasPrefix(s, "keys.bin (") })
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#own-use")))
	bwaitText(t, ctx, "#own-error", func(s string) bool { return strings.Contains(s, "members: keys must be text: line 2") })

	// A file over the limit is refused as soon as it is chosen, unread.
	huge := filepath.Join(dir, "huge.txt")
	if err := os.WriteFile(huge, []byte(strings.Repeat("0123456789abcde\n", 33<<16)), 0o644); err != nil {
		t.Fatal(err)
	}
	bdo(t, ctx, chromedp.SetUploadFiles(chromedp.CSS("#own-absent-file"), []string{huge}))
	bwaitText(t, ctx, "#own-error", func(s string) bool {
		return strings.Contains(s, "absent queries: key list too large: 33.00 MiB, more than the 32 MiB a list allowed here")
	})
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#own-absent-file-clear")))

	// Removing the file brings the box back.
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#own-members-file-clear")))
	bwaitText(t, ctx, "#own-members-file-note", func(s string) bool { return strings.HasPrefix(s, "A file chosen here") })
	useOwnKeys(t, ctx, func(s string) bool { return strings.Contains(s, "1 member line read") })
	if got := btext(t, ctx, "#out-n"); got != "1" {
		t.Errorf("out-n = %q from the box's one key", got)
	}
}

// TestBrowserOwnKeysLargePaste: 200,000 pasted keys are read and run in
// the lab's worker with a progress bar, the page's thread doing none of
// that work, and the page answers all along. The worker keeps the lists
// for the runs that follow, and its errors read as the page's own.
func TestBrowserOwnKeysLargePaste(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	openOwnKeys(t, ctx, labURL(t))
	beval[bool](t, ctx, `(document.getElementById("own-members").value = Array.from({length: 200000}, (_, i) => "member-" + i).join("\n"), true)`)
	// The browser lays the box out first (seconds for megabytes, its own
	// cost); then a watcher notes any progress bar.
	beval[bool](t, ctx, `(window.sawProgress = false, new MutationObserver(() => {
	  if (document.getElementById("own-progress") || document.getElementById("lab-progress")) window.sawProgress = true;
	  const l = document.querySelector('label[for="lab-progress"]');
	  if (l) window.runLabel = l.textContent;
	}).observe(document.getElementById("lab"), {childList: true, subtree: true, characterData: true}), true)`)
	// The read is held at its first pause with work done, so that its
	// progress bar is seen on any machine, then let go.
	holdRuns(t, ctx, true)
	before := pageWork(t, ctx)
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#own-use")))
	bwaitEval(t, ctx, `String(window.sawProgress)`, func(s string) bool { return s == "true" })
	holdRuns(t, ctx, false)
	finished := `document.getElementById("lab").dataset.state === "ready" && !!document.getElementById("own-report")`
	var slowest time.Duration
	for begin := time.Now(); ; time.Sleep(30 * time.Millisecond) {
		start := time.Now()
		done := beval[bool](t, ctx, finished)
		slowest = max(slowest, time.Since(start))
		if done {
			break
		}
		if time.Since(begin) > waitFor {
			t.Fatalf("the keys were still being read or run after %v", waitFor)
		}
	}
	t.Logf("slowest answer while running the keys: %v", slowest)
	if got := pageWork(t, ctx); got != before {
		t.Errorf("the page's thread read or ran some of the 200,000 keys itself: %+v, before %+v, want all of it in the lab's worker", got, before)
	}
	if !beval[bool](t, ctx, `window.sawProgress`) {
		t.Error("no progress bar while 200,000 keys were read and run")
	}
	if got := btext(t, ctx, "#out-n"); got != "200,000" {
		t.Errorf("out-n = %q, want 200,000", got)
	}
	if got := btext(t, ctx, "#out-m"); got != "2,000,000" {
		t.Errorf("out-m = %q, want 2,000,000", got)
	}
	if got := beval[string](t, ctx, `window.runLabel || ""`); !strings.Contains(got, "in the lab's worker") {
		t.Errorf("the run's progress label %q, want the run in the lab's worker", got)
	}

	// A slider move runs the lists the worker kept.
	bdo(t, ctx, pressKey("#"+settings.IDBitsPerKey, kb.ArrowRight), waitLab())
	if got := btext(t, ctx, "#out-m"); got != "2,100,000" {
		t.Errorf("out-m = %q after the move to 10.5 bits a key, want 2,100,000", got)
	}
	if got := btext(t, ctx, "#out-n"); got != "200,000" {
		t.Errorf("out-n = %q after the move, want 200,000", got)
	}

	// A key too long, past the 200,000 good ones: the worker's message.
	beval[bool](t, ctx, `(document.getElementById("own-members").value += "\n" + "x".repeat(5000), document.getElementById("own-use").click(), true)`)
	want := "members: key too long: line 200001 is over 4096 bytes, the limit for one key"
	if got := bwaitText(t, ctx, "#own-error", func(s string) bool { return s != "" }); !strings.HasPrefix(got, want) {
		t.Errorf("error %q, want %q", got, want)
	}
}

// TestBrowserOwnKeysFigures takes screenshots of the lab on own keys at
// 1280 and 360 CSS pixels: set BLOOMLAB_FIGURES to a directory.
func TestBrowserOwnKeysFigures(t *testing.T) {
	out := os.Getenv("BLOOMLAB_FIGURES")
	if out == "" {
		t.Skip("set BLOOMLAB_FIGURES=DIR to take screenshots")
	}
	needBrowser(t)
	base := labURL(t)
	members, absent := ownLists()
	for _, w := range []int{1280, 360} {
		ctx := btab(t, w, 900)
		openOwnKeys(t, ctx, base)
		setBox(t, ctx, "own-members", strings.Join(members, "\n"))
		setBox(t, ctx, "own-absent", strings.Join(absent, "\n"))
		useOwnKeys(t, ctx, func(s string) bool { return strings.Contains(s, "measured") })
		bwaitText(t, ctx, "#chart-status", func(s string) bool { return !strings.Contains(s, "Measuring") })
		for _, shot := range []struct{ name, js string }{
			{"", ""},
			{"-error", `(document.getElementById("own-members").value = "ok\n" + "x".repeat(5000), document.getElementById("own-use").click(), true)`},
		} {
			if shot.js != "" {
				beval[bool](t, ctx, shot.js)
				bwaitText(t, ctx, "#own-error", func(s string) bool { return s != "" })
			}
			bdo(t, ctx, chromedp.Sleep(500*time.Millisecond))
			png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
			if err != nil {
				t.Fatal(err)
			}
			name := filepath.Join(out, fmt.Sprintf("lab-own-keys%s-%d.png", shot.name, w))
			if err := os.WriteFile(name, png, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("screenshot %s", name)
		}
	}
}
