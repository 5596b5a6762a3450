package painter

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/bloomlab/bloomlab/app/engine"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"
)

func TestLayoutBits(t *testing.T) {
	t.Parallel()
	cases := []struct {
		m     uint64
		cells bool
	}{{1, true}, {60, true}, {600, true}, {40000, true}, {200_000, false}, {640_000_000, false}}
	for _, c := range cases {
		l := LayoutOf(c.m, 1000, 220, 1, 1)
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
				t.Errorf("m = %d: position %d at (%v, %v) ok %v, Outside %dx%d", c.m, pos, x, y, ok, l.W, l.H)
			}
		}
		if _, _, _, ok := l.centre(c.m); ok {
			t.Errorf("m = %d: position m placed on the canvas", c.m)
		}
	}
}

// TestDensityShares checks the word-at-a-time shares against counting
// positions one by one, for every variant, every fingerprint width and
// awkward sizes: bits, 4-bit counters, and 8-, 12- and 16-bit slots and
// cells (12-bit fields straddle words).
func TestDensityShares(t *testing.T) {
	t.Parallel()
	for _, v := range core.Variants {
		for _, width := range append([]int{0}, v.Fingerprints()...) {
			for _, size := range []uint64{1, 63, 64, 65, 1000, 4099} {
				f, err := v.Build(core.Spec{M: size, K: 3, N: size / 3, FingerprintBits: width, Seed: 7})
				if err != nil {
					t.Fatal(err)
				}
				key := []byte{}
				for i := range uint64(max(size/3, 1)) {
					key = core.Key(key, core.Members, i, 7, 16)
					f.Add(key)
				}
				if s, ok := f.(core.Sealer); ok {
					if err := s.Seal(); err != nil {
						t.Fatal(err)
					}
				}
				m := f.M()
				for _, bins := range []uint64{1, 3, 7, min(m, 64), m} {
					got := densityShares(engine.StoreOf(f), bins, nil)
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
							t.Fatalf("%s/%d m = %d bins = %d: bin %d share %v, want %v", v, width, m, bins, b, got[b], want)
						}
					}
				}
			}
		}
	}
}

// The cuckoo filter's slots are drawn in whole buckets: a row never splits
// one, and the caption names the slot, the bucket and what dark means; the
// fuse filter's cells are drawn one by one, dark when nonzero. Their
// density pictures name the unit too.
func TestBitCaption(t *testing.T) {
	t.Parallel()
	run := func(v core.Variant, items int) *sim.Result {
		p := sim.Defaults()
		p.Variant, p.Items = v, items
		r, err := sim.Run(p)
		if err != nil {
			t.Fatal(err)
		}
		return &r
	}
	cases := []struct {
		v                  core.Variant
		items, group       int
		cells              bool
		picture, ring, box string
	}{
		{core.Standard, 4000, 1, true, "Every bit of the 40,000 drawn as a square, dark when set.", "set by the last key inserted", "read by the first absent query"},
		{core.CountingVariant, 4000, 1, true, "Every counter of the 40,000 drawn as a square, darker the higher its count.", "set by the last key inserted", "read by the first absent query"},
		{core.CuckooVariant, 4000, 4, true, "Every slot of the 5,000 drawn as a square, 4 to a bucket, dark when it holds a fingerprint.", "the buckets of the last key inserted, where its fingerprint may live", "read by the first absent query"},
		{core.FuseVariant, 4000, 1, true, "Every cell of the 5,632 drawn as a square, dark when it is nonzero.", "the cells of the last key inserted", "read by the first absent query"},
		{core.CuckooVariant, 400_000, 4, false, "Density picture: 500,000 slots, each dot shaded by the share of its slots that hold a fingerprint.", "the slots of the last key inserted", "read by the first absent query"},
		{core.RibbonVariant, 4000, 1, true, "Every row of the 4,360 drawn as a square, dark when it is nonzero.", "the rows of the last key inserted", "read by the first absent query"},
		{core.RibbonWideVariant, 4000, 1, true, "Every row of the 4,160 drawn as a square, dark when it is nonzero.", "the rows of the last key inserted", "read by the first absent query"},
		{core.FuseVariant, 400_000, 1, false, "Density picture: 458,752 cells, each dot shaded by the share of its cells that are nonzero.", "the cells of the last key inserted", "read by the first absent query"},
		{core.ScalableVariant, 4000, 1, false, "Density picture: 100,480 bits, each dot shaded by the share of its bits that are set. Its 4 links lie one after another, their clear bits grey and sand by turns.",
			"read for the last key inserted in every link; it set those of the link it went into", "read by the first absent query"},
		{core.ScalableVariant, 400, 1, true, "Every bit of the 10,176 drawn as a square, dark when set. Its 4 links lie one after another, their clear bits grey and sand by turns.",
			"read for the last key inserted in every link; it set those of the link it went into", "read by the first absent query"},
	}
	for _, c := range cases {
		r := run(c.v, c.items)
		if g := engine.StoreOf(r.Filter).Group; g != c.group {
			t.Errorf("%s: group %d, want %d", c.v, g, c.group)
		}
		l := Fitted(r.M, c.group, false, false, 1)
		if l.Cells != c.cells {
			t.Fatalf("%s n = %d: cells %v, want %v", c.v, c.items, l.Cells, c.cells)
		}
		if l.Cells && l.Cols%c.group != 0 {
			t.Errorf("%s: %d columns split a bucket of %d", c.v, l.Cols, c.group)
		}
		picture, ring, box := Caption(r, l)
		if picture != c.picture || ring != c.ring || box != c.box {
			t.Errorf("%s n = %d: caption\n %q %q %q\nwant\n %q %q %q", c.v, c.items, picture, ring, box, c.picture, c.ring, c.box)
		}
	}
}

