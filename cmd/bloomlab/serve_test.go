//go:build !js

package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui"
)

// fakeWeb writes a web directory with a stand-in app.wasm, for tests that
// need the server but not a browser: a style worth compressing (lab.css),
// one too small to be (tiny.css) and an image compressed already.
func fakeWeb(t *testing.T) (string, []byte) {
	t.Helper()
	dir := t.TempDir()
	wasm := bytes.Repeat([]byte("\x00asm not really "), 4096)
	for name, b := range map[string][]byte{
		"app.wasm": wasm,
		"lab.css":  bytes.Repeat([]byte("body { margin: 0 }\n.lab { color: #1d3f8a }\n"), 64),
		"tiny.css": []byte("body{}"),
		"icon.png": append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{0}, 2048)...),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, wasm
}

func TestServeCompresses(t *testing.T) {
	routesOnceForServe()
	web, wasm := fakeWeb(t)
	for _, prefix := range []string{"", "/bloomlab"} {
		t.Run("prefix "+prefix, func(t *testing.T) {
			h, err := labServer(web, prefix)
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(h)
			defer srv.Close()
			for _, gz := range []bool{true, false} {
				req, _ := http.NewRequest("GET", srv.URL+prefix+"/web/app.wasm", nil)
				if gz {
					req.Header.Set("Accept-Encoding", "gzip")
				} else {
					req.Header.Set("Accept-Encoding", "identity")
				}
				res, err := http.DefaultTransport.RoundTrip(req)
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if gz {
					if res.Header.Get("Content-Encoding") != "gzip" {
						t.Fatalf("gzip accepted but Content-Encoding %q", res.Header.Get("Content-Encoding"))
					}
					zr, err := gzip.NewReader(bytes.NewReader(body))
					if err != nil {
						t.Fatal(err)
					}
					body, _ = io.ReadAll(zr)
				}
				if !bytes.Equal(body, wasm) {
					t.Errorf("gzip %v: app.wasm came back as %d bytes, want %d", gz, len(body), len(wasm))
				}
			}
			res, err := http.Get(srv.URL + prefix + "/audit")
			if err != nil {
				t.Fatal(err)
			}
			page, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != 200 || !strings.Contains(string(page), `id="audit"`) {
				t.Errorf("GET %s/audit: %s", prefix, res.Status)
			}
			if res, err := http.Get(srv.URL + prefix + "/web/../../go.mod"); err == nil {
				if res.StatusCode == 200 {
					t.Error("the web directory serves files outside itself")
				}
				res.Body.Close()
			}
		})
	}
}

func TestServeAndSiteFlags(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--port", "70000"}, "--port must be in [0, 65535]"},
		{[]string{"serve", "--web", "/nonexistent"}, "has no app.wasm"},
		{[]string{"serve", "--prefix", "a/../b"}, "--prefix must be a plain path"},
		{[]string{"serve", "--bogus"}, "unknown flag --bogus"},
		{[]string{"site"}, "-o DIR is required"},
		{[]string{"site", "-o", t.TempDir(), "--web", "/nonexistent"}, "has no app.wasm"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := dispatch(c.args, &stdout, &stderr)
			first := strings.SplitN(stderr.String(), "\n", 2)[0]
			if !strings.Contains(first, c.want) {
				t.Errorf("first stderr line %q, want it to contain %q", first, c.want)
			}
			wantCode := 2
			if strings.Contains(c.want, "app.wasm") {
				wantCode = 1
			}
			if code != wantCode {
				t.Errorf("exit %d, want %d", code, wantCode)
			}
		})
	}
}

