//go:build !wasm

package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	lab "bloomlab/app"
)

func init() {
	commands["serve"] = command{"serve the lab on localhost (needs web/app.wasm: make wasm)", runServe}
}

func runServe(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("serve")
	port := fs.Int("port", 8080, "TCP port to listen on, in [0, 65535] (0 picks a free one)")
	host := fs.String("host", "localhost", "interface to listen on")
	web := fs.String("web", "web", "directory holding app.wasm and the lab's styles and icons")
	prefix := fs.String("prefix", "", "serve under this path, as a project site would be (e.g. /bloomlab)")
	if err := parse(fs, args); err != nil {
		return fail("serve", fs, err, stderr)
	}
	if *port < 0 || *port > 65535 {
		return fail("serve", fs, badFlag("--port must be in [0, 65535], got %d", *port), stderr)
	}
	p, err := cleanPrefix(*prefix)
	if err != nil {
		return fail("serve", fs, err, stderr)
	}
	h, err := labServer(*web, p)
	if err != nil {
		return fail("serve", fs, err, stderr)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(*host, strconv.Itoa(*port)))
	if err != nil {
		return fail("serve", fs, err, stderr)
	}
	fmt.Fprintf(stdout, "Bloom Lab: http://%s%s/\n", ln.Addr(), p)
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	if err := srv.Serve(ln); err != nil {
		return fail("serve", fs, err, stderr)
	}
	return 0
}

// cleanPrefix turns "bloomlab", "/bloomlab/" and "/bloomlab" into
// "/bloomlab", and "" or "/" into "".
func cleanPrefix(p string) (string, error) {
	p = strings.Trim(p, "/")
	if p == "" {
		return "", nil
	}
	for _, part := range strings.Split(p, "/") {
		if part == "" || part == "." || part == ".." || strings.ContainsAny(part, "?#% \\") {
			return "", badFlag("--prefix must be a plain path such as /bloomlab, got %q", p)
		}
	}
	return "/" + p, nil
}

// wasmInfo reads web/app.wasm's size and a version for it: the first bytes
// of its SHA-256, so a new build makes browsers fetch a new offline copy.
// Versions are kept by file version, since hashing takes a moment.
func wasmInfo(web string) (size int64, version string, err error) {
	name := filepath.Join(web, "app.wasm")
	info, err := os.Stat(name)
	if err != nil {
		return 0, "", fmt.Errorf("%s has no app.wasm; build it first with make wasm (%v)", web, err)
	}
	wasmVersions.Lock()
	defer wasmVersions.Unlock()
	if v, ok := wasmVersions.m[name]; ok && v.mod.Equal(info.ModTime()) && v.size == info.Size() {
		return info.Size(), v.version, nil
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return 0, "", err
	}
	sum := sha256.Sum256(b)
	version = hex.EncodeToString(sum[:8])
	wasmVersions.m[name] = wasmVersion{mod: info.ModTime(), size: info.Size(), version: version}
	return info.Size(), version, nil
}

type wasmVersion struct {
	mod     time.Time
	size    int64
	version string
}

var wasmVersions = struct {
	sync.Mutex
	m map[string]wasmVersion
}{m: map[string]wasmVersion{}}

// labServer is the lab's HTTP handler: go-app's pages under prefix, and the
// web directory beside them, compressed with gzip for clients that accept it.
func labServer(web, prefix string) (http.Handler, error) {
	size, version, err := wasmInfo(web)
	if err != nil {
		return nil, err
	}
	pages := lab.NewHandler(prefix, version)
	pages.WasmContentLength = strconv.FormatInt(size, 10)
	files := &staticFiles{dir: web}
	mux := http.NewServeMux()
	mux.Handle("/web/", http.StripPrefix("/web", files))
	mux.Handle("/", gzipped(pages))
	if prefix == "" {
		return mux, nil
	}
	outer := http.NewServeMux()
	outer.Handle(prefix+"/", http.StripPrefix(prefix, mux))
	outer.Handle(prefix, http.RedirectHandler(prefix+"/", http.StatusMovedPermanently))
	return outer, nil
}

