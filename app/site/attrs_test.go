package site

import (
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/internal/linktest"
	"github.com/bloomlab/bloomlab/app/lessons"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui"
)

// startTag finds a start tag as go-app writes it: each attribute's value
// quoted as a Go string literal (strconv.Quote), in which a backslash
// stands for a character Go escapes. HTML reads no such escape: it shows
// \n as the two characters, ends the value at the quote of \", and shows
// \\ doubled.
var startTag = regexp.MustCompile(`<([a-zA-Z][-a-zA-Z0-9]*)((?:\s+[^\s"'>/=]+(?:="(?:[^"\\]|\\.)*")?)*)\s*/?>`)

// tagAttr is one attribute of a start tag, its value as go-app wrote it.
var tagAttr = regexp.MustCompile(`([^\s"'>/=]+)="((?:[^"\\]|\\.)*)"`)

// rawText is a script's or style's text, in which a "<" starts no tag.
var rawText = regexp.MustCompile(`(?s)<(script|style)\b[^>]*>.*?</(?:script|style)>`)

// attrPages are the pages whose attributes TestAttributesReadAsWritten
// reads: every page, under the site's root and under a prefix as the
// static site is written, each built-in lesson, and typed keys with a
// quote, a tab and a backslash in the lab, in an embed with the key
// panel and in the calculator's fields. (A lesson in a link, text=, opens only in the browser.)
func attrPages(t *testing.T) (pages [][2]string) {
	for _, prefix := range []string{"", "/bloomlab"} {
		for _, route := range PageRoutes() {
			pages = append(pages, [2]string{prefix, route})
		}
	}
	for i := range lessonFiles(t) {
		pages = append(pages, [2]string{"", ui.RouteLessons + "?" + linktest.Query(lessons.IDLesson, strconv.Itoa(i+1))})
	}
	odd := "a \"quoted\" key\twith a tab and a back\\slash"
	pages = append(pages,
		[2]string{"", ui.RouteLab + "?" + url.Values{settings.IDTry: {odd}}.Encode()},
		[2]string{"", ui.RouteEmbed + "?" + url.Values{settings.IDPanel: {settings.PanelTry}, settings.IDTry: {odd}}.Encode()},
		[2]string{"", ui.RouteCalculator + "?" + url.Values{settings.CalcN: {odd}, settings.CalcKeyBytes: {odd}}.Encode()},
	)
	return pages
}

// TestAttributesReadAsWritten: no attribute value on a prerendered page
// holds an escape of Go's quoting, which HTML would show as written (the
// embed's snippet once ended at its first quote, and the key lists'
// placeholders showed \n).
func TestAttributesReadAsWritten(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range attrPages(t) {
		page := rawText.ReplaceAllString(get(t, p[0], p[1]), "")
		attrs := 0
		for _, tag := range startTag.FindAllStringSubmatch(page, -1) {
			for _, a := range tagAttr.FindAllStringSubmatch(tag[2], -1) {
				attrs++
				v := a[2]
				if !strings.Contains(v, `\`) || seen[tag[1]+a[1]+v] {
					continue
				}
				seen[tag[1]+a[1]+v] = true
				if len(v) > 80 {
					v = v[:80] + "…"
				}
				t.Errorf("%s%s (and maybe others): <%s %s=\"%s\">: HTML shows Go's escapes as written", p[0], p[1], tag[1], a[1], v)
			}
		}
		if attrs < 20 {
			t.Errorf("%s%s: read %d attributes: the scan no longer finds the page's tags", p[0], p[1], attrs)
		}
	}
}
