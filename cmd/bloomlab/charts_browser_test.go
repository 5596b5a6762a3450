//go:build !js

package main

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui"

	"github.com/chromedp/chromedp"
)

// chartView is what a page's charts look like in the browser: for each
// chart drawn, its box, its size, the sizes its text is shown at, and what
// is wrong with it.
type chartView struct {
	Status string      `json:"status"`
	Charts []chartSeen `json:"charts"`
}

type chartSeen struct {
	ID     string  `json:"id"`
	Hidden bool    `json:"hidden"`
	Shown  int     `json:"shown"`  // the drawings of it shown, of its widths
	Width  float64 `json:"width"`  // as shown, CSS px
	Drawn  float64 `json:"drawn"`  // as drawn
	Box    float64 `json:"box"`    // the width inside its box
	MinPx  float64 `json:"minPx"`  // the smallest text, CSS px
	MaxPx  float64 `json:"maxPx"`  // the largest
	XTicks string  `json:"xTicks"` // the tick labels, in order
	// Overlaps are pairs of texts drawn over each other, Outside texts
	// past the chart's edges.
	Overlaps []string `json:"overlaps"`
	Outside  []string `json:"outside"`
	// Undrawn are legend entries that name nothing drawn; OnFloor markers
	// drawn on the plot's floor or edge as if a value were there.
	Undrawn []string `json:"undrawn"`
	OnFloor []string `json:"onFloor"`
}

// chartViewJS reads the charts of the page: every text's size is its
// computed font size times the scale the SVG is shown at, the size a
// reader sees. A legend entry (a legend-entry group, or each legend text
// where there are none) names something drawn when an element outside the
// legend has a tooltip starting with its name; the arrows' own entry needs
// an arrow.
const chartViewJS = `(() => {
  const rect = e => e.getBoundingClientRect();
  const out = { status: (document.getElementById("chart-status")?.textContent ?? "").trim(), charts: [] };
  for (const box of document.querySelectorAll(".chart-box")) {
    const shown = [...box.querySelectorAll("svg.chart")].filter(s => rect(s).width > 0), svg = shown[0];
    const c = { id: box.id, hidden: box.hidden || !svg, shown: shown.length, overlaps: [], outside: [], undrawn: [], onFloor: [], xTicks: "" };
    out.charts.push(c);
    if (c.hidden) continue;
    const r = rect(svg), vb = svg.viewBox.baseVal, cs = getComputedStyle(box);
    c.width = r.width; c.drawn = vb.width;
    c.box = box.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    const scale = r.width / vb.width;
    const texts = [...svg.querySelectorAll("text")].filter(t => t.textContent.trim() !== "");
    c.minPx = 1e9; c.maxPx = 0;
    for (const t of texts) {
      const f = parseFloat(getComputedStyle(t).fontSize) * scale;
      c.minPx = Math.min(c.minPx, f); c.maxPx = Math.max(c.maxPx, f);
      const a = rect(t);
      if (a.left < r.left - 1 || a.right > r.right + 1 || a.top < r.top - 1 || a.bottom > r.bottom + 1) c.outside.push(t.textContent);
    }
    for (let i = 0; i < texts.length; i++) for (let j = i + 1; j < texts.length; j++) {
      const a = rect(texts[i]), b = rect(texts[j]);
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left), h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 1 && h > 1) c.overlaps.push(texts[i].textContent + " | " + texts[j].textContent);
    }
    const plot = svg.querySelector("rect.plot");
    const ticks = [...svg.querySelectorAll('text.tick[text-anchor="middle"]')];
    c.xTicks = ticks.map(t => t.textContent).join(" ");
    const legend = e => e.closest(".legend-entry") || e.classList.contains("legend");
    const tips = [...svg.querySelectorAll("title")].filter(t => t.parentElement !== svg && !legend(t.parentElement)).map(t => t.textContent);
    const arrows = [...svg.querySelectorAll(".off, .mark-off")].filter(e => !legend(e)).length;
    let entries = [...svg.querySelectorAll(".legend-entry")].map(g => [...g.querySelectorAll("text")].map(t => t.textContent).join(" "));
    if (entries.length === 0) entries = [...svg.querySelectorAll("text.legend")].map(t => t.textContent);
    for (const name of entries) {
      const drawn = name.startsWith("off the chart") ? arrows > 0 : tips.some(t => t.startsWith(name));
      if (!drawn) c.undrawn.push(name);
    }
    const floor = +plot.getAttribute("y") + +plot.getAttribute("height");
    for (const d of svg.querySelectorAll(".dot")) {
      if (legend(d)) continue;
      const b = d.getBBox();
      if (Math.abs(b.y + b.height / 2 - floor) < 0.6) c.onFloor.push(d.querySelector("title")?.textContent ?? "a marker");
    }
  }
  return JSON.stringify(out);
})()`

