package core

import "regexp"

// packagePrefix is the "core: " or "plan: core: " that starts a Go error
// of the lab's packages, or a wrapped part of one.
var packagePrefix = regexp.MustCompile(`(^|: )((core|plan|audit|experiment): )+`)

// Message is err's text for a person: without the package prefixes that
// tell Go callers where an error came from. The command line and the page
// show every error through it.
func Message(err error) string { return packagePrefix.ReplaceAllString(err.Error(), "$1") }
