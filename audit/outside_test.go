package audit

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/bits"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/bloomlab/bloomlab/core"
)

// The outside zoo: Bloom filters written as an engineer outside the lab
// writes one, with their own hash and layout and only Add and Test, so that
// the audit meets them as it meets any library. Three are correct, each of
// another design than the lab's; the others are the first of them with one
// mistake seen in real code. Their table, testdata/outside.golden, pins
// which checks catch each mistake; regenerate it with
//
//	go test ./audit -run TestOutsideZoo -update

// mistake is one real-code mistake in the outside filter; "" is none.
type mistake string

const (
	correct        mistake = ""
	seedIgnored    mistake = "seed-ignored"     // says it takes a seed, never reads it
	dropsPastN     mistake = "drops-past-n"     // a full filter silently stops recording
	clearsWhenFull mistake = "clears-when-full" // a full filter empties itself and starts over
	first8Bytes    mistake = "first-8-bytes"    // hashes a fixed-width read of the key
	cString        mistake = "c-string"         // hashes the key up to its first NUL
	signedIndex    mistake = "signed-index"     // JavaScript's (h | 0) % m: negative indices land nowhere
	kMinusOne      mistake = "k-1-set"          // Add's loop stops one probe early, Test's does not
	sameHalves     mistake = "same-halves"      // a 32-bit hash doubled into 64, so h2 = h1
	bytesForBits   mistake = "bytes-for-bits"   // reduces into m/8 positions, the size in bytes
	linearProbes   mistake = "linear-probes"    // probe i is h + i: k neighbouring bits
	index16        mistake = "16-bit-index"     // the index stored in a uint16 before the modulo
	xorForOr       mistake = "xor-for-or"       // sets a bit with ^= where |= was meant
)

// outsideMistakes are the broken filters of the outside zoo.
var outsideMistakes = []mistake{seedIgnored, dropsPastN, clearsWhenFull, first8Bytes, cString, signedIndex,
	kMinusOne, sameHalves, bytesForBits, linearProbes, index16, xorForOr}

// fnvFilter is the outside zoo's own design: FNV-1a over the seed and the
// key, finished with MurmurHash3's 64-bit mix, split into two 32-bit halves
// for Kirsch-Mitzenmacher double hashing, reduced by modulo.
type fnvFilter struct {
	words   []uint64
	m       uint64
	k, n    int
	seed    uint64
	added   int
	mistake mistake
}

// outsideShape refuses the shapes the outside filters do not take, as a
// library checks its arguments.
func outsideShape(s Shape) error {
	if s.M == 0 || s.M > 1<<34 || s.K < 1 {
		return fmt.Errorf("outside filter: m = %d, k = %d out of range", s.M, s.K)
	}
	return nil
}

func newFNV(s Shape, mk mistake) (Filter, error) {
	if err := outsideShape(s); err != nil {
		return nil, err
	}
	seed := s.Seed
	if mk == seedIgnored {
		seed = 0
	}
	return &fnvFilter{words: make([]uint64, (s.M+63)/64), m: s.M, k: s.K, n: s.N, seed: seed, mistake: mk}, nil
}

// fnv64 is FNV-1a over seed's eight bytes and then the key, mixed.
func fnv64(seed uint64, key []byte) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < 8; i++ {
		h = (h ^ (seed >> (8 * i) & 0xff)) * 1099511628211
	}
	for _, c := range key {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return mix64(h)
}

// mix64 is MurmurHash3's 64-bit finalizer.
func mix64(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	return h ^ h>>33
}

// index is probe i's position, or -1 where the mistake sends it nowhere.
func (f *fnvFilter) index(key []byte, i int) int64 {
	switch f.mistake {
	case first8Bytes:
		var w [8]byte
		copy(w[:], key)
		key = w[:]
	case cString:
		if j := slices.Index(key, 0); j >= 0 {
			key = key[:j]
		}
	}
	h := fnv64(f.seed, key)
	h1, h2 := h&0xffffffff, h>>32
	switch f.mistake {
	case sameHalves:
		h2 = h1
	case linearProbes:
		h2 = 1
	}
	g := h1 + uint64(i)*h2
	switch f.mistake {
	case signedIndex:
		j := int64(int32(uint32(g))) % int64(f.m)
		if j < 0 {
			return -1
		}
		return j
	case bytesForBits:
		return int64(g % max(f.m/8, 1))
	case index16:
		return int64(uint64(uint16(g)) % f.m)
	}
	return int64(g % f.m)
}

func (f *fnvFilter) Add(key []byte) {
	switch {
	case f.added == f.n && f.mistake == dropsPastN:
		return
	case f.added == f.n && f.mistake == clearsWhenFull:
		clear(f.words)
		f.added = 0
	}
	f.added++
	k := f.k
	if f.mistake == kMinusOne {
		k--
	}
	for i := 0; i < k; i++ {
		j := f.index(key, i)
		if j < 0 {
			continue
		}
		if f.mistake == xorForOr {
			f.words[j/64] ^= 1 << (j % 64)
		} else {
			f.words[j/64] |= 1 << (j % 64)
		}
	}
}

func (f *fnvFilter) Test(key []byte) bool {
	for i := 0; i < f.k; i++ {
		j := f.index(key, i)
		if j < 0 || f.words[j/64]&(1<<(j%64)) == 0 {
			return false
		}
	}
	return true
}

// shaFilter is a second design: k independent positions, each 64 bits of
// SHA-256 over the seed, the probe's number and the key, reduced by
// multiply-shift (Lemire) rather than modulo.
type shaFilter struct {
	words []uint64
	m     uint64
	k     int
	seed  uint64
	buf   []byte
}