// readCharts reads the charts of the page in ctx.
func readCharts(t *testing.T, ctx context.Context) chartView {
	t.Helper()
	return parseCharts(t, beval[string](t, ctx, chartViewJS))
}

func parseCharts(t *testing.T, s string) chartView {
	t.Helper()
	var v chartView
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%v in %s", err, s)
	}
	return v
}

// checkChartText fails the test for a chart whose text is shown smaller
// than 11 or larger than 18 CSS px, which is not drawn for the width of
// its box, or whose texts overlap or run off it.
func checkChartText(t *testing.T, where string, v chartView, want int) {
	t.Helper()
	shown := 0
	for _, c := range v.Charts {
		if c.Hidden {
			continue
		}
		shown++
		t.Logf("%s: %s drawn %.0f px wide, shown %.0f in a %.0f px box, text %.1f to %.1f px", where, c.ID, c.Drawn, c.Width, c.Box, c.MinPx, c.MaxPx)
		if c.MinPx < 11 || c.MaxPx > 18 {
			t.Errorf("%s: %s's text is shown at %.1f to %.1f px, want 11 to 18", where, c.ID, c.MinPx, c.MaxPx)
		}
		if c.Shown != 1 || c.Width < c.Box-2 || c.Width > c.Box+1 || c.Width < 0.95*c.Drawn || c.Width > 4*c.Drawn/3 {
			t.Errorf("%s: %s is shown %d times, %.0f px wide, drawn %.0f px wide, in a box %.0f px wide: not drawn for its width", where, c.ID, c.Shown, c.Width, c.Drawn, c.Box)
		}
		if len(c.Overlaps) > 0 || len(c.Outside) > 0 {
			t.Errorf("%s: %s's texts overlap (%q) or run off it (%q)", where, c.ID, c.Overlaps, c.Outside)
		}
		if len(c.Undrawn) > 0 {
			t.Errorf("%s: %s's legend names what it does not draw: %q", where, c.ID, c.Undrawn)
		}
	}
	if shown != want {
		t.Errorf("%s: %d charts shown, want %d", where, shown, want)
	}
}

