package core_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/core"
)

// -update rewrites the pinned files of testdata/files. It is for a new
// file format version only: the files of every earlier version stay, and
// a version that cannot read them fails TestPinnedFiles, which is the point.
var update = flag.Bool("update", false, "rewrite the pinned filter files (a new file format version only)")

// pinned are the files kept in testdata/files, one for each layout and
// hashing that can be saved; m is not a whole number of words where the
// layout allows it, so the padding is in the file.
var pinned = []struct {
	name string
	v    core.Variant
	s    core.Spec
}{
	{"standard-double", core.Standard, core.Spec{M: 3000, K: 5, Seed: 2024, Hashing: core.DoubleHashing}},
	{"standard-enhanced", core.Standard, core.Spec{M: 3000, K: 5, Seed: 2024, Hashing: core.EnhancedDoubleHashing}},
	{"standard-independent", core.Standard, core.Spec{M: 3000, K: 5, Seed: 2024, Hashing: core.IndependentHashing}},
	{"blocked", core.BlockedVariant, core.Spec{M: 3072, K: 5, Seed: 2024}},
	{"counting", core.CountingVariant, core.Spec{M: 3001, K: 5, Seed: 2024, Hashing: core.DoubleHashing}},
}

// pinnedKeys are the members of every pinned file and the absent keys
// whose answers are pinned beside it.
func pinnedKeys() (members, absent [][]byte) {
	for i := range 300 {
		members = append(members, fmt.Appendf(nil, "member-%03d", i))
	}
	for i := range 1000 {
		absent = append(absent, fmt.Appendf(nil, "absent-%04d", i))
	}
	return members, absent
}

// answers is f's answer to each key as a string of 0s and 1s.
func answers(f core.Membership, keys [][]byte) string {
	var b strings.Builder
	for _, key := range keys {
		ok, _ := f.Contains(key)
		b.WriteByte("01"[btoi(ok)])
	}
	return b.String()
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func saved(t testing.TB, f core.Membership) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := core.Save(&b, f); err != nil {
		t.Fatal(err)
	}
	if int64(b.Len()) != core.FileBytes(f) {
		t.Fatalf("saved %d bytes, FileBytes says %d", b.Len(), core.FileBytes(f))
	}
	return b.Bytes()
}

