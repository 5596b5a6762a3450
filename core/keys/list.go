package keys

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"math"
	"math/bits"
	"unicode/utf8"
)

// Limits bound a key list a user brings (a file in the CLI, a paste or an
// upload in the browser).
type Limits struct {
	MaxKeys      int   // keys read, duplicates included; at most 2^32-1
	MaxBytes     int64 // bytes of input, line endings included
	MaxLineBytes int   // bytes of one key; at most 1 GiB
}

// What can be wrong with a key list; Read wraps one of these with the
// line and the limit, so errors.Is tells them apart.
var (
	ErrNoKeys        = errors.New("keys: no keys")
	ErrNotText       = errors.New("keys: keys must be text")
	ErrKeyTooLong    = errors.New("keys: key too long")
	ErrTooManyKeys   = errors.New("keys: too many keys")
	ErrKeysTooLarge  = errors.New("keys: key list too large")
	errKeyLimitRange = errors.New("keys: key limits must be positive, with at most 2^32-1 keys and 1 GiB a key")
)

// List is a key list as read: its distinct keys and how many lines
// repeated an earlier one, so that a duplicate never counts twice in n.
//
// The keys sit end to end in one arena, each stored once, at 4 bytes a key
// beyond its own bytes: a [][]byte would spend 24 on each slice header, and
// a map[string] to drop duplicates as much again and a second copy of every
// key. The 10 million keys of an 88 MB file keep 118 MB this way.
type List struct {
	Lines      int // keys read, duplicates included; blank lines are not keys
	Duplicates int // keys that repeated an earlier key
	keys       keyArena
}

// Len is the number of distinct keys.
func (l List) Len() int { return l.keys.Len() }

// Key is the i-th distinct key, in the order first seen. It shares the
// list's memory: do not modify it. It panics if i is not in [0, Len()).
func (l List) Key(i int) []byte { return l.keys.Key(i) }

// Read reads one key per line. A line ends at "\n", "\r\n" or a bare
// "\r" (the line end of old Mac files), and a UTF-8 byte order mark at the
// start of the input is dropped. A key is the line's bytes without its line
// end; blank lines are skipped and nothing else is trimmed, so "a" and "a "
// are two keys. It refuses, with the line number, input that is not text (a
// NUL byte or invalid UTF-8), a key over lim.MaxLineBytes, more than
// lim.MaxKeys keys or lim.MaxBytes bytes, and input without a key.
//
// Memory: the list keeps the distinct keys' bytes and 4 bytes a key. While
// reading it holds every key, duplicates too, then drops the duplicates in
// place with a set of 5.3 bytes a key made once at the right size: at most
// the input and 9.3 bytes a line, with no garbage left from growing.
func Read(r io.Reader, lim Limits) (List, error) { return ReadSteps(r, lim, nil) }

// ReadSteps is Read with a Step callback (nil for none) while it
// drops the duplicates, a second or two at ten million keys; a non-nil error
// stops it and is returned. How much of the input is read is the reader's to
// report, as it is read.
func ReadSteps(r io.Reader, lim Limits, step func(done, total int) error) (List, error) {
	if lim.MaxKeys < 1 || lim.MaxBytes < 1 || lim.MaxLineBytes < 1 ||
		uint64(lim.MaxKeys) > math.MaxUint32 || lim.MaxLineBytes > maxKeyLen {
		return List{}, errKeyLimitRange
	}
	// Room for a byte order mark, the longest key and its line end: a
	// buffer that fills without a line end holds a key that is too long.
	br := bufio.NewReaderSize(r, lim.MaxLineBytes+len(bom)+2)
	var (
		list    List
		total   int64
		afterCR bool // the last line ended in "\r": a "\n" now completes it
	)
	list.keys.shift = uint(max(20, bits.Len(uint(lim.MaxLineBytes))))
	for line := 1; ; line++ {
		raw, err := readLine(br)
		total += int64(len(raw))
		if total > lim.MaxBytes {
			return List{}, fmt.Errorf("%w: more than %d bytes, the limit", ErrKeysTooLarge, lim.MaxBytes)
		}
		if afterCR && len(raw) > 0 && raw[0] == '\n' {
			afterCR = false
			line--
			continue
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			return List{}, fmt.Errorf("%w: line %d is over %d bytes, the limit for one key", ErrKeyTooLong, line, lim.MaxLineBytes)
		}
		if err != nil && err != io.EOF {
			return List{}, fmt.Errorf("keys: reading keys: %w", err)
		}
		key := raw
		afterCR = false
		if n := len(key); n > 0 && (key[n-1] == '\n' || key[n-1] == '\r') {
			afterCR = key[n-1] == '\r'
			key = key[:n-1]
		}
		if line == 1 {
			key = bytes.TrimPrefix(key, bom)
		}
		switch {
		case len(key) > lim.MaxLineBytes:
			return List{}, fmt.Errorf("%w: line %d is %d bytes, the limit for one key is %d", ErrKeyTooLong, line, len(key), lim.MaxLineBytes)
		case bytes.IndexByte(key, 0) >= 0:
			return List{}, fmt.Errorf("%w: line %d holds a NUL byte (a binary file?); give one key per line", ErrNotText, line)
		case !utf8.Valid(key):
			return List{}, fmt.Errorf("%w: line %d is not valid UTF-8", ErrNotText, line)
		}
		if len(key) > 0 {
			if list.Lines == lim.MaxKeys {
				return List{}, fmt.Errorf("%w: more than %d, the limit", ErrTooManyKeys, lim.MaxKeys)
			}
			list.Lines++
			if !list.keys.add(key) {
				return List{}, fmt.Errorf("%w: more than 4 GiB of keys", ErrKeysTooLarge)
			}
		}
		if err == io.EOF {
			break
		}
	}
	if list.Lines == 0 {
		return List{}, fmt.Errorf("%w: the input is empty or holds only blank lines", ErrNoKeys)
	}
	var err error
	if list.Duplicates, err = list.keys.dropDuplicates(step); err != nil {
		return List{}, err
	}
	return list, nil
}