func TestSiteWritesEverything(t *testing.T) {
	routesOnceForServe()
	web, wasm := fakeWeb(t)
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := dispatch([]string{"site", "-o", out, "--web", web, "--prefix", "/bloomlab"}, &stdout, &stderr); code != 0 {
		t.Fatalf("site: exit %d: %s", code, stderr.String())
	}
	for _, f := range []string{"index.html", "audit.html", "audit/index.html", "experiments.html", "calculator.html",
		"about.html", "app.js", "app-worker.js", "wasm_exec.js", "manifest.webmanifest", "app.css",
		"web/app.wasm", "web/app.wasm.gz", "web/app.wasm.br", "web/lab.css", "web/lab.css.br", "web/lab.css.gz", ".nojekyll"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("site lacks %s", f)
		}
	}
	got, _ := os.ReadFile(filepath.Join(out, "web", "app.wasm"))
	if !bytes.Equal(got, wasm) {
		t.Error("web/app.wasm differs from the source")
	}
	index, _ := os.ReadFile(filepath.Join(out, "index.html"))
	if !strings.Contains(string(index), `src="/bloomlab/app.js"`) {
		t.Error("index.html does not load app.js under the prefix")
	}
	// The embed, which other sites frame: its page, and its height teller
	// under the prefix.
	for _, f := range []string{"embed.html", "embed/index.html"} {
		page, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			t.Errorf("site lacks the embed: %v", err)
			continue
		}
		if !strings.Contains(string(page), `id="embed-open"`) || !strings.Contains(string(page), `src="/bloomlab/web/embed.js"`) {
			t.Errorf("%s is not the embed with its script under the prefix", f)
		}
	}
}

// get runs one request through h and returns the response with its body.
func get(t *testing.T, h http.Handler, method, url string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req := httptest.NewRequest(method, url, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	res := rec.Result()
	body, _ := io.ReadAll(res.Body)
	return res, body
}

func TestServeSecurityHeaders(t *testing.T) {
	routesOnceForServe()
	web, _ := fakeWeb(t)
	want := map[string]string{
		"Content-Security-Policy": "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; " +
			"style-src-attr 'unsafe-inline'; img-src 'self' data:; worker-src 'self'; manifest-src 'self'; connect-src 'self'; " +
			"object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'self'",
		"X-Content-Type-Options": "nosniff",
		"Referrer-Policy":        "no-referrer",
		"X-Frame-Options":        "SAMEORIGIN",
	}
	for _, prefix := range []string{"", "/bloomlab"} {
		h, err := labServer(web, prefix)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct{ method, path string }{
			{"GET", "/"}, {"GET", "/audit"}, {"GET", "/app.js"}, {"GET", "/web/app.wasm"}, {"GET", "/web/lab.css"},
			{"GET", "/no-such-page"}, {"GET", "/web/no-such-file"}, {"POST", "/"}, {"HEAD", "/"},
		} {
			res, _ := get(t, h, c.method, prefix+c.path, "Accept-Encoding", "gzip")
			for k, v := range want {
				t.Run(c.method+" "+prefix+c.path+" "+k, func(t *testing.T) {
					if got := res.Header.Get(k); got != v {
						t.Errorf("%s: %q, want %q", k, got, v)
					}
				})
			}
		}
	}
}

// TestServeFramedEmbed: any site may frame the embed, and only the embed;
// the rest of its headers are every page's.
func TestServeFramedEmbed(t *testing.T) {
	routesOnceForServe()
	web, _ := fakeWeb(t)
	const policy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; " +
		"style-src-attr 'unsafe-inline'; img-src 'self' data:; worker-src 'self'; manifest-src 'self'; connect-src 'self'; " +
		"object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors "
	for _, prefix := range []string{"", "/bloomlab"} {
		h, err := labServer(web, prefix)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			method, path string
			anyone       bool
		}{
			{"GET", ui.RouteEmbed, true},
			{"GET", ui.RouteEmbed + "/", true},
			{"GET", ui.RouteEmbed + "?" + params(settings.IDControls, settings.IDHashes, settings.IDChart, settings.ChartK), true},
			{"HEAD", ui.RouteEmbed, true},
			{"GET", ui.RouteLab, false},
			{"GET", ui.RouteLab + "?" + params(settings.IDControls, settings.IDHashes), false},
			{"GET", ui.RouteLessons, false},
			{"GET", ui.RouteAudit, false},
			{"GET", ui.RouteEmbed + "ded", false},
			{"GET", ui.RouteEmbed + "/more", false},
			{"GET", "/web/embed.js", false},
			{"GET", "/web/embed.css", false},
		} {
			t.Run(c.method+" "+prefix+c.path, func(t *testing.T) {
				res, body := get(t, h, c.method, prefix+c.path)
				csp, xfo := res.Header.Get("Content-Security-Policy"), res.Header.Get("X-Frame-Options")
				if c.anyone {
					if csp != policy+"*" || xfo != "" {
						t.Errorf("policy %q and X-Frame-Options %q, want frame-ancestors * and no X-Frame-Options", csp, xfo)
					}
					if res.StatusCode != http.StatusOK {
						t.Errorf("status %d, want 200", res.StatusCode)
					}
					if c.method == "GET" && !strings.Contains(string(body), `id="embed-open"`) {
						t.Error("the page is not the embed")
					}
				} else if csp != policy+"'self'" || xfo != "SAMEORIGIN" {
					t.Errorf("policy %q and X-Frame-Options %q, want frame-ancestors 'self' and SAMEORIGIN", csp, xfo)
				}
				for k, v := range map[string]string{"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"} {
					if got := res.Header.Get(k); got != v {
						t.Errorf("%s: %q, want %q", k, got, v)
					}
				}
			})
		}
	}
}

