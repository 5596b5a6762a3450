//go:build !wasm

package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bloomlab/bloomlab/app/lab"
	"github.com/bloomlab/bloomlab/app/site"
)

func runServe(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("serve")
	port := fs.Int("port", 8080, "TCP port to listen on, in [0, 65535] (0 picks a free one)")
	host := fs.String("host", "localhost", "interface to listen on; any but loopback makes the lab reachable from the network")
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
	ln, err := listen(*host, *port, p, stdout, stderr)
	if err != nil {
		return fail("serve", fs, err, stderr)
	}
	if err := newServer(h, serveTimeouts).Serve(ln); err != nil {
		return fail("serve", fs, err, stderr)
	}
	return 0
}

// listen binds host:port and says where the lab is: its address on stdout
// and, when that address is not loopback, one line on stderr, since the lab
// is then open to anyone on the network.
func listen(host string, port int, prefix string, stdout, stderr io.Writer) (net.Listener, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(port)))
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(stdout, "Bloom Lab: http://%s%s/\n", ln.Addr(), prefix)
	if !loopback(ln.Addr()) {
		fmt.Fprintf(stderr, "bloomlab serve: listening on %s: the lab is now reachable from the network, not only from this machine\n", ln.Addr())
	}
	return ln, nil
}

// loopback reports whether addr can be reached only from this machine. A
// host name is judged by the address it was bound to, so --host localhost
// is quiet and --host 0.0.0.0 or a LAN name is not.
func loopback(addr net.Addr) bool {
	a, ok := addr.(*net.TCPAddr)
	return ok && a.IP.IsLoopback()
}

// timeouts bound how long one connection may hold the server.
type timeouts struct {
	header, read, write, idle time.Duration
}

// serveTimeouts: the lab's requests have no body, so 30 s to read one is
// generous; a response must be written within 2 minutes, which sends the
// compressed app.wasm (2.2 MB brotli, 2.6 MB gzip) at 180 kbit/s, or all
// 10.1 MB of it at 680 kbit/s to a client that takes neither; and a
// keep-alive connection left idle for a minute is closed, where without a
// limit thousands stayed open.
var serveTimeouts = timeouts{header: 10 * time.Second, read: 30 * time.Second, write: 2 * time.Minute, idle: time.Minute}

// newServer is the lab's HTTP server, with t's timeouts.
func newServer(h http.Handler, t timeouts) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: t.header,
		ReadTimeout:       t.read,
		WriteTimeout:      t.write,
		IdleTimeout:       t.idle,
	}
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

// wasmInfo reads web/app.wasm's size and a version for it: its tag, so a
// new build makes browsers fetch a new offline copy.
func wasmInfo(web string) (size int64, version string, err error) {
	name := filepath.Join(web, "app.wasm")
	info, err := os.Stat(name)
	if err != nil {
		return 0, "", fmt.Errorf("%s has no app.wasm; build it first with make wasm (%v)", web, err)
	}
	version, err = fileTag(name, info)
	return info.Size(), version, err
}

// tag names bytes by the first 8 bytes of their SHA-256, in hex: short
// enough to read in a header, long enough that two builds never share one.
func tag(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// fileTag is the tag of a file's bytes. Tags are kept by file version,
// since hashing app.wasm takes a moment.
func fileTag(name string, info os.FileInfo) (string, error) {
	fileTags.Lock()
	defer fileTags.Unlock()
	if v, ok := fileTags.m[name]; ok && v.mod.Equal(info.ModTime()) && v.size == info.Size() {
		return v.tag, nil
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return "", err
	}
	t := tag(b)
	fileTags.m[name] = fileVersion{mod: info.ModTime(), size: info.Size(), tag: t}
	return t, nil
}

type fileVersion struct {
	mod  time.Time
	size int64
	tag  string
}

var fileTags = struct {
	sync.Mutex
	m map[string]fileVersion
}{m: map[string]fileVersion{}}

// labServer is the lab's HTTP handler: go-app's pages under prefix, and the
// web directory beside them, compressed with brotli or gzip for clients
// that accept it, all under the lab's security headers and for GET and HEAD
// only. The web directory's copies are made in the background from the
// start, app.wasm first.
func labServer(web, prefix string) (http.Handler, error) {
	size, version, err := wasmInfo(web)
	if err != nil {
		return nil, err
	}
	pages := site.NewHandler(prefix, version)
	pages.WasmContentLength = strconv.FormatInt(size, 10)
	files := &staticFiles{dir: web}
	go files.warm()
	mux := http.NewServeMux()
	mux.Handle("/web/", http.StripPrefix("/web", files))
	// go-app also answers /app.wasm, /goapp.wasm and /VERSION/web/... by
	// handing them to its resource resolver's file server: that of the
	// working directory rather than --web, uncompressed, and under a prefix
	// none at all, so one request for /PREFIX/app.wasm crashed the server.
	// They are the web directory's files here.
	wasm := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r = r.Clone(r.Context())
		r.URL.Path, r.URL.RawPath = "/app.wasm", ""
		files.ServeHTTP(w, r)
	})
	mux.Handle("/app.wasm", wasm)
	mux.Handle("/goapp.wasm", wasm)
	mux.Handle("/"+version+"/", http.StripPrefix("/"+version, mux))
	// A fresh lab link costs 50 to 160 ms of drawing its first view: half
	// the cores at most draw them, and a link past that is served with its
	// controls, the lab running it once live (lab.LimitPrerenders).
	lab.LimitPrerenders(runtime.NumCPU() / 2)
	mux.Handle("/", rendered(budgeted(withAppJS(pages), newRenderBudget()), version))
	if prefix == "" {
		return secured(readOnly(mux), prefix), nil
	}
	outer := http.NewServeMux()
	outer.Handle(prefix+"/", http.StripPrefix(prefix, mux))
	outer.Handle(prefix, http.RedirectHandler(prefix+"/", http.StatusMovedPermanently))
	return secured(readOnly(outer), prefix), nil
}

