//go:build !wasm

package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/cmd/internal/buildinfo"
)

// TestGoInstall gets the lab as a Go user does, with the README's own
// commands, from a module proxy directory made of this checkout at the
// version the README pins (the Go command's file:// proxy, read ahead of
// the usual one, which serves the dependencies): `go install ...@latest`
// and the installed command's version and audit; the CI job's `go run
// ...@VERSION audit`; and a fresh module that `go get`s audittest and passes
// audittest.Run with a small filter of its own, written as the README says.
func TestGoInstall(t *testing.T) {
	t.Parallel()
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goTool); err != nil {
		t.Skipf("no go command: %v", err)
	}
	root := repoRoot(t)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	use := readmeUse(t, string(readme))
	dir := t.TempDir()
	proxy := filepath.Join(dir, "proxy")
	writeModuleProxy(t, root, proxy, use.version)
	env := goEnv(t, goTool, dir, proxy)
	gobin := filepath.Join(dir, "gopath", "bin")
	sh := func(t *testing.T, wd, line string) string {
		t.Helper()
		cmd := exec.Command("sh", "-c", line)
		cmd.Dir, cmd.Env = wd, env
		var out, errs bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errs
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s: %v\nstdout:\n%s\nstderr:\n%s", line, err, tail(out.String()), tail(errs.String()))
		}
		return out.String()
	}
	lab := fmt.Sprintf("bloomlab %s (%s)", use.version, runtime.Version())

	t.Run("install", func(t *testing.T) {
		sh(t, dir, use.install)
		if got := sh(t, dir, "bloomlab version"); got != lab+"\n" {
			t.Errorf("the installed bloomlab version printed %q, want %q", got, lab)
		}
		var r struct {
			Passed, Failed, Total int
			Lab                   string
		}
		if err := json.Unmarshal([]byte(sh(t, dir, filepath.Join(gobin, "bloomlab")+" audit --format json")), &r); err != nil {
			t.Fatalf("the installed audit's JSON: %v", err)
		}
		if r.Failed != 0 || r.Passed == 0 || r.Lab != lab {
			t.Errorf("the installed audit: %d of %d passed, %d failed, lab %q; want none failed, lab %q", r.Passed, r.Total, r.Failed, r.Lab, lab)
		}
	})

	t.Run("ci job", func(t *testing.T) {
		work := t.TempDir()
		sh(t, work, use.run)
		var report struct {
			Tests    int `xml:"tests,attr"`
			Failures int `xml:"failures,attr"`
			Suite    struct {
				Properties []struct {
					Name  string `xml:"name,attr"`
					Value string `xml:"value,attr"`
				} `xml:"properties>property"`
			} `xml:"testsuite"`
		}
		b, err := os.ReadFile(filepath.Join(work, "audit.xml"))
		if err != nil {
			t.Fatal(err)
		}
		if err := xml.Unmarshal(b, &report); err != nil {
			t.Fatalf("audit.xml: %v", err)
		}
		props := map[string]string{}
		for _, p := range report.Suite.Properties {
			props[p.Name] = p.Value
		}
		if report.Tests == 0 || report.Failures != 0 || props["lab"] != lab {
			t.Errorf("audit.xml: %d tests, %d failures, lab %q; want none failed, lab %q", report.Tests, report.Failures, props["lab"], lab)
		}
	})

	t.Run("audittest", func(t *testing.T) {
		mod := t.TempDir()
		sh(t, mod, "go mod init example.com/myfilter")
		write(t, filepath.Join(mod, "myfilter.go"), myFilter)
		sh(t, mod, use.get)
		write(t, filepath.Join(mod, "contract_test.go"), use.test)
		if got := sh(t, mod, "go list -m "+buildinfo.Module); got != buildinfo.Module+" "+use.version+"\n" {
			t.Errorf("go list -m: %q, want the lab at %s", got, use.version)
		}
		out := sh(t, mod, "go test -count=1 -v ./...")
		if !strings.Contains(out, "--- PASS: TestMyFilterContract") || strings.Contains(out, "--- FAIL") {
			t.Errorf("go test in the fresh module:\n%s", tail(out))
		}
		if n := strings.Count(out, "    --- PASS: TestMyFilterContract/"); n < 20 {
			t.Errorf("%d of the audit's checks passed on the module's own filter, want the checks an Add and Test filter can meet:\n%s", n, tail(out))
		}
	})
}

// readmeCommands are the README's lines for Go users: install the command,
// run a pinned release's audit in CI, require audittest, and the test that
// uses it.
type readmeCommands struct {
	version, install, run, get, test string
}

// readmeUse finds the README's commands; each is pinned by its shape, so a
// README that drops one fails here.
func readmeUse(t *testing.T, readme string) readmeCommands {
	t.Helper()
	find := func(what, pattern string) []string {
		m := regexp.MustCompile(pattern).FindStringSubmatch(readme)
		if m == nil {
			t.Fatalf("the README has no %s (%s)", what, pattern)
		}
		return m
	}
	mod := regexp.QuoteMeta(buildinfo.Module)
	var c readmeCommands
	c.install = find("go install", `(?m)^go install `+mod+`/cmd/bloomlab@latest$`)[0]
	run := find("pinned go run in the CI job", `(?m)^ +- run: (go run `+mod+`/cmd/bloomlab@(v\d+\.\d+\.\d+) audit .*> audit\.xml)$`)
	c.run, c.version = run[1], run[2]
	c.get = find("go get of audittest", `(?m)^go get `+mod+`/audit/audittest@`+regexp.QuoteMeta(c.version)+`$`)[0]
	c.test = find("audittest example", "(?s)```go\n(package myfilter_test\n.*?)```")[1]
	return c
}

