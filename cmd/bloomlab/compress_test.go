//go:build !js

package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"testing"

	"github.com/andybalholm/brotli"
)

func TestServeNegotiate(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ accept, want string }{
		{"", ""},
		{"br", "br"},
		{"gzip", "gzip"},
		{"gzip, deflate, br, zstd", "br"}, // Chrome's
		{"gzip, br", "br"},
		{"br;q=0, gzip", "gzip"},
		{"br; q=0 , gzip", "gzip"},
		{"br;Q=0, gzip", "gzip"},
		{"br;q=0.000, gzip", "gzip"},
		{"gzip;q=1, br;q=0.5", "gzip"},
		{"gzip;q=0.8, br;q=0.9", "br"},
		{"gzip;q=0.5, br;q=0.5", "br"},
		{"br;q=0, gzip;q=0", ""},
		{"identity", ""},
		{"deflate, zstd", ""},
		{"identity;q=1, br;q=0.5", ""},
		{"identity;q=0.5, br;q=0.5", "br"},
		{"identity;q=0.6, br;q=0.4, gzip;q=0.7", "gzip"},
		{"*", "br"},
		{"*;q=0", ""},
		{"*;q=0.1, gzip;q=0.2", "gzip"},
		{"br;q=0, *", "gzip"},
		{"GZIP", "gzip"},
		{"x-gzip", "gzip"},
		{"Br", "br"},
		{"br;q=2, gzip", "gzip"},      // out of range: ignored
		{"br;q=0.5000, gzip", "gzip"}, // four decimals: ignored
		{"br;q=1.5, gzip", "gzip"},
		{"br;q=.5, gzip", "gzip"},
		{"br;q=1., gzip;q=0.9", "br"},
		{"br;q=abc", ""},
		{"br;level=5", "br"},
		{"br, br;q=0", "br"}, // the first mention counts
		{" , ,gzip", "gzip"},
	} {
		if got := negotiate(c.accept); got != c.want {
			t.Errorf("negotiate(%q) = %q, want %q", c.accept, got, c.want)
		}
	}
}

// The copies decompress to their input, and the same input gives the same
// bytes: a gzip header with no name and no time, brotli at a fixed quality.
func TestSiteServeCompressDeterministic(t *testing.T) {
	t.Parallel()
	raw := bytes.Repeat([]byte("the same input gives the same bytes\n"), 200)
	for _, e := range []effort{siteEffort, serveEffort} {
		br, gz, err := compressBoth(raw, e)
		if err != nil {
			t.Fatal(err)
		}
		if gz[3] != 0 || !bytes.Equal(gz[4:8], []byte{0, 0, 0, 0}) {
			t.Errorf("gzip header flags %#x, time % x: want no name, comment or extra field and no time", gz[3], gz[4:8])
		}
		zr, err := gzip.NewReader(bytes.NewReader(gz))
		if err != nil {
			t.Fatal(err)
		}
		if got, err := io.ReadAll(zr); err != nil || !bytes.Equal(got, raw) {
			t.Errorf("gzip copy: %d bytes back (%v), want the %d in", len(got), err, len(raw))
		}
		if got, err := io.ReadAll(brotli.NewReader(bytes.NewReader(br))); err != nil || !bytes.Equal(got, raw) {
			t.Errorf("brotli copy: %d bytes back (%v), want the %d in", len(got), err, len(raw))
		}
		br2, gz2, _ := compressBoth(raw, e)
		if !bytes.Equal(br, br2) || !bytes.Equal(gz, gz2) {
			t.Error("the same input gave different bytes")
		}
	}
}
