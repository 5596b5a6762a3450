package painter

import (
	"math"
	"math/bits"
	"slices"
	"strconv"

	"github.com/bloomlab/bloomlab/app/engine"
	"github.com/bloomlab/bloomlab/app/ui/format"
	"github.com/bloomlab/bloomlab/core/sim"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Marks are the positions ringed and boxed on the bit array, and what
// each set is, for the caption ("set by the last key inserted").
type Marks struct {
	Ring, Box         []uint64
	RingSays, BoxSays string
	// Cursor is the keyboard's position, outlined in black.
	Cursor []uint64
}

// Layout places m positions on a canvas W x H device pixels: one square
// cell per position while cells stay at least minCell pixels wide, otherwise
// a density picture of Block x Block pixel bins, each shaded by the share of
// its positions that are set. In cell mode a row holds whole groups (the
// cuckoo filter's buckets of four slots), so a group never wraps. The
// cells or bins start Pad pixels in from the left and the top and end at
// least Pad pixels before the right and the bottom: a margin the marks
// round the edge cells are drawn in, whole.
type Layout struct {
	M          uint64
	W, H       int
	Pad        int
	Cells      bool
	Cell       int    // cell side in pixels (cell mode)
	Cols, Rows int    // cells or bins across and down
	Group      int    // positions drawn together, 1 for none (cell mode)
	Block      int    // bin side in pixels (density mode)
	Bins       uint64 // Cols * Rows in density mode
}

// The picture's sizes in CSS pixels.
const (
	minCell    = 2
	maxCell    = 28
	densityBlk = 2
	AreaCSSH   = 220 // the tallest the bit array grows
	// markPad is the margin round the cells, in CSS pixels: the farthest
	// a mark reaches past its cell (the cursor's halo round a 2-pixel
	// cell, 7 pixels past it).
	markPad = 8
)

// The widths in CSS pixels a picture is laid out for. The page shows it
// at the width of its box, scaled with its proportions kept, so its box
// and caption depend on m alone, not on the window: the server draws the
// picture the live page will draw. A box NarrowBelow CSS pixels wide or
// more shows the wide picture (the box's width on a window 1280 pixels wide,
// where the page stops growing, in normal or in large type); a narrower
// one, a phone's, shows the narrow picture, drawn about as wide as a
// phone shows it, so its cells and marks keep their size there.
const (
	WideW       = 852
	WideWLarge  = 703
	NarrowW     = 300
	NarrowBelow = 480
)

// Fitted lays out m positions in groups of group for a box of the width
// class narrow, in large type or not, at scale device pixels per CSS pixel.
func Fitted(m uint64, group int, narrow, large bool, scale float64) Layout {
	w := WideW
	switch {
	case narrow:
		w = NarrowW
	case large:
		w = WideWLarge
	}
	return LayoutOf(m, w, AreaCSSH, scale, group)
}

// Aspect is the layout's proportions as a CSS aspect-ratio, "W / H": the
// box the page keeps for the picture.
func (l Layout) Aspect() string { return strconv.Itoa(l.W) + " / " + strconv.Itoa(l.H) }

// LayoutOf lays out m positions across cssW CSS pixels, at most cssH
// tall, in groups of group positions (1 for none), for a screen of scale
// device pixels per CSS pixel. The grid (cells or bins across and down) is
// worked out in CSS pixels, so every screen shows the same picture, only
// sharper where pixels are finer; W, H, Pad, Cell and Block are device
// pixels. The margin for the marks comes out of the width and the height.
// A cell is never under 2 CSS pixels; a density bin then always covers at
// least one position.
func LayoutOf(m uint64, cssW, cssH int, scale float64, group int) Layout {
	cssW, cssH, group = max(cssW, 16+2*markPad), max(cssH, 16+2*markPad), max(group, 1)
	if !(scale >= 1) {
		scale = 1
	}
	l := Layout{M: m, W: int(float64(cssW) * scale), Pad: int(markPad * scale), Group: 1}
	gridW, gridH := cssW-2*markPad, cssH-2*markPad
	side := int(math.Sqrt(float64(gridW) * float64(gridH) / float64(max(m, 1))))
	side = min(side, maxCell, gridW/group)
	for ; side >= minCell; side-- { // the rows must fit the height
		cols := uint64(cellCols(gridW, side, group))
		if (m+cols-1)/cols*uint64(side) <= uint64(gridH) {
			break
		}
	}
	if side >= minCell {
		l.Cells = true
		l.Cell = int(float64(side) * scale)
		l.Group = group
		l.Cols = cellCols(gridW, side, group)
		l.Rows = int((m + uint64(l.Cols) - 1) / uint64(l.Cols))
		l.H = l.Rows*l.Cell + 2*l.Pad
		return l
	}
	l.Block = int(densityBlk * scale)
	l.Cols = gridW / densityBlk
	l.Rows = gridH / densityBlk
	l.Bins = uint64(l.Cols) * uint64(l.Rows)
	l.H = l.Rows*l.Block + 2*l.Pad
	return l
}

// cellCols is how many cells of side CSS pixels a row gridW wide holds,
// whole groups of group.
func cellCols(gridW, side, group int) int { return max(group, gridW/side/group*group) }

// centre returns the pixel centre of position pos and the radius of one
// cell or bin there, or false if pos lies Outside [0, m).
func (l Layout) centre(pos uint64) (x, y, r float64, ok bool) {
	if pos >= l.M {
		return 0, 0, 0, false
	}
	pad := float64(l.Pad)
	if l.Cells {
		c, row := pos%uint64(l.Cols), pos/uint64(l.Cols)
		s := float64(l.Cell)
		return pad + (float64(c)+0.5)*s, pad + (float64(row)+0.5)*s, s / 2, true
	}
	bin := binOf(pos, l.M, l.Bins)
	b := float64(l.Block)
	return pad + (float64(bin%uint64(l.Cols))+0.5)*b, pad + (float64(bin/uint64(l.Cols))+0.5)*b, b / 2, true
}

// At is the position drawn at pixel (x, y) in cell mode, or false where
// no position is drawn or the picture is a density one.
func (l Layout) At(x, y float64) (uint64, bool) {
	x, y = x-float64(l.Pad), y-float64(l.Pad)
	if !l.Cells || l.Cell <= 0 || x < 0 || y < 0 {
		return 0, false
	}
	col, row := uint64(x)/uint64(l.Cell), uint64(y)/uint64(l.Cell)
	if col >= uint64(l.Cols) {
		return 0, false
	}
	pos := row*uint64(l.Cols) + col
	return pos, pos < l.M
}

// groupGap is the width in pixels of the white line between groups of
// cells: a pixel in cells too small for gaps of their own, else wider than
// the cells' one-pixel gap.
func (l Layout) groupGap() float64 {
	if l.Cell < 5 {
		return 1
	}
	return math.Max(2, math.Round(float64(l.Cell)/3))
}

// rect is a rectangle in canvas pixels.
type rect struct{ X, Y, W, H float64 }

// groupRects returns, in cell mode with groups, the rectangle of each group
// that positions fall in, once each, in the order first met; nil otherwise
// (positions are then marked one by one). Positions Outside [0, m) have no
// group.
func (l Layout) groupRects(positions []uint64) []rect {
	if !l.Cells || l.Group <= 1 {
		return nil
	}
	g, s, pad := uint64(l.Group), float64(l.Cell), float64(l.Pad)
	perRow := uint64(l.Cols) / g
	out := []rect{}
	var seen []uint64
	for _, pos := range positions {
		if pos >= l.M || slices.Contains(seen, pos/g) {
			continue
		}
		group := pos / g
		seen = append(seen, group)
		out = append(out, rect{X: pad + float64(group%perRow*g)*s, Y: pad + float64(group/perRow)*s, W: float64(g) * s, H: s})
	}
	return out
}

// binOf maps a position to its density bin: floor(pos * bins / m), without
// overflow for any m up to core.MaxM.
func binOf(pos, m, bins uint64) uint64 {
	hi, lo := bits.Mul64(pos, bins)
	q, _ := bits.Div64(hi, lo, m)
	return q
}

// The palette. Set and unset positions differ in lightness as well as hue,
// so the picture reads in grey too.
var (
	rgbUnset = [3]float64{0xe6, 0xea, 0xf2}
	rgbSet   = [3]float64{0x1d, 0x3f, 0x8a}
	rgbGap   = [3]float64{0xff, 0xff, 0xff}
	// rgbUnsetOdd is the clear bits of a chain's odd links (the second,
	// the fourth...), a warmer grey of the same lightness band, so the
	// links show one after another and a set bit reads alike in each.
	rgbUnsetOdd = [3]float64{0xf3, 0xe4, 0xcf}
)

// paintBits renders the filter in s into an RGBA image one pixel per cell or bin,
// l.Cols x l.Rows, reusing buf when it is large enough; the canvas scales it
// up. Cells are shaded by their value (a counter's count in the counting
// filter), bins by the share of their positions that are set; cells past m
// are background.
//
// With overlap (the keys mapping to each position, nil for none) a cell
// that is set is shaded by how many keys map to it instead: 1, 2, 3 and 4
// or more, light to dark.
func paintBits(buf []byte, shares []float64, s engine.BitStore, overlap []uint8, l Layout) ([]byte, []float64) {
	n := l.Cols * l.Rows
	if cap(buf) < n*4 {
		buf = make([]byte, n*4)
	}
	buf = buf[:n*4]
	const shades = 32
	// One palette for the first link (and every layout without links),
	// one for a chain's odd links.
	var palettes [2][shades + 1][4]byte
	for odd, from := range [2][3]float64{rgbUnset, rgbUnsetOdd} {
		for i := range palettes[odd] {
			c := blend(from, float64(i)/shades)
			palettes[odd][i] = [4]byte{byte(c[0]), byte(c[1]), byte(c[2]), 255}
		}
	}
	gap := [4]byte{byte(rgbGap[0]), byte(rgbGap[1]), byte(rgbGap[2]), 255}
	palette := &palettes[0]
	put := func(i int, t float64) {
		copy(buf[i*4:], palette[int(math.Round(math.Max(0, math.Min(1, t))*shades))][:])
	}
	if !l.Cells {
		shares = densityShares(s, l.Bins, shares)
		for bin, share := range shares {
			palette = &palettes[s.LinkOf(binStart(uint64(bin), l.M, l.Bins))%2]
			put(bin, share)
		}
		return buf, shares
	}
	link := 0
	for i := 0; i < n; i++ {
		pos := uint64(i)
		for link < len(s.Links) && s.Links[link] <= pos {
			link++
		}
		palette = &palettes[link%2]
		v := s.Value(pos)
		switch {
		case pos >= l.M:
			copy(buf[i*4:], gap[:])
		case v == 0:
			put(i, 0)
		case pos < uint64(len(overlap)):
			c := OverlapColours[min(max(int(overlap[pos]), 1), len(OverlapColours))-1]
			copy(buf[i*4:], c[:])
		case s.Counters:
			// Counters shade from light (1) to full (4 or more).
			put(i, math.Min(1, 0.25+0.75*float64(v)/4))
		default:
			put(i, 1)
		}
	}
	return buf, shares
}

// OverlapColours shade a set cell by the keys that map to it: 1, 2, 3,
// 4 or more. They differ in lightness, so they read in grey too; the
// legend and the pointer say the number as well.
var OverlapColours = [4][4]byte{
	{0x9d, 0xb8, 0xe8, 0xff},
	{0x4f, 0x7c, 0xd0, 0xff},
	{0x1d, 0x3f, 0x8a, 0xff},
	{0x0a, 0x16, 0x36, 0xff},
}

// blend blends the unset colour from and the set colour: t = 0 unset, 1
// set.
func blend(from [3]float64, t float64) [3]float64 {
	t = math.Max(0, math.Min(1, t))
	return [3]float64{
		from[0] + (rgbSet[0]-from[0])*t,
		from[1] + (rgbSet[1]-from[1])*t,
		from[2] + (rgbSet[2]-from[2])*t,
	}
}

// densityShares returns, for each of bins equal slices of the m positions,
// the share that are set, reusing out when it is large enough. It works a
// storage word at a time, masking words that straddle a slice boundary, so
// it stays fast for a billion bits; slices come in order, so it keeps one
// running count. A position is set when any bit of its field is; fields
// that straddle words (12-bit fingerprints) are read one at a time.
func densityShares(s engine.BitStore, bins uint64, out []float64) []float64 {
	if uint64(cap(out)) < bins {
		out = make([]float64, bins)
	}
	out = out[:bins]
	clear(out)
	words, stride, m := s.Words, s.Stride, s.M
	if 64%stride != 0 {
		return fieldShares(s, out)
	}
	per := uint64(64 / stride) // positions per word
	// A field's low bit becomes the OR of its bits.
	low := ^uint64(0) / (1<<stride - 1)
	occupied := func(w uint64) uint64 {
		for sh := stride / 2; sh >= 1; sh /= 2 {
			w |= w >> sh
		}
		return w & low
	}
	if stride == 1 {
		occupied = func(w uint64) uint64 { return w }
	}
	cur, set, size := uint64(0), uint64(0), uint64(0)
	flush := func(next uint64) {
		if size > 0 {
			out[cur] = float64(set) / float64(size)
		}
		cur, set, size = next, 0, 0
	}
	for wi, w := range words {
		first := uint64(wi) * per
		if first >= m {
			break
		}
		last := min(first+per, m) // exclusive
		occ := occupied(w)
		for a := first; a < last; {
			bin := binOf(a, m, bins)
			if bin != cur {
				flush(bin)
			}
			b := min(last, binStart(bin+1, m, bins))
			lowBit, width := uint(a-first)*stride, uint(b-a)*stride
			mask := ^uint64(0)
			if width < 64 {
				mask = (uint64(1)<<width - 1) << lowBit
			}
			set += uint64(bits.OnesCount64(occ & mask))
			size += b - a
			a = b
		}
	}
	flush(cur)
	return out
}

// binStart is the first position of a bin: ceil(bin * m / bins).
func binStart(bin, m, bins uint64) uint64 {
	hi, lo := bits.Mul64(bin, m)
	q, rem := bits.Div64(hi, lo, bins)
	if rem != 0 {
		q++
	}
	return q
}

// fieldShares is densityShares for fields of stride bits that straddle
// words, packed from bit 0: one field at a time.
func fieldShares(s engine.BitStore, out []float64) []float64 {
	m, bins := s.M, uint64(len(out))
	for bin := range bins {
		a, b := binStart(bin, m, bins), min(binStart(bin+1, m, bins), m)
		set := 0
		for pos := a; pos < b; pos++ {
			if s.Value(pos) != 0 {
				set++
			}
		}
		if b > a {
			out[bin] = float64(set) / float64(b-a)
		}
	}
	return out
}

// Caption says what the picture of r in layout l shows: the unit and
// how many, how a position is drawn, and what the two markers are.
func Caption(r *sim.Result, l Layout) (picture, ring, box string) {
	unit, terms := r.Variant.Unit(), r.Variant.Terms()
	dark, share := terms.Dark, terms.Share
	if l.Cells {
		group := ""
		if l.Group > 1 {
			group = ", " + strconv.Itoa(l.Group) + " to a bucket"
		}
		picture = "Every " + unit + " of the " + format.Int(r.M) + " drawn as a square" + group + ", " + dark + "."
	} else {
		picture = "Density picture: " + format.Int(r.M) + " " + unit + "s, each dot shaded by the share of its " + unit + "s " + share + "."
	}
	ring, box = "set by the last key inserted", "read by the first absent query"
	switch {
	case r.Variant.Chain():
		if r.Links > 1 {
			picture += " Its " + strconv.Itoa(r.Links) + " links lie one after another, their clear bits grey and sand by turns."
		} else {
			picture += " Its first link has not filled yet, so it is the only one."
		}
		ring = "read for the last key inserted in every link; it set those of the link it went into"
	case r.Variant.Bloom():
	case l.Group > 1 && l.Cells:
		ring = "the buckets of the last key inserted, where its fingerprint may live"
	default:
		ring = "the " + unit + "s of the last key inserted"
	}
	return picture, ring, box
}

// Frame renders bit arrays to pixels: every pixel the page shows, gaps
// and marks included, comes from here, so the canvas of the live page and
// the image of the prerendered one are the same picture. It keeps its
// buffers between renders, so a slider move allocates nothing large.
type Frame struct {
	cells  []byte // one pixel a cell or bin
	shares []float64
	pix    []byte // W x H, RGBA
}

// The marks' colours: rings for a key's own positions, squares for a
// query's, a black square for the keyboard's cursor.
var (
	rgbRing = [4]byte{0xd9, 0x48, 0x0f, 0xff}
	rgbBox  = [4]byte{0x0b, 0x7a, 0x3e, 0xff}
	// rgbCursor outlines the keyboard's position.
	rgbCursor = [4]byte{0x11, 0x11, 0x11, 0xff}
	white     = [4]byte{0xff, 0xff, 0xff, 0xff}
)

// Render returns the picture of s in layout l with marks, l.W x l.H RGBA
// pixels, at scale device pixels per CSS pixel; overlap is as paintBits'. The slice is the
// picture's own buffer: it holds until the next render.
func (p *Frame) Render(s engine.BitStore, overlap []uint8, l Layout, marks Marks, scale float64) []byte {
	p.cells, p.shares = paintBits(p.cells, p.shares, s, overlap, l)
	n := l.W * l.H * 4
	if cap(p.pix) < n {
		p.pix = make([]byte, n)
	}
	pix := p.pix[:n]
	step := l.Block
	if l.Cells {
		step = l.Cell
	}
	p.grid(pix, l, step)
	p.linkBounds(pix, l, s.Links, step, scale)
	p.marks(pix, l, marks, scale)
	return pix
}

// grid scales the painted cells up to pixels, step pixels a cell or bin,
// from Pad pixels in, with white gaps between cells and wider ones between
// groups where the cells are big enough to show them, and white round
// them.
func (p *Frame) grid(pix []byte, l Layout, step int) {
	fill(pix, white)
	stride := l.W * 4
	gridW := min(l.Cols*step, l.W-l.Pad)
	gapCol := gapColumns(l, step, gridW)
	// Rows that are gaps: a pixel under each row of cells, and between
	// rows of groups too small for cell gaps.
	rowGaps := l.Cells && (l.Cell >= 5 || (l.Group > 1 && l.Cell >= 3))
	for r := 0; r < l.Rows; r++ {
		top := l.Pad + r*step
		row := func(y int) []byte { return pix[y*stride+l.Pad*4 : y*stride+(l.Pad+gridW)*4] }
		line := row(top)
		for x := range gridW {
			px := white
			if !gapCol[x] {
				copy(px[:], p.cells[(r*l.Cols+x/step)*4:])
			}
			copy(line[x*4:], px[:])
		}
		for y := top + 1; y < top+step; y++ {
			copy(row(y), line)
		}
		if y := top + step - 1; rowGaps && step > 1 && (l.Cell >= 5 || r < l.Rows-1) {
			fill(row(y), white)
		}
	}
}

// gapColumns is, for each pixel column of the grid's gridW, whether it is
// a gap: a pixel between cells of 5 pixels or more, a groupGap between
// groups of cells of 3 or more; none in a density picture.
func gapColumns(l Layout, step, gridW int) []bool {
	gapCol := make([]bool, gridW)
	if l.Cells && l.Cell >= 5 {
		for c := 1; c <= l.Cols; c++ {
			if x := c*step - 1; x < gridW {
				gapCol[x] = true
			}
		}
	}
	if l.Cells && l.Group > 1 && l.Cell >= 3 {
		w := int(l.groupGap())
		for c := l.Group; c < l.Cols; c += l.Group {
			for x := c*step - (w+1)/2; x < c*step-(w+1)/2+w; x++ {
				if x >= 0 && x < gridW {
					gapCol[x] = true
				}
			}
		}
	}
	return gapCol
}

// marks draws the rings, boxes and the cursor over the cells, at least 5
// CSS pixels across so they show on a density picture too; in whole
// groups, one goes round each group.
func (p *Frame) marks(pix []byte, l Layout, marks Marks, scale float64) {
	lw := 2 * scale
	if rects := l.groupRects(marks.Ring); rects != nil {
		pad := 2 * scale
		for _, g := range rects {
			p.ring(pix, l, g.X+g.W/2, g.Y+g.H/2, g.W/2+pad+scale, g.H/2+pad+scale, lw, rgbRing)
		}
	} else {
		for _, pos := range marks.Ring {
			if x, y, rad, ok := l.centre(pos); ok {
				rad = math.Max(rad+scale, 5*scale)
				p.ring(pix, l, x, y, rad, rad, lw, rgbRing)
			}
		}
	}
	if rects := l.groupRects(marks.Box); rects != nil {
		pad := 2 * scale
		for _, g := range rects {
			p.box(pix, l, rect{g.X - pad, g.Y - pad, g.W + 2*pad, g.H + 2*pad}, lw, rgbBox)
		}
	} else {
		for _, pos := range marks.Box {
			if x, y, rad, ok := l.centre(pos); ok {
				rad = math.Max(rad+2*scale, 7*scale)
				p.box(pix, l, rect{x - rad, y - rad, 2 * rad, 2 * rad}, lw, rgbBox)
			}
		}
	}
	for _, pos := range marks.Cursor {
		if x, y, rad, ok := l.centre(pos); ok {
			// Black in a white halo: it shows on set and unset cells.
			rad = math.Max(rad+2*scale, 5*scale)
			p.box(pix, l, rect{x - rad - lw, y - rad - lw, 2 * (rad + lw), 2 * (rad + lw)}, lw, white)
			p.box(pix, l, rect{x - rad, y - rad, 2 * rad, 2 * rad}, lw, rgbCursor)
		}
	}
}

// linkBounds draws, for each first position of a chain's link, the step
// that separates it from the link before in the row-by-row picture: along
// the top of its row from it to the right edge, down its left side, and
// along the bottom of its row from the left edge to it. The lines are
// white, as the gaps between cells are, 1.5 CSS pixels wide.
func (p *Frame) linkBounds(pix []byte, l Layout, starts []uint64, step int, scale float64) {
	lw := max(1, int(math.Round(1.5*scale)))
	paint := func(x0, x1, y0, y1 int) {
		for y := max(0, y0); y < min(l.H, y1); y++ {
			for x := max(0, x0); x < min(l.W, x1); x++ {
				copy(pix[(y*l.W+x)*4:], white[:])
			}
		}
	}
	for _, b := range starts {
		var col, row int
		switch {
		case b >= l.M:
			continue
		case l.Cells:
			col, row = int(b%uint64(l.Cols)), int(b/uint64(l.Cols))
		default:
			bin := binOf(b, l.M, l.Bins)
			col, row = int(bin%uint64(l.Cols)), int(bin/uint64(l.Cols))
		}
		x, top, bottom := l.Pad+col*step, l.Pad+row*step, l.Pad+(row+1)*step
		paint(x, l.Pad+l.Cols*step, top-lw/2, top-lw/2+lw)
		paint(x-lw/2, x-lw/2+lw, top, bottom)
		paint(l.Pad, x, bottom-lw/2, bottom-lw/2+lw)
	}
}

// fill paints every pixel of pix colour c.
func fill(pix []byte, c [4]byte) {
	for i := 0; i+4 <= len(pix); i += 4 {
		copy(pix[i:], c[:])
	}
}

// ring paints the outline, lw pixels wide, of the ellipse with centre
// (cx, cy) and radii (a, b): the pixels whose centres lie between the
// ellipses lw/2 inside and Outside it.
func (p *Frame) ring(pix []byte, l Layout, cx, cy, a, b, lw float64, c [4]byte) {
	outA, outB, inA, inB := a+lw/2, b+lw/2, a-lw/2, b-lw/2
	x0, x1 := max(0, int(cx-outA)), min(l.W-1, int(cx+outA))
	y0, y1 := max(0, int(cy-outB)), min(l.H-1, int(cy+outB))
	for y := y0; y <= y1; y++ {
		dy := float64(y) + 0.5 - cy
		for x := x0; x <= x1; x++ {
			dx := float64(x) + 0.5 - cx
			inside := func(ra, rb float64) bool { return ra > 0 && rb > 0 && (dx*dx)/(ra*ra)+(dy*dy)/(rb*rb) <= 1 }
			if inside(outA, outB) && !inside(inA, inB) {
				copy(pix[(y*l.W+x)*4:], c[:])
			}
		}
	}
}

// box paints the outline, lw pixels wide, of rectangle r: the pixels
// whose centres lie within lw/2 of its edges.
func (p *Frame) box(pix []byte, l Layout, r rect, lw float64, c [4]byte) {
	h := lw / 2
	x0, x1 := max(0, int(math.Floor(r.X-h))), min(l.W-1, int(r.X+r.W+h))
	y0, y1 := max(0, int(math.Floor(r.Y-h))), min(l.H-1, int(r.Y+r.H+h))
	for y := y0; y <= y1; y++ {
		fy := float64(y) + 0.5
		for x := x0; x <= x1; x++ {
			fx := float64(x) + 0.5
			inOuter := fx >= r.X-h && fx <= r.X+r.W+h && fy >= r.Y-h && fy <= r.Y+r.H+h
			inInner := fx > r.X+h && fx < r.X+r.W-h && fy > r.Y+h && fy < r.Y+r.H-h
			if inOuter && !inInner {
				copy(pix[(y*l.W+x)*4:], c[:])
			}
		}
	}
}

// Canvas shows pictures on the page's canvas. It keeps the JavaScript
// pixel array between draws and makes a new one only when the picture's
// size changes.
type Canvas struct {
	Frame
	arr        app.Value // Uint8ClampedArray the pixels are copied into
	img        app.Value // ImageData over arr
	imgW, imgH int
}

var Shared = &Canvas{}

// Draw paints the filter in s onto the canvas element in layout l (made
// at the screen's scale, device pixels per CSS pixel), shaded by overlap
// if it is not nil, and rings and boxes the positions marks names. The
// canvas's box is the page's (its CSS keeps the layout's proportions):
// Draw sets its pixels only.
func (b *Canvas) Draw(canvas app.Value, s engine.BitStore, overlap []uint8, marks Marks, l Layout, scale float64) {
	if !canvas.Truthy() || s.M == 0 {
		return
	}
	// Resizing a canvas clears and reallocates it: only when needed.
	if canvas.Get("width").Int() != l.W || canvas.Get("height").Int() != l.H {
		canvas.Set("width", l.W)
		canvas.Set("height", l.H)
	}
	pix := b.Render(s, overlap, l, marks, scale)
	if b.imgW != l.W || b.imgH != l.H {
		b.arr = app.Window().Get("Uint8ClampedArray").New(len(pix))
		b.img = app.Window().Get("ImageData").New(b.arr, l.W, l.H)
		b.imgW, b.imgH = l.W, l.H
	}
	app.CopyBytesToJS(b.arr, pix)
	canvas.Call("getContext", "2d").Call("putImageData", b.img, 0, 0)
}

// Outside counts positions at or beyond m: a broken reduction's stray
// writes, which the real filter can never produce.
func Outside(positions []uint64, m uint64) int {
	n := 0
	for _, p := range positions {
		if p >= m {
			n++
		}
	}
	return n
}
