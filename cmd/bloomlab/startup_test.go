//go:build !js

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/audit"
)

// TestAuditPagePrerendersEveryCheck: the audit page as the server sends it
// has one row per check, in the audit's order, each pending, so that the
// outcomes fill rows already in place and nothing below the table moves
// as the audit runs (Lighthouse measured a layout shift of 0.085 when the
// rows were added one by one).
func TestAuditPagePrerendersEveryCheck(t *testing.T) {
	routesOnceForServe()
	web, _ := fakeWeb(t)
	h, err := labServer(web, "")
	if err != nil {
		t.Fatal(err)
	}
	res, body := get(t, h, "GET", "/audit")
	if res.StatusCode != 200 {
		t.Fatalf("GET /audit: %s", res.Status)
	}
	var ids []string
	for _, tr := range regexp.MustCompile(`<tr\b[^>]*>`).FindAllString(string(body), -1) {
		id := regexp.MustCompile(`\bid="check-([^"]+)"`).FindStringSubmatch(tr)
		if id == nil {
			continue
		}
		ids = append(ids, id[1])
		if !regexp.MustCompile(`\bclass="pending"`).MatchString(tr) {
			t.Errorf("row %s is not pending before the audit runs: %s", id[1], tr)
		}
	}
	var want []string
	for _, c := range audit.Checks() {
		want = append(want, c.ID)
	}
	if !slices.Equal(ids, want) {
		t.Errorf("the prerendered table has %d check rows, want one for each of the %d checks in order", len(ids), len(want))
	}
}

// TestAppJSStartsAfterPaint: serve and the static site both send the
// lab's app.js, which leaves the start to web/start.js (it neither starts
// the WebAssembly nor registers the service worker as it runs), and both
// send web/start.js, which starts them after the first paint.
func TestAppJSStartsAfterPaint(t *testing.T) {
	routesOnceForServe()
	web, _ := fakeWeb(t)
	start, err := os.ReadFile("../../web/start.js")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(web, "start.js"), start, 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := labServer(web, "")
	if err != nil {
		t.Fatal(err)
	}
	scripts := map[string][]byte{}
	for _, path := range []string{"/app.js", "/goapp.js", "/web/start.js"} {
		res, body := get(t, h, "GET", path)
		if res.StatusCode != 200 {
			t.Fatalf("GET %s: %s", path, res.Status)
		}
		scripts["serve "+path] = body
	}
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := dispatch([]string{"site", "-o", out, "--web", web}, &stdout, &stderr); code != 0 {
		t.Fatalf("site: exit %d: %s", code, stderr.String())
	}
	for _, name := range []string{"app.js", "web/start.js"} {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		scripts["site /"+name] = b
	}
	for name, js := range scripts {
		s := string(js)
		if strings.HasSuffix(name, "/start.js") {
			if s != string(start) {
				t.Errorf("%s is not the lab's web/start.js", name)
			}
			continue
		}
		if strings.Contains(s, "\ngoappInitWebAssembly();\n") || strings.Contains(s, "\ngoappInitServiceWorker();\n") {
			t.Errorf("%s still starts the WebAssembly or the service worker as it runs", name)
		}
		if !strings.Contains(s, "function goappInitWebAssembly()") {
			t.Errorf("%s is not go-app's app.js", name)
		}
	}
}