// TestPinnedFiles loads the files earlier versions wrote: every member
// answers yes and every absent key as it did when the file was pinned.
func TestPinnedFiles(t *testing.T) {
	members, absent := pinnedKeys()
	dir := filepath.Join("testdata", "files")
	for _, p := range pinned {
		t.Run(p.name, func(t *testing.T) {
			path := filepath.Join(dir, p.name+".blmf")
			if *update {
				f := built(t, p.v, p.s, members)
				if err := os.WriteFile(path, saved(t, f), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, p.name+".absent"), []byte(answers(f, absent)+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			file, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer file.Close()
			f, err := core.Load(file)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			if got := answers(f, members); strings.Contains(got, "0") {
				t.Errorf("%s: member %d answers no", path, strings.Index(got, "0"))
			}
			want, err := os.ReadFile(filepath.Join(dir, p.name+".absent"))
			if err != nil {
				t.Fatal(err)
			}
			if got := answers(f, absent); got != strings.TrimSpace(string(want)) {
				t.Errorf("%s: absent keys answer %d times yes, pinned %d; the first to differ is %d", path,
					strings.Count(got, "1"), strings.Count(string(want), "1"), diffAt(got, string(want)))
			}
			s := f.(core.Shaped)
			if s.Shape().Variant != p.v || s.Inserted() != uint64(len(members)) {
				t.Errorf("%s: a %s filter with %d keys inserted", path, s.Shape().Variant, s.Inserted())
			}
		})
	}
}

func diffAt(a, b string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func TestSaveLoadRoundTrip(t *testing.T) {
	t.Parallel()
	members, absent := pinnedKeys()
	for _, p := range pinned {
		for _, m := range []uint64{1, 63, 64, 65, 512, 4097} {
			t.Run(fmt.Sprintf("%s/m=%d", p.name, m), func(t *testing.T) {
				s := p.s
				s.M = m
				f := built(t, p.v, s, members)
				g, err := core.Load(bytes.NewReader(saved(t, f)))
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(g.Words(), f.Words()) || g.SetBits() != f.SetBits() || answers(g, absent) != answers(f, absent) ||
					g.(core.Shaped).Shape() != f.(core.Shaped).Shape() || g.(core.Shaped).Inserted() != f.(core.Shaped).Inserted() {
					t.Errorf("loaded filter differs: %d set bits of %d, shape %+v of %+v", g.SetBits(), f.SetBits(), g.(core.Shaped).Shape(), f.(core.Shaped).Shape())
				}
			})
		}
	}
	for _, v := range core.Variants {
		if v.Saves() {
			continue
		}
		f := built(t, v, core.Spec{M: 4096, K: 4, N: 10, Seed: 1}, members[:10])
		if err := core.Save(io.Discard, f); !errors.Is(err, core.ErrCannotSave) {
			t.Errorf("save %s: %v, want ErrCannotSave", v, err)
		}
	}
}

// header rewrites a file's header field at offset and its checksum, as a
// file damaged on purpose but whose header sums right would be.
func header(file []byte, at int, put func([]byte)) []byte {
	file = slices.Clone(file)
	put(file[at:])
	binary.LittleEndian.PutUint32(file[48:], crc32.Checksum(file[:48], crc32.MakeTable(crc32.Castagnoli)))
	return file
}

func TestLoadRefusesDamage(t *testing.T) {
	t.Parallel()
	members, _ := pinnedKeys()
	good := saved(t, built(t, core.Standard, core.Spec{M: 1000, K: 4, Seed: 3}, members))
	le := binary.LittleEndian
	payload := core.FileHeaderBytes + 8 // a byte inside the payload
	cases := []struct {
		name string
		file []byte
		want error
	}{
		{"empty", nil, core.ErrTruncated},
		{"magic", append([]byte("BLMg"), good[4:]...), core.ErrNotFilter},
		{"version 2", header(good, 4, func(b []byte) { le.PutUint16(b, 2) }), core.ErrVersion},
		{"version 0", header(good, 4, func(b []byte) { le.PutUint16(b, 0) }), core.ErrVersion},
		{"flipped header byte", flip(good, 10), core.ErrHeader},
		{"unknown layout", header(good, 6, func(b []byte) { b[0] = 9 }), core.ErrHeader},
		{"unknown hashing", header(good, 7, func(b []byte) { b[0] = 4 }), core.ErrHeader},
		{"blocked with another hashing", header(good, 6, func(b []byte) { b[0], b[1] = 2, 3 }), core.ErrHeader},
		{"k 0", header(good, 16, func(b []byte) { le.PutUint32(b, 0) }), core.ErrHeader},
		{"k past MaxK", header(good, 16, func(b []byte) { le.PutUint32(b, core.MaxK+1) }), core.ErrHeader},
		{"m 0", header(good, 8, func(b []byte) { le.PutUint64(b, 0) }), core.ErrHeader},
		{"reserved", header(good, 20, func(b []byte) { b[0] = 1 }), core.ErrHeader},
		{"m past MaxM", header(good, 8, func(b []byte) { le.PutUint64(b, core.MaxM+1) }), core.ErrTooLarge},
		{"m of 2^64-1", header(good, 8, func(b []byte) { le.PutUint64(b, 1<<64-1) }), core.ErrTooLarge},
		{"length short of m", header(good, 40, func(b []byte) { le.PutUint64(b, le.Uint64(b)-8) }), core.ErrLength},
		{"length past m", header(good, 40, func(b []byte) { le.PutUint64(b, le.Uint64(b)+8) }), core.ErrLength},
		{"m past its length", header(good, 8, func(b []byte) { le.PutUint64(b, 1000+64) }), core.ErrLength},
		{"blocked m of no block", header(good, 6, func(b []byte) { b[0], b[1] = 2, 1 }), core.ErrHeader},
		{"flipped payload byte", flip(good, payload), core.ErrChecksum},
		{"flipped checksum byte", flip(good, len(good)-1), core.ErrChecksum},
		{"truncated header", good[:30], core.ErrTruncated},
		{"truncated payload", good[:payload], core.ErrTruncated},
		{"no checksum", good[:len(good)-4], core.ErrTruncated},
		{"a bit past m", padded(good), core.ErrPayload},
		{"claims the most", header(good[:core.FileHeaderBytes], 8, func(b []byte) {
			le.PutUint64(b, core.MaxM)
			le.PutUint64(b[32:], core.MaxM/8)
		}), core.ErrTruncated},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := core.Load(bytes.NewReader(c.file))
			if !errors.Is(err, c.want) || f != nil {
				t.Errorf("load: %v (a filter: %v), want %v", err, f != nil, c.want)
			}
		})
	}
	// Cut anywhere, the file ends early; flipped anywhere, it is refused.
	for i := range good {
		if _, err := core.Load(bytes.NewReader(good[:i])); !errors.Is(err, core.ErrTruncated) {
			t.Fatalf("cut at %d of %d bytes: %v", i, len(good), err)
		}
		if f, err := core.Load(bytes.NewReader(flip(good, i))); err == nil || f != nil {
			t.Fatalf("byte %d flipped: loaded", i)
		}
	}
}

func flip(file []byte, at int) []byte {
	file = slices.Clone(file)
	file[at] ^= 0x10
	return file
}

// padded sets the last bit of the payload's last word, past m = 1000, and
// sums the payload again, as a writer that leaves garbage there would.
func padded(file []byte) []byte {
	file = slices.Clone(file)
	end := len(file) - core.FileTrailerBytes
	file[end-1] |= 0x80
	binary.LittleEndian.PutUint32(file[end:], crc32.Checksum(file[core.FileHeaderBytes:end], crc32.MakeTable(crc32.Castagnoli)))
	return file
}

// loadAllocBound is the most Load may allocate for a file of n bytes:
// twice its bytes (the chunks it reads into and, for a whole file, the
// array they are copied into) and a constant for its buffer, the chunk
// list and the filter (doc of Load).
func loadAllocBound(n int) uint64 { return 2*uint64(n) + 16<<10 }

// loadAllocBoundInMemory is the most Load may allocate for a whole file
// of n bytes from a reader that tells its length: the payload once.
func loadAllocBoundInMemory(n int) uint64 { return uint64(n) + 16<<10 }

// stream hides a reader's Len, as a file or a connection does.
type stream struct{ io.Reader }

// loadAllocs is what Load allocates reading r, and its error.
func loadAllocs(r io.Reader) (uint64, error) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := core.Load(r)
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, err
}

