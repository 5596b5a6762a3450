package core

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
)

// Digester folds integers exactly and floats at a fixed number of decimals
// into a short SHA-256 digest. Floats are rounded because Go's math
// functions are assembly on amd64 and pure Go on wasm and can differ in the
// last bit; six decimals is far coarser than that and far finer than any
// figure the lab shows.
type Digester struct{ h hash.Hash }

func (d *Digester) write(b []byte) {
	if d.h == nil {
		d.h = sha256.New()
	}
	d.h.Write(b)
}

// Uint adds an integer exactly.
func (d *Digester) Uint(x uint64) { d.write(binary.LittleEndian.AppendUint64(nil, x)) }

// Float adds a float rounded to six decimals.
func (d *Digester) Float(x float64) { d.write(fmt.Appendf(nil, "%.6f;", x)) }

// String adds a length-prefixed string.
func (d *Digester) String(s string) {
	d.Uint(uint64(len(s)))
	d.write([]byte(s))
}

// Words adds a word slice exactly: its length, then each word, as Uint
// would, a few hundred words to a write.
func (d *Digester) Words(ws []uint64) {
	d.Uint(uint64(len(ws)))
	var buf [4096]byte
	for len(ws) > 0 {
		n := min(len(ws), len(buf)/8)
		for i, w := range ws[:n] {
			binary.LittleEndian.PutUint64(buf[8*i:], w)
		}
		d.write(buf[:8*n])
		ws = ws[n:]
	}
}

// Sum returns the first 16 hex digits of the SHA-256 of everything added.
func (d *Digester) Sum() string {
	d.write(nil)
	return hex.EncodeToString(d.h.Sum(nil)[:8])
}
