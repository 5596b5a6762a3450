package ui

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// A figure is a chart or a picture as a file for a slide or a handout: an
// SVG that carries everything it needs (fonts named with fallbacks,
// colours, stroke widths, a white ground) and no outside style sheet, so
// it looks the same pasted into a slide, opened in a browser or printed.
// Its title holds the link of the settings it was drawn for, so a slide
// remembers where it came from. The page, the server and the command line
// make it with the same code: the page offers what `bloomlab figure` prints.

// FigureFont is the figures' font: the site's, named with its fallbacks.
const FigureFont = `system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif`

// Figure widths in CSS pixels: a figure is drawn at least as wide as the
// narrowest chart and at most as wide as a slide wants.
const (
	MinFigureWidth     = 240
	MaxFigureWidth     = 1600
	DefaultFigureWidth = 640
)

// LargeScale is how much larger the projector mode (large type) shows
// text: the figures follow it by drawing the chart narrower and scaling
// the whole drawing up to the width asked, so its text is that much larger
// beside the plot.
const LargeScale = 1.35

// FigureWidth is w within [MinFigureWidth, MaxFigureWidth], and ok false
// when it was outside.
func FigureWidth(w int) (int, bool) {
	c := min(max(w, MinFigureWidth), MaxFigureWidth)
	return c, c == w
}

// figureColours are the site's colours (web/lab.css's :root), which the
// chart's classes take on the page.
const (
	colInk      = "#1b2333"
	colMuted    = "#5a6478"
	colLine     = "#d5dbe6"
	colTheory   = "#1d3f8a"
	colMeasured = "#d9480f"
	colAlt      = "#6b7280"
	colOptimum  = "#0b7a3e"
)

// figureRule is one rule of the site's chart styles: an element having
// every class of classes takes decls. The rules are in the style sheets'
// order, so a later rule wins as it does there.
type figureRule struct {
	classes string
	decls   string
}

// figureRules are web/lab.css's and web/experiments.css's chart rules,
// written out for a file that has no style sheet.
var figureRules = []figureRule{
	{"plot", "fill:#fbfcfe;stroke:" + colLine},
	{"grid", "stroke:#e9edf4;stroke-width:1"},
	{"tick", "font-size:12px;fill:" + colMuted},
	{"axis-label", "font-size:13px;fill:" + colInk},
	{"chart-title", "font-size:14px;font-weight:bold;fill:" + colInk},
	{"legend", "font-size:12px;fill:" + colInk},
	{"series", "fill:none;stroke-width:2.2"},
	{"series theory", "stroke:" + colTheory},
	{"series alt", "stroke:" + colAlt},
	{"series measured", "stroke:" + colMeasured},
	{"dot", "stroke-width:2"},
	{"dot measured", "fill:" + colMeasured + ";stroke:#fff"},
	{"dot measured hollow", "fill:#fff;stroke:" + colMeasured},
	{"dot current", "fill:none;stroke:" + colInk + ";stroke-width:2.5"},
	{"mark", "stroke-width:2;stroke-dasharray:3 3"},
	{"mark optimum", "stroke:" + colOptimum},
	{"mark here", "stroke:" + colMeasured},
	{"off", "fill:" + colInk + ";stroke:#fff;stroke-width:1"},
	{"off theory", "fill:" + colTheory},
	{"off alt", "fill:" + colAlt},
	{"off measured", "fill:" + colMeasured},
	{"mark-off", "stroke:#fff;stroke-width:1"},
	{"mark-off optimum", "fill:" + colOptimum},
	{"mark-off here", "fill:" + colMeasured},
	{"ebar", "fill:none;stroke-width:1.6"},
	{"ebar measured", "stroke:" + colMeasured},
	{"dot g0", "stroke:#fff;stroke-width:1.5;fill:" + colTheory},
	{"dot g1", "stroke:#fff;stroke-width:1.5;fill:" + colMeasured},
	{"dot g2", "stroke:#fff;stroke-width:1.5;fill:" + colOptimum},
	{"dot g3", "stroke:#fff;stroke-width:1.5;fill:#7b3fa0"},
	{"dot g4", "stroke:#fff;stroke-width:1.5;fill:" + colAlt},
	{"dot g5", "stroke:#fff;stroke-width:1.5;fill:#0e7490"},
	{"series g0", "stroke:" + colTheory}, {"ebar g0", "stroke:" + colTheory},
	{"series g1", "stroke:" + colMeasured}, {"ebar g1", "stroke:" + colMeasured},
	{"series g2", "stroke:" + colOptimum}, {"ebar g2", "stroke:" + colOptimum},
	{"series g3", "stroke:#7b3fa0"}, {"ebar g3", "stroke:#7b3fa0"},
	{"series g4", "stroke:" + colAlt}, {"ebar g4", "stroke:" + colAlt},
	{"series g5", "stroke:#0e7490"}, {"ebar g5", "stroke:#0e7490"},
	{"dot hollow", "fill:#fff;stroke:" + colMeasured + ";stroke-width:2"},
}

