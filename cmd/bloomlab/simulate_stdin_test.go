//go:build !wasm

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// withStdin runs f with os.Stdin reading text. It swaps a process-wide
// file, so its callers must not be parallel; parallel tests wait until
// every serial test is done.
func withStdin(t *testing.T, text string, f func()) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "stdin")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	saved := os.Stdin
	os.Stdin = in
	defer func() { os.Stdin = saved }()
	f()
}

// "-" for --keys or --absent reads standard input, as command-line users
// expect; only one of them can.
func TestSimulateKeysFromStdin(t *testing.T) {
	dir := t.TempDir()
	keys := filepath.Join(dir, "keys.txt")
	absent := filepath.Join(dir, "absent.txt")
	if err := os.WriteFile(keys, []byte("alice\nbob\ncarol\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(absent, []byte("dave\nerin\nalice\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, stdin string
		args        []string
		code        int
		stdout      []string
		stderr      string
	}{
		{"keys", "alice\nbob\ncarol\nbob\n", []string{"--keys", "-"}, 0,
			[]string{"n                    3 keys", "keys file            4 lines, 1 duplicates"}, ""},
		{"absent", "dave\r\nerin\r\nalice\r\nerin\r\n", []string{"--keys", keys, "--absent", "-"}, 0,
			[]string{"false positives      0 of 2 absent queries", "absent file          4 lines, 1 duplicates, 1 members left out"}, ""},
		{"keys, absent from a file", "alice\rbob\rcarol\r", []string{"--keys", "-", "--absent", absent, "--json"}, 0,
			[]string{`"absentQueries": 2`, `"absentMembers": 1`}, ""},
		{"empty", "", []string{"--keys", "-"}, 1, nil,
			"bloomlab simulate: --keys standard input: no keys: the input is empty or holds only blank lines"},
		{"not text", "a\x00b\n", []string{"--keys", keys, "--absent", "-"}, 1, nil,
			"bloomlab simulate: --absent standard input: keys must be text: line 1 holds a NUL byte"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var code int
			var stdout, stderr string
			withStdin(t, tc.stdin, func() { code, stdout, stderr = run(append([]string{"simulate"}, tc.args...)...) })
			if code != tc.code || !strings.HasPrefix(stderr, tc.stderr) {
				t.Fatalf("exit %d (want %d), stderr %q (want it to start %q)", code, tc.code, stderr, tc.stderr)
			}
			for _, want := range tc.stdout {
				if !strings.Contains(stdout, want) {
					t.Errorf("stdout lacks %q:\n%s", want, stdout)
				}
			}
		})
	}
}
