//go:build !wasm

package main

import (
	"bytes"
	"io/fs"
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
