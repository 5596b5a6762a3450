package core

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/bits"
)

// A filter's file (FORMAT.md has the whole layout): a header of
// FileHeaderBytes, little-endian, ending in the CRC-32C of the bytes
// before it; the filter's storage words, little-endian; the CRC-32C of
// the storage's bytes. The same bytes from every platform, natively and
// in the browser.
const (
	// FileMagic opens every filter file.
	FileMagic = "BLMf"
	// FileVersion is the version this build writes and the only one it
	// reads. A change to where a filter puts a key (its hashing, its
	// layout) or to the file's layout is a new version, and the files
	// pinned in testdata/ keep the old ones readable or fail a test.
	FileVersion = 1
	// FileHeaderBytes is the header's length, its checksum included.
	FileHeaderBytes = 52
	// FileTrailerBytes is the payload checksum that ends a file.
	FileTrailerBytes = 4
)

// fileBufBytes is the buffer Load reads through and Save writes through;
// fileChunkWords the most storage Load allocates before it has read the
// words to fill it.
const (
	fileBufBytes   = 4096
	fileChunkWords = 1 << 20
)

// Errors of Load, each for errors.Is; every one means the file gives no
// filter. ErrCannotSave is Save's for a layout without a file format.
var (
	ErrNotFilter  = errors.New("core: not a filter file (its first bytes are not " + FileMagic + ")")
	ErrVersion    = errors.New("core: filter file of an unknown version")
	ErrHeader     = errors.New("core: damaged filter file header")
	ErrTooLarge   = errors.New("core: filter file past the size bound")
	ErrLength     = errors.New("core: filter file's payload length disagrees with its m")
	ErrTruncated  = errors.New("core: filter file ends early")
	ErrChecksum   = errors.New("core: filter file's payload fails its checksum")
	ErrPayload    = errors.New("core: filter file's payload holds what no filter does")
	ErrCannotSave = errors.New("core: the layout has no file format")
)

// fileLayout is how a layout is saved: its code in the header, the words
// of its storage for m (false for an m the layout cannot have), and how a
// filter of Shape s is made from words read from a file, refusing words
// no filter of s holds.
type fileLayout struct {
	code    uint8
	words   func(m uint64) (uint64, bool)
	restore func(s Shape, inserted uint64, words []uint64) (Membership, error)
}

// fileHashings gives each hashing scheme its code in a file; the codes
// are the format's, not the order of Hashings.
var fileHashings = [...]Hashing{1: DoubleHashing, 2: EnhancedDoubleHashing, 3: IndependentHashing}

func castagnoli() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) } // made once by hash/crc32

// FileBytes is the length of the file Save writes for f.
func FileBytes(f Membership) int64 {
	return FileHeaderBytes + 8*int64(len(f.Words())) + FileTrailerBytes
}

// Save writes f to w in the format of FORMAT.md. A filter of a layout
// without a file format gives ErrCannotSave, and w gets nothing.
func Save(w io.Writer, f Membership) error {
	s, ok := f.(Shaped)
	if !ok || s.Shape().Variant.record().file == nil {
		return fmt.Errorf("%w: only the %s filters are saved", ErrCannotSave, SavedVariantNames())
	}
	shape := s.Shape()
	var code uint8
	for c, h := range fileHashings {
		if h == shape.Hashing {
			code = uint8(c)
		}
	}
	words := f.Words()
	var buf [fileBufBytes]byte
	h := buf[:FileHeaderBytes]
	copy(h, FileMagic)
	binary.LittleEndian.PutUint16(h[4:], FileVersion)
	h[6], h[7] = shape.Variant.record().file.code, code
	binary.LittleEndian.PutUint64(h[8:], shape.M)
	binary.LittleEndian.PutUint32(h[16:], uint32(shape.K))
	binary.LittleEndian.PutUint64(h[24:], shape.Seed)
	binary.LittleEndian.PutUint64(h[32:], s.Inserted())
	binary.LittleEndian.PutUint64(h[40:], 8*uint64(len(words)))
	binary.LittleEndian.PutUint32(h[48:], crc32.Checksum(h[:48], castagnoli()))
	if _, err := w.Write(h); err != nil {
		return err
	}
	var sum uint32
	for len(words) > 0 {
		n := min(len(words), fileBufBytes/8)
		for i, x := range words[:n] {
			binary.LittleEndian.PutUint64(buf[8*i:], x)
		}
		sum = crc32.Update(sum, castagnoli(), buf[:8*n])
		if _, err := w.Write(buf[:8*n]); err != nil {
			return err
		}
		words = words[n:]
	}
	binary.LittleEndian.PutUint32(buf[:4], sum)
	_, err := w.Write(buf[:4])
	return err
}