// TestBrowserChartText: the charts' text is shown at 11 to 18 CSS px, each
// chart drawn for the width of its box (the one of its widths that fits,
// filling it), not scaled from one drawing, with no text
// over another or past the edge and a legend of what is drawn, on the lab
// at 360, 720 and 1280 px and in an article's embed at 360 and 720. (Drawn
// at 440 units and scaled to their box, their text was 8.7 to 10.2 px on
// the lab at 360, 18.5 to 21.6 px at 720, and 8.0 to 9.4 px in the embed.)
func TestBrowserChartText(t *testing.T) {
	needBrowser(t)
	base := labURL(t)
	for _, size := range [][2]int{{360, 800}, {720, 900}, {1280, 800}} {
		ctx := btab(t, size[0], size[1])
		bdo(t, ctx, chromedp.Navigate(base+ui.RouteLab), waitLab())
		bwaitText(t, ctx, "#chart-status", func(s string) bool { return s != "" && !strings.Contains(s, "Measuring") })
		checkChartText(t, "the lab at "+strconv.Itoa(size[0]), readCharts(t, ctx), 2)
	}
	for _, c := range []struct {
		width int
		chart string
	}{{360, settings.ChartK}, {720, settings.ChartBitsPerKey}} {
		e := settings.DefaultEmbed()
		e.Chart = c.chart
		host := article(t, snippet(base, settings.DefaultLab(), e))
		ctx := btab(t, c.width, 900)
		bdo(t, ctx, chromedp.Navigate(host))
		// The frame of this tab's article: each asks for its own chart.
		fctx := embedFrame(t, ctx, base+ui.RouteEmbed, params(settings.IDChart, c.chart))
		waitEmbed(t, fctx)
		bwaitText(t, fctx, "#chart-status", func(s string) bool { return s != "" && !strings.Contains(s, "Measuring") })
		checkChartText(t, "the embed at "+strconv.Itoa(c.width), readCharts(t, fctx), 1)
	}
}

// TestBrowserChartsPlay: while the player plays, at 360 and 1280 px, both
// charts stay with the ticks they had with every key in, their legends
// name only what they draw, no marker sits on a plot's floor as if its
// value were there (a rate of 0 is an arrow), and the line under them
// says the player plays, not that it stopped. (Before: the chart against
// bits per key was hidden, the k axis went from 1-15 to 1-31 over a 1e-8
// floor, a measured 0 sat on that floor, the legend named measured points
// and an optimum of 27,725.89 not drawn, and the line said "The player
// stopped".)
func TestBrowserChartsPlay(t *testing.T) {
	needBrowser(t)
	base := labURL(t)
	for _, size := range [][2]int{{360, 800}, {1280, 800}} {
		where := "playing at " + strconv.Itoa(size[0])
		ctx := btab(t, size[0], size[1])
		bdo(t, ctx, chromedp.Navigate(base+ui.RouteLab), waitLab())
		bwaitText(t, ctx, "#chart-status", func(s string) bool { return s != "" && !strings.Contains(s, "Measuring") })
		before := readCharts(t, ctx)
		checkChartText(t, "the lab at "+strconv.Itoa(size[0]), before, 2)
		pos := beval[string](t, ctx, `document.getElementById("play-at").value`)

		bdo(t, ctx, chromedp.Click(chromedp.CSS("#play")))
		// The charts, the note and the player read at once, from the first
		// frame the page shows a stop while the player plays.
		var playing chartView
		bwaitEval(t, ctx, `(() => {
  const at = document.getElementById("play-at"), play = document.getElementById("play");
  if (at.value === `+strconv.Quote(pos)+` || play.getAttribute("aria-pressed") !== "true") return "";
  const v = `+chartViewJS+`;
  return JSON.parse(v).status === `+strconv.Quote(before.Status)+` ? "" : v;
})()`, func(s string) bool {
			if s == "" {
				return false
			}
			playing = parseCharts(t, s)
			return true
		})
		if strings.Contains(strings.ToLower(playing.Status), "stopped") || !strings.HasPrefix(playing.Status, "Playing") {
			t.Errorf("%s: the line under the charts says %q", where, playing.Status)
		}
		checkChartText(t, where, playing, 2)
		for i, c := range playing.Charts {
			if c.Hidden {
				continue
			}
			if was := before.Charts[i].XTicks; c.XTicks != was {
				t.Errorf("%s: %s's x ticks are %q, %q with every key in", where, c.ID, c.XTicks, was)
			}
			if len(c.OnFloor) > 0 {
				t.Errorf("%s: %s draws %q on the plot's floor", where, c.ID, c.OnFloor)
			}
		}
	}
}

