//go:build !js

package main

import (
	"context"
	"encoding/json"
	"html"
	"strconv"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/lessons"
	"github.com/bloomlab/bloomlab/app/settings"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// shownCell is the side, in CSS pixels, of the bit array's cells as the
// window shows them for a filter of m bits: the painter's layout for the
// picture's box, scaled to the box; 0 for a density picture.
func shownCell(t *testing.T, ctx context.Context, m uint64) int {
	t.Helper()
	l := bitsLayout(t, ctx, m)
	if !l.Cells {
		return 0
	}
	w := beval[float64](t, ctx, `document.getElementById("bit-array").getBoundingClientRect().width`)
	return int(float64(l.Cell) * w / float64(l.W))
}

// TestBrowserWayIn: the newcomer's start is on the lab's first screen at
// 360 and 1280 px, with a link to the lessons; one click opens a filter
// of 64 to 256 bits whose cells are at least 8 CSS px, and brings that
// picture into view; the header's
// buttons stand in two labelled groups, with no button alone on a line.
func TestBrowserWayIn(t *testing.T) {
	needBrowser(t)
	base := labURL(t)
	for _, w := range []int{360, 1280} {
		t.Run(strconv.Itoa(w), func(t *testing.T) {
			ctx := btab(t, w, 800)
			bdo(t, ctx, chromedp.Navigate(base+"/"), waitLab())
			headerGroups(t, ctx)
			for _, id := range []string{"small-start", "lessons-link"} {
				if !beval[bool](t, ctx, `(r => r.top >= 0 && r.bottom <= innerHeight && r.width > 0)(document.getElementById("`+id+`").getBoundingClientRect())`) {
					t.Errorf("#%s is not within the first screen", id)
				}
			}
			if href := beval[string](t, ctx, `document.getElementById("lessons-link").getAttribute("href")`); !strings.HasSuffix(href, "/lessons") {
				t.Errorf("the newcomer's line leads to %q, not the lessons", href)
			}

			bdo(t, ctx, chromedp.Click(chromedp.CSS("#small-start")))
			bwaitText(t, ctx, "#out-m", func(s string) bool { return s == "128" })
			bdo(t, ctx, waitLab())
			// The click brings the picture it is for into view.
			bwaitEval(t, ctx, `String((r => r.top >= 0 && r.bottom <= innerHeight)(document.getElementById("bit-array").getBoundingClientRect()))`,
				func(s string) bool { return s == "true" })
			if q := beval[string](t, ctx, `location.search`); !strings.Contains(q, params(settings.IDItems, "16")) || !strings.Contains(q, params(settings.IDBitsPerKey, "8")) {
				t.Errorf("the small start is not in the link: %q", q)
			}
			m, _ := strconv.Atoi(strings.ReplaceAll(btext(t, ctx, "#out-m"), ",", ""))
			n := btext(t, ctx, "#out-n")
			side := shownCell(t, ctx, uint64(m))
			t.Logf("%d px: one click gives m = %d, n = %s, k = %s, cells of %d CSS px", w, m, n, btext(t, ctx, "#out-k"), side)
			if m < 64 || m > 256 {
				t.Errorf("the small start has m = %d, want 64 to 256", m)
			}
			if side < 8 {
				t.Errorf("the small start's cells are %d CSS px, want at least 8", side)
			}
		})
	}
}

// headerGroups checks the lab's header: the classic cases and the view
// tools each a labelled group, Large type and Embed among the tools, and
// no line of the header's buttons holding one button alone.
func headerGroups(t *testing.T, ctx context.Context) {
	t.Helper()
	for id, want := range map[string]string{"presets": "Classic cases", "view-tools": "Show and share"} {
		got := beval[string](t, ctx, `(g => g ? g.getAttribute("role") + ": " + document.getElementById(g.getAttribute("aria-labelledby"))?.textContent : "")(document.getElementById("`+id+`"))`)
		if !strings.HasPrefix(got, "group: "+want) {
			t.Errorf("#%s is %q, want a group labelled %s", id, got, want)
		}
	}
	if !beval[bool](t, ctx, `!!document.querySelector("#view-tools #`+settings.IDLarge+`") && !!document.querySelector("#view-tools #embed-box")`) {
		t.Error("Large type and Embed are not among the view tools")
	}
	// Every button of the header (the classic cases, Large type, Embed's
	// summary) and every group label, by the line it sits on.
	lines := beval[string](t, ctx, `JSON.stringify((() => {
  const lines = {};
  for (const el of document.querySelectorAll(".lab-head .chip:not(#newcomer *), .lab-head .presets-label")) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || !el.checkVisibility()) continue; // in the closed Embed box
    const line = Math.round(r.top + r.height / 2);
    const key = Object.keys(lines).find(k => Math.abs(k - line) <= 4) ?? line;
    lines[key] ??= [];
    lines[key].push(el.classList.contains("chip") ? el.textContent.trim() : "label");
  }
  return Object.values(lines);
})())`)
	var got [][]string
	if err := json.Unmarshal([]byte(lines), &got); err != nil {
		t.Fatal(err)
	}
	t.Logf("the header's lines: %q", got)
	for _, line := range got {
		if len(line) == 1 && line[0] != "label" {
			t.Errorf("%q stands alone on a line of the header: %q", line[0], got)
		}
	}
}

// TestBrowserBitsPerKeyStep: an arrow press on the bits-per-key slider at
// 10 moves it to a value a reader sees change, the thumb at least 2 px,
// and the number field beside it takes a value between the stops exactly.
func TestBrowserBitsPerKeyStep(t *testing.T) {
	needBrowser(t)
	base := labURL(t)
	for _, w := range []int{360, 1280} {
		t.Run(strconv.Itoa(w), func(t *testing.T) {
			ctx := btab(t, w, 800)
			bdo(t, ctx, chromedp.Navigate(base+"/?"+params(settings.IDBitsPerKey, "10")), waitLab())
			// The thumb's centre: the track less the thumb's own width,
			// which Chromium draws 16 px wide.
			thumb := `(s => (s.value - s.min) / (s.max - s.min) * (s.getBoundingClientRect().width - 16))(document.getElementById("` + settings.IDBitsPerKey + `"))`
			before := beval[float64](t, ctx, thumb)
			bdo(t, ctx, pressKey("#"+settings.IDBitsPerKey, kb.ArrowRight))
			shown := bwaitText(t, ctx, "#"+settings.IDBitsPerKey+"-value", func(s string) bool { return s != "10" })
			moved := beval[float64](t, ctx, thumb) - before
			t.Logf("%d px: ArrowRight from 10 shows %s, the thumb moves %.1f px", w, shown, moved)
			if v, err := strconv.ParseFloat(shown, 64); err != nil || v-10 < 0.5 {
				t.Errorf("ArrowRight from 10 shows %q, want a step of at least half a bit", shown)
			}
			if moved < 2 {
				t.Errorf("ArrowRight from 10 moves the thumb %.1f px, want at least 2", moved)
			}
			bwaitEval(t, ctx, `location.search`, func(s string) bool { return strings.Contains(s, params(settings.IDBitsPerKey, shown)) })
			if got := beval[string](t, ctx, `document.getElementById("`+settings.IDBitsPerKey+`-exact").value`); got != shown {
				t.Errorf("the number field says %q, the slider %q", got, shown)
			}

			// 9.7 lies between the stops: typed, it is the filter's value
			// exactly, in the link and the counters.
			bdo(t, ctx, chromedp.SetValue(chromedp.CSS("#"+settings.IDBitsPerKey+"-exact"), "9.7"),
				discard(chromedp.Evaluate[bool](`document.getElementById("`+settings.IDBitsPerKey+`-exact").dispatchEvent(new Event("change", {bubbles: true}))`)))
			bwaitText(t, ctx, "#out-m", func(s string) bool { return s == "38,800" })
			bwaitEval(t, ctx, `location.search`, func(s string) bool { return strings.Contains(s, params(settings.IDBitsPerKey, "9.7")) })
			if got := btext(t, ctx, "#"+settings.IDBitsPerKey+"-value"); got != "9.7" {
				t.Errorf("after typing 9.7 the slider says %q", got)
			}
		})
	}
}

// TestBrowserOverlapInLink: opening the overlap view puts it in the link,
// a reload keeps it open and counted, and closing it takes it out.
func TestBrowserOverlapInLink(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 800)
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/?"+params(settings.IDItems, "40", settings.IDBitsPerKey, "8")), waitLab(),
		chromedp.Click(chromedp.CSS("#overlap-toggle")))
	on := params(settings.IDOverlap, "on")
	bwaitEval(t, ctx, `location.search`, func(s string) bool { return strings.Contains(s, on) })
	bdo(t, ctx, chromedp.WaitVisible(chromedp.CSS("#overlap-legend")))
	bdo(t, ctx, chromedp.Reload(), waitLab(), chromedp.WaitVisible(chromedp.CSS("#overlap-legend")))
	if got := beval[string](t, ctx, `document.getElementById("overlap-toggle").getAttribute("aria-pressed")`); got != "true" {
		t.Errorf("after a reload the overlap toggle is pressed=%q", got)
	}
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#overlap-toggle")))
	bwaitEval(t, ctx, `location.search`, func(s string) bool { return !strings.Contains(s, settings.IDOverlap+"=") })
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/?"+params(settings.IDOverlap, "purple")), waitLab())
	if got := btext(t, ctx, "#notices"); !strings.Contains(got, `overlap: "purple" is not on or off`) {
		t.Errorf("a bad overlap= gives the notices %q", got)
	}
}

