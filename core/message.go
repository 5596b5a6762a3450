package core

import (
	"regexp"
	"strconv"
	"sync"
)

// packagePrefix is the "core: ", "sim: " or "plan: sim: " that starts a Go error
// of the lab's packages, or a wrapped part of one. It is compiled at the
// first error rather than as the program starts: in the browser every
// page's start-up would pay for it.
var packagePrefix = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(^|: )((core|sim|plan|audit|experiment|try|keys): )+`)
})

// Message is err's text for a person: without the package prefixes that
// tell Go callers where an error came from. The command line and the page
// show every error through it.
func Message(err error) string { return packagePrefix().ReplaceAllString(err.Error(), "$1") }

// FormatCount writes a count with comma thousands separators, as every page
// writes its figures: 1937108 is "1,937,108".
func FormatCount(n uint64) string {
	s := strconv.FormatUint(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
