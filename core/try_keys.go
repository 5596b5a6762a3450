package core

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// JoinTryKeys writes keys as one list: comma-separated, with a comma
// written \, and a backslash \\, a character that does not print \u{hex},
// and a space that starts or ends the list \u{20} (a link's values are
// read trimmed). SplitTryKeys reads it back. The lab's links (try=) and
// bloomlab try's --insert and --query use this form.
func JoinTryKeys(keys []string) string {
	var b strings.Builder
	for i, key := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		for _, r := range key {
			switch {
			case r == ',' || r == '\\':
				b.WriteByte('\\')
				b.WriteRune(r)
			case r == ' ' || unicode.IsPrint(r):
				b.WriteRune(r)
			default:
				fmt.Fprintf(&b, `\u{%x}`, r)
			}
		}
	}
	s := b.String()
	if strings.HasPrefix(s, " ") {
		s = `\u{20}` + s[1:]
	}
	if strings.HasSuffix(s, " ") {
		s = s[:len(s)-1] + `\u{20}`
	}
	return s
}

// SplitTryKeys reads a list JoinTryKeys wrote back into keys, empty ones
// included; "" is no keys. A backslash that starts no escape stands for
// itself.
func SplitTryKeys(raw string) []string {
	if raw == "" {
		return nil
	}
	var keys []string
	var key strings.Builder
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case c == ',':
			keys = append(keys, key.String())
			key.Reset()
			continue
		case c != '\\' || i+1 == len(raw):
			key.WriteByte(c)
			continue
		}
		switch next := raw[i+1]; {
		case next == ',' || next == '\\':
			key.WriteByte(next)
			i++
		case strings.HasPrefix(raw[i+1:], "u{"):
			end := strings.IndexByte(raw[i:], '}')
			r, err := strconv.ParseUint(raw[i+3:max(i+3, i+end)], 16, 32)
			if end < 0 || err != nil || !utf8.ValidRune(rune(r)) {
				key.WriteByte(c)
				continue
			}
			key.WriteRune(rune(r))
			i += end
		default:
			key.WriteByte(c)
		}
	}
	return append(keys, key.String())
}