func TestLoadAllocatesWhatTheFileHolds(t *testing.T) {
	members, _ := pinnedKeys()
	big := built(t, core.Standard, core.Spec{M: 1 << 22, K: 4, Seed: 3}, members)
	good := saved(t, big)
	le := binary.LittleEndian
	lying := header(good[:4000], 8, func(b []byte) {
		le.PutUint64(b, core.MaxM)
		le.PutUint64(b[32:], core.MaxM/8)
	})
	for _, c := range []struct {
		name  string
		r     io.Reader
		bytes int
		bound uint64
	}{
		{"whole, in memory", bytes.NewReader(good), len(good), loadAllocBoundInMemory(len(good))},
		{"whole, streamed", stream{bytes.NewReader(good)}, len(good), loadAllocBound(len(good))},
		{"a lying header, in memory", bytes.NewReader(lying), len(lying), loadAllocBound(len(lying))},
		{"a lying header, streamed", stream{bytes.NewReader(lying)}, len(lying), loadAllocBound(len(lying))},
		{"cut in half, in memory", bytes.NewReader(good[:len(good)/2]), len(good) / 2, loadAllocBound(len(good) / 2)},
	} {
		got, err := loadAllocs(c.r)
		t.Logf("%s: %d bytes allocated for %d bytes (%v)", c.name, got, c.bytes, err)
		if got > c.bound {
			t.Errorf("%s: %d bytes allocated for a file of %d, the bound is %d", c.name, got, c.bytes, c.bound)
		}
	}
}

