package audit

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
)

// The audit does not know a target's file format, so it damages what Save
// wrote by generic byte surgery, each kind a check:
//
//   - truncated: the file cut short at its first 0, 1, 4, 8, 16, 32 and
//     64 bytes, a quarter, a half, all but 8 and all but 1 of them;
//   - flipped: the lowest bit of every 8th byte of the first 64 (where
//     headers are) inverted, and the whole byte at 16 offsets spread
//     through the rest and at the last;
//   - length: the file's size fields, each alone, moved by one word up
//     and down, so the size it claims disagrees with what it holds;
//   - huge: every size field made to claim 2^32 bits (512 MiB, which a
//     trusting loader allocates) and then 2^60 bits (which none can).
//
// The damage stays where a Go process survives a loader that trusts its
// header. Such a loader asked for a few terabytes is killed by the
// runtime (out of memory is fatal, not a panic), and the report with it;
// asked for more than any address space (past 2^48 bytes) it panics,
// which the audit catches and fails. So a header's bytes have only their
// lowest bit flipped, at offsets a multiple of 8, which moves an aligned
// little-endian integer by one and a big-endian one by 2^56; a huge claim
// is 2^32 bits, which a trusting loader survives and the bound catches,
// or 2^60, which none can allocate; and a 4-byte field is given at most
// 2^32 - 1 bits, in its own unit.
//
// A size field is found, not known: every 4- or 8-byte integer, little-
// or big-endian, at any offset, that holds m (as New was asked, or as the
// filter's Size rounds it) or a length derived from it: the words
// ceil(m/64), their bytes, or the bytes ceil(m/8). A huge claim patches
// every field found at once, each to the same claim in its own unit, so a
// loader that checks m against a length is given a consistent lie. A
// format that writes its size another way (a varint, text, a log2) has
// no field found: its length and huge checks are skipped with the reason,
// and the truncations and flips still apply. A match by chance in the
// payload is patched too, which is only another damaged file, judged alike.
//
// Each damaged file must be refused, or load to a filter that answers yes
// for every member; and its Load, refused or not, may allocate at most
// loadBound: 16 times the file's bytes and 1 MiB, measured as the growth
// of runtime.MemStats.TotalAlloc over the call. Core's own Load reads a
// payload in chunks, each allocated as the one before fills, and takes
// about three times the bytes there are; a loader that allocates what a
// header claims before reading it takes the claim. TotalAlloc counts every
// goroutine's allocation, so a Load over the bound is measured again, up
// to three times, and held to the least: other work can only add to it. A
// target in another process is measured on this side only (what its
// protocol buffers), and held there to its answers.

// damage is one kind of damage: its files made from the file Save wrote
// and the filter's m, as it may be written.
type damage struct {
	name, contract string
	files          func(file []byte, ms []uint64) []damagedFile
}

// damagedFile is a file damaged one way, and what was done to it.
type damagedFile struct {
	what string
	file []byte
}

var damages = []damage{
	{"truncated", "cut short at 11 points, from 0 bytes to all but the last", truncations},
	{"flipped", "with a bit inverted in the first 64 bytes, or a byte spread through the rest", flips},
	{"length", "whose size fields (m, or its length in words or bytes) claim a word more or less than it holds", lengths},
	{"huge", "whose size fields all claim 2^32 bits, or 2^60", hugeClaims},
}

// hugeBits are the claims of the huge check.
var hugeBits = []uint64{1 << 32, 1 << 60}

// loadBound is the most a Load of a file of size bytes may allocate.
func loadBound(size int) uint64 { return 16*uint64(size) + 1<<20 }