// chartSizesJS reads every chart on the page: where it is, the sizes its
// text is shown at, and texts that overlap or run past its edge.
const chartSizesJS = `(() => {
  const rect = e => e.getBoundingClientRect(), out = [];
  for (const svg of document.querySelectorAll("svg.chart")) {
    const r = rect(svg), vb = svg.viewBox.baseVal;
    if (!r.width) continue;
    const texts = [...svg.querySelectorAll("text")].filter(t => t.textContent.trim() !== "");
    const c = { id: svg.closest("[id]")?.id ?? "", minPx: 1e9, maxPx: 0, overlaps: [], outside: [] };
    for (const t of texts) {
      const f = parseFloat(getComputedStyle(t).fontSize) * r.width / vb.width, a = rect(t);
      c.minPx = Math.min(c.minPx, f); c.maxPx = Math.max(c.maxPx, f);
      if (a.left < r.left - 1 || a.right > r.right + 1 || a.top < r.top - 1 || a.bottom > r.bottom + 1) c.outside.push(t.textContent);
    }
    for (let i = 0; i < texts.length; i++) for (let j = i + 1; j < texts.length; j++) {
      const a = rect(texts[i]), b = rect(texts[j]);
      if (Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1) c.overlaps.push(texts[i].textContent + " | " + texts[j].textContent);
    }
    out.push(c);
  }
  return JSON.stringify(out);
})()`

// TestBrowserChartTextElsewhere: the other pages' charts, which are not
// measured to their box, keep their text at 11 to 18 CSS px too, at 360
// and 1280 px: the lab's overlap view, the about page's and an
// experiment's. (Before, at 360: 10.7 to 12.5 px in the overlap view, 8.7
// to 10.2 on the about page.)
func TestBrowserChartTextElsewhere(t *testing.T) {
	needBrowser(t)
	base := labURL(t)
	for _, w := range []int{360, 1280} {
		ctx := btab(t, w, 900)
		check := func(where string, want int) {
			t.Helper()
			var charts []chartSeen
			if err := json.Unmarshal([]byte(beval[string](t, ctx, chartSizesJS)), &charts); err != nil {
				t.Fatal(err)
			}
			if len(charts) != want {
				t.Errorf("%s at %d: %d charts, want %d", where, w, len(charts), want)
			}
			for _, c := range charts {
				if c.MinPx < 11 || c.MaxPx > 18 {
					t.Errorf("%s at %d: %s's text is shown at %.1f to %.1f px, want 11 to 18", where, w, c.ID, c.MinPx, c.MaxPx)
				}
				if len(c.Overlaps) > 0 || len(c.Outside) > 0 {
					t.Errorf("%s at %d: %s's texts overlap (%q) or run off it (%q)", where, w, c.ID, c.Overlaps, c.Outside)
				}
			}
		}
		bdo(t, ctx, chromedp.Navigate(base+ui.RouteAbout), chromedp.WaitVisible(chromedp.CSS("svg.chart")))
		check("the about page", 1)
		bdo(t, ctx, chromedp.Navigate(base+ui.RouteLab), waitLab(),
			chromedp.Click(chromedp.CSS("#overlap-toggle")), chromedp.WaitVisible(chromedp.CSS(".overlap-chart svg")))
		check("the lab with its overlap view", 3)
		bdo(t, ctx, chromedp.Navigate(base+ui.RouteExperiments+"?"+params(settings.ExpName, "rounding", settings.ExpItems, "2000", settings.ExpQueries, "20000")),
			waitExp("idle"), chromedp.Click(chromedp.CSS("#exp-run")), waitExp("done"))
		check("an experiment", 1)
	}
}

// waitChartShown waits until the chart in the box id shows a drawing of
// its own (one of its widths: the others are in the markup, not shown).
func waitChartShown(t *testing.T, ctx context.Context, id string) {
	t.Helper()
	bwaitEval(t, ctx, `String([...document.querySelectorAll("#`+id+` svg[aria-label^='False-positive rate']")].some(s => s.getBoundingClientRect().width > 0))`,
		func(s string) bool { return s == "true" })
}
