package settings

import (
	"net/url"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/internal/linktest"
	"github.com/bloomlab/bloomlab/core"
)

// TestBitsPerKeyLadder: the bits-per-key track stops on legal values in
// order, from core's minimum to its maximum; each stop's position is its
// own; every value of the link's grain (tenths) sits at its nearest stop,
// in order, and comes back from the link exactly; and 2 to 20 bits per key
// take most of the travel.
func TestBitsPerKeyLadder(t *testing.T) {
	t.Parallel()
	sl := SliderByID(IDBitsPerKey)
	stops := sl.Stops()
	if stops[0] != core.MinBitsPerKey || stops[len(stops)-1] != core.MaxBitsPerKey {
		t.Fatalf("the track runs %v to %v, want core's %v to %v", stops[0], stops[len(stops)-1], core.MinBitsPerKey, core.MaxBitsPerKey)
	}
	if sl.TrackMin() != 0 || sl.TrackMax() != float64(len(stops)-1) || sl.TrackStep() != 1 {
		t.Errorf("track %v to %v by %v, want 0 to %d by 1", sl.TrackMin(), sl.TrackMax(), sl.TrackStep(), len(stops)-1)
	}
	for i, v := range stops {
		if i > 0 && v <= stops[i-1] {
			t.Errorf("stop %d, %v, is not above the one before, %v", i, v, stops[i-1])
		}
		if sl.legal(v) != v {
			t.Errorf("stop %d, %v, is not a legal value", i, v)
		}
		if pos := sl.Position(v); pos != float64(i) || sl.FromPosition(pos) != v {
			t.Errorf("stop %d, %v: position %v, back %v", i, v, pos, sl.FromPosition(pos))
		}
	}
	last := -1.0
	for tenths := 1; tenths <= 640; tenths++ {
		v := float64(tenths) / 10
		pos := sl.Position(v)
		if pos < last {
			t.Errorf("%v sits at %v, left of the value before it (%v)", v, pos, last)
		}
		last = pos
		s := DefaultLab()
		s.Params.BitsPerKey = v
		got, notices := LabFromQuery(s.Query())
		if got.Params.BitsPerKey != v || len(notices) > 0 {
			t.Errorf("%v through the link: %v, notices %q", v, got.Params.BitsPerKey, notices)
		}
		// The nearest stop: none nearer than the one it sits at.
		at := sl.FromPosition(pos)
		for _, w := range stops {
			if abs(w-v) < abs(at-v)-1e-9 {
				t.Errorf("%v sits at stop %v, but %v is nearer", v, at, w)
				break
			}
		}
	}
	share := (sl.Position(20) - sl.Position(2)) / (sl.TrackMax() - sl.TrackMin())
	t.Logf("2 to 20 bits per key: %.1f%% of the track, %d stops", 100*share, len(stops))
	if share < 0.6 {
		t.Errorf("2 to 20 bits per key take %.1f%% of the track, want at least 60%%", 100*share)
	}
	if next := sl.FromPosition(sl.Position(10) + 1); next-10 < 0.5 {
		t.Errorf("an arrow press from 10 goes to %v: too small a step to see", next)
	}
	// The shapes the lab and its lessons name are stops.
	for _, v := range []float64{4.8, 6.2, 9.6, 10, 18} {
		if got := sl.FromPosition(sl.Position(v)); got != v {
			t.Errorf("%v is no stop: the thumb stands at %v", v, got)
		}
	}
}

func abs(v float64) float64 { return max(v, -v) }

// TestSliderParse: a value typed into the bits-per-key field is read as a
// link's is, with the same notices.
func TestSliderParse(t *testing.T) {
	t.Parallel()
	sl := SliderByID(IDBitsPerKey)
	for _, c := range []struct {
		raw    string
		want   float64
		notice string
	}{
		{"9.7", 9.7, ""},
		{"9.64", 9.6, "rounded to 9.6"},
		{"0", 0.1, "raised to 0.1"},
		{"100", 64, "lowered to 64"},
		{"ten", 12, `"ten" is not a number, so it stays at 12`},
	} {
		got, notice := sl.Parse(c.raw, 12)
		if got != c.want || (c.notice == "") != (notice == "") || !strings.Contains(notice, c.notice) {
			t.Errorf("Parse(%q) = %v, %q; want %v, %q", c.raw, got, notice, c.want, c.notice)
		}
	}
}