// withAppJS sends the lab's app.js (site.AppJS) where go-app's would go:
// the same script, starting the WebAssembly after the first paint.
func withAppJS(pages http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/app.js" && r.URL.Path != "/goapp.js" {
			pages.ServeHTTP(w, r)
			return
		}
		rec := &recorder{header: http.Header{}, code: http.StatusOK}
		pages.ServeHTTP(rec, r)
		body := rec.body.Bytes()
		if rec.code == http.StatusOK {
			js, err := site.AppJS(body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			body = js
		}
		for k, v := range rec.header {
			if k != "Content-Length" {
				w.Header()[k] = v
			}
		}
		w.WriteHeader(rec.code)
		w.Write(body)
	})
}

// readOnly answers 405 to every method but GET and HEAD: the lab only
// hands out pages and files, and go-app would answer a POST with the page,
// hiding the client's mistake.
func readOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed: the lab answers GET and HEAD", http.StatusMethodNotAllowed)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// contentSecurityPolicy lets a page run only what this server sends. go-app
// v10.1.11's pages load their scripts and styles from files (no inline
// <script> or <style>), and the app needs:
//   - 'wasm-unsafe-eval' to compile app.wasm;
//   - style attributes ('unsafe-inline' for attributes only): go-app writes
//     Style() as a style attribute, in the prerendered page (the calculator's
//     bars) and through setAttribute in the browser;
//   - its service worker (worker-src), its manifest (manifest-src) and the
//     icons (img-src), all from here, and the prerendered bit array's
//     picture, a data: URL;
//
// Nothing comes from elsewhere and no plugin runs. ancestors are the sites
// that may frame the page: 'self' for every page but the embed, which any
// site may show (the lab inside an article); they end the policy.
const contentSecurityPolicy = "default-src 'self'; " +
	"script-src 'self' 'wasm-unsafe-eval'; " +
	"style-src 'self'; style-src-attr 'unsafe-inline'; " +
	"img-src 'self' data:; worker-src 'self'; manifest-src 'self'; connect-src 'self'; " +
	"object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors "

// securityHeaders go on every response, errors included.
var securityHeaders = map[string]string{
	"Content-Security-Policy": contentSecurityPolicy + "'self'",
	"X-Content-Type-Options":  "nosniff",
	"Referrer-Policy":         "no-referrer",
	// For browsers that predate frame-ancestors.
	"X-Frame-Options": "SAMEORIGIN",
}

// framedHeaders go on the pages any site may frame: the same, but for
// frame-ancestors, and without X-Frame-Options, which has no value that
// allows every site.
var framedHeaders = map[string]string{
	"Content-Security-Policy": contentSecurityPolicy + "*",
	"X-Content-Type-Options":  "nosniff",
	"Referrer-Policy":         "no-referrer",
}

// secured sends h's responses with the lab's security headers: framedHeaders
// for the pages any site may frame (site.FramedByAnyone, under prefix, with
// or without a final slash), securityHeaders for everything else.
func secured(h http.Handler, prefix string) http.Handler {
	framed := map[string]bool{}
	for _, route := range site.FramedByAnyone() {
		framed[prefix+route], framed[prefix+route+"/"] = true, true
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		headers := securityHeaders
		if framed[r.URL.Path] {
			headers = framedHeaders
		}
		for k, v := range headers {
			w.Header().Set(k, v)
		}
		h.ServeHTTP(w, r)
	})
}