func (f *shaFilter) index(key []byte, i int) uint64 {
	f.buf = binary.LittleEndian.AppendUint64(f.buf[:0], f.seed)
	f.buf = binary.LittleEndian.AppendUint32(f.buf, uint32(i))
	sum := sha256.Sum256(append(f.buf, key...))
	hi, _ := bits.Mul64(binary.LittleEndian.Uint64(sum[:]), f.m)
	return hi
}

func (f *shaFilter) Add(key []byte) {
	for i := 0; i < f.k; i++ {
		j := f.index(key, i)
		f.words[j/64] |= 1 << (j % 64)
	}
}

func (f *shaFilter) Test(key []byte) bool {
	for i := 0; i < f.k; i++ {
		if j := f.index(key, i); f.words[j/64]&(1<<(j%64)) == 0 {
			return false
		}
	}
	return true
}

// blockFilter is a third design: a 512-bit block picked by one FNV hash
// (multiply-shift), and each of the k bits in it the top nine bits of one
// more round of the mix. Double hashing inside so small a block correlates
// the bits (probes a + i b agree for keys whose a and b nearly do) and
// measured 7% above the block theory at ten bits a key.
type blockFilter struct {
	words  []uint64
	blocks uint64
	k      int
	seed   uint64
}

const outsideBlock = 512

// blockBits is m rounded up to whole blocks.
func blockBits(m uint64) uint64 { return (max(m, 1) + outsideBlock - 1) / outsideBlock * outsideBlock }

// each calls set with each of key's k bits, until set returns false.
func (f *blockFilter) each(key []byte, set func(j uint64) bool) {
	h := fnv64(f.seed, key)
	block, _ := bits.Mul64(h, f.blocks)
	for i := 0; i < f.k; i++ {
		h = mix64(h + 0x9e3779b97f4a7c15)
		if !set(block*outsideBlock + h>>55) {
			return
		}
	}
}

func (f *blockFilter) Add(key []byte) {
	f.each(key, func(j uint64) bool { f.words[j/64] |= 1 << (j % 64); return true })
}

func (f *blockFilter) Test(key []byte) bool {
	found := true
	f.each(key, func(j uint64) bool { found = f.words[j/64]&(1<<(j%64)) != 0; return found })
	return found
}

// outsideTargets are the outside zoo, the correct filters first.
func outsideTargets() []Target {
	targets := []Target{
		{Name: "outside/fnv", Seeded: true, About: "FNV-1a with a 64-bit mix, Kirsch-Mitzenmacher double hashing on its 32-bit halves, modulo m",
			New: func(s Shape) (Filter, error) { return newFNV(s, correct) }},
		{Name: "outside/sha256", Seeded: true, About: "k independent positions from SHA-256 of seed, probe and key, multiply-shift into m",
			New: func(s Shape) (Filter, error) {
				if err := outsideShape(s); err != nil {
					return nil, err
				}
				return &shaFilter{words: make([]uint64, (s.M+63)/64), m: s.M, k: s.K, seed: s.Seed}, nil
			}},
		{Name: "outside/blocked", Seeded: true, About: "512-bit blocks: one FNV hash picks the block, double hashing on its halves k bits in it",
			New: func(s Shape) (Filter, error) {
				if err := outsideShape(s); err != nil {
					return nil, err
				}
				m := blockBits(s.M)
				return &blockFilter{words: make([]uint64, m/64), blocks: m / outsideBlock, k: s.K, seed: s.Seed}, nil
			},
			Rate: func(s Shape) float64 { return core.BlockedRateExact(blockBits(s.M), uint64(s.N), s.K) }},
	}
	for _, mk := range outsideMistakes {
		targets = append(targets, Target{Name: "outside/" + string(mk), Seeded: true,
			About: "outside/fnv with a mistake: " + string(mk),
			New:   func(s Shape) (Filter, error) { return newFNV(s, mk) }})
	}
	return targets
}

// outsideReports audits the outside zoo once, two targets at a time.
var outsideReports = sync.OnceValue(func() []Report {
	targets := outsideTargets()
	reports := make([]Report, len(targets))
	errs := make([]error, len(targets))
	var wg sync.WaitGroup
	next := make(chan int)
	for range 2 {
		wg.Go(func() {
			for i := range next {
				reports[i], errs[i] = Run(targets[i], nil)
			}
		})
	}
	for i := range targets {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			panic(fmt.Sprintf("audit of %s: %v", targets[i].Name, err))
		}
	}
	return reports
})

// TestOutsideZoo pins, for each outside filter, the checks it fails: none
// for the correct designs, at least one for each mistake, seen through Add
// and Test alone. Natively only: they are test code, with nothing of the
// lab's for Node to reproduce.
func TestOutsideZoo(t *testing.T) {
	wholeZoo(t)
	if runtime.GOOS == "js" {
		t.Skip("the outside zoo runs natively")
	}
	var got strings.Builder
	for i, r := range outsideReports() {
		got.WriteString(caughtBy(r.Target, r))
		if broken := i >= 3; broken != (r.Failed > 0) {
			t.Errorf("%s: %d checks failed", r.Target, r.Failed)
			for _, o := range r.Checks {
				if !o.Pass && !o.Skipped {
					t.Logf("  %s: %s", o.ID, o.Detail)
				}
			}
		}
	}
	matchGolden(t, "testdata/outside.golden", got.String(), "TestOutsideZoo")
}
