//go:build !wasm

package main

import (
	"net/url"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/lab"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui"
)

// TestFigureCommand: bloomlab figure prints the figure the lab makes for
// the same settings (lab.FigureOf, which the page's own figure equals, see
// app/lab's TestFigureOfIsThePagesFigure), for every figure, with the
// settings before or after the flags, and a whole link's site in the
// title.
func TestFigureCommand(t *testing.T) {
	const query = "bits-per-key=6&hashes=3"
	q, _ := url.ParseQuery(query)
	s, _ := settings.LabFromQuery(q)
	for _, which := range lab.Figures {
		code, out, errOut := run("figure", "--chart", which, query)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", which, code, errOut)
		}
		want, err := lab.FigureOf(s, which, ui.DefaultFigureWidth, "")
		if err != nil {
			t.Fatal(err)
		}
		if out != want.SVG+"\n" {
			t.Errorf("%s: the command printed another figure than the lab's:\n%.200s", which, out)
		}
		if err := ui.CheckFigure(out, ui.Chart{}, "/?"+s.Query().Encode()); err != nil {
			t.Errorf("%s: %v", which, err)
		}
	}
	code, out, errOut := run("figure", "https://example.org/?"+query, "--chart", "k", "--width", "400", "--large")
	if code != 0 || !strings.HasPrefix(out, `<svg width="400" `) || !strings.Contains(out, "https://example.org/?") || !strings.Contains(out, "large=on") {
		t.Errorf("a whole link, the flags after it: exit %d %s\n%.300s", code, errOut, out)
	}
	code, out, _ = run("figure", "--chart", "bits-per-key", "--format", "csv", query)
	if code != 0 || !strings.HasPrefix(out, "series,kind,x,y,lo,hi\ntheory at k = 3,line,0.5,") {
		t.Errorf("csv: exit %d\n%.200s", code, out)
	}
	code, out, errOut = run("figure", "--chart", "experiment-overfill", "items=1000")
	if code != 0 || !strings.Contains(out, "/experiments?experiment=overfill&amp;items=1000") {
		t.Errorf("an experiment's chart: exit %d %s\n%.300s", code, errOut, out)
	}
}

// TestFigureCommandRefuses: what the command cannot draw as asked exits 2
// with a line that says why.
func TestFigureCommandRefuses(t *testing.T) {
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"figure", "bits-per-key=6"}, "--chart names the figure"},
		{[]string{"figure", "--chart", "pie"}, `"pie" is not one of k, bits-per-key, bits, overlap`},
		{[]string{"figure", "--chart", "k", "--width", "5000"}, "--width must be a whole number of pixels in [240, 1600], got 5000"},
		{[]string{"figure", "--chart", "k", "--format", "png"}, "the browser makes PNGs"},
		{[]string{"figure", "--chart", "k", "--format", "pdf"}, "--format must be svg or csv"},
		{[]string{"figure", "--chart", "k", "bits-per-key=lots"}, `bits-per-key: "lots" is not a number`},
		{[]string{"figure", "--chart", "k", "items=1e12"}, "items"},
		{[]string{"figure", "--chart", "k", "colour=red"}, `"colour" is no setting of the page`},
		{[]string{"figure", "--chart", "k", "a=1", "b=2"}, "one link query"},
		{[]string{"figure", "--chart", "overlap", "variant=cuckoo"}, "hold fingerprints"},
		{[]string{"figure", "--chart", "k", "variant=cuckoo"}, "no chart against k"},
		{[]string{"figure", "--chart", "bits", "--format", "csv"}, "no points to write"},
		{[]string{"figure", "--chart", "experiment-nope"}, "nope"},
	} {
		code, out, errOut := run(tc.args...)
		if code != 2 || out != "" || !strings.Contains(errOut, tc.says) {
			t.Errorf("%q: exit %d, stdout %d bytes, stderr %.200q; want 2 saying %q", tc.args, code, len(out), errOut, tc.says)
		}
	}
}
