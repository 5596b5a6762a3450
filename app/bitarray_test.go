package app

import (
	"math"
	"testing"

	"bloomlab/core"
)

func TestLayoutBits(t *testing.T) {
	t.Parallel()
	cases := []struct {
		m     uint64
		cells bool
	}{{1, true}, {60, true}, {600, true}, {40000, true}, {200_000, false}, {640_000_000, false}}
	for _, c := range cases {
		l := layoutBits(c.m, 1000, 220, 1)
		if l.Cells != c.cells {
			t.Errorf("m = %d: cells = %v, want %v", c.m, l.Cells, c.cells)
		}
		if l.H > 220 && !l.Cells {
			t.Errorf("m = %d: density picture %d px tall", c.m, l.H)
		}
		if l.Cells && uint64(l.Cols*l.Rows) < c.m {
			t.Errorf("m = %d: %d x %d cells cannot hold every position", c.m, l.Cols, l.Rows)
		}
		if !l.Cells && l.Bins > c.m {
			t.Errorf("m = %d: %d bins, some would hold no position", c.m, l.Bins)
		}
		for _, pos := range []uint64{0, c.m / 2, c.m - 1} {
			x, y, _, ok := l.centre(pos)
			if !ok || x < 0 || y < 0 || x > float64(l.W) || y > float64(l.H) {
				t.Errorf("m = %d: position %d at (%v, %v) ok %v, outside %dx%d", c.m, pos, x, y, ok, l.W, l.H)
			}
		}
		if _, _, _, ok := l.centre(c.m); ok {
			t.Errorf("m = %d: position m placed on the canvas", c.m)
		}
	}
}

// TestDensityShares checks the word-at-a-time shares against counting
// positions one by one, for every variant and awkward sizes.
func TestDensityShares(t *testing.T) {
	t.Parallel()
	for _, v := range core.Variants {
		for _, m := range []uint64{1, 63, 64, 65, 1000, 4099} {
			for _, bins := range []uint64{1, 3, 7, min(m, 64), m} {
				f, err := core.New(v, core.NoFault, m, 3, 7)
				if err != nil {
					t.Fatal(err)
				}
				key := []byte{}
				for i := range uint64(m / 3) {
					key = core.Key(key, core.Members, i, 7, 16)
					f.Add(key)
				}
				got := densityShares(f, m, bins, nil)
				set, size := make([]float64, bins), make([]float64, bins)
				for pos := range m {
					b := binOf(pos, m, bins)
					size[b]++
					if f.IsSet(pos) {
						set[b]++
					}
				}
				for b := range bins {
					want := 0.0
					if size[b] > 0 {
						want = set[b] / size[b]
					}
					if math.Abs(got[b]-want) > 1e-12 {
						t.Fatalf("%s m = %d bins = %d: bin %d share %v, want %v", v, m, bins, b, got[b], want)
					}
				}
			}
		}
	}
}

func TestPaintBits(t *testing.T) {
	t.Parallel()
	f, _ := core.NewFilter(10, 1, 1)
	f.Add([]byte("a key of sixteen"))
	l := layoutBits(10, 100, 220, 1)
	buf, _ := paintBits(nil, nil, f, l)
	if len(buf) != l.Cols*l.Rows*4 {
		t.Fatalf("buffer %d bytes for %dx%d", len(buf), l.Cols, l.Rows)
	}
	dark := 0
	for i := 0; i < l.Cols*l.Rows; i++ {
		if buf[i*4] < 0x80 {
			dark++
		}
	}
	if dark != int(f.SetBits()) {
		t.Errorf("%d dark cells, want the %d set bits", dark, f.SetBits())
	}
}

func TestOutside(t *testing.T) {
	t.Parallel()
	if got := outside([]uint64{0, 9, 10, math.MaxUint64}, 10); got != 2 {
		t.Errorf("outside = %d, want 2", got)
	}
}
