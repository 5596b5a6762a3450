//go:build !wasm

package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/bloomlab/bloomlab/app/site"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

func runSite(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("site")
	out := fs.String("o", "", "directory to write the site into (required)")
	web := fs.String("web", "web", "directory holding app.wasm and the lab's styles and icons")
	prefix := fs.String("prefix", "", "path the site will live under, e.g. /bloomlab for a GitHub Pages project site")
	if err := parse(fs, args); err != nil {
		return fail("site", fs, err, stderr)
	}
	if *out == "" {
		return fail("site", fs, badFlag("--o DIR is required"), stderr)
	}
	p, err := cleanPrefix(*prefix)
	if err != nil {
		return fail("site", fs, err, stderr)
	}
	if err := apart(*out, *web); err != nil {
		return fail("site", fs, err, stderr)
	}
	start := time.Now()
	z, err := buildSite(*out, *web, p)
	if err != nil {
		return fail("site", fs, err, stderr)
	}
	fmt.Fprintf(stdout, "wrote the static site to %s (serve it at %s/) in %.1f s, of which %.1f s making .br and .gz copies of %d files\n",
		*out, p, time.Since(start).Seconds(), z.took.Seconds(), z.files)
	return 0
}

// apart refuses an output folder that is the web folder, lies inside it or
// holds it: the site copies web into out/web, so it would copy itself, one
// level deeper each time (9.9 GB before failing, once). Both paths are
// compared resolved: absolute, with symlinks followed as far as the path
// exists, and folders that exist are compared with os.SameFile, so a
// symlink, a bind mount or a case-insensitive file system hides nothing.
func apart(out, web string) error {
	o, err := resolve(out)
	if err != nil {
		return err
	}
	w, err := resolve(web)
	if err != nil {
		return err
	}
	const why = "the site copies --web into --o's web folder, so it would copy itself"
	switch outInWeb, webInOut := within(o, w), within(w, o); {
	case outInWeb && webInOut:
		return badFlag("--o %s and --web %s are the same folder: %s; write the site to a folder outside %s", out, web, why, web)
	case outInWeb:
		return badFlag("--o %s is inside --web %s: %s; write the site to a folder outside %s", out, web, why, web)
	case webInOut:
		return badFlag("--web %s is inside --o %s: %s; write the site to a folder that does not hold %s", web, out, why, web)
	}
	return nil
}

// resolve makes path absolute and follows its symlinks as far as it exists;
// the rest, which does not exist yet, can hold no symlink.
func resolve(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	for dir, rest := abs, ""; ; {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(real, rest), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return abs, nil
		}
		dir, rest = parent, filepath.Join(filepath.Base(dir), rest)
	}
}

// within reports whether resolved path child is folder parent or lies
// inside it.
func within(child, parent string) bool {
	pinfo, perr := os.Stat(parent)
	for p := child; ; p = filepath.Dir(p) {
		if p == parent {
			return true
		}
		if perr == nil {
			if info, err := os.Stat(p); err == nil && os.SameFile(info, pinfo) {
				return true
			}
		}
		if filepath.Dir(p) == p {
			return false
		}
	}
}

// writeSite writes the self-contained site into dir: every page prerendered
// (also as PAGE/index.html, for servers that redirect /audit to /audit/),
// the go-app scripts, the service worker that keeps it working offline,
// and web/ with app.wasm; beside each file worth compressing, a .br and a
// .gz copy for hosts that send precompressed files.
//
// It writes nothing outside dir: go-app generates the pages into a fresh
// folder inside dir, removed after, and every file is copied from there
// with writeIn, which neither follows a symlink to a folder nor writes
// through a link in a file's place.
func writeSite(dir, web, prefix string) error {
	_, err := buildSite(dir, web, prefix)
	return err
}

// precompressed counts the files given .br and .gz copies, and the time
// the copies took.
type precompressed struct {
	files int
	took  time.Duration
}