// A bucket of four needs four cells across: a narrow canvas shrinks the
// cells rather than split a bucket over two rows.
func TestLayoutKeepsBucketsWhole(t *testing.T) {
	t.Parallel()
	for _, width := range []int{16, 17, 100, 333, 1000} {
		for _, m := range []uint64{4, 40, 400, 4000} {
			l := LayoutOf(m, width, 220, 1, 4)
			if !l.Cells {
				continue
			}
			if l.Cols%4 != 0 || l.Cols*l.Cell > l.W || uint64(l.Cols*l.Rows) < m {
				t.Errorf("width %d m = %d: %d columns of %d px in %d px", width, m, l.Cols, l.Cell, l.W)
			}
		}
	}
}

// Every slot and cell is painted dark exactly when it holds something.
func TestPaintSlotsAndCells(t *testing.T) {
	t.Parallel()
	for _, v := range []core.Variant{core.CuckooVariant, core.FuseVariant, core.RibbonVariant, core.RibbonWideVariant} {
		p := sim.Defaults()
		p.Variant, p.Items = v, 300
		r, err := sim.Run(p)
		if err != nil {
			t.Fatal(err)
		}
		s := engine.StoreOf(r.Filter)
		l := LayoutOf(r.M, 800, AreaCSSH, 1, s.Group)
		buf, _ := paintBits(nil, nil, s, nil, l)
		dark := uint64(0)
		for i := range uint64(l.Cols * l.Rows) {
			if d := buf[i*4] < 0x80; d != (i < r.M && r.Filter.IsSet(i)) {
				t.Fatalf("%s: %s %d painted dark = %v", v, v.Unit(), i, d)
			} else if d {
				dark++
			}
		}
		if dark != r.SetBits || dark == 0 {
			t.Errorf("%s: %d dark, want the %d that hold something", v, dark, r.SetBits)
		}
	}
}