func TestServeMethods(t *testing.T) {
	routesOnceForServe()
	web, wasm := fakeWeb(t)
	for _, prefix := range []string{"", "/bloomlab"} {
		h, err := labServer(web, prefix)
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range []string{"/", "/audit", "/app.js", "/web/app.wasm", "/web/lab.css"} {
			for _, method := range []string{"GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH"} {
				t.Run(method+" "+prefix+path, func(t *testing.T) {
					res, body := get(t, h, method, prefix+path)
					switch method {
					case "GET", "HEAD":
						if res.StatusCode != 200 {
							t.Fatalf("status %d, want 200", res.StatusCode)
						}
						if method == "HEAD" && len(body) > 0 {
							t.Errorf("HEAD sent a body of %d bytes", len(body))
						}
						if method == "GET" && len(body) == 0 {
							t.Error("GET sent no body")
						}
						if path == "/web/app.wasm" && res.Header.Get("Content-Length") != strconv.Itoa(len(wasm)) {
							t.Errorf("%s app.wasm: Content-Length %q, want %d", method, res.Header.Get("Content-Length"), len(wasm))
						}
					default:
						if res.StatusCode != http.StatusMethodNotAllowed {
							t.Errorf("status %d, want 405", res.StatusCode)
						}
						if got := res.Header.Get("Allow"); got != "GET, HEAD" {
							t.Errorf("Allow %q, want \"GET, HEAD\"", got)
						}
					}
				})
			}
		}
	}
}

// encodings are the ways the lab sends a body: as it is, brotli, gzip.
var encodings = []struct{ name, accept, contentEncoding string }{
	{"identity", "identity", ""},
	{"br", "br", "br"},
	{"gzip", "gzip", "gzip"},
}

