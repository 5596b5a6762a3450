// Command wasmsize says where a Go WebAssembly binary's bytes go: its code
// by Go package, from the function bodies of the code section and the
// names of the name section, and its data. It reads a binary built without
// -s (the lab's release build strips the names; build one with them to
// measure):
//
//	GOOS=js GOARCH=wasm go build -trimpath -o /tmp/app.wasm ./cmd/bloomlab
//	go run ./cmd/wasmsize /tmp/app.wasm
//
// It prints the sections, then the packages by code size, the largest
// first, with the share of the code each takes; -n sets how many.
package main

import (
	"bytes"
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

func main() {
	top := flag.Int("n", 40, "packages to list, the largest first")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: wasmsize [-n N] FILE.wasm")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 || *top < 1 {
		flag.Usage()
		os.Exit(2)
	}
	b, err := os.ReadFile(flag.Arg(0))
	if err == nil {
		var m module
		m, err = parse(b)
		if err == nil {
			report(os.Stdout, m, *top)
			return
		}
	}
	fmt.Fprintln(os.Stderr, "wasmsize:", err)
	os.Exit(1)
}

// module is what wasmsize reads of a binary: each section's size, each
// function body's size and the functions' names.
type module struct {
	sections []section
	imported int            // imported functions, which come first in the index space
	bodies   []int          // code bodies' sizes, in order, from index imported on
	names    map[int]string // function index to name
	data     []byte         // the data section, which holds Go's table of function names
}

type section struct {
	name string
	size int
}

var sectionNames = map[byte]string{1: "type", 2: "import", 3: "function", 4: "table", 5: "memory",
	6: "global", 7: "export", 8: "start", 9: "element", 10: "code", 11: "data", 12: "data count"}

// reader reads a binary's LEB128 numbers and names, remembering the first
// error.
type reader struct {
	b   []byte
	err error
}

func (r *reader) uleb() int {
	var v, shift uint64
	for {
		if len(r.b) == 0 {
			r.fail()
			return 0
		}
		c := r.b[0]
		r.b = r.b[1:]
		v |= uint64(c&0x7f) << shift
		if c&0x80 == 0 {
			break
		}
		if shift += 7; shift > 63 {
			r.fail()
			return 0
		}
	}
	if v > uint64(len(r.b))+1<<32 {
		r.fail()
		return 0
	}
	return int(v)
}

