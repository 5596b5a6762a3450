//go:build !wasm

package main

import "testing"

// Every flag error names its flag as --name, says what is allowed, and
// carries no Go package prefix.
func TestFlagErrorsSpeakOneLanguage(t *testing.T) {
	t.Parallel()
	runCases(t, []cliCase{
		{"unknown flag", []string{"simulate", "-bogus"}, 2, nil, "bloomlab simulate: unknown flag --bogus"},
		{"missing value", []string{"size", "-n"}, 2, nil, "bloomlab size: --n needs a value"},
		{"bad boolean", []string{"simulate", "--json=maybe"}, 2, nil, `bloomlab simulate: --json: "maybe" is not a valid value (print JSON)`},
		{"hexadecimal float", []string{"simulate", "--bits-per-key", "0x1p3"}, 2, nil, `bloomlab simulate: --bits-per-key must be a number in [0.1, 64], got "0x1p3"`},
		{"infinite float", []string{"simulate", "--bits-per-key", "1e400"}, 2, nil, `bloomlab simulate: --bits-per-key must be a number in [0.1, 64], got "1e400"`},
	})
	for _, tc := range []struct{ in, want string }{
		{"core: items must be in [1, 10]", "items must be in [1, 10]"},
		{"plan: core: 10 keys need more", "10 keys need more"},
		{"keys.txt: core: key too long", "keys.txt: key too long"},
	} {
		if got := userMessage(usageError{tc.in}); got != tc.want {
			t.Errorf("userMessage(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
