//go:build !wasm

package main

import (
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/lessons"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/core/try"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserAttackLessons works the two attack lessons as a learner:
// a forge by the panel's button, and a recover that runs again as the
// learner raises bits per key until the task is done; then "show me" of
// the fill step, whose crafted keys join the typed ones.
func TestBrowserAttackLessons(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	base := labURL(t)

	bdo(t, ctx, chromedp.Navigate(lessonsURL(base, "lesson=7&step=1")), waitLab())
	waitTask(t, ctx, "false")
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#try-forge")), waitAttack(try.AttackForge))
	waitTask(t, ctx, "true")

	// Lesson 8, step 2: the PINs recovered at 10 bits per key, then at
	// each move of the slider until half the positives are members.
	bdo(t, ctx, chromedp.Navigate(lessonsURL(base, "lesson=8&step=2&"+params(settings.IDTry, strings.Join(sixPINsForTest, ",")))), waitLab(),
		chromedp.SetValue(chromedp.CSS("#try-recover-list"), try.ListPINs),
		chromedp.Click(chromedp.CSS("#try-recover")), waitAttack(try.AttackRecover))
	if got := btext(t, ctx, "#try-attack"); !strings.Contains(got, "84 of 10,000 candidates (every 4-digit PIN) test positive: 6 members") {
		t.Fatalf("recover at 10 bits per key: %q", got)
	}
	waitTask(t, ctx, "false")
	slideTo(t, ctx, "#"+settings.IDBitsPerKey, kb.ArrowRight, "18")
	bwaitText(t, ctx, "#try-attack", func(s string) bool { return strings.Contains(s, "10 of 10,000 candidates") })
	waitTask(t, ctx, "true")

	// Lesson 7, step 3, by "show me": the fill's keys are typed in.
	bdo(t, ctx, chromedp.Navigate(lessonsURL(base, "lesson=7&step=3")), waitLab(),
		chromedp.Click(chromedp.CSS("#"+lessons.IDLessonShow)), waitAttack(try.AttackFill))
	waitTask(t, ctx, "true")
	if got := btext(t, ctx, "#try-typed"); !strings.Contains(got, "(8 of 32)") {
		t.Errorf("after the fill the typed keys read %q", got)
	}

	// Lesson 8, step 3, by "show me": the list chosen is the one recovered.
	bdo(t, ctx, chromedp.Navigate(lessonsURL(base, "lesson=8&step=3")), waitLab(),
		chromedp.Click(chromedp.CSS("#"+lessons.IDLessonShow)), waitAttack(try.AttackRecover))
	waitTask(t, ctx, "true")
	if got := beval[string](t, ctx, `document.getElementById("try-recover-list").value`); got != try.ListIDs {
		t.Errorf("after show me recovered from the ids the list reads %q", got)
	}
}

// sixPINsForTest are lesson 8's members.
var sixPINsForTest = []string{"4821", "1234", "0000", "7777", "2580", "9051"}

// The attack lessons, each after its "show me": the lesson and the
// panel's answer.
func TestBrowserAttackLessonShots(t *testing.T) {
	for _, tc := range []struct {
		name, link, kind string
	}{
		{"lesson-adversarial", "/lessons?lesson=7&step=3", try.AttackFill},
		{"lesson-inference", "/lessons?lesson=8&step=1", try.AttackRecover},
	} {
		show := []chromedp.Action[chromedp.Void]{chromedp.Click(chromedp.CSS("#" + lessons.IDLessonShow)), waitAttack(tc.kind)}
		shootPart(t, tc.name, tc.link, lessons.IDLessonPanel, show...)
		shootPart(t, tc.name+"-panel", tc.link, "try", show...)
	}
}
