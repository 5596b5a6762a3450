//go:build !wasm

package main

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/andybalholm/brotli"
)

// Compressed copies. app.wasm is nearly all of the lab's download: 10.07 MB
// raw, 2.61 MB at gzip -9, 2.15 MB as brotli at quality 9. `bloomlab site`
// writes a .br and a .gz copy beside each file worth compressing, for static
// hosts that send precompressed files; `bloomlab serve` keeps its copies in
// memory and sends the one the client weighs highest (negotiate).
//
// Compression is deterministic: the same bytes in give the same bytes out.
// The gzip header carries no name and no modification time (Go's writer
// leaves both out when the header is left empty), and brotli has no header
// to vary.

// codings are the content codings the lab sends besides identity, in order
// of preference at equal weight, with the suffix of a copy written beside
// its file.
var codings = []struct{ name, suffix string }{
	{"br", ".br"},
	{"gzip", ".gz"},
}

// effort is how hard to compress: a gzip level, and brotli's quality for
// files up to brotliLarge bytes and for larger ones.
type effort struct {
	gzip, brotli, brotliLarge int
}

// brotliLarge is where brotli's top qualities stop paying: quality 11 runs
// at about 0.17 MB/s here, so a file of this size takes about 6 s.
const brotliLarge = 1 << 20

// siteEffort is the best each format gives in the time a CI run can spare.
// On app.wasm (10.07 MB), on a 2-core machine sharing a CI run, brotli took
// 47 s at quality 11 (1.89 MB), and 28 s at 10 on an earlier 10.73 MB
// build, both over the 20 s a site build may spend; quality 9 takes 4.1 s
// (2.15 MB), so files over brotliLarge get 9 and the rest 11 (the largest
// page, 26 kB, in 0.1 s). gzip -9 takes 1.3 s (2.61 MB; -6 gives 2.63 MB),
// beside brotli on the other core.
var siteEffort = effort{gzip: gzip.BestCompression, brotli: 11, brotliLarge: 9}

// serveEffort is what serve spends, once per file version, compressing in
// the background from startup: brotli 6 makes app.wasm 2.18 MB in 1.3 s
// (2% over site's quality 9 in a third of the time) and gzip 6 2.63 MB in
// 0.5 s. It is also spent on each response go-app renders, a few kilobytes
// in a millisecond or so.
var serveEffort = effort{gzip: gzip.DefaultCompression, brotli: 6, brotliLarge: 6}

// minCompress is the smallest file worth compressing: below a kilobyte the
// saving is a few hundred bytes, less than a second copy costs a static
// host, and some encodings come out larger than the file.
const minCompress = 1024

// worthCompressing reports whether a file of this name and size gets
// compressed copies: text, WebAssembly and SVG of at least minCompress
// bytes, and never a format compressed already (PNG).
func worthCompressing(name string, size int64) bool {
	return size >= minCompress && compressible(name)
}

func compressible(name string) bool {
	switch filepath.Ext(name) {
	case ".wasm", ".js", ".css", ".html", ".svg", ".json", ".webmanifest", ".txt":
		return true
	}
	return false
}

// contentType is the type of a file by its extension, the same for every
// encoding of it, or "" to let http.ServeContent choose.
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
	case ".json":
		return "application/json"
	case ".webmanifest":
		return "application/manifest+json"
	case ".txt":
		return "text/plain; charset=utf-8"
	}
	return ""
}

// compress encodes raw in coding ("br" or "gzip") at effort e.
func compress(coding string, raw []byte, e effort) ([]byte, error) {
	switch coding {
	case "br":
		q := e.brotli
		if len(raw) > brotliLarge {
			q = e.brotliLarge
		}
		return brotliBytes(raw, q)
	case "gzip":
		return gzipBytes(raw, e.gzip)
	}
	return nil, fmt.Errorf("no content coding %q: want br or gzip", coding)
}

// compressBoth makes raw's brotli and gzip copies side by side, one on
// each core: the gzip copy is done well before the brotli one.
func compressBoth(raw []byte, e effort) (br, gz []byte, err error) {
	var gzErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		gz, gzErr = compress("gzip", raw, e)
	}()
	br, err = compress("br", raw, e)
	<-done
	return br, gz, errors.Join(err, gzErr)
}

func brotliBytes(raw []byte, quality int) ([]byte, error) {
	var buf bytes.Buffer
	zw := brotli.NewWriterLevel(&buf, quality)
	if _, err := zw.Write(raw); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// gzipBytes compresses raw at level under an empty header: no name, no
// modification time.
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

// negotiate picks the coding of a response from the request's
// Accept-Encoding (RFC 9110, section 12.5.3): "br" or "gzip", whichever
// the client weighs higher, br on a tie, or "" for the bytes as they are
// when the client accepts neither (q=0 refuses a coding; * stands for the
// codings it does not name) or weighs identity higher. x-gzip is gzip
// (section 8.4.1.3), and an entry with a malformed weight is ignored. A
// request without the header gets identity: the RFC allows any coding then,
// but a client that sends none (curl, a script) wants the file's bytes.
func negotiate(accept string) string {
	weights := map[string]float64{}
	for _, entry := range strings.Split(accept, ",") {
		coding, params, _ := strings.Cut(entry, ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding == "x-gzip" {
			coding = "gzip"
		}
		q, ok := qvalue(params)
		if coding == "" || !ok {
			continue
		}
		if _, seen := weights[coding]; !seen {
			weights[coding] = q
		}
	}
	weight := func(coding string) float64 {
		if q, ok := weights[coding]; ok {
			return q
		}
		return weights["*"] // 0 when there is no *
	}
	// Identity unnamed is the fallback, below any coding the client accepts.
	id := weights["identity"]
	for _, c := range codings {
		best := true
		for _, other := range codings {
			if weight(other.name) > weight(c.name) {
				best = false
			}
		}
		if q := weight(c.name); best && q > 0 && q >= id {
			return c.name
		}
	}
	return ""
}

// qvalue reads the weight among an Accept-Encoding entry's parameters: 1
// when there is none; ok is false when it is malformed (RFC 9110, section
// 12.4.2: 0 to 1, at most three decimals).
func qvalue(params string) (q float64, ok bool) {
	q = 1
	for _, p := range strings.Split(params, ";") {
		name, value, _ := strings.Cut(p, "=")
		if !strings.EqualFold(strings.TrimSpace(name), "q") {
			continue
		}
		value = strings.TrimSpace(value)
		whole, frac, _ := strings.Cut(value, ".")
		if (whole != "0" && whole != "1") || len(frac) > 3 || strings.Trim(frac, "0123456789") != "" ||
			(whole == "1" && strings.Trim(frac, "0") != "") {
			return 0, false
		}
		q, _ = strconv.ParseFloat(value, 64)
	}
	return q, true
}
