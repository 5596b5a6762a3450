package lessonfile

import "strings"

// Span is a run of a text with one style: plain (""), "em" (written
// *so*) or "code" (written `so`). The page shows each as a text node in
// an element of its own; nothing in a lesson's text is ever HTML.
type Span struct {
	Style, Text string
}

// Inline cuts a text into its spans. A mark with no partner on the same
// text is kept as it is written, and so is a pair with nothing between
// or, for *, a space just inside a mark (2 * 3 * 4 is arithmetic).
func Inline(s string) []Span {
	var out []Span
	plain := func(t string) {
		if t == "" {
			return
		}
		if n := len(out); n > 0 && out[n-1].Style == "" {
			out[n-1].Text += t
			return
		}
		out = append(out, Span{Text: t})
	}
	for s != "" {
		i := strings.IndexAny(s, "*`")
		if i < 0 {
			plain(s)
			break
		}
		mark := s[i]
		j := strings.IndexByte(s[i+1:], mark)
		if j <= 0 || mark == '*' && (s[i+1] == ' ' || s[i+j] == ' ') {
			plain(s[:i+1])
			s = s[i+1:]
			continue
		}
		plain(s[:i])
		style := "em"
		if mark == '`' {
			style = "code"
		}
		out = append(out, Span{Style: style, Text: s[i+1 : i+1+j]})
		s = s[i+1+j+1:]
	}
	return out
}
