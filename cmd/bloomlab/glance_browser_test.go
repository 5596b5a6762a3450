//go:build !js

package main

import (
	"context"
	"strconv"
	"testing"

	"github.com/bloomlab/bloomlab/app/lessons"
	"github.com/bloomlab/bloomlab/app/settings"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// Cause and effect on one screen: with a control in hand, what it changes
// is in view beside it, at a phone's, a tablet's and a laptop's width; in
// a lesson, the task's state and the way on are in view from where the
// task's work is done.

// glanceSize is a window the lab is tried in, CSS pixels, in normal or
// large type.
type glanceSize struct {
	w, h  int
	large bool
}

func (s glanceSize) String() string {
	name := strconv.Itoa(s.w) + "x" + strconv.Itoa(s.h)
	if s.large {
		name += "-large"
	}
	return name
}

// query is the link query of the type size.
func (s glanceSize) query() string {
	if s.large {
		return params(settings.IDLarge, "on")
	}
	return params(settings.IDLarge, "off")
}

// glanceSizes are the windows the lab is tried in: a phone, a tablet and
// a laptop, and the phone in large type, where the glance and the bar
// are at their tallest.
var glanceSizes = []glanceSize{{360, 800, false}, {720, 900, false}, {1280, 800, false}, {360, 800, true}}

// inViewJS says "ok" when the element sel lies wholly inside the window,
// is visible, and is what the window shows at its centre (no sticky bar
// or glance covers it); otherwise it says what is wrong.
func inViewJS(sel string) string {
	return `(() => {
  const e = document.querySelector(` + strconv.Quote(sel) + `);
  if (!e) return "missing";
  const r = e.getBoundingClientRect();
  const box = "[" + Math.round(r.left) + ", " + Math.round(r.top) + ", " + Math.round(r.right) + ", " + Math.round(r.bottom) + "] in " + innerWidth + " x " + innerHeight;
  if (r.width === 0 || r.height === 0) return "no box";
  if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) return "out of view: " + box;
  if (getComputedStyle(e).visibility !== "visible") return "hidden";
  const at = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
  if (!at || (at !== e && !e.contains(at))) return "covered by " + (at ? at.tagName.toLowerCase() + (at.id ? "#" + at.id : "") + "." + at.className : "nothing") + ": " + box;
  return "ok";
})()`
}

// inView reports whether sel is in view (inViewJS), and why not.
func inView(t *testing.T, ctx context.Context, sel string) (bool, string) {
	t.Helper()
	why := beval[string](t, ctx, inViewJS(sel))
	return why == "ok", why
}

// wantOneInView fails unless one of sels is in view: what shows a figure,
// the lab's own readout or the glance's.
func wantOneInView(t *testing.T, ctx context.Context, what string, sels ...string) {
	t.Helper()
	var whys []string
	for _, sel := range sels {
		ok, why := inView(t, ctx, sel)
		if ok {
			return
		}
		whys = append(whys, sel+": "+why)
	}
	t.Errorf("%s not in view: %q", what, whys)
}

// headingJS is the tag and text of the heading that labels the counters.
const headingJS = `(() => {
  const id = document.querySelector(".lab-out .counters-box")?.getAttribute("aria-labelledby");
  const h = id && document.getElementById(id);
  return h ? h.tagName + " " + h.textContent.trim() : "";
})()`

// glancePixels is a digest of the glance's picture: its drawn pixels and
// a hash of them, to see it drawn and drawn again.
const glancePixels = `(() => {
  const c = document.getElementById("glance-bits");
  if (!c || !c.width || !c.height) return "0:0";
  const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
  let n = 0, h = 0;
  for (let i = 0; i < d.length; i += 4) {
    if (d[i+3] !== 0) n++;
    h = (h * 31 + d[i] + 7 * d[i+1] + 13 * d[i+2]) | 0;
  }
  return n + ":" + h;
})()`

// glanceMatches fails unless the glance's figures are the counters'.
func glanceMatches(t *testing.T, ctx context.Context, when string) {
	t.Helper()
	for glance, counter := range map[string]string{"#glance-fill": "#out-fill", "#glance-theory": "#out-fpr-theory", "#glance-measured": "#out-fpr-empirical"} {
		g, c := btext(t, ctx, glance), btext(t, ctx, counter)
		if g == "" || g != c {
			t.Errorf("%s: the glance's %s reads %q, the counters' %s %q", when, glance, g, counter, c)
		}
	}
}

// TestBrowserGlance holds the bits-per-key slider at each width (focus,
// one arrow press) and then the last slider: the measured rate and a
// picture of the bits are in view and uncovered, the slider in hand is
// uncovered, the glance's picture is drawn again for the move, and its
// figures are the counters' of the same run.
func TestBrowserGlance(t *testing.T) {
	needBrowser(t)
	base := labURL(t)
	last := settings.Sliders[len(settings.Sliders)-1].ID
	for _, size := range glanceSizes {
		t.Run(size.String(), func(t *testing.T) {
			ctx := btab(t, size.w, size.h)
			bdo(t, ctx, chromedp.Navigate(base+"/?"+size.query()), waitLab())
			if got := beval[string](t, ctx, `document.getElementById("glance")?.getAttribute("aria-label") ?? ""`); got == "" {
				t.Error("the glance is not a labelled region")
			}
			if n := beval[int](t, ctx, `document.querySelectorAll("#glance a, #glance button, #glance input, #glance [tabindex]").length`); n != 0 {
				t.Errorf("the glance has %d stops of its own in the tab order, want none", n)
			}
			if got := beval[string](t, ctx, headingJS); got != "H2 Counters: measured beside the theory" {
				t.Errorf("the counters are labelled by %q, want their h2 under the lab's h1", got)
			}
			before := beval[string](t, ctx, glancePixels)

			bdo(t, ctx, chromedp.Focus(chromedp.CSS("#"+settings.IDBitsPerKey)), chromedp.KeyEvent(kb.ArrowRight))
			bwaitText(t, ctx, "#out-m", func(s string) bool { return s == "42,000" })
			glanceMatches(t, ctx, "bits per key moved")
			if after := beval[string](t, ctx, glancePixels); after == before || after[:2] == "0:" {
				t.Errorf("the glance's picture is %q after the move, %q before: not drawn again", after, before)
			}
			handled(t, ctx, settings.IDBitsPerKey)

			set := btext(t, ctx, "#out-set-bits")
			bdo(t, ctx, chromedp.Focus(chromedp.CSS("#"+last)), chromedp.KeyEvent(kb.ArrowRight))
			bwaitText(t, ctx, "#out-set-bits", func(s string) bool { return s != set })
			glanceMatches(t, ctx, last+" moved")
			handled(t, ctx, last)

			// A keyboard's way down the column: the window scrolled so the
			// last sliders lie where the glance is held, Tab from the one
			// before onto the last. The focus brings it out from under.
			prev := settings.Sliders[len(settings.Sliders)-2].ID
			beval[bool](t, ctx, `(() => {
  const r = document.getElementById(`+strconv.Quote(last)+`).getBoundingClientRect();
  scrollBy(0, r.bottom - innerHeight + 8);
  return true;
})()`)
			if ok, _ := inView(t, ctx, "#"+last); ok {
				t.Errorf("#%s is not under the glance before the Tab: the test tries nothing", last)
			}
			bdo(t, ctx, chromedp.Focus(chromedp.CSS("#"+prev)), chromedp.KeyEvent(kb.Tab))
			if got := beval[string](t, ctx, `document.activeElement?.id ?? ""`); got != last {
				t.Fatalf("Tab from #%s went to #%s, want #%s", prev, got, last)
			}
			set = btext(t, ctx, "#out-set-bits")
			bdo(t, ctx, chromedp.KeyEvent(kb.ArrowRight))
			bwaitText(t, ctx, "#out-set-bits", func(s string) bool { return s != set })
			glanceMatches(t, ctx, last+" moved by the keyboard")
			handled(t, ctx, last)
		})
	}
}

// handled checks the window with slider id in hand: the slider, a
// measured rate and a picture of the bits in view and uncovered.
func handled(t *testing.T, ctx context.Context, id string) {
	t.Helper()
	if ok, why := inView(t, ctx, "#"+id); !ok {
		t.Errorf("the slider in hand, #%s: %s", id, why)
	}
	wantOneInView(t, ctx, "with #"+id+" in hand, the measured rate", "#glance-measured", "#out-fpr-empirical")
	wantOneInView(t, ctx, "with #"+id+" in hand, the picture of the bits", "#glance-bits", "#bit-array")
}

// TestBrowserLessonBar does a step's work at a phone's and a laptop's
// width, the key panel's field and then a slider in hand: the task's
// state and Next are in view and uncovered, and so is the field.
func TestBrowserLessonBar(t *testing.T) {
	needBrowser(t)
	base := siteURL(t, "/bloomlab")
	for _, size := range []glanceSize{{360, 800, false}, {1280, 800, false}, {360, 800, true}} {
		t.Run(size.String(), func(t *testing.T) {
			ctx := btab(t, size.w, size.h)
			// Lesson 3's first step: its back button names the lesson
			// before, the longest the bar's buttons get.
			bdo(t, ctx, chromedp.Navigate(lessonsURL(base, params(lessons.IDLesson, "3", lessons.IDStep, "1")+"&"+size.query())), waitLab())
			if got := beval[string](t, ctx, headingJS); got != "H3 Counters: measured beside the theory" {
				t.Errorf("the counters are labelled by %q, want an h3 under the lab's h2", got)
			}
			for _, hand := range []struct {
				id   string
				move chromedp.Action[chromedp.Void]
			}{
				{"try-key", chromedp.KeyEvent("x")},
				{settings.IDBitsPerKey, chromedp.KeyEvent(kb.ArrowRight)},
			} {
				bdo(t, ctx, chromedp.Focus(chromedp.CSS("#"+hand.id)), hand.move)
				for _, sel := range []string{"#" + hand.id, "#lesson-status", "#" + lessons.IDLessonNext} {
					if ok, why := inView(t, ctx, sel); !ok {
						t.Errorf("with #%s in hand, %s: %s", hand.id, sel, why)
					}
				}
				if hand.id == settings.IDBitsPerKey {
					handled(t, ctx, hand.id)
				}
			}

			// A keyboard's way up the lab: the window scrolled so the key
			// field lies where the bar is held, Shift+Tab from Insert
			// onto it. The focus brings it out from under.
			beval[bool](t, ctx, `(() => {
  scrollBy(0, document.getElementById("try-key").getBoundingClientRect().top - 12);
  return true;
})()`)
			if ok, _ := inView(t, ctx, "#try-key"); ok {
				t.Error("#try-key is not under the bar before the Shift+Tab: the test tries nothing")
			}
			bdo(t, ctx, chromedp.Focus(chromedp.CSS("#try-insert")), chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift)))
			if got := beval[string](t, ctx, `document.activeElement?.id ?? ""`); got != "try-key" {
				t.Fatalf("Shift+Tab from #try-insert went to #%s, want #try-key", got)
			}
			for _, sel := range []string{"#try-key", "#lesson-status", "#" + lessons.IDLessonNext} {
				if ok, why := inView(t, ctx, sel); !ok {
					t.Errorf("with #try-key in hand by the keyboard, %s: %s", sel, why)
				}
			}
		})
	}
}

// TestBrowserGlanceVeiled: a teacher's link that veils the lab's readouts
// until the guess is in (guess=first) veils the glance's too, which stays
// held at the foot of the controls.
func TestBrowserGlanceVeiled(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 360, 800)
	show := params(lessons.IDLesson, "6", lessons.IDStep, "2", settings.IDItems, "8000", settings.IDBitsPerKey, "4.8", settings.IDHashes, "7")
	bdo(t, ctx, chromedp.Navigate(lessonsURL(siteURL(t, "/bloomlab"), show+"&"+params(lessons.IDGuess, "first"))), waitLab())
	if !veiled(t, ctx, ".counters-box") {
		t.Fatal("the counters are not veiled under guess=first: the test tries nothing")
	}
	if !veiled(t, ctx, ".glance") {
		t.Error("the glance shows the rates the counters veil")
	}
	if got := beval[string](t, ctx, `getComputedStyle(document.querySelector(".glance")).position`); got != "sticky" {
		t.Errorf("the veiled glance is position %s, want sticky", got)
	}
}