// buildSite is writeSite, saying what the compressed copies cost.
func buildSite(dir, web, prefix string) (precompressed, error) {
	size, version, err := wasmInfo(web)
	if err != nil {
		return precompressed{}, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return precompressed{}, err
	}
	stage, err := os.MkdirTemp(dir, ".bloomlab-site-")
	if err != nil {
		return precompressed{}, err
	}
	defer os.RemoveAll(stage)
	h := site.NewHandler(prefix, version)
	h.WasmContentLength = strconv.FormatInt(size, 10)
	if err := app.GenerateStaticWebsite(stage, h); err != nil {
		return precompressed{}, fmt.Errorf("generating pages: %v", err)
	}
	if err := rewriteAppJS(filepath.Join(stage, "app.js")); err != nil {
		return precompressed{}, err
	}
	var files []string // every file written, relative to dir
	wrote := func(under string) func(string) {
		return func(rel string) { files = append(files, filepath.Join(under, rel)) }
	}
	if err := copyTree(stage, dir, wrote("")); err != nil {
		return precompressed{}, err
	}
	for _, route := range site.PageRoutes()[1:] {
		page := strings.TrimPrefix(route, "/")
		index := filepath.Join(page, "index.html")
		if err := copyFile(filepath.Join(stage, page+".html"), dir, index); err != nil {
			return precompressed{}, err
		}
		files = append(files, index)
	}
	if err := mkdirIn(dir, "web"); err != nil {
		return precompressed{}, err
	}
	if err := copyTree(web, filepath.Join(dir, "web"), wrote("web")); err != nil {
		return precompressed{}, err
	}
	z, err := writeCopies(dir, files)
	if err != nil {
		return z, err
	}
	// GitHub Pages would otherwise run the site through Jekyll.
	return z, writeIn(dir, ".nojekyll", nil)
}

// writeCopies writes a .br and a .gz copy beside each of files (relative to
// dir) worth compressing, at siteEffort, and removes the copies an earlier
// site left beside the others: a host that sends precompressed files would
// send a stale one in the file's place.
func writeCopies(dir string, files []string) (z precompressed, err error) {
	start := time.Now()
	defer func() { z.took = time.Since(start) }()
	for _, rel := range files {
		raw, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			return z, err
		}
		if !worthCompressing(rel, int64(len(raw))) {
			for _, c := range codings {
				if err := os.Remove(filepath.Join(dir, rel+c.suffix)); err != nil && !errors.Is(err, fs.ErrNotExist) {
					return z, err
				}
			}
			continue
		}
		br, gz, err := compressBoth(raw, siteEffort)
		if err != nil {
			return z, fmt.Errorf("compressing %s: %v", rel, err)
		}
		if err := writeIn(dir, rel+".br", br); err != nil {
			return z, err
		}
		if err := writeIn(dir, rel+".gz", gz); err != nil {
			return z, err
		}
		z.files++
	}
	return z, nil
}

// copyDir copies folder src into folder dst, leaving out .br and .gz
// files: stale copies, which the site writes afresh. It writes only inside
// dst, which the caller has checked or made.
func copyDir(src, dst string) error {
	return copyTree(src, dst, func(string) {})
}

// copyTree is copyDir, telling wrote each file it copies, relative to dst.
func copyTree(src, dst string, wrote func(rel string)) error {
	return filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		r, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			return mkdirIn(dst, r)
		}
		if strings.HasSuffix(path, ".gz") || strings.HasSuffix(path, ".br") {
			return nil
		}
		if err := copyFile(path, dst, r); err != nil {
			return err
		}
		wrote(r)
		return nil
	})
}

// copyFile copies file src to file rel inside root.
func copyFile(src, root, rel string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return writeIn(root, rel, b)
}

// writeIn writes data to file rel inside folder root, and nowhere else: it
// writes a new file beside rel and renames it over rel, so a symlink or a
// hard link in rel's place is replaced rather than written through, and
// mkdirIn makes its folders.
func writeIn(root, rel string, data []byte) error {
	if err := mkdirIn(root, filepath.Dir(rel)); err != nil {
		return err
	}
	dst := filepath.Join(root, rel)
	f, err := os.CreateTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), dst)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// mkdirIn makes folder rel inside folder root one level at a time, and
// refuses a level that exists as anything but a folder: following a
// symlink there could write outside root.
func mkdirIn(root, rel string) error {
	path := root
	for _, part := range strings.Split(filepath.Clean(rel), string(filepath.Separator)) {
		if part == "." {
			continue
		}
		path = filepath.Join(path, part)
		info, err := os.Lstat(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if err := os.Mkdir(path, 0o755); err != nil {
				return err
			}
		case err != nil:
			return err
		case !info.IsDir():
			return fmt.Errorf("%s is a symlink or a file, not a folder: the site is written only inside --o, never through a link out of it; move it away or choose another --o", path)
		}
	}
	return nil
}

// rewriteAppJS turns go-app's app.js, written at name, into the lab's
// (site.AppJS), as serve sends it.
func rewriteAppJS(name string) error {
	b, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	js, err := site.AppJS(b)
	if err != nil {
		return err
	}
	return os.WriteFile(name, js, 0o644)
}