func TestServeConditional(t *testing.T) {
	routesOnceForServe()
	web, _ := fakeWeb(t)
	h, err := labServer(web, "")
	if err != nil {
		t.Fatal(err)
	}
	_, version, _ := wasmInfo(web)
	for _, path := range []string{"/web/app.wasm", "/web/lab.css", "/", "/audit", "/app.js"} {
		tags := map[string]string{}
		for _, enc := range encodings {
			t.Run(path+" "+enc.name, func(t *testing.T) {
				res, body := get(t, h, "GET", path, "Accept-Encoding", enc.accept)
				etag := res.Header.Get("ETag")
				if res.StatusCode != 200 || etag == "" || len(body) == 0 {
					t.Fatalf("status %d, ETag %q, %d bytes: want 200 with an ETag", res.StatusCode, etag, len(body))
				}
				if got := res.Header.Get("Content-Encoding"); got != enc.contentEncoding {
					t.Fatalf("Content-Encoding %q, want %q", got, enc.contentEncoding)
				}
				tags[enc.name] = etag
				cases := []struct {
					name   string
					header []string
					want   int
				}{
					{"If-None-Match its ETag", []string{"If-None-Match", etag}, 304},
					{"If-None-Match in a list", []string{"If-None-Match", `"other", ` + etag}, 304},
					{"If-None-Match another ETag", []string{"If-None-Match", `"other"`}, 200},
				}
				if enc.name != "identity" && !strings.HasPrefix(path, "/web/") {
					// go-app answers its own ETag, the bare version, with a 304
					// of its own; that must not pass for a compressed copy's.
					cases = append(cases, struct {
						name   string
						header []string
						want   int
					}{"If-None-Match go-app's own ETag", []string{"If-None-Match", `"` + version + `"`}, 200})
				}
				if lm := res.Header.Get("Last-Modified"); lm != "" {
					cases = append(cases, struct {
						name   string
						header []string
						want   int
					}{"If-Modified-Since its Last-Modified", []string{"If-Modified-Since", lm}, 304})
				}
				for _, c := range cases {
					res, body := get(t, h, "GET", path, append([]string{"Accept-Encoding", enc.accept}, c.header...)...)
					if res.StatusCode != c.want {
						t.Errorf("%s: status %d, want %d", c.name, res.StatusCode, c.want)
					}
					if c.want == 304 {
						if len(body) > 0 || res.Header.Get("Content-Encoding") != "" {
							t.Errorf("%s: a 304 with %d bytes and Content-Encoding %q", c.name, len(body), res.Header.Get("Content-Encoding"))
						}
						if res.Header.Get("ETag") != etag {
							t.Errorf("%s: 304 with ETag %q, want %q", c.name, res.Header.Get("ETag"), etag)
						}
					}
				}
			})
		}
		if tags["identity"] == tags["gzip"] || tags["identity"] == tags["br"] || tags["br"] == tags["gzip"] {
			t.Errorf("%s: two encodings share an ETag: %v", path, tags)
		}
	}
}

