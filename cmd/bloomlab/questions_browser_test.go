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

	"github.com/bloomlab/bloomlab/app/lessons"
	"github.com/bloomlab/bloomlab/app/settings"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The lessons' questions in headless Chromium: a prediction made and
// committed by keyboard alone and scored against the lab's own counter,
// kept across a reload; a choice by the arrow keys; and a teacher's link
// that veils the lab's answer until the guess is in.

// tabTo presses Tab from the element sel until #id has the focus.
func tabTo(t *testing.T, ctx context.Context, from, id string) {
	t.Helper()
	bdo(t, ctx, chromedp.Focus(chromedp.CSS(from)))
	for range 8 {
		bdo(t, ctx, key(kb.Tab))
		if beval[string](t, ctx, `document.activeElement?.id ?? ""`) == id {
			return
		}
	}
	t.Fatalf("Tab from %s never reached #%s (at #%s)", from, id, beval[string](t, ctx, `document.activeElement?.id ?? ""`))
}

// guessBy presses arrow on the focused guess slider until it stands at
// position pos, then waits until its value reads want.
func guessBy(t *testing.T, ctx context.Context, arrow string, pos int, want string) {
	t.Helper()
	value := `document.getElementById("` + lessons.IDGuessSlider + `").value`
	for range 120 {
		if beval[string](t, ctx, value) == strconv.Itoa(pos) {
			bwaitText(t, ctx, "#"+lessons.IDGuessValue, func(s string) bool { return s == want })
			return
		}
		bdo(t, ctx, key(arrow))
	}
	t.Fatalf("the guess never stood at %d (at %q)", pos, beval[string](t, ctx, value))
}

// waitMeasured waits for the lab's answer beside the guess.
func waitMeasured(t *testing.T, ctx context.Context) string {
	t.Helper()
	return bwaitText(t, ctx, "#"+lessons.IDGuessMeasured, func(s string) bool { return s != "" })
}

// veiled reports whether the lab's part sel is hidden under its "Guess
// first" cover.
func veiled(t *testing.T, ctx context.Context, sel string) bool {
	t.Helper()
	return beval[bool](t, ctx, `(() => {
  const el = document.querySelector(`+strconv.Quote(sel)+`);
  return !!el && getComputedStyle(el).visibility === "hidden" && getComputedStyle(el, "::after").content.includes("Guess first");
})()`)
}

