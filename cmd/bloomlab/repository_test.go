//go:build !wasm

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// maxTrackedBytes is the most a tracked file may hold: the largest source
// (the word list) is a tenth of it, and a built executable or wasm is ten
// times it.
const maxTrackedBytes = 1 << 20

// executableMagic are the first bytes of the executables and objects Go and
// gcc write: ELF, Mach-O (32 and 64 bits, either order, universal), PE,
// WebAssembly and ar archives.
var executableMagic = [][]byte{
	[]byte("\x7fELF"), {0xfe, 0xed, 0xfa, 0xce}, {0xce, 0xfa, 0xed, 0xfe}, {0xfe, 0xed, 0xfa, 0xcf},
	{0xcf, 0xfa, 0xed, 0xfe}, {0xca, 0xfe, 0xba, 0xbe}, []byte("MZ"), []byte("\x00asm"), []byte("!<arch>\n"),
}

// TestTrackedFilesAreSources: the repository holds sources. No tracked file
// is over 1 MiB or an executable binary (a file marked executable must be
// a script), and what the builds write is ignored, so that `git add -A`
// after `go build ./cmd/bloomlab` adds nothing.
func TestTrackedFilesAreSources(t *testing.T) {
	root := repoRoot(t)
	out := git(t, root, "ls-files", "-s", "-z")
	for _, entry := range strings.Split(strings.TrimSuffix(out, "\x00"), "\x00") {
		// "MODE OBJECT STAGE\tPATH"
		meta, name, ok := strings.Cut(entry, "\t")
		if !ok {
			t.Fatalf("git ls-files -s printed %q", entry)
		}
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if os.IsNotExist(err) {
			continue // deleted in the tree, not yet in the index
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > maxTrackedBytes {
			t.Errorf("%s is tracked and holds %d bytes, over the %d a source may", name, len(b), maxTrackedBytes)
		}
		for _, magic := range executableMagic {
			if bytes.HasPrefix(b, magic) {
				t.Errorf("%s is tracked and is an executable or object file (it starts % x)", name, magic)
			}
		}
		if strings.HasPrefix(meta, "100755 ") && !bytes.HasPrefix(b, []byte("#!")) {
			t.Errorf("%s is tracked as executable but is no script (no #! line)", name)
		}
	}
	outputs := []string{"bloomlab", "bloomaudit", "bloomload", "cmd/bloomlab/bloomlab", "cmd/bloomaudit/bloomaudit", "cmd/bloomload/bloomload",
		"bin/bloomlab", "bin/bloomaudit.wasm", "web/app.wasm", "dist/index.html", "cmd/bloomlab/bloomlab.test",
		"compare/adapters/js/node_modules/x.js", "cover.out"}
	// check-ignore prints the ignored paths, and exits 1 when there are none.
	cmd := exec.Command("git", append([]string{"check-ignore", "--no-index", "--"}, outputs...)...)
	cmd.Dir = root
	listed, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); err != nil && !(ok && ee.ExitCode() == 1) {
		t.Fatalf("git check-ignore: %v", err)
	}
	ignored := string(listed)
	for _, name := range outputs {
		if !strings.Contains("\n"+ignored, "\n"+name+"\n") {
			t.Errorf("%s, a build's output, is not ignored by .gitignore", name)
		}
	}
}

// repoRoot is the checkout's top folder.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// git runs git in dir and returns its output; outside a git checkout (a
// module downloaded by go get) the test has nothing to read and is skipped.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok && len(ee.Stderr) > 0 && !bytes.Contains(ee.Stderr, []byte("not a git repository")) {
			t.Fatalf("git %s: %v: %s", strings.Join(args, " "), err, ee.Stderr)
		}
		t.Skipf("git %s: %v (not a git checkout?)", strings.Join(args, " "), err)
	}
	return string(out)
}
