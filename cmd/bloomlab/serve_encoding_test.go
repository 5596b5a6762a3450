//go:build !js

package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
)

// fetch sends one request to a real server as curl does: Accept-Encoding
// only when accept is not "-", and the body as it came, never decoded.
func fetch(t *testing.T, method, url, accept string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if accept != "-" {
		req.Header.Set("Accept-Encoding", accept)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	// A Transport that adds no gzip of its own and decodes nothing.
	res, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, body
}

// decode undoes a response's Content-Encoding.
func decode(t *testing.T, coding string, body []byte) []byte {
	t.Helper()
	var r io.Reader
	switch coding {
	case "":
		return body
	case "br":
		r = brotli.NewReader(bytes.NewReader(body))
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	default:
		t.Fatalf("Content-Encoding %q", coding)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("decoding %s: %v", coding, err)
	}
	return b
}

// The server sends the coding the client weighs highest, for the wasm
// (also at go-app's own /app.wasm routes), a style from the web directory
// and go-app's app.js: with the file's type, Vary, its own ETag and a
// Content-Length, for GET and HEAD alike, and a body that decodes to the
// identity bytes exactly.
func TestServeSendsAcceptedEncoding(t *testing.T) {
	routesOnceForServe()
	web, wasm := fakeWeb(t)
	css, err := os.ReadFile(filepath.Join(web, "lab.css"))
	if err != nil {
		t.Fatal(err)
	}
	_, version, _ := wasmInfo(web)
	accepts := []struct{ accept, want string }{
		{"br", "br"},
		{"gzip", "gzip"},
		{"br;q=0, gzip", "gzip"},
		{"gzip;q=1, br;q=0.5", "gzip"},
		{"gzip, deflate, br, zstd", "br"},
		{"-", ""}, // no Accept-Encoding at all
		{"identity", ""},
		{"br;q=0, gzip;q=0", ""},
		{"deflate", ""},
	}
	for _, prefix := range []string{"", "/bloomlab"} {
		h, err := labServer(web, prefix)
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(h)
		defer srv.Close()
		_, appJS := fetch(t, "GET", srv.URL+prefix+"/app.js", "identity")
		for _, f := range []struct {
			path, contentType string
			body              []byte
		}{
			{"/web/app.wasm", "application/wasm", wasm},
			{"/app.wasm", "application/wasm", wasm},
			{"/goapp.wasm", "application/wasm", wasm},
			{"/" + version + "/web/app.wasm", "application/wasm", wasm},
			{"/web/lab.css", "text/css; charset=utf-8", css},
			{"/app.js", "application/javascript", appJS}, // go-app's own type
		} {
			for _, a := range accepts {
				t.Run(prefix+f.path+" "+a.accept, func(t *testing.T) {
					res, body := fetch(t, "GET", srv.URL+prefix+f.path, a.accept)
					if res.StatusCode != 200 {
						t.Fatalf("status %d: %s", res.StatusCode, body)
					}
					ce := res.Header.Get("Content-Encoding")
					if ce != a.want {
						t.Errorf("Content-Encoding %q, want %q", ce, a.want)
					}
					if got := res.Header.Get("Content-Type"); got != f.contentType {
						t.Errorf("Content-Type %q, want %q", got, f.contentType)
					}
					if !strings.Contains(strings.Join(res.Header.Values("Vary"), ","), "Accept-Encoding") {
						t.Errorf("Vary %q, want Accept-Encoding", res.Header.Values("Vary"))
					}
					if got := res.Header.Get("Content-Length"); got != strconv.Itoa(len(body)) {
						t.Errorf("Content-Length %q for %d bytes", got, len(body))
					}
					if got := decode(t, ce, body); !bytes.Equal(got, f.body) {
						t.Errorf("%d bytes decode to %d, want the identity's %d exactly", len(body), len(got), len(f.body))
					}
					head, hbody := fetch(t, "HEAD", srv.URL+prefix+f.path, a.accept)
					if len(hbody) > 0 || head.StatusCode != 200 {
						t.Errorf("HEAD: status %d with %d bytes", head.StatusCode, len(hbody))
					}
					for _, k := range []string{"Content-Encoding", "Content-Type", "Content-Length", "ETag", "Vary"} {
						if head.Header.Get(k) != res.Header.Get(k) {
							t.Errorf("HEAD %s %q, GET's %q", k, head.Header.Get(k), res.Header.Get(k))
						}
					}
				})
			}
		}
	}
}

// Files too small to gain (under a kilobyte) and formats compressed already
// go as they are, whatever the client accepts, and say nothing of Vary.
func TestServeLeavesSmallAndCompressedFiles(t *testing.T) {
	routesOnceForServe()
	web, _ := fakeWeb(t)
	h, err := labServer(web, "")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	for _, name := range []string{"tiny.css", "icon.png"} {
		want, err := os.ReadFile(filepath.Join(web, name))
		if err != nil {
			t.Fatal(err)
		}
		res, body := fetch(t, "GET", srv.URL+"/web/"+name, "br, gzip")
		if res.StatusCode != 200 || res.Header.Get("Content-Encoding") != "" || !bytes.Equal(body, want) {
			t.Errorf("%s: status %d, Content-Encoding %q, %d bytes; want 200 and the file as it is",
				name, res.StatusCode, res.Header.Get("Content-Encoding"), len(body))
		}
		if v := res.Header.Values("Vary"); len(v) > 0 {
			t.Errorf("%s: Vary %q for a response that never varies", name, v)
		}
	}
}

// Under a prefix, go-app handed /PREFIX/app.wasm and /PREFIX/VERSION/web/...
// to a file server it did not have, and the nil dereference, in the
// goroutine that renders, ended the whole server. Now the web directory
// answers them, and a render that panics ends its request only.
func TestServePrefixedAppWasmDoesNotCrash(t *testing.T) {
	routesOnceForServe()
	web, wasm := fakeWeb(t)
	h, err := labServer(web, "/bloomlab")
	if err != nil {
		t.Fatal(err)
	}
	_, version, _ := wasmInfo(web)
	for _, path := range []string{"/bloomlab/app.wasm", "/bloomlab/goapp.wasm", "/bloomlab/" + version + "/web/app.wasm"} {
		res, body := get(t, h, "GET", path)
		if res.StatusCode != 200 || !bytes.Equal(body, wasm) {
			t.Errorf("%s: status %d with %d bytes, want app.wasm", path, res.StatusCode, len(body))
		}
	}

	pages := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/panics" {
			var m map[string]int
			m["x"]++
		}
		io.WriteString(w, "page")
	})
	b := budgeted(pages, newRenderBudget())
	if res, _ := get(t, b, "GET", "/panics"); res.StatusCode != http.StatusInternalServerError {
		t.Errorf("a render that panics: status %d, want 500", res.StatusCode)
	}
	if res, body := get(t, b, "GET", "/next"); res.StatusCode != 200 || string(body) != "page" {
		t.Errorf("after a panic: status %d, %q; want the page", res.StatusCode, body)
	}
}
