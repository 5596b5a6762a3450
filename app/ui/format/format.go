// Package format writes the numbers, sizes, durations and lists the lab's
// pages show, one way each: a count is "4,000" on every page and a size is
// core/plan's FormatBytes ("4.88 KiB"), the form the calculator also reads.
//
// It imports only core/plan (for that one size form) and the standard
// library, so settings, the engine, ui and every page can use it, and it
// knows no page. Where the next thing goes: a new way to write a quantity
// is a function here, with its cases in format_test.go, before a second
// page needs it; a page that writes a number its own way is a copy
// waiting to disagree with this one.
package format

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/plan"
)

// Rate writes a rate the way the lab shows it: up to six decimals from
// 0.001 up (trailing zeros dropped, "0.5" not "0.500000"), scientific
// notation with one decimal below that ("2.4e-05"), 0 for zero.
func Rate(p float64) string {
	switch {
	case p == 0:
		return "0"
	case p >= 0.001:
		s := strconv.FormatFloat(p, 'f', 6, 64)
		for len(s) > 3 && s[len(s)-1] == '0' && s[len(s)-2] != '.' {
			s = s[:len(s)-1]
		}
		return s
	}
	return strconv.FormatFloat(p, 'e', 1, 64)
}

// Percent writes a rate as a percentage with three significant digits.
func Percent(p float64) string {
	if p == 0 {
		return "0%"
	}
	return strconv.FormatFloat(p*100, 'g', 3, 64) + "%"
}

// Int writes an integer with comma thousands separators, as core/plan
// writes the counts in its settings.
func Int(n uint64) string { return core.FormatCount(n) }

// Float writes v with d decimals.
func Float(v float64, d int) string { return strconv.FormatFloat(v, 'f', d, 64) }

// Plural writes n with its noun, adding "s" unless a plural form is given.
func Plural(n int, one string, many ...string) string {
	if n == 1 {
		return "1 " + one
	}
	if len(many) > 0 {
		return Int(uint64(n)) + " " + many[0]
	}
	return Int(uint64(n)) + " " + one + "s"
}

// IsAre is the subject and verb for n things: "it is" for one, "they
// are" for any other count.
func IsAre(n int) string {
	if n == 1 {
		return "it is"
	}
	return "they are"
}

// Limit writes a byte limit as people write one: "32 MiB", "4 KiB".
func Limit(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + " KiB"
	}
	return plan.FormatBytes(uint64(n))
}

// Duration words a duration for an estimate: "under a second",
// "12 s", "3 min", "1.5 h".
func Duration(d time.Duration) string {
	s := d.Seconds()
	switch {
	case s < 1:
		return "under a second"
	case s < 90:
		return strconv.Itoa(int(math.Round(s))) + " s"
	case s < 90*60:
		return strconv.Itoa(int(math.Round(s/60))) + " min"
	}
	return strconv.FormatFloat(s/3600, 'f', 1, 64) + " h"
}

// Elapsed writes a measured duration: "0.84 s", "12.3 s", "2 min 5 s".
func Elapsed(d time.Duration) string {
	s := d.Seconds()
	switch {
	case s < 10:
		return strconv.FormatFloat(s, 'f', 2, 64) + " s"
	case s < 60:
		return strconv.FormatFloat(s, 'f', 1, 64) + " s"
	}
	m := int(s) / 60
	return strconv.Itoa(m) + " min " + strconv.Itoa(int(s)-60*m) + " s"
}

// Plain writes a number as a user would type it: no exponent, no
// trailing zeros.
func Plain(v float64) string {
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// List writes words as a sentence lists them: "a, b or c" with
// conj "or".
func List(words []string, conj string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " " + conj + " " + words[len(words)-1]
}

// WasWere is the verb for n things: "was" for one, "were" for any other
// count.
func WasWere(n int) string {
	if n == 1 {
		return "was"
	}
	return "were"
}

// About words an estimate: "under a second", "about 12 s".
func About(d time.Duration) string {
	if s := Duration(d); s != "under a second" {
		return "about " + s
	}
	return "under a second"
}