// SavedVariantNames lists the layouts with a file format, for messages
// and help: "standard, blocked and counting".
func SavedVariantNames() string {
	var names []string
	for _, v := range Variants {
		if v.record().file != nil {
			names = append(names, v.Name())
		}
	}
	return joinList(names, "and")
}

// Saves reports whether filters of layout v can be saved.
func (v Variant) Saves() bool { return v.record().file != nil }

// Load reads a filter that Save wrote from r, and reads no further than
// its end. It checks the whole header before it allocates anything: the
// magic number, the version, the header's checksum, each field's range,
// m at most MaxM (ErrTooLarge) and the payload's length against m
// (ErrLength). It then reads the payload in chunks, each allocated only
// once the one before it is full, so a header that claims more than the
// file holds costs at most the bytes that are there, twice, plus a
// constant; a reader that tells how many bytes it still holds (Len, as a
// bytes.Reader does) and holds the whole payload gets it in one array,
// the payload's bytes once. It answers with a filter only once the
// payload's checksum and contents are checked. Every refusal wraps one of
// the errors above.
func Load(r io.Reader) (Membership, error) {
	var h [FileHeaderBytes]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return nil, readError(err, "header")
	}
	s, inserted, n, file, err := parseHeader(&h)
	if err != nil {
		return nil, err
	}
	words, err := readWords(r, n)
	if err != nil {
		return nil, err
	}
	f, err := file.restore(s, inserted, words)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// parseHeader checks a file's header and returns the Shape, the count of
// keys inserted, the payload's words and the layout's file record.
func parseHeader(h *[FileHeaderBytes]byte) (s Shape, inserted, words uint64, file *fileLayout, err error) {
	le := binary.LittleEndian
	if string(h[:4]) != FileMagic {
		return s, 0, 0, nil, ErrNotFilter
	}
	if v := le.Uint16(h[4:]); v != FileVersion {
		return s, 0, 0, nil, fmt.Errorf("%w: %d; this version reads version %d", ErrVersion, v, FileVersion)
	}
	if got, want := le.Uint32(h[48:]), crc32.Checksum(h[:48], castagnoli()); got != want {
		return s, 0, 0, nil, fmt.Errorf("%w: its checksum is %08x, its bytes sum to %08x", ErrHeader, got, want)
	}
	for _, v := range Variants {
		if fl := v.record().file; fl != nil && fl.code == h[6] {
			s.Variant, file = v, fl
		}
	}
	if file == nil {
		return s, 0, 0, nil, fmt.Errorf("%w: unknown layout %d", ErrHeader, h[6])
	}
	if c := int(h[7]); c < len(fileHashings) && fileHashings[c] != "" {
		s.Hashing = fileHashings[c]
	} else {
		return s, 0, 0, nil, fmt.Errorf("%w: unknown hashing %d", ErrHeader, c)
	}
	if err := s.Variant.HashedBy(NoFault, s.Hashing); err != nil {
		return s, 0, 0, nil, fmt.Errorf("%w: %v", ErrHeader, err)
	}
	s.M, s.K, s.Seed = le.Uint64(h[8:]), int(le.Uint32(h[16:])), le.Uint64(h[24:])
	if s.M > MaxM {
		return s, 0, 0, nil, fmt.Errorf("%w: m is %d bits, the most is %d", ErrTooLarge, s.M, uint64(MaxM))
	}
	if err := checkShape(s.M, s.K); err != nil || le.Uint32(h[20:]) != 0 {
		return s, 0, 0, nil, fmt.Errorf("%w: m = %d, k = %d, reserved = %d (must be 0)", ErrHeader, s.M, s.K, le.Uint32(h[20:]))
	}
	words, ok := file.words(s.M)
	if !ok {
		return s, 0, 0, nil, fmt.Errorf("%w: no %s filter has m = %d", ErrHeader, s.Variant, s.M)
	}
	if got := le.Uint64(h[40:]); got != 8*words {
		return s, 0, 0, nil, fmt.Errorf("%w: %d bytes, where m = %d takes %d", ErrLength, got, s.M, 8*words)
	}
	return s, le.Uint64(h[32:]), words, file, nil
}