// staticFiles serves a directory, sending a gzip copy of each compressible
// file to clients that accept it. Copies are made once per file version and
// kept in memory: app.wasm compresses to about a quarter of its size.
type staticFiles struct {
	dir string
}

// gzCopies holds the compressed copies, by file name, for every server in
// the process.
var gzCopies = struct {
	sync.Mutex
	m map[string]gzCopy
}{m: map[string]gzCopy{}}

type gzCopy struct {
	mod  time.Time
	size int64
	body []byte
}

func (s *staticFiles) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name := filepath.Join(s.dir, filepath.FromSlash(path.Clean("/"+r.URL.Path)))
	info, err := os.Stat(name)
	if err != nil || info.IsDir() {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Add("Vary", "Accept-Encoding")
	if !compressible(name) || !acceptsGzip(r) {
		http.ServeFile(w, r, name)
		return
	}
	body, err := s.gzip(name, info)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Encoding", "gzip")
	w.Header().Set("Content-Type", contentType(name))
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.Header().Set("X-Uncompressed-Length", strconv.FormatInt(info.Size(), 10))
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

func (s *staticFiles) gzip(name string, info os.FileInfo) ([]byte, error) {
	// The default level: within 2% of the best for app.wasm, three times
	// faster, so the first load after a build does not wait.
	return gzipFile(name, info, gzip.DefaultCompression)
}

// gzipFile compresses a file at level, once per file version.
func gzipFile(name string, info os.FileInfo, level int) ([]byte, error) {
	key := name + "@" + strconv.Itoa(level)
	gzCopies.Lock()
	defer gzCopies.Unlock()
	if c, ok := gzCopies.m[key]; ok && c.mod.Equal(info.ModTime()) && c.size == info.Size() {
		return c.body, nil
	}
	raw, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	body, err := gzipBytes(raw, level)
	if err != nil {
		return nil, err
	}
	gzCopies.m[key] = gzCopy{mod: info.ModTime(), size: info.Size(), body: body}
	return body, nil
}

func gzipBytes(raw []byte, level int) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, level)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(raw); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func compressible(name string) bool {
	switch filepath.Ext(name) {
	case ".wasm", ".js", ".css", ".html", ".svg", ".json", ".webmanifest", ".txt":
		return true
	}
	return false
}

func contentType(name string) string {
	switch filepath.Ext(name) {
	case ".wasm":
		return "application/wasm"
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	case ".html":
		return "text/html; charset=utf-8"
	}
	return "application/octet-stream"
}

func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		if strings.TrimSpace(strings.SplitN(part, ";", 2)[0]) == "gzip" {
			return true
		}
	}
	return false
}

// gzipped compresses go-app's pages and scripts for clients that accept it.
func gzipped(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !acceptsGzip(r) {
			h.ServeHTTP(w, r)
			return
		}
		gw := &gzipWriter{ResponseWriter: w}
		defer gw.close()
		h.ServeHTTP(gw, r)
	})
}

// gzipWriter compresses a response whose type is text, dropping the
// Content-Length the wrapped handler set for the uncompressed body.
type gzipWriter struct {
	http.ResponseWriter
	zw          *gzip.Writer
	wroteHeader bool
}

func (g *gzipWriter) WriteHeader(code int) {
	if g.wroteHeader {
		return
	}
	g.wroteHeader = true
	h := g.Header()
	h.Add("Vary", "Accept-Encoding")
	ct := h.Get("Content-Type")
	if code == http.StatusOK && h.Get("Content-Encoding") == "" &&
		(strings.HasPrefix(ct, "text/") || strings.Contains(ct, "javascript") || strings.Contains(ct, "json")) {
		h.Del("Content-Length")
		h.Set("Content-Encoding", "gzip")
		g.zw = gzip.NewWriter(g.ResponseWriter)
	}
	g.ResponseWriter.WriteHeader(code)
}

func (g *gzipWriter) Write(b []byte) (int, error) {
	if !g.wroteHeader {
		g.WriteHeader(http.StatusOK)
	}
	if g.zw != nil {
		return g.zw.Write(b)
	}
	return g.ResponseWriter.Write(b)
}

func (g *gzipWriter) close() {
	if g.zw != nil {
		g.zw.Close()
	}
}
