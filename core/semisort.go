package core

import "sync"

// semiCodecs is the number of sorted multisets of four 4-bit prefixes,
// C(16+4-1, 4) = C(19, 4): a semi-sorted bucket's code is below it, so it
// fits 12 bits (Fan et al. 2014, section 5.2).
const semiCodecs = 3876

// semiCodeBits is the width of a semi-sorted bucket's prefix code.
const semiCodeBits = 12

// semiCodec maps the sorted prefix quadruples to their codes and back, by
// table, as the authors' reference implementation does: dec[code] is the
// quadruple, smallest prefix in the low nibble; enc[quadruple] its code.
type semiCodec struct {
	dec [semiCodecs]uint16
	enc [1 << 16]uint16
}

// semiTable builds the codec once, on the first semi-sorted filter: the
// quadruples p0 <= p1 <= p2 <= p3 numbered in lexicographic order.
var semiTable = sync.OnceValue(func() *semiCodec {
	t := new(semiCodec)
	code := 0
	for a := range 16 {
		for b := a; b < 16; b++ {
			for c := b; c < 16; c++ {
				for d := c; d < 16; d++ {
					q := uint16(a | b<<4 | c<<8 | d<<12)
					t.dec[code], t.enc[q] = q, uint16(code)
					code++
				}
			}
		}
	}
	if code != semiCodecs {
		panic("core: the semi-sorting table has the wrong size")
	}
	return t
})

// decode turns a stored bucket of f-bit fingerprints (the 12-bit code of
// their prefixes, then each one's low f-4 bits, smallest first) into the
// plain layout, slot j at bits j·f.
func (t *semiCodec) decode(b uint64, f uint) uint64 {
	lw := f - 4
	q := uint64(t.dec[b&(1<<semiCodeBits-1)])
	lows := b >> semiCodeBits
	var out uint64
	for j := range uint(CuckooSlots) {
		fp := q>>(4*j)&15<<lw | lows>>(j*lw)&(1<<lw-1)
		out |= fp << (j * f)
	}
	return out
}

// encode is decode's inverse: it sorts the four fingerprints, so their
// prefixes come out in order and the code is canonical, and packs them.
func (t *semiCodec) encode(b uint64, f uint) uint64 {
	mask := uint64(1)<<f - 1
	v0, v1, v2, v3 := b&mask, b>>f&mask, b>>(2*f)&mask, b>>(3*f)&mask
	// A sorting network for four: five compare-exchanges.
	v0, v1 = min(v0, v1), max(v0, v1)
	v2, v3 = min(v2, v3), max(v2, v3)
	v0, v2 = min(v0, v2), max(v0, v2)
	v1, v3 = min(v1, v3), max(v1, v3)
	v1, v2 = min(v1, v2), max(v1, v2)
	lw := f - 4
	q := v0>>lw | v1>>lw<<4 | v2>>lw<<8 | v3>>lw<<12
	lm := uint64(1)<<lw - 1
	lows := v0&lm | v1&lm<<lw | v2&lm<<(2*lw) | v3&lm<<(3*lw)
	return uint64(t.enc[q]) | lows<<semiCodeBits
}