// TestServeRange asks for bytes 10-19 of each encoding. app.wasm's bytes
// are fixed, so its ranges are real ranges, of the bytes sent: the brotli
// or gzip bytes for a compressed copy (RFC 9110 defines ranges on the
// selected representation), under the ETag that names them; If-Range with
// another encoding's ETag gets the whole body. A page is rendered anew for
// each request, in go-app's map order, so its ETag is weak: If-Range then
// gets the whole page.
func TestServeRange(t *testing.T) {
	routesOnceForServe()
	web, _ := fakeWeb(t)
	h, err := labServer(web, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/web/app.wasm", "/"} {
		for _, enc := range encodings {
			t.Run(path+" "+enc.name, func(t *testing.T) {
				full, whole := get(t, h, "GET", path, "Accept-Encoding", enc.accept)
				etag := full.Header.Get("ETag")
				res, body := get(t, h, "GET", path, "Accept-Encoding", enc.accept, "Range", "bytes=10-19")
				if res.StatusCode != 206 {
					t.Fatalf("status %d, want 206", res.StatusCode)
				}
				// Two renderings of a page may differ in length by a few gzip bytes.
				fixed := path == "/web/app.wasm"
				want := "bytes 10-19/" + strconv.Itoa(len(whole))
				if got := res.Header.Get("Content-Range"); got != want && (fixed || !strings.HasPrefix(got, "bytes 10-19/")) {
					t.Errorf("Content-Range %q, want %q", got, want)
				}
				if got := res.Header.Get("Content-Encoding"); got != enc.contentEncoding {
					t.Errorf("Content-Encoding %q, want %q", got, enc.contentEncoding)
				}
				if len(body) != 10 || (fixed && !bytes.Equal(body, whole[10:20])) {
					t.Errorf("range body %q, want %q", body, whole[10:20])
				}
				res, body = get(t, h, "GET", path, "Accept-Encoding", enc.accept, "Range", "bytes=10-19", "If-Range", etag)
				if fixed && (res.StatusCode != 206 || !bytes.Equal(body, whole[10:20])) {
					t.Errorf("If-Range %s: status %d with %q, want 206 with %q", etag, res.StatusCode, body, whole[10:20])
				}
				if !fixed && (!strings.HasPrefix(etag, "W/") || res.StatusCode != 200 || len(body) < len(whole)/2) {
					t.Errorf("If-Range %s: status %d with %d bytes, want a weak ETag and the whole page", etag, res.StatusCode, len(body))
				}
				res, _ = get(t, h, "GET", path, "Accept-Encoding", enc.accept, "Range", "bytes=10-19", "If-Range", `"stale"`)
				if res.StatusCode != 200 {
					t.Errorf("If-Range with a stale ETag: status %d, want 200", res.StatusCode)
				}
				for _, other := range encodings {
					if other.name == enc.name || !fixed {
						continue
					}
					o, _ := get(t, h, "GET", path, "Accept-Encoding", other.accept)
					res, body = get(t, h, "GET", path, "Accept-Encoding", enc.accept, "Range", "bytes=10-19", "If-Range", o.Header.Get("ETag"))
					if res.StatusCode != 200 || !bytes.Equal(body, whole) || res.Header.Get("Content-Encoding") != enc.contentEncoding {
						t.Errorf("If-Range with the %s copy's ETag: status %d, %d bytes, Content-Encoding %q; want 200 with the whole %s body",
							other.name, res.StatusCode, len(body), res.Header.Get("Content-Encoding"), enc.name)
					}
				}
			})
		}
	}
}

func TestServeTimeouts(t *testing.T) {
	srv := newServer(http.NotFoundHandler(), serveTimeouts)
	for _, c := range []struct {
		name      string
		got, want time.Duration
	}{
		{"ReadHeaderTimeout", srv.ReadHeaderTimeout, 10 * time.Second},
		{"ReadTimeout", srv.ReadTimeout, 30 * time.Second},
		{"WriteTimeout", srv.WriteTimeout, 2 * time.Minute},
		{"IdleTimeout", srv.IdleTimeout, time.Minute},
	} {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}

	// With short timeouts, a connection that sits idle after a request, or
	// stalls in the middle of one, is closed at its limit. The other limits
	// are an hour, so only the one under test can close it; the client's
	// own deadline is a net against a hang, never the verdict. The client
	// dials and writes its request before the server starts, so the server
	// finds every byte of it at its first read, however late this goroutine
	// runs on a busy machine: no limit can run out before the request is in.
	routesOnceForServe()
	web, _ := fakeWeb(t)
	h, err := labServer(web, "")
	if err != nil {
		t.Fatal(err)
	}
	const short, long, patience = 300 * time.Millisecond, time.Hour, 2 * time.Minute
	for _, c := range []struct {
		name    string
		limits  timeouts
		request string
		reply   bool
	}{
		{"idle keep-alive", timeouts{header: long, read: long, write: long, idle: short},
			"GET /web/lab.css HTTP/1.1\r\nHost: lab\r\n\r\n", true},
		{"stalled header", timeouts{header: short, read: long, write: long, idle: long},
			"GET /web/lab.css HTTP/1.1\r\nHost: la", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			// The kernel completes the connection and holds the
			// request until the server accepts it.
			conn, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			conn.SetDeadline(time.Now().Add(patience))
			if _, err := io.WriteString(conn, c.request); err != nil {
				t.Fatal(err)
			}
			srv := newServer(h, c.limits)
			go srv.Serve(ln)
			defer srv.Close()
			br := bufio.NewReader(conn)
			if c.reply {
				res, err := http.ReadResponse(br, nil)
				if err != nil {
					t.Fatal(err)
				}
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
			}
			start := time.Now()
			_, err = br.ReadByte()
			waited := time.Since(start)
			// EOF before the client's own deadline can only come from
			// the short limit: every other limit is an hour. How soon it
			// came is a figure of this machine, logged, not asserted.
			if err != io.EOF {
				t.Fatalf("read after %v: %v, want the server to close the connection", waited, err)
			}
			t.Logf("closed after %v with a %v limit", waited, short)
		})
	}
}

