// Package linktest writes page links for the app's tests: a query from the
// pages' own key constants, as typed and unescaped, so a test can send the
// malformed links a user or an attacker might. It is internal to app/ and
// imports only the standard library, so any app package's tests can use it
// without an import cycle. A helper that writes a kind of link more than
// one package's tests need goes here; one page's own test helpers stay in
// that page's tests.
package linktest

import "strings"

// Query writes a link's query from keys and values, in the order given and
// as typed, nothing escaped, so a test can send a malformed value; the keys
// are the app's own constants, so a renamed key renames the links.
func Query(kv ...string) string {
	pairs := make([]string, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		pairs = append(pairs, kv[i]+"="+kv[i+1])
	}
	return strings.Join(pairs, "&")
}
