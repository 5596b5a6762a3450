package settings

import (
	"fmt"
	"unicode/utf8"

	"github.com/bloomlab/bloomlab/core/keys"
)

// Link keys of the key panel's typed keys and of the player's position.
const (
	IDTry    = "try"
	IDPlayAt = "play-at"
)

// TypedKeys are the keys a learner typed and inserted, in their link form
// (keys.Join). A string, so that Settings stays comparable; the
// keys are distinct, at most core.MaxTypedKeys of 1 to core.MaxTypedKeyBytes
// bytes of UTF-8.
type TypedKeys string

// JoinTyped writes a list of keys in its link form.
func JoinTyped(list []string) TypedKeys { return TypedKeys(keys.Join(list)) }

// List is the keys, in the order they were inserted.
func (t TypedKeys) List() []string { return keys.Split(string(t)) }

// Has reports whether key was typed and inserted.
func (t TypedKeys) Has(key string) bool {
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
func parseTyped(raw string) (TypedKeys, []string) {
	var notices []string
	note := func(format string, args ...any) { notices = append(notices, IDTry+": "+fmt.Sprintf(format, args...)) }
	var kept []string
	seen := map[string]bool{}
	for i, key := range keys.Split(raw) {
		switch {
		case key == "":
			note("key %d is empty, so it was left out", i+1)
			continue
		case !utf8.ValidString(key):
			note("key %d %q is not UTF-8 text, so it was left out", i+1, shorten(key))
			continue
		case len(key) > keys.MaxTypedBytes:
			cut := keys.MaxTypedBytes
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
		if len(kept) == keys.MaxTyped {
			note("more than %d keys given, so the first %d are kept", keys.MaxTyped, keys.MaxTyped)
			break
		}
		seen[key] = true
		kept = append(kept, key)
	}
	return JoinTyped(kept), notices
}

// shorten is a key as a notice names it: at most 24 bytes, then "...".
func shorten(key string) string {
	if len(key) <= 24 {
		return key
	}
	return key[:24] + "..."
}
