//go:build !wasm

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLessonCheck: bloomlab lesson check passes the built-in lessons and
// what lesson new prints, with a one-line summary and exit 0; refuses a
// malformed file with one FILE:LINE: what line per mistake and exit 1; a
// file over the bound without reading it; and wrong usage with exit 2.
func TestLessonCheck(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	code, template, _ := run("lesson", "new")
	if code != 0 || !strings.HasPrefix(template, "# ") {
		t.Fatalf("lesson new: exit %d, %q", code, template)
	}
	fresh := write("new.txt", template)
	bad := write("bad.txt", "# T\n\nIntro.\n\n## Step\n\nText.\n\nshow: hashes=99\ntask: Do it.\ndone: fill > 90% or shown\n")
	huge := write("huge.txt", "# T\n\n"+strings.Repeat("word ", 14000))
	runCases(t, []cliCase{
		{"new passes", []string{"lesson", "check", fresh}, 0, []string{fresh + `: "Your lesson's title", 3 steps, 2 predictions: ok`}, ""},
		{"a built-in lesson", []string{"lesson", "check", "../../app/lessons/text/05-the-beautiful-lie.txt"}, 0, []string{`"The beautiful lie", 3 steps, 1 prediction: ok`}, ""},
		{"malformed", []string{"lesson", "check", bad}, 1, nil, bad + ":9: show: hashes: 99 is above the maximum"},
		{"too big", []string{"lesson", "check", huge}, 1, nil, huge + ": the lesson is 65,537 bytes; a lesson is at most 65,536"},
		{"missing", []string{"lesson", "check", filepath.Join(dir, "none.txt")}, 1, nil, "bloomlab lesson check: open "},
		{"no file", []string{"lesson", "check"}, 2, nil, "bloomlab lesson check: give one lesson file"},
		{"two files", []string{"lesson", "check", fresh, bad}, 2, nil, "bloomlab lesson check: give one lesson file"},
		{"nothing", []string{"lesson"}, 2, nil, "bloomlab lesson: say check FILE or new"},
		{"unknown", []string{"lesson", "lint"}, 2, nil, `bloomlab lesson: unknown command "lint"`},
		{"new with more", []string{"lesson", "new", "x"}, 2, nil, `bloomlab lesson new: unexpected argument "x"`},
		{"help", []string{"lesson", "--help"}, 0, nil, "usage: bloomlab lesson check FILE"},
	})
	_, _, stderr := run("lesson", "check", bad)
	if lines := strings.Split(strings.TrimSpace(stderr), "\n"); len(lines) != 2 || !strings.HasPrefix(lines[1], bad+":11: done: \"or\" after a test") {
		t.Errorf("malformed: stderr %q, want its two mistakes, one a line", stderr)
	}
}
