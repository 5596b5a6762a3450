//go:build !wasm

package main

import (
	"bytes"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// smallWeb writes a web folder at dir with a small app.wasm and a style.
func smallWeb(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"app.wasm": "\x00asm not really", "lab.css": "body{}"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// tree lists every path under root, with each file's bytes and each
// symlink's target, to show that nothing changed.
func tree(t *testing.T, root string) []string {
	t.Helper()
	var list []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		entry := path
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(path)
			entry += " -> " + target
		case !d.IsDir():
			b, _ := os.ReadFile(path)
			entry += " = " + string(b)
		}
		list = append(list, entry)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return list
}

// An output folder inside the web folder it copies made the site copy
// itself one level deeper each time, 9.9 GB before failing. Every way of
// overlapping the two is refused as bad usage, before anything is written.
func TestSiteRefusesOverlappingFolders(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		// out and web are relative to a fresh folder holding web/ (and
		// link -> web where the case needs it).
		out, web string
		says     string
	}{
		{"output inside web", "web/site", "web", "--o web/site is inside --web web"},
		{"output deep inside web", "web/a/b/site", "web", "is inside --web"},
		{"output inside web, unclean", "web/../web/./site", "web", "is inside --web"},
		{"web inside output", ".", "web", "--web web is inside --o ."},
		{"web deep inside output", "..", "web", "is inside --o"},
		{"the same folder", "web", "web", "--o web and --web web are the same folder"},
		{"the same folder, trailing slash", "web/", "web", "are the same folder"},
		{"the same folder through a symlink", "link", "web", "are the same folder"},
		{"output inside web through a symlink", "link/site", "web", "is inside --web"},
		{"web through a symlink inside output", ".", "link", "is inside --o"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			smallWeb(t, filepath.Join(root, "web"))
			if err := os.Symlink("web", filepath.Join(root, "link")); err != nil {
				t.Fatal(err)
			}
			before := tree(t, filepath.Dir(root))
			out, web := filepath.Join(root, tc.out), filepath.Join(root, tc.web)
			if strings.HasSuffix(tc.out, "/") {
				out += "/"
			}
			var stdout, stderr bytes.Buffer
			code := dispatch([]string{"site", "-o", out, "--web", web}, &stdout, &stderr)
			msg := strings.ReplaceAll(stderr.String(), root+string(filepath.Separator), "")
			msg = strings.ReplaceAll(msg, root, ".")
			if code != 2 || !strings.HasPrefix(msg, "bloomlab site: ") || !strings.Contains(msg, tc.says) ||
				!strings.Contains(msg, "--o") || !strings.Contains(msg, "--web") {
				t.Errorf("exit %d, stderr:\n%s\nwant exit 2 and an error saying %q", code, msg, tc.says)
			}
			if after := tree(t, filepath.Dir(root)); !slices.Equal(after, before) {
				t.Errorf("the folders changed:\nbefore %q\nafter  %q", before, after)
			}
		})
	}
}