// damaged saves the default-shape filter, damages its file by d, loads
// each damaged file and holds it to the contract above.
func damaged(t Target, d damage) Verdict {
	s := standard(0, 10, 7, 4000)
	flt, file, err := t.filledFile(s)
	if err != nil {
		return fail("%v", err)
	}
	m, _ := t.dims(s)
	ms := []uint64{m}
	if p, ok := flt.(Positioner); ok && p.Size() != m {
		ms = append(ms, p.Size())
	}
	files := d.files(file, ms)
	if len(files) == 0 {
		panic(refused{fmt.Sprintf("no 4- or 8-byte field of the %d-byte file holds m = %d or its length in words or bytes, so there is no size to patch (%s)",
			len(file), m, t.describe(s))})
	}
	bound := loadBound(len(file))
	var refusals, whole, failed int
	var most uint64
	first := ""
	for _, f := range files {
		back, err, took := t.measuredLoad(f.file, bound)
		most = max(most, took)
		why := ""
		switch {
		case errors.Is(err, errPanicked):
			why = err.Error()
		case took > bound:
			why = fmt.Sprintf("Load took %d bytes", took)
		case err != nil:
			refusals++
		default:
			lost, err := t.missing(back, s, 0, s.Items)
			if err != nil {
				return errVerdict(err)
			}
			if lost > 0 {
				why = fmt.Sprintf("loaded, and %d of %d members answer no", lost, s.Items)
			} else {
				whole++
			}
		}
		if why != "" {
			if failed == 0 {
				first = fmt.Sprintf("; the first failure, %s: %s", f.what, why)
			}
			failed++
		}
	}
	// What a Load allocated moves with what else the process does, so a
	// pass does not print it: the detail, and the digest, stay the same.
	took := fmt.Sprintf("every Load within %d bytes", bound)
	if most > bound {
		took = fmt.Sprintf("the most a Load took was %d bytes of %d allowed", most, bound)
	}
	return verdict(failed == 0, "%d damaged files of %d bytes: %d refused, %d loaded with every member, %d failed; %s%s (%s)",
		len(files), len(file), refusals, whole, failed, took, first, t.describe(s))
}

