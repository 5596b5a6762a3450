//go:build !js

package lab

import (
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui"
	"github.com/bloomlab/bloomlab/core/sim"
)

func labAt(t *testing.T, query string) settings.Lab {
	t.Helper()
	q, err := url.ParseQuery(query)
	if err != nil {
		t.Fatal(err)
	}
	s, notices := settings.LabFromQuery(q)
	if len(notices) > 0 {
		t.Fatalf("%s: %v", query, notices)
	}
	return s
}

// TestFigureOfIsThePagesFigure: the figure a link's settings make alone
// (bloomlab figure) is byte for byte the one the page offers once it shows
// those settings, for each chart, the overlap chart and the bit array;
// each chart's figure holds its points and the link.
func TestFigureOfIsThePagesFigure(t *testing.T) {
	for _, query := range []string{"bits-per-key=6&hashes=3", "bits-per-key=6&hashes=3&large=on&overlap=on"} {
		s := labAt(t, query)
		c := New()
		c.settings = s
		c.prerender()
		if c.result == nil {
			t.Fatalf("%s: the page made no run", query)
		}
		o, err := sim.OverlapOf(s.Run(), nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		c.overlap.o = &o
		c.bits.overlap = c.overlap.counts()
		link := LabLink("", s)
		for _, which := range Figures {
			got, err := FigureOf(s, which, ui.DefaultFigureWidth, "")
			if err != nil {
				t.Fatalf("%s %s: %v", query, which, err)
			}
			want, ok := c.figure(which)
			if which == FigureOverlap && !s.Overlap {
				// The page offers the overlap chart only with its view open.
				if ok {
					t.Errorf("%s: the page offers the overlap chart with its view shut", query)
				}
				want = got
			} else if !ok {
				t.Fatalf("%s %s: the page offers no figure", query, which)
			}
			if got != want {
				t.Errorf("%s %s: the command's figure is not the page's:\n%.300s\n%.300s", query, which, got.SVG, want.SVG)
			}
			var chart ui.Chart
			switch which {
			case FigureK, FigureBPK:
				chart, _ = c.charts.Chart(which, ui.DefaultFigureWidth)
				if len(chart.Series[1].Points) == 0 {
					t.Fatalf("%s %s: no measured points to check", query, which)
				}
			case FigureOverlap:
				chart = overlapChart(&o, ui.DefaultFigureWidth)
			}
			if err := ui.CheckFigure(got.SVG, chart, link); err != nil {
				t.Errorf("%s %s: %v", query, which, err)
			}
			if which != FigureBits && strings.Count(got.CSV, "\n") < 5 {
				t.Errorf("%s %s: CSV of %d lines", query, which, strings.Count(got.CSV, "\n"))
			}
			if !(got.W >= ui.MinFigureWidth && got.H > 100) {
				t.Errorf("%s %s: size %g x %g", query, which, got.W, got.H)
			}
		}
	}
}

// TestBitsFigureBounded: the bit array of a filter of ten million bits is
// a picture of bounded size, embedded as a PNG, never a rect a bit.
func TestBitsFigureBounded(t *testing.T) {
	s := labAt(t, "items=1000000&bits-per-key=10")
	f, err := FigureOf(s, FigureBits, ui.DefaultFigureWidth, "https://example.org")
	if err != nil {
		t.Fatal(err)
	}
	if len(f.SVG) > 1<<20 || strings.Count(f.SVG, "<rect") > 1 || !strings.Contains(f.SVG, `href="data:image/png;base64,`) {
		t.Errorf("the bit array's figure is %d bytes with %d rects", len(f.SVG), strings.Count(f.SVG, "<rect"))
	}
	for _, want := range []string{"1,000,000 keys", "10,000,000 bits", "https://example.org/?"} {
		if !strings.Contains(f.SVG, want) {
			t.Errorf("no %q in the figure's text", want)
		}
	}
	if err := ui.CheckFigure(f.SVG, ui.Chart{}, LabLink("https://example.org", s)); err != nil {
		t.Error(err)
	}
}

// TestFigureOfRefuses: a figure the layout has none of, or no figure at
// all, is an error that says why.
func TestFigureOfRefuses(t *testing.T) {
	cuckoo := labAt(t, "variant=cuckoo")
	for _, tc := range []struct {
		s     settings.Lab
		which string
		says  string
	}{
		{cuckoo, FigureOverlap, "fingerprints"},
		{cuckoo, FigureK, "no chart against k"},
		{settings.DefaultLab(), "pie", `"pie" is not one of k, bits-per-key, bits, overlap`},
	} {
		_, err := FigureOf(tc.s, tc.which, 640, "")
		if !errors.Is(err, ErrNoFigure) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: %v, want ErrNoFigure saying %q", tc.which, err, tc.says)
		}
	}
	if _, err := FigureOf(cuckoo, FigureBPK, 640, ""); err != nil {
		t.Errorf("the cuckoo filter's chart against bits per key: %v", err)
	}
}