// Parse is Read for text already in memory, such as a paste.
func Parse(text []byte, lim Limits) (List, error) {
	return Read(bytes.NewReader(text), lim)
}

// bom is UTF-8's byte order mark, which some editors on Windows put at the
// start of a text file.
var bom = []byte("\xef\xbb\xbf")

// readLine reads through the next "\n" or "\r", whichever comes first (the
// caller skips the "\n" of a "\r\n"), and returns the line with its end. As
// with bufio.Reader.ReadSlice, the line is a slice of br's buffer, valid
// until the next read; a buffer that fills before a line end comes back
// whole with bufio.ErrBufferFull; and the last line comes back with io.EOF
// or the reader's error.
func readLine(br *bufio.Reader) ([]byte, error) {
	scanned := 0
	for {
		if br.Buffered() == scanned {
			if _, err := br.Peek(scanned + 1); err != nil {
				buf, _ := br.Peek(br.Buffered())
				br.Discard(len(buf))
				return buf, err
			}
		}
		buf, _ := br.Peek(br.Buffered())
		// Two IndexByte calls are vectorized where IndexAny is not; "\r"
		// is looked for only before the "\n", which in most files ends the
		// line.
		rest := buf[scanned:]
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			rest = rest[:i+1]
		}
		if i := bytes.IndexByte(rest, '\r'); i >= 0 {
			rest = rest[:i+1]
		}
		if n := len(rest); n > 0 && (rest[n-1] == '\n' || rest[n-1] == '\r') {
			line := buf[:scanned+n]
			br.Discard(len(line))
			return line, nil
		}
		scanned = len(buf)
	}
}

// maxKeyLen bounds one key in a keyArena, so that a block of 2^shift bytes
// always holds one.
const maxKeyLen = 1 << 30

// keyArena stores non-empty keys end to end in blocks of 2^shift bytes that
// are never moved once full, and each key's end as a uint32 offset: key i
// runs from the end of key i-1 to its own end, unless it did not fit in the
// block that key ended in and starts the next block. A key never straddles
// two blocks. Only the first block grows, from 4 KiB, so that a short list
// costs little; past it, blocks and the offsets' chunks are added whole, so
// a long list is never copied and leaves no garbage behind as it grows.
type keyArena struct {
	blocks [][]byte
	ends   [][]uint32 // chunks of endsChunk offsets
	n      int
	shift  uint // blocks are 2^shift bytes: at least 1 MiB and the longest key
}

const endsChunk = 1 << 12

func (a *keyArena) Len() int { return a.n }

// end is the offset just past key i.
func (a *keyArena) end(i int) uint64 { return uint64(a.ends[i/endsChunk][i%endsChunk]) }

// Key is key i; it panics if i is not in [0, Len()).
func (a *keyArena) Key(i int) []byte {
	if i < 0 || i >= a.n {
		panic(fmt.Sprintf("keys: key %d of %d", i, a.n))
	}
	end := a.end(i)
	b := (end - 1) >> a.shift
	base := b << a.shift
	start := base
	if i > 0 {
		if prev := a.end(i - 1); prev > base {
			start = prev
		}
	}
	return a.blocks[b][start-base : end-base : end-base]
}

// add appends a non-empty key; it reports false, and stores nothing, if the
// offsets would pass 4 GiB.
func (a *keyArena) add(key []byte) bool {
	if a.shift == 0 {
		a.shift = 20
	}
	var end uint64
	if a.n > 0 {
		end = a.end(a.n - 1)
	}
	if len(a.blocks) == 0 || end+uint64(len(key)) > uint64(len(a.blocks))<<a.shift {
		// A new block; the rest of the last one stays unused.
		if uint64(len(a.blocks)+1)<<a.shift > math.MaxUint32 {
			return false
		}
		// The first block starts small, so that a short list costs little;
		// once it is full the list is long, and later blocks come whole.
		size := 1 << a.shift
		if len(a.blocks) == 0 {
			size = min(size, 4<<10)
		}
		a.blocks = append(a.blocks, make([]byte, size))
		end = uint64(len(a.blocks)-1) << a.shift
	}
	last := &a.blocks[len(a.blocks)-1]
	if need := int(end&(1<<a.shift-1)) + len(key); need > len(*last) {
		grown := make([]byte, min(1<<a.shift, max(2*len(*last), need)))
		copy(grown, *last)
		*last = grown
	}
	a.put(a.n, end, key)
	a.n++
	return true
}