// measuredLoad loads file and measures what the Load allocated: again,
// up to three times, while it is over bound, keeping the least.
func (t Target) measuredLoad(file []byte, bound uint64) (flt Filter, err error, least uint64) {
	least = math.MaxUint64
	for try := 0; try < 3 && least > bound && !errors.Is(err, errPanicked); try++ {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		flt, err = t.load(file)
		runtime.ReadMemStats(&after)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	return flt, err, least
}

// truncations are file cut short at 11 points.
func truncations(file []byte, _ []uint64) []damagedFile {
	n := len(file)
	var out []damagedFile
	for _, at := range uniqueBelow(n, 0, 1, 4, 8, 16, 32, 64, n/4, n/2, n-8, n-1) {
		out = append(out, damagedFile{fmt.Sprintf("cut to %d bytes", at), file[:at:at]})
	}
	return out
}

// flips are file with a bit or a byte inverted: the lowest bit of every
// 8th of the first 64 bytes, then the whole byte at 16 offsets spread
// through the rest and at the last.
func flips(file []byte, _ []uint64) []damagedFile {
	n := len(file)
	var out []damagedFile
	for i := 0; i < min(n, 64); i += 8 {
		f := slices.Clone(file)
		f[i] ^= 1
		out = append(out, damagedFile{fmt.Sprintf("the lowest bit of byte %d inverted", i), f})
	}
	var at []int
	for i := range 16 {
		at = append(at, 64+i*(n-64)/16)
	}
	for _, i := range uniqueBelow(n, append(at, n-1)...) {
		f := slices.Clone(file)
		f[i] ^= 0xff
		out = append(out, damagedFile{fmt.Sprintf("byte %d inverted", i), f})
	}
	return out
}

// lengths are file with each size field alone moved by a word's worth
// of its unit, up and then down.
func lengths(file []byte, ms []uint64) []damagedFile {
	var out []damagedFile
	for _, f := range sizeFields(file, ms) {
		for _, step := range []int64{1, -1} {
			v := f.value + uint64(step)*f.unit.step
			out = append(out, damagedFile{fmt.Sprintf("%s claims %d %s, not %d", f, v, f.unit.name, f.value), f.patched(file, v)})
		}
	}
	return out
}

// hugeClaims are file with every size field claiming each of hugeBits.
func hugeClaims(file []byte, ms []uint64) []damagedFile {
	fields := sizeFields(file, ms)
	if len(fields) == 0 {
		return nil
	}
	var out []damagedFile
	for _, bits := range hugeBits {
		f := slices.Clone(file)
		var names []string
		for _, fl := range fields {
			claim := bits
			if fl.width == 4 {
				claim = min(bits, math.MaxUint32)
			}
			f = fl.patched(f, fl.unit.of(claim))
			names = append(names, fl.String())
		}
		out = append(out, damagedFile{fmt.Sprintf("%s claiming 2^%d bits", strings.Join(names, ", "), int(math.Log2(float64(bits)))), f})
	}
	return out
}

// sizeUnit is a unit a file may give its size in: of converts m bits to
// it, step is a word of it.
type sizeUnit struct {
	name string
	of   func(m uint64) uint64
	step uint64
}

var sizeUnits = []sizeUnit{
	{"bits", func(m uint64) uint64 { return m }, 64},
	{"words", func(m uint64) uint64 { return (m + 63) / 64 }, 1},
	{"bytes", func(m uint64) uint64 { return 8 * ((m + 63) / 64) }, 8},
	{"bytes", func(m uint64) uint64 { return (m + 7) / 8 }, 8},
}

// sizeField is an integer of a file that holds its size.
type sizeField struct {
	at, width int
	big       bool
	value     uint64
	unit      sizeUnit
}

func (f sizeField) String() string {
	order := "little"
	if f.big {
		order = "big"
	}
	return fmt.Sprintf("the %d-byte %s-endian field at byte %d", f.width, order, f.at)
}

// patched is file with the field set to v (the largest it holds if v
// does not fit), in a copy.
func (f sizeField) patched(file []byte, v uint64) []byte {
	out := slices.Clone(file)
	b := out[f.at : f.at+f.width]
	switch {
	case f.width == 8 && f.big:
		binary.BigEndian.PutUint64(b, v)
	case f.width == 8:
		binary.LittleEndian.PutUint64(b, v)
	case f.big:
		binary.BigEndian.PutUint32(b, uint32(min(v, math.MaxUint32)))
	default:
		binary.LittleEndian.PutUint32(b, uint32(min(v, math.MaxUint32)))
	}
	return out
}

// sizeFields finds the integers of file that hold one of ms in one of
// sizeUnits: 8-byte ones first, then 4-byte ones where no wider field
// already covers the bytes. Values below 256 are not sought: a small
// value matches bytes everywhere.
func sizeFields(file []byte, ms []uint64) []sizeField {
	var found []sizeField
	covered := make([]bool, len(file))
	for _, width := range []int{8, 4} {
		for at := 0; at+width <= len(file); at++ {
			if slices.Contains(covered[at:at+width], true) {
				continue
			}
			if f, ok := sizeAt(file, at, width, ms); ok {
				found = append(found, f)
				for i := at; i < at+width; i++ {
					covered[i] = true
				}
			}
		}
	}
	slices.SortFunc(found, func(a, b sizeField) int { return a.at - b.at })
	return found
}

// sizeAt is the size field of file at byte at of width bytes, if its
// integer, read either way, holds one of ms in a unit.
func sizeAt(file []byte, at, width int, ms []uint64) (sizeField, bool) {
	b := file[at : at+width]
	for _, big := range []bool{false, true} {
		var v uint64
		switch {
		case width == 8 && big:
			v = binary.BigEndian.Uint64(b)
		case width == 8:
			v = binary.LittleEndian.Uint64(b)
		case big:
			v = uint64(binary.BigEndian.Uint32(b))
		default:
			v = uint64(binary.LittleEndian.Uint32(b))
		}
		if v < 256 {
			continue
		}
		for _, m := range ms {
			for _, u := range sizeUnits {
				if u.of(m) == v {
					return sizeField{at: at, width: width, big: big, value: v, unit: u}, true
				}
			}
		}
	}
	return sizeField{}, false
}

// uniqueBelow is the distinct values of at in [0, n), in order.
func uniqueBelow(n int, at ...int) []int {
	var out []int
	for _, i := range at {
		if i >= 0 && i < n && !slices.Contains(out, i) {
			out = append(out, i)
		}
	}
	return out
}
