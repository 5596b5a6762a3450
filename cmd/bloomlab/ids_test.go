package main

import (
	"strconv"
	"strings"
)

// params writes a link's query from keys and values, in the order given
// and as typed: nothing is escaped, so a test can send a malformed value
// or look for the exact text the page puts in its address. The keys are
// the app's own element IDs (settings.IDItems...), so a renamed control
// renames the test's links too.
func params(kv ...string) string {
	pairs := make([]string, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		pairs = append(pairs, kv[i]+"="+kv[i+1])
	}
	return strings.Join(pairs, "&")
}

// jsList writes ids as a JavaScript array of strings, for a snippet that
// loops over several elements.
func jsList(ids ...string) string {
	quoted := make([]string, len(ids))
	for i, id := range ids {
		quoted[i] = strconv.Quote(id)
	}
	return "[" + strings.Join(quoted, ", ") + "]"
}
