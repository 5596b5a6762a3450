package settings

import (
	"fmt"
	"net/url"
	"strings"
)

// IDSecond is the link key of the second filter's view: second=on opens
// it, and a list of its stories (second=salt,stale) opens it with those
// switched on.
const IDSecond = "second"

// IDSecondShared is the link key of the share of A's keys that B holds
// too, in percent: 0 (B over the next n keys) to 100 (B is A).
const IDSecondShared = "second-shared"

// SecondShared is the shared keys' control, a slider like the lab's, so a
// link's value is clamped and rounded with the lab's notices.
var SecondShared = Slider{ID: IDSecondShared, Label: "Keys both hold %", Help: "share of A's keys that B holds too",
	Min: 0, Max: 100, Step: 5, Int: true}

// The second view's stories, as the link names them.
const (
	StorySalt     = "salt"
	StoryStale    = "stale"
	StoryReplicas = "replicas"
)

// Second is the second filter's view: whether it is open, and which of
// the system's false negatives it tells (core/system's stories).
type Second struct {
	On, Salt, Stale, Replicas bool
	// Shared is the percent of A's keys B holds too (SecondShared's
	// range); B's other keys are the ones after A's.
	Shared int
}

// stories are the view's switches with their link names, in the order the
// link writes them.
func (s *Second) stories() []struct {
	name string
	on   *bool
} {
	return []struct {
		name string
		on   *bool
	}{{StorySalt, &s.Salt}, {StoryStale, &s.Stale}, {StoryReplicas, &s.Replicas}}
}

// readSecond reads second=: on or off, or stories separated by commas
// (or |), any of which opens the view. A word that is none of them is
// left out, and a notice names it.
func readSecond(q url.Values) (Second, []string) {
	var s Second
	raw, ok := Lookup(q, IDSecond)
	if !ok {
		return s, nil
	}
	var notices []string
	for _, w := range strings.FieldsFunc(strings.ToLower(raw), func(r rune) bool { return r == ',' || r == '|' || r == ' ' }) {
		if on, err := parseFlag(w); err == nil {
			s.On = s.On || on
			continue
		}
		found := false
		for _, st := range s.stories() {
			if st.name == w {
				*st.on, s.On, found = true, true, true
			}
		}
		if !found {
			notices = append(notices, fmt.Sprintf("%s: %s is not on, off, %s, %s or %s, so it is left out", IDSecond, Quote(shorten(w)), StorySalt, StoryStale, StoryReplicas))
		}
	}
	if raw == "" {
		s.On = true
	}
	if raw, ok := Lookup(q, IDSecondShared); ok && s.On {
		v, notice := SecondShared.Parse(raw, 0)
		s.Shared = int(v)
		if notice != "" {
			notices = append(notices, notice)
		}
	}
	if !s.On {
		s = Second{}
	}
	return s, notices
}

// SharedKeys is how many of n keys B holds too.
func (s Second) SharedKeys(n int) int { return int(int64(n) * int64(s.Shared) / 100) }

// query is second='s value, "" for a closed view.
func (s Second) query() string {
	if !s.On {
		return ""
	}
	var on []string
	for _, st := range s.stories() {
		if *st.on {
			on = append(on, st.name)
		}
	}
	if len(on) == 0 {
		return "on"
	}
	return strings.Join(on, ",")
}
