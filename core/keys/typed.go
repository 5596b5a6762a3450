package keys

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Join writes keys as one list: comma-separated, with a comma
// written \, and a backslash \\, a character that does not print \u{hex},
// and a space that starts or ends the list \u{20} (a link's values are
// read trimmed). Split reads it back. The lab's links (try=) and
// bloomlab try's --insert and --query use this form.
func Join(keys []string) string {
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

// Split reads a list Join wrote back into keys, empty ones
// included; "" is no keys. A backslash that starts no escape stands for
// itself.
func Split(raw string) []string {
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

// Limits on the keys a learner types into the lab: the typed inserts of a
// run and the key panel's queries.
const (
	MaxTyped      = 32  // keys to insert, and as many to query
	MaxTypedBytes = 256 // bytes a key
)

// CheckTyped reports the first key of a list that cannot be typed: UTF-8
// text of 1 to MaxTypedKeyBytes bytes. The error names the list, the key's
// place in it (from 1) and the key: "keys: insert key 2 is empty; ...".
func CheckTyped(list string, keys []string) error {
	for i, k := range keys {
		if msg := keyProblem(k); msg != "" {
			return fmt.Errorf("keys: %s key %d%s", list, i+1, msg)
		}
	}
	return nil
}

// keyProblem is " <key> is ...: a key is ..." for a bad key, "" for a
// good one.
func keyProblem(key string) string {
	const allowed = "; a key is 1 to 256 bytes of UTF-8 text"
	switch {
	case key == "":
		return " is empty" + allowed
	case len(key) > MaxTypedBytes:
		return fmt.Sprintf(" %s is %d bytes%s", shortKey(key), len(key), allowed)
	case !utf8.ValidString(key):
		return fmt.Sprintf(" %q is not valid UTF-8%s", key, allowed)
	}
	return ""
}

// shortKey quotes the first 24 bytes of a long key, cut at a character.
func shortKey(key string) string {
	n := 24
	for n > 0 && !utf8.RuneStart(key[n]) {
		n--
	}
	return fmt.Sprintf("%q...", key[:n])
}