// TestBrowserLessonsPredictByKeyboard predicts lesson 3's fill with the
// keyboard alone: Tab to the slider, the arrows to 90%, Tab to Check my
// guess, Enter. The lab moves to the step's settings and the answer shown
// beside the guess is the fill counter's, scored close; the guess and its
// score survive a reload. Then lesson 4's choice, by the arrow keys and
// Space, scored wrong.
func TestBrowserLessonsPredictByKeyboard(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	base := siteURL(t, "/bloomlab")
	bdo(t, ctx, chromedp.Navigate(lessonsURL(base, params(lessons.IDLesson, "3", lessons.IDStep, "1"))), waitLab())
	if got := btext(t, ctx, "#"+lessons.IDGuessAnswer); got != "" {
		t.Errorf("the answer region reads %q before the guess", got)
	}
	if got := beval[string](t, ctx, `document.getElementById("`+lessons.IDGuessAnswer+`").getAttribute("aria-live") ?? ""`); got != "polite" {
		t.Errorf("the answer region is aria-live %q, want polite", got)
	}
	if veiled(t, ctx, ".counters-box") {
		t.Error("the counters are veiled without a teacher's link")
	}
	tabTo(t, ctx, lastStep, lessons.IDGuessSlider)
	if got := btext(t, ctx, "#"+lessons.IDGuessValue); got != "50%" {
		t.Errorf("the guess starts at %q, want 50%%", got)
	}
	guessBy(t, ctx, kb.ArrowRight, 90, "90%")
	tabTo(t, ctx, "#"+lessons.IDGuessSlider, lessons.IDGuessCheck)
	bdo(t, ctx, key(kb.Enter))
	measured := waitMeasured(t, ctx)
	bdo(t, ctx, waitLab())
	if got := btext(t, ctx, "#"+settings.IDBitsPerKey+"-value"); got != "2.5" {
		t.Errorf("after the guess the lab stands at %s bits per key, want the step's 2.5", got)
	}
	if fill := btext(t, ctx, "#out-fill"); fill != measured {
		t.Errorf("the answer beside the guess is %q, the fill counter %q", measured, fill)
	}
	score := btext(t, ctx, "#"+lessons.IDGuessScore)
	if !strings.HasPrefix(score, "Close: 3.7 percentage points too low") {
		t.Errorf("score %q for 90%% against %s", score, measured)
	}
	if got := beval[string](t, ctx, `document.getElementById("`+lessons.IDQuestion+`").dataset.close`); got != "true" {
		t.Errorf("question data-close %q", got)
	}
	if got := btext(t, ctx, "#"+lessons.IDGuessCheck); got != "Guess again" {
		t.Errorf("the button reads %q once the guess is in", got)
	}
	bdo(t, ctx, chromedp.Reload(), waitLab())
	if got := waitMeasured(t, ctx); got != measured || !strings.HasPrefix(btext(t, ctx, "#"+lessons.IDGuessScore), "Close:") {
		t.Errorf("after a reload the kept answer %q, score %q", got, btext(t, ctx, "#"+lessons.IDGuessScore))
	}
	if got := btext(t, ctx, "#lesson-answer-guess"); !strings.Contains(got, "90%") {
		t.Errorf("after a reload the kept guess reads %q", got)
	}

	// A choice: the arrows move between the options, as in any radio group.
	bdo(t, ctx, chromedp.Navigate(lessonsURL(base, params(lessons.IDLesson, "4", lessons.IDStep, "1"))), waitLab())
	tabTo(t, ctx, lastStep, lessons.IDGuessChoice+"1")
	// Each key waits for the page to take the choice before the next, as
	// a reader's would: a key pressed while the page still answers the
	// one before is a race no reader runs.
	chosen := `document.getElementById("` + lessons.IDQuestion + `").dataset.choice`
	bdo(t, ctx, key(" "))
	bwaitEval(t, ctx, chosen, func(i string) bool { return i == "0" })
	bdo(t, ctx, key(kb.ArrowDown))
	bwaitEval(t, ctx, chosen, func(i string) bool { return i == "1" })
	if got := beval[string](t, ctx, `document.querySelector("input[name=lesson-choice]:checked")?.id ?? ""`); got != lessons.IDGuessChoice+"2" {
		t.Fatalf("after Space and the down arrow %q is chosen", got)
	}
	tabTo(t, ctx, "#"+lessons.IDGuessChoice+"2", lessons.IDGuessCheck)
	bdo(t, ctx, key(" "))
	if got := waitMeasured(t, ctx); got != "k = 4" {
		t.Errorf("the lab's answer %q, want k = 4", got)
	}
	if got := btext(t, ctx, "#"+lessons.IDGuessScore); got != "Not this time." {
		t.Errorf("k = 5 scored %q", got)
	}
}

