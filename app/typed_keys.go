package app

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"bloomlab/core"
)

// Link keys of the key panel's typed keys and of the player's position.
const (
	IDTry    = "try"
	IDPlayAt = "play-at"
)

// typedKeys are the keys a learner typed and inserted, in their link form:
// comma-separated, with a comma written \, a backslash \\ and a character
// that does not print \u{hex}. A string, so that Settings stays
// comparable; the keys are distinct, at most core.MaxTryKeys of 1 to
// core.MaxTryKeyBytes bytes of UTF-8.
type typedKeys string

// joinTyped writes keys in their link form. A space that starts or ends it
// is escaped too: a link's values are read trimmed.
func joinTyped(keys []string) typedKeys {
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
	return typedKeys(s)
}

// splitTyped reads the link form back into keys, empty ones included. A
// backslash that starts no escape stands for itself.
func splitTyped(raw string) []string {
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

// List is the keys, in the order they were inserted.
func (t typedKeys) List() []string { return splitTyped(string(t)) }

// Has reports whether key was typed and inserted.
func (t typedKeys) Has(key string) bool {
	for _, k := range t.List() {
		if k == key {
			return true
		}
	}
	return false
}

// parseTyped reads the try= value of a link, keeping what the key panel
// could have typed: UTF-8 keys of 1 to 256 bytes, each once, at most 32.
// It cuts a longer key at a character boundary, and says what it changed.
func parseTyped(raw string) (typedKeys, []string) {
	var notices []string
	note := func(format string, args ...any) { notices = append(notices, IDTry+": "+fmt.Sprintf(format, args...)) }
	var kept []string
	seen := map[string]bool{}
	for i, key := range splitTyped(raw) {
		switch {
		case key == "":
			note("key %d is empty, so it was left out", i+1)
			continue
		case !utf8.ValidString(key):
			note("key %d %q is not UTF-8 text, so it was left out", i+1, shorten(key))
			continue
		case len(key) > core.MaxTryKeyBytes:
			cut := core.MaxTryKeyBytes
			for !utf8.RuneStart(key[cut]) {
				cut--
			}
			note("key %d %q is %d bytes, so it was cut to its first %d", i+1, shorten(key), len(key), cut)
			key = key[:cut]
		}
		if seen[key] {
			note("key %d %q is given twice, so it is inserted once", i+1, shorten(key))
			continue
		}
		if len(kept) == core.MaxTryKeys {
			note("more than %d keys given, so the first %d are kept", core.MaxTryKeys, core.MaxTryKeys)
			break
		}
		seen[key] = true
		kept = append(kept, key)
	}
	return joinTyped(kept), notices
}

// shorten is a key as a notice names it: at most 24 bytes, then "...".
func shorten(key string) string {
	if len(key) <= 24 {
		return key
	}
	return key[:24] + "..."
}
