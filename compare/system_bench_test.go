package compare

import (
	"bytes"
	"io"
	"slices"
	"testing"

	"github.com/bloomlab/bloomlab/core"

	"github.com/bits-and-blooms/bloom/v3"
)

// The system benchmarks time what a filter costs in a system, beside what
// it costs to query: saved (core.Save, bits-and-blooms's WriteTo), loaded
// (core.Load, ReadFrom) and merged (core.Union, Merge), at n = 10^6 and
// 10^7 keys. Both libraries get the same m and k, 10 bits a key and k = 7,
// and the same distinct 24-byte keys; each size's filters are built once,
// outside the timer, and shared by the three benchmarks. The bytes a
// second are the file's (each library's own file) for save and load, and
// the two inputs' storage for a merge.
//
// Save writes to io.Discard. Load reads a file saved beforehand from a
// bytes.Reader, which tells core.Load its length so it allocates the
// payload once; lab/stream hides that length, as a file read through a
// bufio.Reader does, and costs the payload twice (FORMAT.md). A merge is
// of two filters of disjoint keys. core.Union returns a new filter and
// leaves both inputs as they were; bits-and-blooms's Merge ORs into its
// receiver, so it is timed twice: copy (Copy, then Merge: a new filter,
// as the lab's Union gives) and in-place (Merge into a copy of the
// receiver made outside the timer each iteration: an accumulator, which
// the lab does not offer).
//
//	cd compare && go test -run '^$' -bench System -benchtime 20x -count 10 .
const systemBitsPerKey, systemK = 10, 7

// systemPair is one size's filters of both libraries: [0] holds members 0
// to n-1, [1] members n to 2n-1.
type systemPair struct {
	lab [2]*core.Filter
	bab [2]*bloom.BloomFilter
}

// systemFilters holds each size's pair, built once per run.
var systemFilters = map[int]*systemPair{}

func systemPairOf(b *testing.B, n int) *systemPair {
	if p, ok := systemFilters[n]; ok {
		return p
	}
	b.Helper()
	m := uint64(systemBitsPerKey * n)
	p := &systemPair{}
	keys := make([][]byte, core.BatchKeys)
	for half := range 2 {
		lab, err := core.NewFilter(m, systemK, seed)
		if err != nil {
			b.Fatal(err)
		}
		bab := bloom.New(uint(m), systemK)
		for first := 0; first < n; first += len(keys) {
			batch := keys[:min(len(keys), n-first)]
			core.Keys(batch, core.Members, uint64(half*n+first), seed, keyBytes)
			lab.AddBatch(batch)
			for _, k := range batch {
				bab.Add(k)
			}
		}
		p.lab[half], p.bab[half] = lab, bab
	}
	systemFilters[n] = p
	return p
}

// BenchmarkSystemSave writes each filter whole to io.Discard.
func BenchmarkSystemSave(b *testing.B) {
	for _, size := range sizes {
		b.Run(size.name+"/lab", func(b *testing.B) {
			f := systemPairOf(b, size.n).lab[0]
			b.SetBytes(core.FileBytes(f))
			b.ReportAllocs()
			for b.Loop() {
				if err := core.Save(io.Discard, f); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(size.name+"/bits-and-blooms", func(b *testing.B) {
			f := systemPairOf(b, size.n).bab[0]
			b.SetBytes(int64(len(babFile(b, f))))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := f.WriteTo(io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// babFile is f as WriteTo writes it.
func babFile(b *testing.B, f *bloom.BloomFilter) []byte {
	var file bytes.Buffer
	if _, err := f.WriteTo(&file); err != nil {
		b.Fatal(err)
	}
	return file.Bytes()
}

// BenchmarkSystemLoad reads a saved file into a new filter, and checks
// once the loop is done that the last one holds the bits saved.
func BenchmarkSystemLoad(b *testing.B) {
	for _, size := range sizes {
		for _, r := range []struct {
			name string
			open func([]byte) io.Reader
		}{
			{"lab", func(p []byte) io.Reader { return bytes.NewReader(p) }},
			{"lab/stream", func(p []byte) io.Reader { return struct{ io.Reader }{bytes.NewReader(p)} }},
		} {
			b.Run(size.name+"/"+r.name, func(b *testing.B) {
				f := systemPairOf(b, size.n).lab[0]
				var file bytes.Buffer
				if err := core.Save(&file, f); err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(file.Len()))
				b.ReportAllocs()
				var g core.Membership
				for b.Loop() {
					var err error
					if g, err = core.Load(r.open(file.Bytes())); err != nil {
						b.Fatal(err)
					}
				}
				if !slices.Equal(g.Words(), f.Words()) {
					b.Fatalf("%s: the loaded filter's bits differ from the saved one's (n = %d)", r.name, size.n)
				}
			})
		}
		b.Run(size.name+"/bits-and-blooms", func(b *testing.B) {
			f := systemPairOf(b, size.n).bab[0]
			file := babFile(b, f)
			b.SetBytes(int64(len(file)))
			b.ReportAllocs()
			var g *bloom.BloomFilter
			for b.Loop() {
				g = &bloom.BloomFilter{}
				if _, err := g.ReadFrom(bytes.NewReader(file)); err != nil {
					b.Fatal(err)
				}
			}
			if !g.Equal(f) {
				b.Fatalf("bits-and-blooms: the loaded filter differs from the saved one (n = %d)", size.n)
			}
		})
	}
}

// BenchmarkSystemMerge unions the filters of two disjoint key sets, and
// checks once the loop is done that the last union holds every bit of
// both.
func BenchmarkSystemMerge(b *testing.B) {
	for _, size := range sizes {
		b.Run(size.name+"/lab", func(b *testing.B) {
			p := systemPairOf(b, size.n)
			b.SetBytes(2 * 8 * int64(len(p.lab[0].Words())))
			b.ReportAllocs()
			var u core.Merged
			for b.Loop() {
				var err error
				if u, err = core.Union(p.lab[0], p.lab[1]); err != nil {
					b.Fatal(err)
				}
			}
			checkUnion(b, u.Filter.Words(), p.lab[0].Words(), p.lab[1].Words())
		})
		b.Run(size.name+"/bits-and-blooms/copy", func(b *testing.B) {
			p := systemPairOf(b, size.n)
			b.SetBytes(2 * 8 * int64(len(p.bab[0].BitSet().Words())))
			b.ReportAllocs()
			var u *bloom.BloomFilter
			for b.Loop() {
				u = p.bab[0].Copy()
				if err := u.Merge(p.bab[1]); err != nil {
					b.Fatal(err)
				}
			}
			checkUnion(b, u.BitSet().Words(), p.bab[0].BitSet().Words(), p.bab[1].BitSet().Words())
		})
		b.Run(size.name+"/bits-and-blooms/in-place", func(b *testing.B) {
			p := systemPairOf(b, size.n)
			u := p.bab[0].Copy()
			b.SetBytes(2 * 8 * int64(len(u.BitSet().Words())))
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				copy(u.BitSet().Words(), p.bab[0].BitSet().Words())
				b.StartTimer()
				if err := u.Merge(p.bab[1]); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			checkUnion(b, u.BitSet().Words(), p.bab[0].BitSet().Words(), p.bab[1].BitSet().Words())
		})
	}
}

// checkUnion fails b unless u is the OR of x and y, word for word.
func checkUnion(b *testing.B, u, x, y []uint64) {
	b.Helper()
	for i := range u {
		if u[i] != x[i]|y[i] {
			b.Fatalf("word %d of the union is %#x, the OR of the inputs is %#x", i, u[i], x[i]|y[i])
		}
	}
}