func TestPaintBits(t *testing.T) {
	t.Parallel()
	f, _ := core.NewFilter(10, 1, 1)
	f.Add([]byte("a key of sixteen"))
	l := LayoutOf(10, 100, 220, 1, 1)
	buf, _ := paintBits(nil, nil, engine.StoreOf(f), nil, l)
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

// A scalable chain's links are drawn one after another, the clear bits of
// its odd links in the second grey, so every boundary shows; set bits are
// dark in every link.
func TestPaintChainLinks(t *testing.T) {
	t.Parallel()
	f, err := core.NewScalable(64, 3, 10, 2, 0.5, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 100 {
		f.Add([]byte(fmt.Sprintf("key %d", i)))
	}
	s := engine.StoreOf(f)
	if len(s.Links) != f.Links()-1 || len(s.Links) < 2 {
		t.Fatalf("store links %v for %d links", s.Links, f.Links())
	}
	l := LayoutOf(f.M(), 400, 220, 1, 1)
	if !l.Cells {
		t.Fatalf("%d bits drawn as density", f.M())
	}
	buf, _ := paintBits(nil, nil, s, nil, l)
	clear := [2][3]byte{{byte(rgbUnset[0]), byte(rgbUnset[1]), byte(rgbUnset[2])}, {byte(rgbUnsetOdd[0]), byte(rgbUnsetOdd[1]), byte(rgbUnsetOdd[2])}}
	dark := 0
	for pos := range f.M() {
		px := [3]byte(buf[pos*4 : pos*4+3])
		switch {
		case f.IsSet(pos) && px[0] < 0x80:
			dark++
		case f.IsSet(pos):
			t.Errorf("set bit %d drawn %v", pos, px)
		case px != clear[s.LinkOf(pos)%2]:
			t.Errorf("clear bit %d of link %d drawn %v, want %v", pos, s.LinkOf(pos), px, clear[s.LinkOf(pos)%2])
		}
	}
	if dark != int(f.SetBits()) {
		t.Errorf("%d dark cells, want the %d set bits", dark, f.SetBits())
	}
	// Each link's first cell has a white edge on its left, where the
	// link before ends; without the links the same pixel is the cell's.
	var pic Frame
	at := func(pix []byte, x, y int) [3]byte { return [3]byte(pix[(y*l.W+x)*4:]) }
	with := slices.Clone(pic.Render(s, nil, l, Marks{}, 1))
	bare := s
	bare.Links = nil
	without := pic.Render(bare, nil, l, Marks{}, 1)
	for _, b := range s.Links {
		col, row := int(b%uint64(l.Cols)), int(b/uint64(l.Cols))
		if col == 0 {
			continue
		}
		x, y := l.Pad+col*l.Cell, l.Pad+row*l.Cell+l.Cell/2
		if at(with, x, y) != [3]byte{255, 255, 255} || at(without, x, y) == [3]byte{255, 255, 255} {
			t.Errorf("link at %d: pixel (%d, %d) is %v with the bounds, %v without", b, x, y, at(with, x, y), at(without, x, y))
		}
	}
}

func TestOutside(t *testing.T) {
	t.Parallel()
	if got := Outside([]uint64{0, 9, 10, math.MaxUint64}, 10); got != 2 {
		t.Errorf("Outside = %d, want 2", got)
	}
}

// A cuckoo key's eight slots are two buckets: two marks, each round four
// cells of one row; one mark when its buckets coincide; and none in the
// pictures that mark positions one by one.
func TestGroupRects(t *testing.T) {
	t.Parallel()
	l := LayoutOf(5000, 800, AreaCSSH, 1, 4)
	if !l.Cells || l.Group != 4 {
		t.Fatalf("layout %+v", l)
	}
	s, pad := float64(l.Cell), float64(l.Pad)
	perRow := uint64(l.Cols / 4)
	got := l.groupRects([]uint64{8, 9, 10, 11, 4*perRow + 4, 4*perRow + 5, 4*perRow + 6, 4*perRow + 7, 5000})
	want := []rect{{X: pad + 2*4*s, Y: pad, W: 4 * s, H: s}, {X: pad + 4*s, Y: pad + s, W: 4 * s, H: s}}
	if !slices.Equal(got, want) {
		t.Errorf("rects %v, want %v", got, want)
	}
	if got := l.groupRects([]uint64{0, 1, 2, 3, 0, 1, 2, 3}); len(got) != 1 {
		t.Errorf("one bucket twice: %v", got)
	}
	if got := LayoutOf(5000, 800, AreaCSSH, 1, 1).groupRects([]uint64{1, 2}); got != nil {
		t.Errorf("ungrouped layout: %v", got)
	}
	if got := LayoutOf(5_000_000, 800, AreaCSSH, 1, 4).groupRects([]uint64{1, 2}); got != nil {
		t.Errorf("density picture: %v", got)
	}
	if g := (Layout{Cell: 3}).groupGap(); g != 1 {
		t.Errorf("gap in 3-pixel cells: %v", g)
	}
	if g := (Layout{Cell: 12}).groupGap(); g != 4 {
		t.Errorf("gap in 12-pixel cells: %v", g)
	}
}

// The picture reads every position of every layout as the filter does: a
// position is nonzero exactly when IsSet says so, and a counter's value is
// its count.
func TestStoreReadsEveryPosition(t *testing.T) {
	t.Parallel()
	for _, v := range core.Variants {
		for _, width := range append([]int{0}, v.Fingerprints()...) {
			p := sim.Defaults()
			p.Variant, p.Items, p.FingerprintBits = v, 700, width
			r, err := sim.Run(p)
			if err != nil {
				t.Fatal(err)
			}
			s := engine.StoreOf(r.Filter)
			counting, _ := r.Filter.(*core.Counting)
			if s.Counters != (counting != nil) {
				t.Errorf("%s: counters %v", v, s.Counters)
			}
			for pos := range s.M {
				got := s.Value(pos)
				if (got != 0) != r.Filter.IsSet(pos) {
					t.Fatalf("%s/%d: position %d holds %d, IsSet %v", v, width, pos, got, r.Filter.IsSet(pos))
				}
				if counting != nil && got != uint64(counting.Counter(pos)) {
					t.Fatalf("%s: counter %d reads %d, want %d", v, pos, got, counting.Counter(pos))
				}
			}
			if s.Value(s.M) != 0 {
				t.Errorf("%s: a value past the end", v)
			}
		}
	}
}

// TestLayoutWithinItsHeight: every layout, cells or density, fits the
// height it was given, whatever m, width and grouping: the rows of cells
// included (m = 10 in groups of 4 across 200 px once took 48 of 40).
func TestLayoutWithinItsHeight(t *testing.T) {
	t.Parallel()
	for m := uint64(1); m <= 3000; m++ {
		for _, w := range []int{200, NarrowW, WideWLarge, WideW} {
			for _, h := range []int{40, AreaCSSH} {
				for _, group := range []int{1, 4} {
					if l := LayoutOf(m, w, h, 1, group); l.H > h || l.W != w {
						t.Fatalf("m %d across %d px, %d tall, groups of %d: %d x %d", m, w, h, group, l.W, l.H)
					}
				}
			}
		}
	}
}
