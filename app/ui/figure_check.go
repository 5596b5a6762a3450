//go:build !js

package ui

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// The figure check is the tests' and the command line's: the WebAssembly
// never parses a figure, so it carries no XML decoder.

// CheckFigure reports how svg, a downloaded or printed figure, fails to be
// chart c's for link: it must parse as XML, carry no class without its
// style and no outside style sheet, hold link in its title, and have a
// marker (or an arrow, off the chart) for every measured point, with its
// value in its tooltip, and a line for every line series drawn. Tests of
// the page, the server and the command line share it.
func CheckFigure(svg string, c Chart, link string) error {
	tips, title, err := figureTips(svg)
	if err != nil {
		return err
	}
	if !strings.Contains(title, link) {
		return fmt.Errorf("title %q does not hold the link %q", title, link)
	}
	for _, bad := range []string{"<style", "<link", "@import", "stylesheet"} {
		if strings.Contains(svg, bad) {
			return fmt.Errorf("the figure holds %q: it must carry its own style", bad)
		}
	}
	has := func(prefix string) bool {
		for _, t := range tips {
			if strings.HasPrefix(t, prefix) {
				return true
			}
		}
		return false
	}
	f := c.frame()
	for _, s := range c.Series {
		if s.Line {
			if c.drawn(f, s) && !has(s.Name) {
				return fmt.Errorf("no line for %q", s.Name)
			}
			continue
		}
		for _, p := range s.Points {
			if want := s.Name + ": " + tipNum(p.Y); !has(want) {
				return fmt.Errorf("no marker %q at x = %g", want, p.X)
			}
		}
	}
	return nil
}

// figureTips parses svg and returns the tooltips of its marks (the titles
// inside its elements) and its own title.
func figureTips(svg string) (tips []string, title string, err error) {
	d := xml.NewDecoder(strings.NewReader(svg))
	var stack []xml.StartElement
	var text strings.Builder
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, "", fmt.Errorf("the figure is not XML: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(stack) == 0 && t.Name.Local != "svg" {
				return nil, "", fmt.Errorf("the figure's root is %q, not svg", t.Name.Local)
			}
			for _, a := range t.Attr {
				if a.Name.Local == "class" && !strings.Contains(attr(t, "style"), ":") && figureStyle(strings.Fields(a.Value)) != "" {
					return nil, "", fmt.Errorf("a %s of class %q has no style of its own", t.Name.Local, a.Value)
				}
			}
			stack = append(stack, t)
			text.Reset()
		case xml.CharData:
			text.Write(t)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
			if t.Name.Local == "title" {
				if len(stack) == 1 {
					title = text.String()
				} else {
					tips = append(tips, text.String())
				}
			}
		}
	}
	return tips, title, nil
}

func attr(e xml.StartElement, name string) string {
	for _, a := range e.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}
