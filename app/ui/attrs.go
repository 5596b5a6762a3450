package ui

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Boolean attributes. go-app writes an attribute's value as text, and in
// HTML a boolean attribute's presence is what counts: a prerendered
// selected="false" selects its option, hidden="false" hides its element.
// In the browser go-app sets the element's property instead, which must
// go false as well as true. So these pass a false only in the browser, and
// the prerendered page shows the controls as the lab will set them.

func Selected[T interface{ Selected(bool) T }](e T, on bool) T {
	if on || app.IsClient {
		return e.Selected(on)
	}
	return e
}

func Hidden[T interface{ Hidden(bool) T }](e T, on bool) T {
	if on || app.IsClient {
		return e.Hidden(on)
	}
	return e
}

func Disabled[T interface{ Disabled(bool) T }](e T, on bool) T {
	if on || app.IsClient {
		return e.Disabled(on)
	}
	return e
}

func Checked[T interface{ Checked(bool) T }](e T, on bool) T {
	if on || app.IsClient {
		return e.Checked(on)
	}
	return e
}

// Value sets a field's value as typed, a link's for one. go-app writes a
// prerendered attribute with Go's quoting (strconv.Quote), which HTML does
// not read: a quote ends the value early, and a tab or a backslash shows
// as its escape. On the prerendered page each character that quoting
// escapes shows as U+FFFD, the sign of a character not shown; the browser
// sets the value whole as the page goes live.
func Value[T interface{ Value(any) T }](e T, v string) T {
	if app.IsClient {
		return e.Value(v)
	}
	return e.Value(strings.Map(func(r rune) rune {
		if r == '"' || r == '\\' || !strconv.IsPrint(r) {
			return '\uFFFD'
		}
		return r
	}, v))
}

// PartHeading is the heading of a part of a page: an h2 under the page's
// h1, or an h3 where the whole (the lab under a lesson) is itself a part
// titled with an h2 (inPart).
func PartHeading(inPart bool, id, class, text string) app.UI {
	if inPart {
		return app.H3().ID(id).Class(class).Text(text)
	}
	return app.H2().ID(id).Class(class).Text(text)
}