// TestBrowserLessonsGuessFirst opens lesson 6's doubling with a teacher's
// link: the counters, the charts, the step's text and task are hidden
// under "Guess first" until the guess is in, and then shown, with the
// lab's measured rate beside the guess equal to the counter's. A link
// with a bad guess value gives a notice and veils nothing.
func TestBrowserLessonsGuessFirst(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	base := siteURL(t, "/bloomlab")
	show := params(lessons.IDLesson, "6", lessons.IDStep, "2", settings.IDItems, "8000", settings.IDBitsPerKey, "4.8", settings.IDHashes, "7")
	bdo(t, ctx, chromedp.Navigate(lessonsURL(base, show+"&"+params(lessons.IDGuess, "maybe"))), waitLab())
	if notice := btext(t, ctx, "#lesson-notice"); !strings.Contains(notice, `"maybe" is not a way to ask`) {
		t.Errorf("notice %q for guess=maybe", notice)
	}
	if veiled(t, ctx, ".counters-box") {
		t.Error("a bad guess value veils the counters")
	}

	bdo(t, ctx, chromedp.Navigate(lessonsURL(base, show+"&"+params(lessons.IDGuess, "first"))), waitLab())
	for _, sel := range []string{".counters-box", ".charts-col"} {
		if !veiled(t, ctx, sel) {
			t.Errorf("%s is not veiled under guess=first", sel)
		}
	}
	if beval[bool](t, ctx, `["lesson-text", "`+lessons.IDLessonTask+`"].some((id) => document.getElementById(id).getClientRects().length > 0)`) {
		t.Error("the step's text or task, which give the answer away, show before the guess")
	}
	if got := btext(t, ctx, "#"+lessons.IDGuessAnswer); !strings.Contains(got, "Guess first") {
		t.Errorf("the answer region reads %q under guess=first", got)
	}
	tabTo(t, ctx, lastStep, lessons.IDGuessSlider)
	guessBy(t, ctx, kb.ArrowRight, 16, "8%")
	tabTo(t, ctx, "#"+lessons.IDGuessSlider, lessons.IDGuessCheck)
	bdo(t, ctx, key(kb.Enter))
	measured := waitMeasured(t, ctx)
	for _, sel := range []string{".counters-box", ".charts-col"} {
		if veiled(t, ctx, sel) {
			t.Errorf("%s still veiled after the guess", sel)
		}
	}
	rate := beval[float64](t, ctx, `parseFloat(document.getElementById("out-fpr-empirical").textContent)`)
	if want := strconv.FormatFloat(rate*100, 'g', 3, 64) + "%"; measured != want {
		t.Errorf("the answer beside the guess is %s, the measured rate counter %v (%s)", measured, rate, want)
	}
	if score := btext(t, ctx, "#"+lessons.IDGuessScore); !strings.HasPrefix(score, "Off: 7.4 percentage points too low") {
		t.Errorf("score %q for 8%% against %s", score, measured)
	}
	if q := beval[string](t, ctx, `location.search`); !strings.Contains(q, params(lessons.IDGuess, "first")) {
		t.Errorf("the link %q lost guess=first", q)
	}
	if beval[bool](t, ctx, `document.getElementById("lesson-text").hidden`) {
		t.Error("the step's text is still hidden after the guess")
	}
}

// TestBrowserQuestionShots saves lesson 6's question under a teacher's
// link before and after the guess, at 1280 and 360 px: set
// BLOOMLAB_SHOTS to a folder to run it.
func TestBrowserQuestionShots(t *testing.T) {
	dir := os.Getenv("BLOOMLAB_SHOTS")
	if dir == "" {
		t.Skip("set BLOOMLAB_SHOTS=DIR to save the lessons' question")
	}
	needBrowser(t)
	query := (params(lessons.IDLesson, "6", lessons.IDStep, "2", settings.IDItems, "8000",
		settings.IDBitsPerKey, "4.8", settings.IDHashes, "7", lessons.IDGuess, "first"))
	// save shoots what the window shows with the question at its top,
	// then with the counters at its top.
	save := func(ctx context.Context, name string) {
		for _, part := range []struct{ suffix, sel string }{{"", "#" + lessons.IDLessonPanel}, {"-lab", ".counters-box"}} {
			beval[bool](t, ctx, `(document.querySelector(`+strconv.Quote(part.sel)+`).scrollIntoView(), true)`)
			shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, name+part.suffix+".png"), shot, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, width := range []int{1280, 360} {
		// A site of its own for each width: the guess made at one is kept.
		ctx := btab(t, width, 900)
		bdo(t, ctx, chromedp.Navigate(lessonsURL(siteURL(t, "/bloomlab"), query)), waitLab())
		save(ctx, fmt.Sprintf("question-before-%d", width))
		tabTo(t, ctx, lastStep, lessons.IDGuessSlider)
		guessBy(t, ctx, kb.ArrowRight, 16, "8%")
		tabTo(t, ctx, "#"+lessons.IDGuessSlider, lessons.IDGuessCheck)
		bdo(t, ctx, key(kb.Enter))
		waitMeasured(t, ctx)
		bdo(t, ctx, waitLab())
		save(ctx, fmt.Sprintf("question-after-%d", width))
		if over := beval[bool](t, ctx, `document.documentElement.scrollWidth > innerWidth`); over {
			t.Errorf("at %d px the page is wider than the window", width)
		}
	}
}