func (r *reader) bytes(n int) []byte {
	if n < 0 || n > len(r.b) {
		r.fail()
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *reader) name() string { return string(r.bytes(r.uleb())) }

func (r *reader) fail() {
	if r.err == nil {
		r.err = io.ErrUnexpectedEOF
	}
	r.b = nil
}

// parse reads the sections of a WebAssembly binary.
func parse(b []byte) (module, error) {
	m := module{names: map[int]string{}}
	if len(b) < 8 || string(b[:4]) != "\x00asm" {
		return m, errors.New("not a WebAssembly binary")
	}
	r := &reader{b: b[8:]}
	for len(r.b) > 0 && r.err == nil {
		id := r.bytes(1)
		body := &reader{b: r.bytes(r.uleb())}
		if r.err != nil {
			break
		}
		s := section{name: sectionNames[id[0]], size: len(body.b)}
		switch id[0] {
		case 0:
			s.name = "custom " + body.name()
			if s.name == "custom name" {
				readNames(body, m.names)
			}
		case 2:
			for n := body.uleb(); n > 0 && body.err == nil; n-- {
				body.name()
				body.name()
				kind := body.bytes(1)
				if len(kind) == 1 && kind[0] == 0 {
					m.imported++
					body.uleb()
				} else {
					skipImport(body, kind)
				}
			}
		case 11:
			m.data = body.b
		case 10:
			for n := body.uleb(); n > 0 && body.err == nil; n-- {
				m.bodies = append(m.bodies, len(body.bytes(body.uleb())))
			}
		}
		if body.err != nil {
			return m, fmt.Errorf("%s section: %v", s.name, body.err)
		}
		m.sections = append(m.sections, s)
	}
	return m, r.err
}

// skipImport reads past an import that is not a function.
func skipImport(r *reader, kind []byte) {
	if len(kind) != 1 {
		return
	}
	switch kind[0] {
	case 1: // table: element type, limits
		r.bytes(1)
		skipLimits(r)
	case 2: // memory: limits
		skipLimits(r)
	case 3: // global: value type, mutability
		r.bytes(2)
	default:
		r.fail()
	}
}

func skipLimits(r *reader) {
	flags := r.bytes(1)
	r.uleb()
	if len(flags) == 1 && flags[0]&1 != 0 {
		r.uleb()
	}
}

// readNames reads the function names subsection of a name section.
func readNames(r *reader, names map[int]string) {
	for len(r.b) > 0 && r.err == nil {
		id := r.bytes(1)
		sub := &reader{b: r.bytes(r.uleb())}
		if len(id) == 1 && id[0] == 1 {
			for n := sub.uleb(); n > 0 && sub.err == nil; n-- {
				i := sub.uleb()
				names[i] = sub.name()
			}
		}
	}
}

// sanitized is how the linker writes a name in the name section: every
// character but letters, digits, '_' and '.' becomes '_'.
var sanitized = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^\w.]`) })

// goNames maps the name section's names back to Go's own, which the data
// section holds NUL-terminated in the runtime's table of function names:
// "github.com_x_y.__T_.M" is "github.com/x/y.(*T).M".
func goNames(data []byte) map[string]string {
	names := map[string]string{}
	for _, b := range bytes.Split(data, []byte{0}) {
		if len(b) < 3 || len(b) > 4096 || !bytes.ContainsRune(b, '.') || !utf8.Valid(b) {
			continue
		}
		s := string(b)
		if strings.ContainsFunc(s, func(r rune) bool { return r < ' ' || r == 0x7f }) {
			continue
		}
		names[sanitized().ReplaceAllString(s, "_")] = s
	}
	return names
}

// pkg is the Go package of a function's name:
// "github.com/x/y/core.(*Filter).Add" is "github.com/x/y/core". What
// follows a '(' or '[' (a method's receiver, a generic instance's type
// arguments, a method value's own package) names other packages.
func pkg(name string) string {
	if i := strings.IndexAny(name, "(["); i >= 0 {
		name = name[:i]
	}
	slash := strings.LastIndexByte(name, '/') + 1
	if dot := strings.IndexByte(name[slash:], '.'); dot >= 0 {
		return name[:slash+dot]
	}
	return name
}

type share struct {
	pkg   string
	bytes int
	funcs int
}

// report prints the sections and the top packages by code size.
func report(w io.Writer, m module, top int) {
	total := 0
	for _, s := range m.sections {
		total += s.size
	}
	fmt.Fprintf(w, "%-28s %12s\n", "section", "bytes")
	for _, s := range m.sections {
		fmt.Fprintf(w, "%-28s %12d %5.1f%%\n", s.name, s.size, pct(s.size, total))
	}
	if len(m.names) == 0 {
		fmt.Fprintln(w, "\nno function names: build without -s to see the code by package")
		return
	}
	original := goNames(m.data)
	by := map[string]*share{}
	code := 0
	for i, size := range m.bodies {
		name, ok := m.names[m.imported+i]
		if !ok {
			name = "(unnamed)"
		}
		if o, ok := original[name]; ok {
			name = o
		}
		p := pkg(name)
		if by[p] == nil {
			by[p] = &share{pkg: p}
		}
		by[p].bytes += size
		by[p].funcs++
		code += size
	}
	list := make([]*share, 0, len(by))
	for _, s := range by {
		list = append(list, s)
	}
	slices.SortFunc(list, func(a, b *share) int { return cmp.Or(b.bytes-a.bytes, strings.Compare(a.pkg, b.pkg)) })
	fmt.Fprintf(w, "\n%-60s %10s %6s %6s\n", "package", "code bytes", "share", "funcs")
	for i, s := range list {
		if i == top {
			fmt.Fprintf(w, "... and %d packages more\n", len(list)-top)
			break
		}
		fmt.Fprintf(w, "%-60s %10d %5.1f%% %6d\n", s.pkg, s.bytes, pct(s.bytes, code), s.funcs)
	}
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}
