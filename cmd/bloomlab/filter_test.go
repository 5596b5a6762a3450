//go:build !wasm

package main

import (
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/core"
)

// TestFilterCommand builds, tests, merges, intersects and describes
// filter files, in the order a user would, and feeds each command bad
// input of every kind: one line on stderr and exit 2 each time.
func TestFilterCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := func(name string) string { return filepath.Join(dir, name) }
	write := func(name, text string) string {
		if err := os.WriteFile(path(name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path(name)
	}
	k1 := write("k1.txt", "alice\nbob\ncarol\nbob\n")
	k2 := write("k2.txt", "dave\nerin\n")
	mixed := write("mixed.txt", "alice\nzed-is-not-in-it\n")
	notFilter := write("text.blmf", strings.Repeat("not a filter file\n", 10))
	a, b, u, in := path("a.blmf"), path("b.blmf"), path("u.blmf"), path("i.blmf")
	cases := []cliCase{
		{"build", []string{"filter", "build", "--m", "2000", "--hashes", "5", "--seed", "7", "--out", a, k1}, 0, []string{"a standard filter of 3 keys, m = 2000, k = 5, seed 7"}, ""},
		{"build flags after the file", []string{"filter", "build", k2, "--m", "2000", "--hashes", "5", "--seed", "7", "--out", b}, 0, []string{"of 2 keys"}, ""},
		{"all members", []string{"filter", "test", a, k1}, 0, []string{"maybe\talice\n", "maybe\tbob\n", "maybe\tcarol\n"}, ""},
		{"one absent", []string{"filter", "test", a, mixed}, 1, []string{"maybe\talice\n", "no\tzed-is-not-in-it\n"}, ""},
		{"merge", []string{"filter", "merge", a, b, "--out", u}, 0, []string{"the union of"}, ""},
		{"the union holds both", []string{"filter", "test", u, k2}, 0, []string{"maybe\tdave\n", "maybe\terin\n"}, ""},
		{"intersect", []string{"filter", "intersect", a, u, "--out", in}, 0, []string{"the intersection of"}, ""},
		{"the intersection holds the shared", []string{"filter", "test", in, k1}, 0, []string{"maybe\tcarol\n"}, ""},
		{"info", []string{"filter", "info", u}, 0, []string{"layout         standard", "m              2000 bits", "k              5", "seed           7",
			"inserted       5 keys", "estimated      5.0 ± 0.", "now (fill^k)", "at the design size, 277 keys"}, ""},
		{"sized by n and p", []string{"filter", "build", "--n", "1000", "--p", "0.01", "--variant", "blocked", "--out", path("n.blmf"), k1}, 0, []string{"a blocked filter of 3 keys, m = 9728, k = 7"}, ""},
		{"build counting", []string{"filter", "build", "--variant", "counting", "--out", path("c.blmf"), k1}, 0, []string{"a counting filter of 3 keys, m = 30, k = 7"}, ""},

		{"incompatible files", []string{"filter", "merge", a, path("n.blmf"), "--out", path("x.blmf")}, 2, nil, "cannot merge: layouts differ (standard and blocked); m differs (2000 and 9728); k differs (5 and 7); seeds differ (7 and 1)\n"},
		{"no such filter", []string{"filter", "info", path("none.blmf")}, 2, nil, "no such file"},
		{"not a filter", []string{"filter", "info", notFilter}, 2, nil, "text.blmf: not a filter file"},
		{"a key file for a filter", []string{"filter", "test", k1, k1}, 2, nil, "k1.txt: filter file ends early"},
		{"no keys", []string{"filter", "build", "--out", path("y.blmf"), write("empty.txt", "\n")}, 2, nil, "no keys"},
		{"binary keys", []string{"filter", "build", "--out", path("y.blmf"), write("bin.txt", "a\x00b\n")}, 2, nil, "keys must be text"},
		{"no out", []string{"filter", "build", k1}, 2, nil, "--out FILE is required"},
		{"merge without out", []string{"filter", "merge", a, b}, 2, nil, "--out FILE is required"},
		{"one file to merge", []string{"filter", "merge", a, "--out", u}, 2, nil, "want two filter files, got 1 names"},
		{"no filter to test", []string{"filter", "test"}, 2, nil, "want a filter file and at most one key file, got 0 names"},
		{"a layout without a file", []string{"filter", "build", "--variant", "fuse", "--out", path("y.blmf"), k1}, 2, nil, "the fuse filter has no file format"},
		{"unknown variant", []string{"filter", "build", "--variant", "bogus", "--out", path("y.blmf"), k1}, 2, nil, `unknown variant "bogus"`},
		{"n and m", []string{"filter", "build", "--n", "10", "--p", "0.01", "--m", "100", "--out", path("y.blmf"), k1}, 2, nil, "not both"},
		{"p out of range", []string{"filter", "build", "--n", "10", "--p", "2", "--out", path("y.blmf"), k1}, 2, nil, "--p must be a number"},
		{"k past the most", []string{"filter", "build", "--hashes", "65", "--out", path("y.blmf"), k1}, 2, nil, "--hashes must be a whole number in [0, 64]"},
		{"unknown flag", []string{"filter", "info", "--bogus", u}, 2, nil, "unknown flag --bogus"},
		{"unknown command", []string{"filter", "bogus"}, 2, nil, `unknown command "bogus"`},
		{"help", []string{"filter", "-h"}, 0, nil, "usage: bloomlab filter build"},
	}
	// Sequential: each case reads the files the ones before it wrote.
	for _, c := range cases {
		code, stdout, stderr := run(c.args...)
		lines := strings.Count(stderr, "\n")
		if code != c.code || !strings.Contains(stderr, c.stderr) || strings.Contains(stderr, "core:") || (code == 2 && lines != 1) {
			t.Fatalf("%s: exit %d (want %d)\nstdout:\n%s\nstderr:\n%s\nwant stderr containing %q, on one line", c.name, code, c.code, stdout, stderr, c.stderr)
		}
		for _, want := range c.stdout {
			if !strings.Contains(stdout, want) {
				t.Fatalf("%s: stdout:\n%s\nwant it to contain %q", c.name, stdout, want)
			}
		}
	}
	// A damaged file is refused by every command that reads it.
	file, err := os.ReadFile(u)
	if err != nil {
		t.Fatal(err)
	}
	file[len(file)/2] ^= 1
	damaged := write("damaged.blmf", string(file))
	for _, cmd := range [][]string{{"info", damaged}, {"test", damaged, k1}, {"merge", damaged, a, "--out", path("z.blmf")}} {
		code, _, stderr := run(append([]string{"filter"}, cmd...)...)
		if code != 2 || !strings.Contains(stderr, "fails its checksum") {
			t.Errorf("filter %s of a damaged file: exit %d, %q", cmd[0], code, stderr)
		}
	}
	if _, err := os.Stat(path("z.blmf")); err == nil {
		t.Errorf("a refused merge wrote its output")
	}
}

// TestLoadFileOnce: a filter file is read into one array the size of its
// payload, not in chunks copied together, since the command knows how
// long the file is.
func TestLoadFileOnce(t *testing.T) {
	f, err := core.Standard.Build(core.Spec{M: 8_000_000, K: 7, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(t.TempDir(), "big.blmf")
	if err := saveFile(name, f); err != nil {
		t.Fatal(err)
	}
	size := core.FileBytes(f)
	// TotalAlloc counts every goroutine's allocation, so the load is
	// measured three times and held to the least: other work only adds.
	got := uint64(math.MaxUint64)
	for range 3 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, err := loadFile(name); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		got = min(got, after.TotalAlloc-before.TotalAlloc)
	}
	// The payload once, bufio's 4 KiB, and a little for the file and the
	// filter's own fields.
	if limit := uint64(size) + 64<<10; got > limit {
		t.Errorf("loading a file of %d bytes allocated %d bytes, want at most %d", size, got, limit)
	}
}