// The site is written inside --o and nowhere else: a symlink or hard link
// in a file's place is replaced, not written through, and a symlink in a
// folder's place is refused.
func TestSiteWritesOnlyInsideOutput(t *testing.T) {
	routesOnceForServe()
	root := t.TempDir()
	web := filepath.Join(root, "web")
	smallWeb(t, web)
	outside := filepath.Join(root, "outside")
	if err := os.MkdirAll(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"linked.html", "hard.js", "lab.css"} {
		if err := os.WriteFile(filepath.Join(outside, name), []byte("keep me"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	site := func(t *testing.T, out string) (int, string) {
		var stdout, stderr bytes.Buffer
		code := dispatch([]string{"site", "-o", out, "--web", web}, &stdout, &stderr)
		return code, stderr.String()
	}

	t.Run("links in files' places", func(t *testing.T) {
		out := filepath.Join(root, "site")
		if err := os.MkdirAll(out, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(outside, "linked.html"), filepath.Join(out, "index.html")); err != nil {
			t.Fatal(err)
		}
		if err := os.Link(filepath.Join(outside, "hard.js"), filepath.Join(out, "app.js")); err != nil {
			t.Fatal(err)
		}
		before := tree(t, outside)
		if code, stderr := site(t, out); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if after := tree(t, outside); !slices.Equal(after, before) {
			t.Errorf("a file outside --o changed:\nbefore %q\nafter  %q", before, after)
		}
		for _, name := range []string{"index.html", "app.js"} {
			info, err := os.Lstat(filepath.Join(out, name))
			if err != nil || !info.Mode().IsRegular() {
				t.Errorf("%s is %v (%v), want a file of the site's own", name, info.Mode(), err)
			}
		}
		if leftovers, _ := filepath.Glob(filepath.Join(out, ".bloomlab-site-*")); len(leftovers) > 0 {
			t.Errorf("the folder pages were generated in is left: %q", leftovers)
		}
	})

	t.Run("a link in a folder's place", func(t *testing.T) {
		out := filepath.Join(root, "site2")
		if err := os.MkdirAll(out, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(outside, filepath.Join(out, "web")); err != nil {
			t.Fatal(err)
		}
		before := tree(t, outside)
		code, stderr := site(t, out)
		if code != 1 || !strings.Contains(stderr, "is a symlink or a file, not a folder") {
			t.Errorf("exit %d, stderr %q; want 1 and the symlink refused", code, stderr)
		}
		if after := tree(t, outside); !slices.Equal(after, before) {
			t.Errorf("a file outside --o changed:\nbefore %q\nafter  %q", before, after)
		}
	})
}

// within compares existing folders by identity, not by name: a path it is
// given unresolved, or one a case-insensitive file system spells another
// way, still names the same folder.
func TestWithinComparesFolders(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	smallWeb(t, filepath.Join(root, "web"))
	if err := os.Symlink("web", filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	web := filepath.Join(root, "web")
	for _, tc := range []struct {
		child, parent string
		want          bool
	}{
		{filepath.Join(root, "link", "site"), web, true},
		{filepath.Join(root, "link"), web, true},
		{web, filepath.Join(root, "link"), true},
		{root, web, false},
		{filepath.Join(root, "webs"), web, false},
	} {
		if got := within(tc.child, tc.parent); got != tc.want {
			t.Errorf("within(%s, %s) = %v, want %v", tc.child, tc.parent, got, tc.want)
		}
	}
}

// bigWeb writes a web folder whose app.wasm is over brotliLarge, so the
// site compresses it as it does the real one; words drawn with a fixed
// seed make it compress as text does, not as a repeated line.
func bigWeb(t *testing.T, dir string) {
	t.Helper()
	smallWeb(t, dir)
	words := strings.Fields("bloom filter bits keys hashes rate fill index block counter wasm go app lab")
	r := rand.New(rand.NewPCG(1, 2))
	var b bytes.Buffer
	for b.Len() < brotliLarge+brotliLarge/4 {
		b.WriteString(words[r.IntN(len(words))])
		b.WriteByte(byte(' ' + r.IntN(3)))
	}
	for name, data := range map[string][]byte{
		"app.wasm":  b.Bytes(),
		"lab.css":   bytes.Repeat([]byte("body { margin: 0 }\n.lab { color: #1d3f8a }\n"), 64),
		"icon.png":  append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{0}, 2048)...),
		"stale.css": []byte("small"),
		// Left in web/ by some earlier build: copies are the site's to write.
		"old.js.br": []byte("stale"),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The site carries a .br and a .gz copy beside every file worth
// compressing, and none beside the rest; each decodes to its file; and the
// same input gives the same bytes, run after run.
func TestSitePrecompresses(t *testing.T) {
	routesOnceForServe()
	root := t.TempDir()
	web := filepath.Join(root, "web")
	bigWeb(t, web)
	outs := []string{filepath.Join(root, "one"), filepath.Join(root, "two")}
	// Copies an earlier site left beside a file now too small for them
	// would be sent in its place by a host that serves precompressed files.
	if err := os.MkdirAll(filepath.Join(outs[0], "web"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, stale := range []string{"web/stale.css.br", "web/stale.css.gz", "web/app.wasm.br"} {
		if err := os.WriteFile(filepath.Join(outs[0], stale), []byte("stale"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, out := range outs {
		var stdout, stderr bytes.Buffer
		if code := dispatch([]string{"site", "-o", out, "--web", web}, &stdout, &stderr); code != 0 {
			t.Fatalf("site: exit %d: %s", code, stderr.String())
		}
		if !strings.Contains(stdout.String(), "making .br and .gz copies of") {
			t.Errorf("stdout %q, want the time the copies took", stdout.String())
		}
		t.Logf("%s", strings.TrimSpace(stdout.String()))
	}

	for _, must := range []string{"web/app.wasm", "web/lab.css", "app.js", "wasm_exec.js", "index.html", "audit/index.html"} {
		for _, suffix := range []string{".br", ".gz"} {
			if _, err := os.Stat(filepath.Join(outs[0], must+suffix)); err != nil {
				t.Errorf("the site lacks %s%s", must, suffix)
			}
		}
	}
	copies := 0
	for _, out := range outs {
		err := filepath.WalkDir(out, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || strings.HasSuffix(path, ".br") || strings.HasSuffix(path, ".gz") {
				return err
			}
			raw, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(out, path)
			for _, c := range []struct{ coding, suffix string }{{"br", ".br"}, {"gzip", ".gz"}} {
				z, err := os.ReadFile(path + c.suffix)
				if !worthCompressing(path, int64(len(raw))) {
					if err == nil {
						t.Errorf("%s has a %s copy: it is too small or compressed already", rel, c.suffix)
					}
					continue
				}
				if err != nil {
					t.Errorf("%s has no %s copy", rel, c.suffix)
					continue
				}
				copies++
				if got := decode(t, c.coding, z); !bytes.Equal(got, raw) {
					t.Errorf("%s%s decodes to %d bytes, want the file's %d exactly", rel, c.suffix, len(got), len(raw))
				}
				if c.coding == "gzip" && (z[3] != 0 || !bytes.Equal(z[4:8], []byte{0, 0, 0, 0})) {
					t.Errorf("%s.gz: header flags %#x, time % x: want no name and no time", rel, z[3], z[4:8])
				}
				// go-app writes a page's attributes in map order, so two sites
				// may hold two renderings of a page; every file the same in both
				// must have the same copies.
				if out == outs[0] {
					other := filepath.Join(outs[1], rel)
					if raw2, err := os.ReadFile(other); err == nil && bytes.Equal(raw2, raw) {
						if z2, _ := os.ReadFile(other + c.suffix); !bytes.Equal(z2, z) {
							t.Errorf("%s%s differs between two runs on the same input", rel, c.suffix)
						}
					} else if strings.HasPrefix(rel, "web") {
						t.Errorf("%s differs between two runs", rel)
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if copies < 20 {
		t.Errorf("%d copies checked, want at least the 20 of the files above in both sites", copies)
	}
	if _, err := os.Stat(filepath.Join(outs[0], "web", "old.js.br")); err == nil {
		t.Error("the site copied web/old.js.br, a compressed copy left in --web")
	}
}