// myFilter is the fresh module's own filter, as the README's example calls
// it: k positions by double hashing over SHA-256 of the seed and the key.
const myFilter = `// Package myfilter is a small Bloom filter of a module that audits it.
package myfilter

import (
	"crypto/sha256"
	"encoding/binary"
)

type Filter struct {
	bits []uint64
	m    uint64
	k    int
	seed uint64
}

func New(m uint64, k int, seed uint64) *Filter {
	return &Filter{bits: make([]uint64, (m+63)/64), m: m, k: k, seed: seed}
}

func (f *Filter) positions(key []byte, at func(uint64) bool) bool {
	var s [8]byte
	binary.LittleEndian.PutUint64(s[:], f.seed)
	h := sha256.Sum256(append(s[:], key...))
	h1, h2 := binary.LittleEndian.Uint64(h[:8]), binary.LittleEndian.Uint64(h[8:16])|1
	for i := 0; i < f.k; i++ {
		if !at((h1 + uint64(i)*h2) % f.m) {
			return false
		}
	}
	return true
}

func (f *Filter) Add(key []byte) {
	f.positions(key, func(i uint64) bool { f.bits[i/64] |= 1 << (i % 64); return true })
}

func (f *Filter) Test(key []byte) bool {
	return f.positions(key, func(i uint64) bool { return f.bits[i/64]&(1<<(i%64)) != 0 })
}
`

// goEnv is the environment of the Go commands a user would run: a fresh
// GOPATH and module cache under dir, the proxy directory first, then this
// machine's module cache and the usual proxy for the dependencies. The
// lab's version exists only in the proxy directory, so the checksum
// database is not asked about it.
func goEnv(t *testing.T, goTool, dir, proxy string) []string {
	t.Helper()
	out, err := exec.Command(goTool, "env", "GOMODCACHE", "GOPROXY", "GOCACHE").Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	vars := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(vars) != 3 {
		t.Fatalf("go env printed %q", out)
	}
	proxies := []string{fileURL(proxy)}
	if cache := filepath.Join(vars[0], "cache", "download"); vars[0] != "" {
		if _, err := os.Stat(cache); err == nil {
			proxies = append(proxies, fileURL(cache))
		}
	}
	if vars[1] != "" && vars[1] != "off" {
		proxies = append(proxies, vars[1])
	}
	gopath := filepath.Join(dir, "gopath")
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GO") && !strings.HasPrefix(kv, "PATH=") {
			env = append(env, kv)
		}
	}
	return append(env,
		"PATH="+filepath.Join(gopath, "bin")+string(os.PathListSeparator)+filepath.Dir(goTool)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"GOPATH="+gopath,
		"GOMODCACHE="+filepath.Join(gopath, "pkg", "mod"),
		"GOCACHE="+vars[2],
		"GOPROXY="+strings.Join(proxies, ","),
		"GONOSUMDB="+buildinfo.Module,
		"GOFLAGS=-modcacherw",
		"GOTOOLCHAIN=local",
	)
}

// fileURL is the file:// URL of a directory, as GOPROXY takes it.
func fileURL(dir string) string {
	return "file://" + filepath.ToSlash(dir)
}

// writeModuleProxy writes what the Go command reads from a module proxy
// for the lab at version: the version list, the .info, the .mod and the
// module zip, made of the checkout's sources (tracked, or new and not
// ignored, as git lists them) less the modules nested in it (compare/).
func writeModuleProxy(t *testing.T, root, proxy, version string) {
	t.Helper()
	files := sourceFiles(t, root)
	at := filepath.Join(proxy, filepath.FromSlash(buildinfo.Module), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(at, "list"), version+"\n")
	write(t, filepath.Join(at, version+".info"), fmt.Sprintf(`{"Version":%q,"Time":"2026-12-01T00:00:00Z"}`, version))
	write(t, filepath.Join(at, version+".mod"), string(gomod))
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range files {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		w, err := zw.Create(buildinfo.Module + "@" + version + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(at, version+".zip"), buf.String())
}

// sourceFiles lists the module's files as a release would hold them:
// what git tracks or would track, present in the tree, outside nested
// modules.
func sourceFiles(t *testing.T, root string) []string {
	t.Helper()
	out := git(t, root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	names := strings.Split(strings.TrimSuffix(out, "\x00"), "\x00")
	nested := map[string]bool{}
	for _, name := range names {
		if dir := path.Dir(name); path.Base(name) == "go.mod" && dir != "." {
			nested[dir] = true
		}
	}
	var files []string
	seen := map[string]bool{}
	for _, name := range names {
		if seen[name] || inNested(name, nested) {
			continue
		}
		seen[name] = true
		if fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(name))); err == nil && fi.Mode().IsRegular() {
			files = append(files, name)
		}
	}
	return files
}

// inNested says whether name lies in one of the nested modules' folders.
func inNested(name string, nested map[string]bool) bool {
	for dir := path.Dir(name); dir != "."; dir = path.Dir(dir) {
		if nested[dir] {
			return true
		}
	}
	return false
}

func write(t *testing.T, name, content string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// tail is the last 40 lines of s, enough to read a failure by.
func tail(s string) string {
	lines := strings.Split(s, "\n")
	return strings.Join(lines[max(0, len(lines)-40):], "\n")
}