// staticFiles serves a directory, sending a brotli or gzip copy of each
// file worth compressing to clients that accept one (negotiate). Copies are
// made once per file version and kept in memory: app.wasm compresses to
// between a fifth and a quarter of its size. Each encoding has its own
// ETag, the tag of the bytes sent, so a reload revalidates app.wasm instead
// of downloading it again. A range is a range of the bytes that ETag names, the encoded ones
// for an encoded response: RFC 9110 (section 14) defines ranges on the
// selected representation, content coding included, and so an interrupted
// brotli download resumes with If-Range as an identity one does.
type staticFiles struct {
	dir string
}

func (s *staticFiles) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name := filepath.Join(s.dir, filepath.FromSlash(path.Clean("/"+r.URL.Path)))
	f, err := os.Open(name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || info.IsDir() {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Cache-Control", "no-cache")
	if ct := contentType(name); ct != "" {
		h.Set("Content-Type", ct)
	}
	coding := ""
	if worthCompressing(name, info.Size()) {
		h.Add("Vary", "Accept-Encoding")
		coding = negotiate(r.Header.Get("Accept-Encoding"))
	}
	if coding == "" {
		t, err := fileTag(name, info)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		h.Set("ETag", `"`+t+`"`)
		http.ServeContent(w, r, name, info.ModTime(), f)
		return
	}
	c, err := copyOf(name, f, info, coding)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	h.Set("ETag", `"`+c.tag+`"`)
	h.Set("X-Uncompressed-Length", strconv.FormatInt(info.Size(), 10))
	http.ServeContent(encoded{w, coding}, r, name, info.ModTime(), bytes.NewReader(c.body))
}

// warm makes the copies of every file in the directory worth compressing,
// app.wasm first: about 2 s of one core for the lab's, so the first visitor
// finds them made. A request for a copy still being made waits for it; an
// error is left for a request to meet and report.
func (s *staticFiles) warm() {
	names := []string{filepath.Join(s.dir, "app.wasm")}
	filepath.WalkDir(s.dir, func(name string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && name != names[0] {
			names = append(names, name)
		}
		return nil
	})
	for _, name := range names {
		f, err := os.Open(name)
		if err != nil {
			continue
		}
		if info, err := f.Stat(); err == nil && worthCompressing(name, info.Size()) {
			for _, c := range codings {
				copyOf(name, f, info, c.name)
			}
		}
		f.Close()
	}
}

// copies holds the compressed copies staticFiles sends, by file and coding,
// for every server in the process.
var copies = struct {
	sync.Mutex
	m map[copyKey]*compressedCopy
}{m: map[copyKey]*compressedCopy{}}

type copyKey struct{ name, coding string }

// compressedCopy is one coding of one version of a file: its modification
// time and size. body and tag are set, or err, before ready is closed.
type compressedCopy struct {
	mod   time.Time
	size  int64
	ready chan struct{}
	body  []byte
	tag   string // the tag of body
	err   error
}

// copyOf returns the coding's copy of file f, named name, in the version
// info describes, made at serveEffort once per version: the first caller
// makes it from f's bytes while the others wait. A failed copy is
// forgotten, for the next request to try again.
func copyOf(name string, f io.ReaderAt, info os.FileInfo, coding string) (*compressedCopy, error) {
	k := copyKey{name, coding}
	copies.Lock()
	c, ok := copies.m[k]
	made := ok && c.mod.Equal(info.ModTime()) && c.size == info.Size()
	if !made {
		c = &compressedCopy{mod: info.ModTime(), size: info.Size(), ready: make(chan struct{})}
		copies.m[k] = c
	}
	copies.Unlock()
	if made {
		<-c.ready
		return c, c.err
	}
	raw := make([]byte, info.Size())
	_, err := io.ReadFull(io.NewSectionReader(f, 0, info.Size()), raw)
	if err == nil {
		c.body, err = compress(coding, raw, serveEffort)
	}
	if err == nil {
		c.tag = tag(c.body)
	}
	c.err = err
	close(c.ready)
	if err != nil {
		copies.Lock()
		if copies.m[k] == c {
			delete(copies.m, k)
		}
		copies.Unlock()
	}
	return c, err
}

// encoded marks a response whose body is in coding, served by
// http.ServeContent. Marking it only as the status is written keeps the
// Content-Length ServeContent would leave out for an encoded body, and keeps
// the encoding off a 304, a 412 and a 416, which have no such body.
type encoded struct {
	http.ResponseWriter
	coding string
}

func (e encoded) WriteHeader(code int) {
	if code == http.StatusOK || code == http.StatusPartialContent {
		e.Header().Set("Content-Encoding", e.coding)
	}
	e.ResponseWriter.WriteHeader(code)
}

// renderBudget bounds the server's prerendering. go-app renders a page
// under context.Background (servePage in its http.go), so a render that has
// started runs to its end whatever happens to its request; every page's
// work is bounded by construction (the calculator's worst input sums about
// a million terms, a tenth of a second), and the budget bounds the rest:
// one render at a time per core, none for a client that has gone while it
// waited, and 503 for one that waited or rendered past its time.
type renderBudget struct {
	slots chan struct{}
	wait  time.Duration // for a free slot
	run   time.Duration // for the render itself
}

func newRenderBudget() renderBudget {
	return renderBudget{slots: make(chan struct{}, runtime.NumCPU()), wait: 10 * time.Second, run: 10 * time.Second}
}

// budgeted runs pages within b. A render still running when its client
// leaves or its time runs out keeps its slot until it ends, so renders
// never pile up past one per core.
func budgeted(pages http.Handler, b renderBudget) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		busy := func() {
			w.Header().Set("Retry-After", "5")
			http.Error(w, "the lab is busy rendering pages; try again in a few seconds", http.StatusServiceUnavailable)
		}
		if r.Context().Err() != nil {
			return
		}
		wait := time.NewTimer(b.wait)
		defer wait.Stop()
		select {
		case b.slots <- struct{}{}:
		case <-r.Context().Done():
			return
		case <-wait.C:
			busy()
			return
		}
		if r.Context().Err() != nil {
			<-b.slots
			return
		}
		rec := &recorder{header: http.Header{}, code: http.StatusOK}
		done := make(chan struct{})
		var failed any
		go func() {
			defer close(done)
			defer func() { <-b.slots }() // freed before done: the next request finds it
			// A panic here, outside the request's goroutine, would end the
			// server; it ends the request with a 500.
			defer func() { failed = recover() }()
			pages.ServeHTTP(rec, r)
		}()
		run := time.NewTimer(b.run)
		defer run.Stop()
		select {
		case <-done:
		case <-r.Context().Done():
			return
		case <-run.C:
			busy()
			return
		}
		if failed != nil {
			log.Printf("bloomlab serve: rendering %s: %v", r.URL.Path, failed)
			http.Error(w, "the lab failed to render this page", http.StatusInternalServerError)
			return
		}
		for k, v := range rec.header {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.code)
		w.Write(rec.body.Bytes())
	})
}