// TestViewsInTheLink: each view the lab opens on its filter (the overlap
// view, the file view) goes into the link when it is open, comes back from
// it, and a value that is not on or off leaves it closed with a notice.
func TestViewsInTheLink(t *testing.T) {
	t.Parallel()
	for _, view := range []struct {
		id   string
		open func(*Lab) *bool
	}{
		{IDOverlap, func(s *Lab) *bool { return &s.Overlap }},
		{IDFile, func(s *Lab) *bool { return &s.File }},
	} {
		t.Run(view.id, func(t *testing.T) {
			t.Parallel()
			s := DefaultLab()
			if q := s.Query(); q.Has(view.id) {
				t.Errorf("a closed view is in the link: %q", q.Encode())
			}
			*view.open(&s) = true
			q := s.Query()
			if got := q.Get(view.id); got != "on" {
				t.Errorf("%s = %q in the link, want on", view.id, got)
			}
			if got, notices := LabFromQuery(q); got != s || len(notices) > 0 {
				t.Errorf("round trip: %+v, notices %q", got, notices)
			}
			for raw, want := range map[string]bool{"on": true, "1": true, "off": false, "0": false} {
				q, _ := url.ParseQuery(linktest.Query(view.id, raw))
				if got, notices := LabFromQuery(q); *view.open(&got) != want || len(notices) > 0 {
					t.Errorf("%s=%s: open %v, notices %q; want %v", view.id, raw, *view.open(&got), notices, want)
				}
			}
			q, _ = url.ParseQuery(linktest.Query(view.id, "purple"))
			got, notices := LabFromQuery(q)
			if *view.open(&got) || len(notices) != 1 || !strings.Contains(notices[0], view.id+`: "purple" is not on or off`) {
				t.Errorf("%s=purple: open %v, notices %q", view.id, *view.open(&got), notices)
			}
		})
	}
}

// TestSmallStart: the newcomer's start is a legal lab of 64 to 256 bits
// and a handful of keys at about k = 3, and its link gives it back.
func TestSmallStart(t *testing.T) {
	t.Parallel()
	s := SmallStart()
	m, k := s.Params.Shape()
	if m < 64 || m > 256 || s.Params.Items > 32 || k < 2 || k > 4 {
		t.Errorf("the small start has m = %d, n = %d, k = %d", m, s.Params.Items, k)
	}
	if got, notices := LabFromQuery(s.Query()); got != s || len(notices) > 0 {
		t.Errorf("round trip: %+v, notices %q", got, notices)
	}
}

// TestSecondInTheLink: the second view and its stories go into the link
// and come back; a word that is none of them is left out with a notice.
func TestSecondInTheLink(t *testing.T) {
	t.Parallel()
	if q := DefaultLab().Query(); q.Has(IDSecond) {
		t.Errorf("a closed second view is in the link: %q", q.Encode())
	}
	for raw, want := range map[string]Second{
		"on":                  {On: true},
		"":                    {On: true},
		"off":                 {},
		"salt":                {On: true, Salt: true},
		"stale|replicas":      {On: true, Stale: true, Replicas: true},
		"Salt,stale,replicas": {On: true, Salt: true, Stale: true, Replicas: true},
		"off,salt":            {On: true, Salt: true},
	} {
		q, _ := url.ParseQuery(linktest.Query(IDSecond, raw))
		got, notices := LabFromQuery(q)
		if got.Second != want || len(notices) > 0 {
			t.Errorf("second=%s: %+v, notices %q; want %+v", raw, got.Second, notices, want)
		}
		if back, _ := LabFromQuery(got.Query()); back != got {
			t.Errorf("second=%s: the round trip gives %+v, want %+v", raw, back.Second, got.Second)
		}
	}
	q, _ := url.ParseQuery(linktest.Query(IDSecond, "salt,purple"))
	got, notices := LabFromQuery(q)
	if got.Second != (Second{On: true, Salt: true}) || len(notices) != 1 || !strings.Contains(notices[0], `second: "purple" is not on, off, salt, stale or replicas`) {
		t.Errorf("second=salt,purple: %+v, notices %q", got.Second, notices)
	}
	// The keys both hold: kept in the link, clamped and rounded with a
	// notice, and nothing while the view is closed.
	for _, tc := range []struct {
		link   string
		want   int
		notice string
	}{
		{"second=on&second-shared=25", 25, ""},
		{"second=on&second-shared=150", 100, "second-shared: 150 is above the maximum, so it was lowered to 100"},
		{"second=on&second-shared=-3", 0, "second-shared: -3 is below the minimum, so it was raised to 0"},
		{"second=on&second-shared=12.4", 12, "second-shared: 12.4 was rounded to 12"},
		{"second=on&second-shared=half", 0, `second-shared: "half" is not a number, so it stays at 0`},
		{"second-shared=50", 0, ""},
	} {
		q, _ := url.ParseQuery(tc.link)
		got, notices := LabFromQuery(q)
		if got.Second.Shared != tc.want || strings.Join(notices, "; ") != tc.notice {
			t.Errorf("%s: shared %d, notices %q; want %d, %q", tc.link, got.Second.Shared, notices, tc.want, tc.notice)
		}
		if back, _ := LabFromQuery(got.Query()); back != got {
			t.Errorf("%s: the round trip gives %+v, want %+v", tc.link, back.Second, got.Second)
		}
	}
	if got := (Second{On: true, Shared: 25}).SharedKeys(4000); got != 1000 {
		t.Errorf("25%% of 4,000 keys shared is %d", got)
	}
}