// figureStyle is the style an element of classes takes from figureRules,
// "" for none.
func figureStyle(classes []string) string {
	have := map[string]bool{}
	for _, c := range classes {
		have[c] = true
	}
	var decls []string
	for _, r := range figureRules {
		all := true
		for _, c := range strings.Fields(r.classes) {
			all = all && have[c]
		}
		if all {
			decls = append(decls, r.decls)
		}
	}
	return strings.Join(decls, ";")
}

// classedTag is the start of an element the chart renderer writes with a
// class: the renderer always writes class first. Compiled on the first
// figure saved, not at every page's start.
var classedTag = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`<([a-z]+) class="([^"]*)"([^>]*)>`)
})

// svgSize is the root element's size, as Chart.SVG writes it.
var svgSize = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^<svg class="[^"]*" width="([0-9.]+)" height="([0-9.]+)"`)
})

// Figure is the chart as a self-contained SVG file (see above), its title
// followed by link. In large type (the projector mode) the chart is drawn
// LargeScale times narrower and scaled up to its width, so its text is
// that much larger, as the page shows it.
func (c Chart) Figure(link string, large bool) string {
	w, _ := FigureWidth(int(math.Round(c.Width)))
	c.Width = float64(w)
	if large {
		c.Width = math.Max(200, math.Round(float64(w)/LargeScale))
	}
	c.Class = ""
	c.TitleAbove = false
	return selfContained(c.SVG(), c.Title, link, float64(w))
}

// selfContained writes each classed element's style into it, scales the
// root to width (its viewBox kept), adds a white ground and the font, and
// puts link in the title.
func selfContained(svg, title, link string, width float64) string {
	root := svgSize().FindStringSubmatch(svg)
	if root == nil {
		return svg
	}
	vw, _ := strconv.ParseFloat(root[1], 64)
	vh, _ := strconv.ParseFloat(root[2], 64)
	scale := width / math.Max(vw, 1)
	head := fmt.Sprintf(`<svg width="%g" height="%g" viewBox="0 0 %g %g" font-family="%s" xmlns="http://www.w3.org/2000/svg">`,
		width, math.Ceil(vh*scale), vw, vh, esc(FigureFont))
	_, body, _ := strings.Cut(svg, ">")
	body = strings.Replace(body, "<title>"+esc(title)+"</title>", "<title>"+esc(figureTitle(title, link))+"</title>", 1)
	body = classedTag().ReplaceAllStringFunc(body, func(tag string) string {
		m := classedTag().FindStringSubmatch(tag)
		classes := strings.Fields(m[2])
		rest := m[3]
		if m[1] == "circle" && hasClass(classes, "current") {
			// The page sets this ring's radius in CSS (r: 7).
			rest = strings.Replace(rest, ` r="4.5"`, ` r="7"`, 1)
		}
		style := figureStyle(classes)
		if style == "" {
			return tag
		}
		return `<` + m[1] + ` class="` + m[2] + `" style="` + style + `"` + rest + `>`
	})
	return head + `<rect width="100%" height="100%" fill="#fff"/>` + body
}