// rendered serves go-app's pages and scripts as files are served: each
// response is made in full, then sent by http.ServeContent, compressed at
// serveEffort for clients that accept brotli or gzip. go-app alone tags
// every response and every encoding with one ETag, answers only an exact
// If-None-Match, and ignores Range. Here each encoding has its own ETag, and
// it is weak, W/"version", W/"version-br" and W/"version-gzip": go-app
// writes attributes in map order, so two renderings of a page are the same
// page but not the same bytes. A weak
// ETag answers If-None-Match with 304 and never satisfies If-Range or
// If-Match, so no client joins ranges of two renderings.
func rendered(pages http.Handler, version string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Conditions and ranges are ServeContent's: go-app renders in full.
		inner := r.Clone(r.Context())
		for _, k := range []string{"If-None-Match", "If-Match", "If-Modified-Since", "If-Unmodified-Since", "If-Range", "Range"} {
			inner.Header.Del(k)
		}
		rec := &recorder{header: http.Header{}, code: http.StatusOK}
		pages.ServeHTTP(rec, inner)
		h := w.Header()
		for k, v := range rec.header {
			if k != "Etag" && k != "Content-Length" {
				h[k] = v
			}
		}
		if rec.code != http.StatusOK {
			w.WriteHeader(rec.code)
			w.Write(rec.body.Bytes())
			return
		}
		body := rec.body.Bytes()
		etag := `W/"` + version + `"`
		ct := h.Get("Content-Type")
		text := strings.HasPrefix(ct, "text/") || strings.Contains(ct, "javascript") || strings.Contains(ct, "json")
		if text && len(body) >= minCompress {
			h.Add("Vary", "Accept-Encoding")
			if coding := negotiate(r.Header.Get("Accept-Encoding")); coding != "" {
				z, err := compress(coding, body, serveEffort)
				if err != nil {
					http.Error(w, err.Error(), http.StatusInternalServerError)
					return
				}
				body, etag = z, `W/"`+version+`-`+coding+`"`
				w = encoded{w, coding}
			}
		}
		h.Set("ETag", etag)
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
	})
}

// recorder holds a response in memory.
type recorder struct {
	header http.Header
	code   int
	body   bytes.Buffer
	wrote  bool
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(code int) {
	if !r.wrote {
		r.code, r.wrote = code, true
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	r.wrote = true
	return r.body.Write(b)
}