// TestBrowserLessonEmbed: a lesson's Embed snippet holds what the learner
// sees: the step's keys and the key panel they show in, and, after Show
// me, the step's settings. The lessons page, which leads its readers
// itself, has no start for newcomers.
func TestBrowserLessonEmbed(t *testing.T) {
	needBrowser(t)
	base := labURL(t)
	ctx := btab(t, 1280, 800)
	snippet := func() string {
		bdo(t, ctx, discard(chromedp.Evaluate[bool](`document.getElementById("embed-box").open = true`)))
		return html.UnescapeString(beval[string](t, ctx, `document.getElementById("embed-snippet").value`))
	}
	bdo(t, ctx, chromedp.Navigate(lessonsURL(base, params(lessons.IDLesson, "1", lessons.IDStep, "2"))), waitLab())
	if beval[bool](t, ctx, `!!document.getElementById("small-start")`) {
		t.Error("the lessons page offers the lab's start for newcomers")
	}
	s := snippet()
	for _, want := range []string{params(settings.IDTry, "apple,pear,plum"), params(settings.IDPanel, settings.PanelTry), params(settings.IDHashes, "7")} {
		if !strings.Contains(strings.ReplaceAll(s, "%2C", ","), want) {
			t.Errorf("lesson 1 step 2's snippet lacks %s:\n%s", want, s)
		}
	}
	bdo(t, ctx, chromedp.Navigate(lessonsURL(base, params(lessons.IDLesson, "3", lessons.IDStep, "1"))), waitLab(),
		chromedp.Click(chromedp.CSS("#"+lessons.IDLessonShow)))
	bwaitText(t, ctx, "#"+settings.IDBitsPerKey+"-value", func(s string) bool { return s == "2.5" })
	bdo(t, ctx, waitLab())
	if s := snippet(); !strings.Contains(s, params(settings.IDBitsPerKey, "2.5")) {
		t.Errorf("after Show me, lesson 3 step 1's snippet lacks bits-per-key=2.5:\n%s", s)
	}
}
