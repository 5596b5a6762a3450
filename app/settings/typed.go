package settings

import (
	"fmt"
	"strconv"
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
//
// Each kind of change is one notice, with a count and the first key it
// changed, however many keys the link repeats or spoils.
func parseTyped(raw string) (TypedKeys, []string) {
	var empty, invalid, long, twice tally
	var kept []string
	seen := map[string]bool{}
	over := false
	for i, key := range keys.Split(raw) {
		switch {
		case key == "":
			empty.add(i, "", "")
			continue
		case !utf8.ValidString(key):
			invalid.add(i, key, "")
			continue
		case len(key) > keys.MaxTypedBytes:
			cut := keys.MaxTypedBytes
			for !utf8.RuneStart(key[cut]) {
				cut--
			}
			long.add(i, key, fmt.Sprintf("is %d bytes, so it was cut to its first %d", len(key), cut))
			key = key[:cut]
		}
		if seen[key] {
			twice.add(i, key, "")
			continue
		}
		if len(kept) == keys.MaxTyped {
			over = true
			break
		}
		seen[key] = true
		kept = append(kept, key)
	}
	var notices []string
	note := func(t tally, one, many string) {
		if n := t.say(one, many); n != "" {
			notices = append(notices, IDTry+": "+n)
		}
	}
	note(empty, "is empty, so it was left out", "are empty, so they were left out")
	note(invalid, "is not UTF-8 text, so it was left out", "are not UTF-8 text, so they were left out")
	note(long, long.detail, fmt.Sprintf("are longer than %d bytes, so each was cut at a character's start", keys.MaxTypedBytes))
	note(twice, "is given twice, so it is inserted once", "are given again, so each is inserted once")
	if over {
		notices = append(notices, fmt.Sprintf("%s: more than %d keys given, so the first %d are kept", IDTry, keys.MaxTyped, keys.MaxTyped))
	}
	return JoinTyped(kept), notices
}

// tally counts the items of a link's list that one notice speaks of, and
// keeps the first, so the notice names it.
type tally struct {
	n, first    int
	key, detail string
}

// add counts the key at index i; detail is what the notice says of it if
// it is the first.
func (t *tally) add(i int, key, detail string) {
	if t.n == 0 {
		t.first, t.key, t.detail = i, key, detail
	}
	t.n++
}

// say is the notice: `key 3 "x" one` for a single key, `5 keys many; the
// first is key 3 "x"` for more, "" for none.
func (t tally) say(one, many string) string {
	first := "key " + strconv.Itoa(t.first+1)
	if t.key != "" {
		first += " " + Quote(t.key)
	}
	switch t.n {
	case 0:
		return ""
	case 1:
		return first + " " + one
	}
	return strconv.Itoa(t.n) + " keys " + many + "; the first is " + first
}

// shorten is a value as a notice names it: at most 24 bytes, cut at a
// character's start, then "...". A notice never echoes more of a link, so
// a page's size does not grow with its link.
func shorten(key string) string {
	if len(key) <= 24 {
		return key
	}
	cut := 24
	for cut > 0 && !utf8.RuneStart(key[cut]) {
		cut--
	}
	return key[:cut] + "..."
}

// Quote is a value of a link as a notice names it: shortened, in quotes.
func Quote(raw string) string { return strconv.Quote(shorten(raw)) }
