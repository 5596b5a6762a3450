package painter

import (
	"fmt"
	"math"
	"testing"

	"github.com/bloomlab/bloomlab/app/engine"
)

// Every mark is whole and on its cell: a ring, a box and the cursor
// round any position, the first and the last of a row, of the first and
// of the last row, lie inside the picture and are centred on the cell
// (or, where a mark goes round a whole group, on the group) they mark, in
// the wide and the narrow picture, at 1x and 2x, for 40 bits (large
// cells), the default 40,000 (2-pixel cells), 400,000 (a density picture)
// and a cuckoo filter's buckets.
func TestMarksWholeOnTheirCells(t *testing.T) {
	t.Parallel()
	cases := []struct {
		m     uint64
		group int
	}{{40, 1}, {40_000, 1}, {400_000, 1}, {5_000, 4}, {40, 4}}
	for _, c := range cases {
		for _, narrow := range []bool{false, true} {
			for _, scale := range []float64{1, 2} {
				l := Fitted(c.m, c.group, narrow, false, scale)
				name := fmt.Sprintf("m = %d, group %d, narrow %v, %vx", c.m, c.group, narrow, scale)
				store := engine.BitStore{M: c.m, Stride: 1, Group: c.group, Words: make([]uint64, (c.m+63)/64)}
				var p Frame
				for _, pos := range markedPositions(l) {
					for _, kind := range []string{"ring", "box", "cursor"} {
						marks, colour := Marks{}, rgbRing
						switch kind {
						case "ring":
							marks.Ring = []uint64{pos}
						case "box":
							marks.Box, colour = []uint64{pos}, rgbBox
						default:
							marks.Cursor, colour = []uint64{pos}, rgbCursor
						}
						pix := p.Render(store, nil, l, marks, scale)
						x0, y0, x1, y1, ok := bounds(pix, l, colour)
						if !ok {
							t.Errorf("%s: no %s drawn round %d", name, kind, pos)
							continue
						}
						want := cellRect(l, pos, kind != "cursor")
						if x0 <= 0 || y0 <= 0 || x1 >= l.W-1 || y1 >= l.H-1 {
							t.Errorf("%s: the %s round %d spans (%d, %d)-(%d, %d), to the edge of the %d x %d picture", name, kind, pos, x0, y0, x1, y1, l.W, l.H)
						}
						cx, cy := float64(x0+x1+1)/2, float64(y0+y1+1)/2
						if math.Abs(cx-(want.X+want.W/2)) > 1 || math.Abs(cy-(want.Y+want.H/2)) > 1 {
							t.Errorf("%s: the %s round %d is centred at (%v, %v), its cell %+v at (%v, %v)", name, kind, pos, cx, cy, want, want.X+want.W/2, want.Y+want.H/2)
						}
						if float64(x0) > want.X || float64(y0) > want.Y || float64(x1+1) < want.X+want.W || float64(y1+1) < want.Y+want.H {
							t.Errorf("%s: the %s round %d spans (%d, %d)-(%d, %d), inside its cell %+v", name, kind, pos, x0, y0, x1, y1, want)
						}
					}
				}
			}
		}
	}
}

// markedPositions are the positions at the picture's edges and one in
// the middle; every position of a small filter.
func markedPositions(l Layout) []uint64 {
	if l.M <= 64 {
		out := make([]uint64, l.M)
		for i := range out {
			out[i] = uint64(i)
		}
		return out
	}
	cols := uint64(l.Cols)
	if !l.Cells {
		// A bin's positions: the first and the last bins of the first
		// and the last rows.
		per := l.M / l.Bins
		last := l.M - 1
		return []uint64{0, (cols - 1) * per, l.M / 2, last - (cols-1)*per, last}
	}
	lastRow := (l.M - 1) / cols * cols
	return []uint64{0, cols - 1, cols, l.M / 2, lastRow, l.M - 1}
}

// cellRect is the rectangle in pixels of the cell or bin pos is drawn in,
// or of its group where a mark goes round the whole group.
func cellRect(l Layout, pos uint64, whole bool) rect {
	pad := float64(l.Pad)
	if !l.Cells {
		bin := binOf(pos, l.M, l.Bins)
		b := float64(l.Block)
		return rect{pad + float64(bin%uint64(l.Cols))*b, pad + float64(bin/uint64(l.Cols))*b, b, b}
	}
	s, cols := float64(l.Cell), uint64(l.Cols)
	if whole && l.Group > 1 {
		g := uint64(l.Group)
		start := pos / g * g
		return rect{pad + float64(start%cols)*s, pad + float64(start/cols)*s, float64(g) * s, s}
	}
	return rect{pad + float64(pos%cols)*s, pad + float64(pos/cols)*s, s, s}
}

// bounds is the smallest rectangle, first and last pixel, holding every
// pixel of colour c.
func bounds(pix []byte, l Layout, c [4]byte) (x0, y0, x1, y1 int, ok bool) {
	x0, y0, x1, y1 = l.W, l.H, -1, -1
	for y := range l.H {
		for x := range l.W {
			if [4]byte(pix[(y*l.W+x)*4:]) == c {
				x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
			}
		}
	}
	return x0, y0, x1, y1, x1 >= 0
}
