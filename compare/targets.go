package compare

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"strconv"

	"github.com/bloomlab/bloomlab/audit"
	"github.com/bloomlab/bloomlab/core"

	"github.com/bits-and-blooms/bloom/v3"
	"github.com/greatroar/blobloom"
	"github.com/zeebo/xxh3"
)

// Targets returns the libraries the lab audits, in the order its tables
// list them.
func Targets() []audit.Target { return []audit.Target{BitsAndBlooms(), Blobloom()} }

// BitsAndBlooms is github.com/bits-and-blooms/bloom/v3 as an audit target:
// bloom.New(m, k), m bits and k murmur3-derived positions per key. The
// library takes no seed, so Shape.Seed is ignored: every filter of the same
// m and k sets the same bits for the same keys, whatever seed a check asks
// for. Its rate theory is the standard formula, which the audit uses when
// Rate is nil.
func BitsAndBlooms() audit.Target {
	return audit.Target{
		Name:  "bits-and-blooms",
		About: "github.com/bits-and-blooms/bloom/v3 v3.7.1: m bits, k positions by double hashing over murmur3, no seed",
		New: func(s audit.Shape) (audit.Filter, error) {
			if uint64(uint(s.M)) != s.M || s.K < 1 {
				return nil, fmt.Errorf("compare: bits-and-blooms takes m that fits a %d-bit uint and k at least 1, got m = %d, k = %d",
					strconv.IntSize, s.M, s.K)
			}
			if s.M > maxBuilt {
				return nil, audit.Refusal{Reason: "the audit builds bits-and-blooms's filters up to 2^32 bits (512 MiB): the library allocates its whole array at New"}
			}
			return bitsAndBlooms{bloom.New(uint(s.M), uint(s.K))}, nil
		},
		Load: func(r io.Reader) (audit.Filter, error) {
			f := &bloom.BloomFilter{}
			if _, err := f.ReadFrom(r); err != nil {
				return nil, err
			}
			return bitsAndBlooms{f}, nil
		},
	}
}

// maxBuilt is the largest filter the audit builds of a library that
// allocates its array at once: the checks past 2^32 positions are skipped
// for it, with the reason, rather than ask for 128 GiB.
const maxBuilt = 1 << 32

// bitsAndBlooms shows all the library itself exports: its positions
// (bloom.Locations, reduced mod m the way its Add and TestLocations do) and
// its storage (BitSet().Words(), the bitset's own []uint64, not a copy).
// Add drops the *BloomFilter the library returns for chaining.
type bitsAndBlooms struct{ *bloom.BloomFilter }

func (f bitsAndBlooms) Add(key []byte)  { f.BloomFilter.Add(key) }
func (f bitsAndBlooms) Size() uint64    { return uint64(f.Cap()) }
func (f bitsAndBlooms) Words() []uint64 { return f.BitSet().Words() }

// Save is the library's WriteTo (m, k and the bitset, big-endian, with no
// checksum), which Load reads back with ReadFrom.
func (f bitsAndBlooms) Save(w io.Writer) error { _, err := f.WriteTo(w); return err }

// Merge is the library's in-place union, which refuses another m or k;
// the library has no seed to compare.
func (f bitsAndBlooms) Merge(other audit.Filter) error {
	o, ok := other.(bitsAndBlooms)
	if !ok {
		return fmt.Errorf("compare: bits-and-blooms merges only its own filters, got a %T", other)
	}
	return f.BloomFilter.Merge(o.BloomFilter)
}

// Count is the library's ApproximatedSize, -(m/k) ln(1 - x/m) rounded to
// a uint32; it states no SD.
func (f bitsAndBlooms) Count() (n, sd float64) { return float64(f.ApproximatedSize()), 0 }

func (f bitsAndBlooms) Positions(dst []uint64, key []byte) []uint64 {
	dst = dst[:0]
	for _, h := range bloom.Locations(key, f.K()) {
		dst = append(dst, h%uint64(f.Cap()))
	}
	return dst
}

// Blobloom is github.com/greatroar/blobloom as an audit target, hashed by
// xxh3 as its README advises, with Shape.Seed as xxh3's seed. blobloom
// takes one 64-bit hash per key: its low half picks a 512-bit block and
// enhanced double hashing on 32-bit halves sets the bits inside it. Its
// nhashes counts the hash that picks the block, so a key sets nhashes - 1
// bits (Filter.Add, bloomfilter.go); the target asks for K + 1, so a key
// sets K bits as in every other filter of the same shape.
//
// Rate is the lab's theory for 512-bit blocks with K uniform positions in
// one block, core.BlockedRateExact, at m rounded up to whole blocks as
// blobloom rounds it. blobloom does not show where a key's bits are, so
// the checks that need positions are skipped: rewriting its probe sequence
// here would audit the copy, not the library.
func Blobloom() audit.Target {
	return audit.Target{
		Name:   "blobloom",
		Seeded: true,
		About:  "github.com/greatroar/blobloom v0.8.0 with xxh3: 512-bit blocks, K bits per key by double hashing in the block",
		New: func(s audit.Shape) (audit.Filter, error) {
			if s.M > blobloom.MaxBits || s.K < 1 {
				return nil, fmt.Errorf("compare: blobloom takes m up to %d and k at least 1, got m = %d, k = %d",
					uint64(blobloom.MaxBits), s.M, s.K)
			}
			return blobloomFilter{blobloom.New(s.M, s.K+1), s.Seed}, nil
		},
		Rate: func(s audit.Shape) float64 {
			return core.BlockedRateExact(blobloomBits(s.M), uint64(s.N), s.K)
		},
	}
}

// blobloomBits is the m blobloom.New allocates for m asked: at least one
// block, rounded up to whole blocks.
func blobloomBits(m uint64) uint64 {
	return (max(m, 1) + blobloom.BlockBits - 1) / blobloom.BlockBits * blobloom.BlockBits
}

// blobloomFilter hashes each key with xxh3 under its seed and hands the
// hash to blobloom.
type blobloomFilter struct {
	*blobloom.Filter
	seed uint64
}

func (f blobloomFilter) Add(key []byte)       { f.Filter.Add(xxh3.HashSeed(key, f.seed)) }
func (f blobloomFilter) Test(key []byte) bool { return f.Has(xxh3.HashSeed(key, f.seed)) }

// Words is blobloom's storage as its own Dump writes it after the 64-byte
// header: each block's sixteen little-endian 32-bit limbs in order, read
// two limbs to a word. The blocks are all the state a key changes, so a
// duplicate insert that changed a bit would show here. It copies, which
// only the audit pays for.
func (f blobloomFilter) Words() []uint64 {
	var b bytes.Buffer
	if _, err := blobloom.Dump(&b, f.Filter, ""); err != nil {
		panic(fmt.Sprintf("compare: blobloom cannot dump its filter: %v", err))
	}
	const header = 64
	raw := b.Bytes()[header:]
	words := make([]uint64, len(raw)/8)
	for i := range words {
		words[i] = binary.LittleEndian.Uint64(raw[8*i:])
	}
	return words
}