func TestServeNetworkWarning(t *testing.T) {
	for _, c := range []struct {
		host string
		warn bool
	}{
		{"localhost", false},
		{"127.0.0.1", false},
		{"::1", false},
		{"0.0.0.0", true},
		{"", true},
	} {
		t.Run(c.host, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			ln, err := listen(c.host, 0, "/bloomlab", &stdout, &stderr)
			if err != nil {
				if c.host == "::1" {
					t.Skipf("no IPv6 loopback: %v", err)
				}
				t.Fatal(err)
			}
			ln.Close()
			if !strings.HasPrefix(stdout.String(), "Bloom Lab: http://") || !strings.HasSuffix(stdout.String(), "/bloomlab/\n") {
				t.Errorf("stdout %q, want the lab's address", stdout.String())
			}
			lines := strings.Count(stderr.String(), "\n")
			if c.warn && (lines != 1 || !strings.Contains(stderr.String(), "reachable from the network")) {
				t.Errorf("stderr %q, want one line saying the lab is reachable from the network", stderr.String())
			}
			if !c.warn && stderr.Len() > 0 {
				t.Errorf("stderr %q, want nothing on loopback", stderr.String())
			}
		})
	}
}

// The prerender budget: one render per slot, a render past its time
// answered 503 while it keeps its slot, a waiting request refused once its
// wait is over, and none rendered for a client that has gone.
//
// Every request goes through budgeted with the same slots, each with the
// limits its step needs: one that must run out does so at once (a
// nanosecond, against a render that waits for the test or a slot the test
// holds), and one that must not is an hour, a net against a hang only. So
// no step depends on how soon this machine renders a page or frees a slot.
func TestRenderBudget(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	release := make(chan struct{})
	pages := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if r.URL.Path == "/slow" {
			<-release
		}
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, "page "+r.URL.Path)
	})
	slots := make(chan struct{}, 1)
	const now, never = time.Nanosecond, time.Hour
	within := func(wait, run time.Duration) http.Handler {
		return budgeted(pages, renderBudget{slots: slots, wait: wait, run: run})
	}
	get := func(h http.Handler, ctx context.Context, path string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", path, nil).WithContext(ctx))
		return w
	}
	// /slow finds the slot free (its wait never ends) and renders until
	// the test releases it, past its run of a nanosecond.
	if w := get(within(never, now), context.Background(), "/slow"); w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" {
		t.Errorf("a render past its time: %d %q, want 503 with Retry-After", w.Code, w.Body)
	}
	if w := get(within(now, never), context.Background(), "/next"); w.Code != http.StatusServiceUnavailable {
		t.Errorf("while the slow render holds the only slot: %d, want 503", w.Code)
	}
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	get(within(never, never), gone, "/gone")
	close(release)
	// The slot is freed once /slow ends, which /after waits for.
	if w := get(within(never, never), context.Background(), "/after"); w.Code != http.StatusOK || w.Body.String() != "page /after" {
		t.Fatalf("after the slow render ended: %d %q, want 200 and the page", w.Code, w.Body)
	}
	// With a slot free, a client that has gone still gets no render. The
	// request after it takes the only slot, so any render of /gone has
	// ended (and been counted) by the time it is answered.
	get(within(never, never), gone, "/gone")
	if w := get(within(never, never), context.Background(), "/last"); w.Code != http.StatusOK {
		t.Fatalf("/last: %d", w.Code)
	}
	if n := calls.Load(); n != 3 {
		t.Errorf("%d renders, want 3: /slow, /after and /last", n)
	}
}
