//go:build !wasm

package main

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	lab "bloomlab/app"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

func init() {
	commands["site"] = command{"write the lab as a static site: site -o DIR [--prefix /path]", runSite}
}

func runSite(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("site")
	out := fs.String("o", "", "directory to write the site into (required)")
	web := fs.String("web", "web", "directory holding app.wasm and the lab's styles and icons")
	prefix := fs.String("prefix", "", "path the site will live under, e.g. /bloomlab for a GitHub Pages project site")
	if err := parse(fs, args); err != nil {
		return fail("site", fs, err, stderr)
	}
	if *out == "" {
		return fail("site", fs, badFlag("-o DIR is required"), stderr)
	}
	p, err := cleanPrefix(*prefix)
	if err != nil {
		return fail("site", fs, err, stderr)
	}
	if err := writeSite(*out, *web, p); err != nil {
		return fail("site", fs, err, stderr)
	}
	fmt.Fprintf(stdout, "wrote the static site to %s (serve it at %s/)\n", *out, p)
	return 0
}

// writeSite writes the self-contained site into dir: every page prerendered
// (also as PAGE/index.html, for servers that redirect /audit to /audit/),
// the go-app scripts, the service worker that keeps it working offline,
// and web/ with app.wasm and a gzip copy for servers that can send one.
func writeSite(dir, web, prefix string) error {
	size, version, err := wasmInfo(web)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	h := lab.NewHandler(prefix, version)
	h.WasmContentLength = strconv.FormatInt(size, 10)
	if err := app.GenerateStaticWebsite(dir, h); err != nil {
		return fmt.Errorf("generating pages: %v", err)
	}
	for _, route := range lab.PageRoutes()[1:] {
		page := filepath.Join(dir, strings.TrimPrefix(route, "/"))
		if err := copyFile(page+".html", filepath.Join(page, "index.html")); err != nil {
			return err
		}
	}
	if err := copyDir(web, filepath.Join(dir, "web")); err != nil {
		return err
	}
	wasm := filepath.Join(web, "app.wasm")
	info, err := os.Stat(wasm)
	if err != nil {
		return err
	}
	gz, err := gzipFile(wasm, info, gzip.BestCompression)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "web", "app.wasm.gz"), gz, 0o644); err != nil {
		return err
	}
	// GitHub Pages would otherwise run the site through Jekyll.
	return os.WriteFile(filepath.Join(dir, ".nojekyll"), nil, 0o644)
}

func copyDir(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if strings.HasSuffix(path, ".gz") {
			return nil // stale copies; the fresh one is written after
		}
		return copyFile(path, target)
	})
}

func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o644)
}
