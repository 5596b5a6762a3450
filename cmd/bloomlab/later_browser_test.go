//go:build !js

package main

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// laterParts are the lab's parts that mount after its first tree (the
// key panel, the player, the own keys' body) and the overlap view, which
// does not, each by its element ID.
var laterParts = []string{"try", "player", "own-keys-body", "overlap"}

// atLive notes, the moment the lab marks itself live, which of laterParts
// are in the document and the boxes held in place of the others, with
// their heights; and, at the first view's mark, clicks the player's step back
// on the prerendered page if window.earlyStep is set (earlyStep).
var atLive = fmt.Sprintf(`(() => {
  const mark = performance.mark.bind(performance);
  performance.mark = (name, options) => {
    if (name === "bloomlab:live") {
      window.atLive = {parts: %s.filter((id) => document.getElementById(id)),
        boxes: Object.fromEntries([...document.querySelectorAll("#lab .later")].map((b) => [b.dataset.later, b.getBoundingClientRect().height]))};
    }
    if (name === "bloomlab:first-view" && window.earlyStep) {
      setTimeout(() => document.getElementById("play-back").click(), 0);
    }
    return mark(name, options);
  };
})();`, jsList(laterParts...))

const earlyStep = `window.earlyStep = true;`

type liveParts struct {
	Parts []string
	Boxes map[string]float64
}

// TestBrowserLaterParts: the lab's first tree leaves out its key panel,
// its player and its own keys' body. At the moment the lab is live they
// are not in the document, each (but the own keys' body, in its closed
// panel) held by a box as tall as it was on the prerendered page; once
// the lab is whole they are in, as tall as their boxes, and work. A link
// that opens a part (typed keys, a position of the player) has it in the
// first tree; a click on a part made on the prerendered page is made once
// the part is in.
func TestBrowserLaterParts(t *testing.T) {
	needBrowser(t)
	base := labURL(t)
	open := func(t *testing.T, link string, scripts ...string) (context.Context, liveParts) {
		ctx := btab(t, 1280, 900)
		for _, s := range append(scripts, atLive) {
			if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: s}); err != nil {
				t.Fatal(err)
			}
		}
		bdo(t, ctx, chromedp.Navigate(base+link), waitLab())
		return ctx, beval[liveParts](t, ctx, `window.atLive`)
	}
	t.Run("start", func(t *testing.T) {
		ctx, at := open(t, "/")
		if want := []string{"overlap"}; strings.Join(at.Parts, ",") != strings.Join(want, ",") {
			t.Errorf("at live, the parts in the document are %v, want %v", at.Parts, want)
		}
		for _, id := range []string{"try", "player", "own-keys-body"} {
			if _, ok := at.Boxes[id]; !ok {
				t.Errorf("at live, no box holds the place of #%s (boxes %v)", id, at.Boxes)
			}
		}
		// Whole: every part in, no box left, each as tall as its box.
		if n := beval[int](t, ctx, `document.querySelectorAll("#lab .later").length`); n != 0 {
			t.Errorf("%d boxes left once the lab is whole", n)
		}
		for _, id := range []string{"try", "player"} {
			h := beval[float64](t, ctx, `document.getElementById("`+id+`").getBoundingClientRect().height`)
			if box := at.Boxes[id]; box == 0 || math.Abs(h-box) > 0.5 {
				t.Errorf("#%s is %.1f px tall, its box was %.1f px: the page below it moved", id, h, box)
			}
		}
		// The key panel mounted late answers.
		bdo(t, ctx, typeKey("apple"), chromedp.Click(chromedp.CSS("#try-insert")), waitPanel("try-positions", "“apple”"))
		// The own keys' body mounted late opens with its panel.
		bdo(t, ctx, chromedp.Click(chromedp.CSS("#own-keys summary")), chromedp.WaitVisible(chromedp.CSS("#own-members")))
	})
	t.Run("link", func(t *testing.T) {
		_, at := open(t, "/?"+params(settings.IDTry, "apple", settings.IDPlayAt, "50", settings.IDOverlap, "on"))
		if want := []string{"try", "player", "overlap"}; strings.Join(at.Parts, ",") != strings.Join(want, ",") {
			t.Errorf("at live, the parts in the document are %v, want %v: the link opens them", at.Parts, want)
		}
	})
	t.Run("early click", func(t *testing.T) {
		ctx, _ := open(t, "/", earlyStep)
		bwaitEval(t, ctx, `location.search`, func(s string) bool { return strings.Contains(s, settings.IDPlayAt+"=") })
	})
}