// readWords reads n little-endian words and the checksum after them. The
// words go into chunks of chunkWords each, allocated as the one before it
// fills; one chunk is the answer, more are copied into one array once the
// checksum holds.
func readWords(r io.Reader, n uint64) ([]uint64, error) {
	buf := make([]byte, fileBufBytes)
	var chunks [][]uint64
	var sum uint32
	for read := uint64(0); read < n; {
		c := make([]uint64, chunkWords(r, n, read))
		for i := 0; i < len(c); {
			b := buf[:8*min(len(c)-i, fileBufBytes/8)]
			if _, err := io.ReadFull(r, b); err != nil {
				return nil, readError(err, fmt.Sprintf("payload, after %d of %d bytes", 8*(read+uint64(i)), 8*n))
			}
			sum = crc32.Update(sum, castagnoli(), b)
			for j := 0; j < len(b); j += 8 {
				c[i] = binary.LittleEndian.Uint64(b[j:])
				i++
			}
		}
		chunks = append(chunks, c)
		read += uint64(len(c))
	}
	if _, err := io.ReadFull(r, buf[:FileTrailerBytes]); err != nil {
		return nil, readError(err, "checksum")
	}
	if got := binary.LittleEndian.Uint32(buf); got != sum {
		return nil, fmt.Errorf("%w: its checksum is %08x, its payload sums to %08x", ErrChecksum, got, sum)
	}
	if len(chunks) == 1 {
		return chunks[0], nil
	}
	words := make([]uint64, 0, n)
	for _, c := range chunks {
		words = append(words, c...)
	}
	return words, nil
}

// chunkWords is the length of the chunk that follows read of n words:
// all n at once for a reader that tells how many bytes it still holds
// (Len, as bytes.Reader, bytes.Buffer and strings.Reader do) when they
// cover the payload and its checksum, so a file in memory costs its
// payload once and not twice; otherwise 512 words first, then at most
// what was read before it (and at most fileChunkWords), so the bytes that
// arrive pay for the next chunk.
func chunkWords(r io.Reader, n, read uint64) uint64 {
	if l, ok := r.(interface{ Len() int }); ok && read == 0 && uint64(max(l.Len(), 0)) >= 8*n+FileTrailerBytes {
		return n
	}
	return min(n-read, max(fileBufBytes/8, min(read, fileChunkWords)))
}

// readError is ErrTruncated for a file that ended, else the reader's own
// error.
func readError(err error, where string) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("%w: in the %s", ErrTruncated, where)
	}
	return fmt.Errorf("core: reading a filter file's %s: %w", where, err)
}

// paddingClear checks that the bits past m positions of width bits in the
// last word are zero, as a filter leaves them: a set one there would be
// counted by Popcount and answered by no key.
func paddingClear(words []uint64, m uint64, width uint) error {
	used := m * uint64(width) % 64
	if used == 0 || len(words) == 0 {
		return nil
	}
	if extra := words[len(words)-1] >> used; extra != 0 {
		return fmt.Errorf("%w: %d bits set past the last position", ErrPayload, bits.OnesCount64(extra))
	}
	return nil
}
