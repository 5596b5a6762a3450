package main

import (
	"bytes"
	"strings"
	"testing"
)

// wasmModule builds a small binary: one imported function, two bodies of
// 3 and 5 bytes named as the Go linker names them, and a data section with
// the runtime's NUL-separated Go names.
func wasmModule() []byte {
	sec := func(id byte, body ...byte) []byte { return append([]byte{id, byte(len(body))}, body...) }
	str := func(s string) []byte { return append([]byte{byte(len(s))}, s...) }
	var imp []byte
	imp = append(imp, 1)
	imp = append(imp, str("go")...)
	imp = append(imp, str("f")...)
	imp = append(imp, 0, 0) // a function of type 0
	code := []byte{2, 3, 0, 0, 0x0b, 5, 0, 0, 0, 0, 0x0b}
	names := []byte{2}
	names = append(names, 1)
	names = append(names, str("github.com_x_y_core.__Filter_.Add")...)
	names = append(names, 2)
	names = append(names, str("runtime.mallocgc")...)
	custom := append(str("name"), sec(1, names...)...)
	data := []byte("\x00github.com/x/y/core.(*Filter).Add\x00runtime.mallocgc\x00")
	b := []byte("\x00asm\x01\x00\x00\x00")
	b = append(b, sec(2, imp...)...)
	b = append(b, sec(10, code...)...)
	b = append(b, sec(11, data...)...)
	b = append(b, sec(0, custom...)...)
	return b
}

func TestReport(t *testing.T) {
	m, err := parse(wasmModule())
	if err != nil {
		t.Fatal(err)
	}
	if m.imported != 1 || len(m.bodies) != 2 || m.bodies[0] != 3 || m.bodies[1] != 5 {
		t.Fatalf("imported %d, bodies %v; want 1 and [3 5]", m.imported, m.bodies)
	}
	var out bytes.Buffer
	report(&out, m, 10)
	for _, want := range []string{"github.com/x/y/core", "runtime"} {
		if !strings.Contains(out.String(), want+" ") {
			t.Errorf("report lacks package %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "github ") || strings.Contains(out.String(), "_x_") {
		t.Errorf("report names a package by its sanitized name:\n%s", out.String())
	}
}

func TestPkg(t *testing.T) {
	for name, want := range map[string]string{
		"github.com/x/y/core.(*Filter).Add":                    "github.com/x/y/core",
		"github.com/x/app/lessons.(*Page).github.com/x/lab.OK": "github.com/x/app/lessons",
		"slices.Sort[go.shape.[]github.com/x/y.T]":             "slices",
		"runtime.mallocgc":                                     "runtime",
		"type:.eq.main.T":                                      "type:",
	} {
		if got := pkg(name); got != want {
			t.Errorf("pkg(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestParseRefusesTruncated(t *testing.T) {
	b := wasmModule()
	for _, n := range []int{9, 12, len(b) - 1} {
		if _, err := parse(b[:n]); err == nil {
			t.Errorf("a binary cut inside a section, at %d of %d bytes, parsed", n, len(b))
		}
	}
	if _, err := parse([]byte("not wasm")); err == nil {
		t.Error("a text file parsed as WebAssembly")
	}
}