// FuzzLoad feeds the loader any bytes: it never panics, allocates within
// loadAllocBound of the input's size, and what it loads saves back to the
// very bytes it read.
func FuzzLoad(f *testing.F) {
	members, _ := pinnedKeys()
	for _, p := range pinned {
		file := saved(f, built(f, p.v, p.s, members[:50]))
		f.Add(file)
		f.Add(file[:len(file)/2])
		f.Add(flip(file, 60))
	}
	// A header that claims the most and a file that holds a few bytes.
	f.Add(header(saved(f, built(f, core.Standard, core.Spec{M: 640, K: 3}, nil))[:100], 8, func(b []byte) {
		binary.LittleEndian.PutUint64(b, core.MaxM)
		binary.LittleEndian.PutUint64(b[32:], core.MaxM/8)
	}))
	f.Fuzz(func(t *testing.T, data []byte) {
		// As given, and with both checksums made to hold, so the
		// fuzzer reaches the checks behind them.
		for _, data := range [][]byte{data, summed(data)} {
			for _, r := range []io.Reader{bytes.NewReader(data), stream{bytes.NewReader(data)}} {
				if got, err := loadAllocs(r); got > loadAllocBound(len(data)) {
					t.Fatalf("%d bytes allocated for %d of input (%T, %v)", got, len(data), r, err)
				}
			}
			g, err := core.Load(bytes.NewReader(data))
			if err != nil {
				continue
			}
			if back := saved(t, g); !bytes.Equal(back, data[:len(back)]) {
				t.Fatalf("loaded %d bytes that save back to other bytes", len(back))
			}
		}
	})
}

// summed is file with its header's checksum, and the payload's where the
// header's length fits the file, computed again.
func summed(file []byte) []byte {
	if len(file) < core.FileHeaderBytes {
		return file
	}
	file = header(file, 0, func([]byte) {})
	n := binary.LittleEndian.Uint64(file[40:])
	if end := uint64(core.FileHeaderBytes) + n; n <= uint64(len(file)) && end+core.FileTrailerBytes <= uint64(len(file)) {
		sum := crc32.Checksum(file[core.FileHeaderBytes:end], crc32.MakeTable(crc32.Castagnoli))
		binary.LittleEndian.PutUint32(file[end:], sum)
	}
	return file
}

// benchFilter is a standard filter of n fresh distinct keys at 10 bits a
// key, k = 7, under seed.
func benchFilter(b *testing.B, n int, seed uint64) core.Membership {
	b.Helper()
	f, err := core.NewFilter(uint64(10*n), 7, 1)
	if err != nil {
		b.Fatal(err)
	}
	keys := make([][]byte, 4096)
	for first := 0; first < n; first += len(keys) {
		batch := keys[:min(len(keys), n-first)]
		core.Keys(batch, core.Members, uint64(first), seed, 16)
		core.AddBatch(f, batch)
	}
	return f
}

var benchSizes = []struct {
	name string
	n    int
}{{"1e6", 1_000_000}, {"1e7", 10_000_000}}

func BenchmarkSave(b *testing.B) {
	for _, s := range benchSizes {
		b.Run(s.name, func(b *testing.B) {
			f := benchFilter(b, s.n, 1)
			b.SetBytes(core.FileBytes(f))
			b.ReportAllocs()
			for b.Loop() {
				if err := core.Save(io.Discard, f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLoad reads a file from memory (a bytes.Reader, which tells
// Load its length) and streamed (the same bytes without Len, as from a
// file or a connection, read in chunks and copied once).
func BenchmarkLoad(b *testing.B) {
	for _, s := range benchSizes {
		var file bytes.Buffer
		if err := core.Save(&file, benchFilter(b, s.n, 1)); err != nil {
			b.Fatal(err)
		}
		for _, r := range []struct {
			name string
			open func([]byte) io.Reader
		}{
			{"memory", func(p []byte) io.Reader { return bytes.NewReader(p) }},
			{"stream", func(p []byte) io.Reader { return stream{bytes.NewReader(p)} }},
		} {
			b.Run(s.name+"/"+r.name, func(b *testing.B) {
				b.SetBytes(int64(file.Len()))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := core.Load(r.open(file.Bytes())); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkUnion(b *testing.B) {
	for _, s := range benchSizes {
		b.Run(s.name, func(b *testing.B) {
			x, y := benchFilter(b, s.n, 1), benchFilter(b, s.n, 2)
			b.SetBytes(2 * 8 * int64(len(x.Words())))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := core.Union(x, y); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