// put writes key i at offset at, in the last block or one before it, and
// records its end.
func (a *keyArena) put(i int, at uint64, key []byte) {
	size := uint64(1) << a.shift
	copy(a.blocks[at>>a.shift][at&(size-1):], key)
	if i%endsChunk == 0 && i/endsChunk == len(a.ends) {
		a.ends = append(a.ends, make([]uint32, endsChunk))
	}
	a.ends[i/endsChunk][i%endsChunk] = uint32(at + uint64(len(key)))
}

// stepEvery is how many keys dropDuplicates checks between two steps.
const stepEvery = 1 << 14

// dropDuplicates keeps the first of equal keys, in order, and returns how
// many it dropped. It moves each kept key down to where it would have been
// had the duplicates never been added: never past where it is, since every
// key before it takes as much room or less, so the arena shrinks in place.
// A step error stops it half done, for the caller to drop the arena.
func (a *keyArena) dropDuplicates(step func(done, total int) error) (int, error) {
	n := a.n
	set := NewSet(n)
	kept := 0
	var end uint64 // of the last kept key
	for i := range n {
		if step != nil && i > 0 && i%stepEvery == 0 {
			if err := step(i, n); err != nil {
				return 0, err
			}
		}
		key := a.Key(i) // its ends are still as added: kept <= i
		h := set.Hash(key)
		slot, dup := set.Find(a, key, h)
		if dup {
			continue
		}
		if kept < i {
			// As add does: on in the last kept key's block, or the next.
			at := end
			if next := ((end-1)>>a.shift + 1) << a.shift; at+uint64(len(key)) > next {
				at = next
			}
			a.put(kept, at, key)
		}
		set.Put(slot, kept, h)
		end = a.end(kept)
		kept++
	}
	a.n = kept
	if kept < n {
		last := (end - 1) >> a.shift
		clear(a.blocks[last+1:])
		a.blocks = a.blocks[:last+1]
		chunks := (kept + endsChunk - 1) / endsChunk
		clear(a.ends[chunks:])
		a.ends = a.ends[:chunks]
	}
	return n - kept, nil
}

// Source is a list of keys by index: a List, or a caller's [][]byte.
type Source interface {
	Len() int
	Key(i int) []byte
}

// Bytes is a [][]byte as a Source.
type Bytes [][]byte

func (k Bytes) Len() int         { return len(k) }
func (k Bytes) Key(i int) []byte { return k[i] }

// Set is a set of keys held elsewhere (a keyArena or a caller's slices),
// found by index: open addressing with linear probing over uint32 slots,
// made once for the most keys it will hold and at most 3/4 full then. A
// slot is 0 when empty, else the key's index plus one in its low bits and,
// above them, as many bits of the key's hash as the largest index leaves
// room for, so most probes that meet another key move on without reading
// it. 4 bytes a slot: 5.3 bytes a key when full.
type Set struct {
	slots   []uint32
	idxBits uint // low bits of a slot that hold index+1
	seed    maphash.Seed
}

// NewSet returns a set for up to n keys of indices below n.
func NewSet(n int) *Set {
	return &Set{
		slots:   make([]uint32, max(16, n+n/3+1)),
		idxBits: uint(bits.Len32(uint32(min(uint64(n), math.MaxUint32)))),
		seed:    maphash.MakeSeed(),
	}
}

func (s *Set) Hash(key []byte) uint64 { return maphash.Bytes(s.seed, key) }

// tag is the part of a slot that holds hash bits, for hash h: its top bits,
// while the slot's position comes from its low 32.
func (s *Set) tag(h uint64) uint32 {
	if s.idxBits >= 32 {
		return 0
	}
	return uint32(h>>(32+s.idxBits)) << s.idxBits
}

// find looks for key, whose hash is h, among keys: it returns the key's
// slot and true, or the empty slot where it belongs and false.
func (s *Set) Find(keys Source, key []byte, h uint64) (int, bool) {
	tag := s.tag(h)
	idxMask := uint32(1)<<s.idxBits - 1
	// Lemire's multiply-shift maps the hash onto a table of any size.
	pos := int(uint64(uint32(h)) * uint64(len(s.slots)) >> 32)
	for {
		slot := s.slots[pos]
		switch {
		case slot == 0:
			return pos, false
		case slot&^idxMask == tag && bytes.Equal(keys.Key(int(slot&idxMask)-1), key):
			return pos, true
		}
		if pos++; pos == len(s.slots) {
			pos = 0
		}
	}
}

// put stores index i, of a key with hash h, in the empty slot find
// returned.
func (s *Set) Put(slot, i int, h uint64) { s.slots[slot] = s.tag(h) | uint32(i+1) }
