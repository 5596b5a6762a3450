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
	"strings"
	"testing"
)

// fakeWeb writes a web directory with a stand-in app.wasm, for tests that
// need the server but not a browser.
func fakeWeb(t *testing.T) (string, []byte) {
	t.Helper()
	dir := t.TempDir()
	wasm := bytes.Repeat([]byte("\x00asm not really "), 4096)
	if err := os.WriteFile(filepath.Join(dir, "app.wasm"), wasm, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "lab.css"), []byte("body{}"), 0o644); err != nil {
		t.Fatal(err)
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
		{[]string{"serve", "--bogus"}, "flag provided but not defined"},
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
		"web/app.wasm", "web/app.wasm.gz", "web/lab.css", ".nojekyll"} {
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
}