func hasClass(classes []string, c string) bool {
	for _, x := range classes {
		if x == c {
			return true
		}
	}
	return false
}

// figureTitle is a figure's title: what it shows, then where it came from.
func figureTitle(title, link string) string {
	if link == "" {
		return title
	}
	return title + " — " + link
}

// CSV is the chart's points as a table: one row a point of a series, or a
// marked line, with its interval when it has one. Numbers are written
// plainly, as a spreadsheet reads them.
func (c Chart) CSV() string {
	var b strings.Builder
	b.WriteString("series,kind,x,y,lo,hi\n")
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	for _, s := range c.Series {
		kind := "points"
		if s.Line {
			kind = "line"
		}
		for _, p := range s.Points {
			x := num(p.X)
			if i := int(p.X); len(c.Categories) > 0 && i >= 0 && i < len(c.Categories) {
				x = c.Categories[i]
			}
			lo, hi := "", ""
			if p.Hi > p.Lo {
				lo, hi = num(p.Lo), num(p.Hi)
			}
			b.WriteString(csvField(s.Name) + "," + kind + "," + csvField(x) + "," + num(p.Y) + "," + lo + "," + hi + "\n")
		}
	}
	for _, m := range c.Marks {
		b.WriteString(csvField(m.Label) + ",mark," + num(m.X) + ",,,\n")
	}
	return b.String()
}

// csvField quotes s when it holds a comma, a quote or a line break.
func csvField(s string) string {
	if !strings.ContainsAny(s, ",\"\n\r") {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// Picture is a picture (the bit array) as a figure: a heading, the image
// (a PNG data URL of w x h CSS pixels, drawn at any density) and caption
// lines under it, wrapped to its width.
type Picture struct {
	Title   string
	Image   string
	W, H    int
	Caption []string
}

// Figure is the picture as a self-contained SVG, width CSS pixels wide
// (the picture's own width when 0), its title followed by link; large
// type draws the text LargeScale times larger.
func (p Picture) Figure(link string, large bool) string {
	const pad = 10.0
	w := float64(max(p.W, 1))
	h := float64(max(p.H, 1))
	titlePx, textPx := titlePx, legendPx+1
	if large {
		titlePx, textPx = titlePx*LargeScale, textPx*LargeScale
	}
	chartW := w + 2*pad
	var b strings.Builder
	y := pad + titlePx
	fmt.Fprintf(&b, `<text x="%g" y="%g" style="font-size:%gpx;font-weight:bold;fill:%s">%s</text>`, pad, y, titlePx, colInk, esc(p.Title))
	y += pad
	fmt.Fprintf(&b, `<image x="%g" y="%g" width="%g" height="%g" href="%s" preserveAspectRatio="none"/>`, pad, y, w, h, esc(p.Image))
	y += h
	for _, c := range p.Caption {
		for _, line := range wrapText(c, w, textPx, false) {
			y += textPx * 1.35
			fmt.Fprintf(&b, `<text x="%g" y="%.1f" style="font-size:%gpx;fill:%s">%s</text>`, pad, y, textPx, colInk, esc(line))
		}
	}
	height := math.Ceil(y + pad)
	return fmt.Sprintf(`<svg width="%g" height="%g" viewBox="0 0 %g %g" font-family="%s" xmlns="http://www.w3.org/2000/svg">`,
		chartW, height, chartW, height, esc(FigureFont)) +
		`<title>` + esc(figureTitle(p.Title, link)) + `</title><rect width="100%" height="100%" fill="#fff"/>` + b.String() + `</svg>`
}
