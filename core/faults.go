package core

import (
	"fmt"
	"strings"
)

// Fault names one deliberately broken filter from the lab's zoo. Each is a
// bug seen in real Bloom filters; the audit must catch every one, and the lab
// lets a user switch one on to watch which checks turn red while the
// false-positive rate still looks fine.
type Fault string

// The zoo. NoFault is the real filter.
const (
	NoFault          Fault = "none"
	NegativeIndex    Fault = "negative-index"     // signed step and modulo: (h1 + i*h2) % m can be negative
	KFromCeil        Fault = "k-ceil"             // k = ceil((m/n) ln 2) instead of round
	WeakHash         Fault = "weak-hash"          // 31*h + c, no avalanche, reduced mod m
	ClearOnDuplicate Fault = "clear-on-duplicate" // inserting a present key clears its bits
	OffByOne         Fault = "off-by-one"         // reduction into [0, m] instead of [0, m)
	OneHash          Fault = "one-hash"           // the same index reused for all k probes
	WrapCounters     Fault = "wrap-counters"      // 4-bit counters wrap 15 -> 0 instead of saturating
	ShortRange       Fault = "short-range"        // indices reduced into m - m/32 instead of m
)

// Faults lists the zoo in a stable order (NoFault excluded).
var Faults = []Fault{NegativeIndex, KFromCeil, WeakHash, ClearOnDuplicate, OffByOne, OneHash, WrapCounters, ShortRange}

var faultDescriptions = map[Fault]string{
	NoFault:          "the real filter",
	NegativeIndex:    "a signed index: h2 forced odd turns negative, (h1 + i*h2) % m goes below zero, writes there are lost and reads answer zero",
	KFromCeil:        "k chosen by ceil((m/n) ln 2) instead of round",
	WeakHash:         "a weak hash, 31*h + c with no avalanche, reduced by h % m",
	ClearOnDuplicate: "a duplicate insert clears the key's bits instead of leaving them",
	OffByOne:         "an off-by-one reduction into [0, m] instead of [0, m)",
	OneHash:          "one hash reused for all k probes",
	WrapCounters:     "4-bit counters that wrap from 15 to 0 instead of saturating",
	ShortRange:       "indices reduced into the first m - m/32 positions: no key lost, the rate about 17% high",
}

// ParseFault accepts a fault name, or "" or "none" for the real filter.
func ParseFault(s string) (Fault, error) {
	if s == "" || s == string(NoFault) {
		return NoFault, nil
	}
	for _, f := range Faults {
		if string(f) == s {
			return f, nil
		}
	}
	names := make([]string, len(Faults))
	for i, f := range Faults {
		names[i] = string(f)
	}
	return NoFault, fmt.Errorf("core: unknown fault %q, want none or one of %s", s, strings.Join(names, ", "))
}

// Describe says in a line what the fault breaks.
func (f Fault) Describe() string { return faultDescriptions[f] }

// ChooseK is the k the lab picks for m bits and n keys: OptimalK, or CeilK
// under the k-ceil fault.
func (f Fault) ChooseK(m, n uint64) int {
	if f == KFromCeil {
		return CeilK(m, n)
	}
	return OptimalK(m, n)
}

// Hash128 is the lab's hash of key under (k0, k1): SipHash-2-4, or the weak
// polynomial hash under the weak-hash fault.
func (f Fault) Hash128(k0, k1 uint64, key []byte) (uint64, uint64) {
	if f == WeakHash {
		return weak(k0&0xffff, key), weak(k1&0xffff, key)*31 + 1
	}
	return Sip128(k0, k1, key)
}

// weak is the Java-style string hash 31*h + c: each byte moves h by a small
// amount, so similar keys land on similar indices.
func weak(h uint64, key []byte) uint64 {
	for _, c := range key {
		h = 31*h + uint64(c)
	}
	return h
}

// Probe is the lab's i-th position in [0, m) from (h1, h2), with the
// fault's reduction where it has one. A broken reduction can return m or
// more: that is the bug the audit looks for.
func (f Fault) Probe(h1, h2 uint64, i int, m uint64) uint64 {
	g := h1 + uint64(i)*(h2|1)
	switch f {
	case NegativeIndex:
		// A 32-bit hash h1, and h2 forced odd by a signed 32-bit OR: for
		// half the keys the step is negative, h1 + i*h2 falls below zero,
		// and so does the signed remainder.
		g := int64(uint32(h1)) + int64(i)*int64(int32(uint32(h2)|1))
		return uint64(g % int64(m))
	case WeakHash:
		return (h1 + uint64(i)*h2) % m
	case OffByOne:
		return Reduce(g, m+1)
	case OneHash:
		return Reduce(h1, m)
	case ShortRange:
		return Reduce(g, m-m/32)
	}
	return Reduce(g, m)
}

// Broken is a standard filter built with one fault of the zoo. It favours
// clarity over speed: the real filter is Filter.
type Broken struct {
	fault  Fault
	m      uint64
	k      int
	k0, k1 uint64
	words  []uint64
	set    uint64
	buf    []uint64
}

// NewBroken returns a standard filter with fault f switched on.
func NewBroken(f Fault, m uint64, k int, seed uint64) (*Broken, error) {
	if err := checkShape(m, k); err != nil {
		return nil, err
	}
	k0, k1 := SipKey(seed)
	return &Broken{fault: f, m: m, k: k, k0: k0, k1: k1, words: make([]uint64, (m+63)/64)}, nil
}

// Positions appends key's k positions; a faulty reduction may put some at m
// or beyond.
func (f *Broken) Positions(dst []uint64, key []byte) []uint64 {
	h1, h2 := f.fault.Hash128(f.k0, f.k1, key)
	dst = dst[:0]
	for i := 0; i < f.k; i++ {
		dst = append(dst, f.fault.Probe(h1, h2, i, f.m))
	}
	return dst
}

// slot maps a position to the storage bit it touches, and reports false
// for a position past the end of storage, which the real filter cannot
// produce: the write there is lost and the read answers zero, as with a
// write through a negative index into memory that is not the array. A
// position in [m, 64 * words) lands in the padding.
func (f *Broken) slot(j uint64) (word, bit uint64, ok bool) {
	if j >= uint64(len(f.words))*64 {
		return 0, 0, false
	}
	return j >> 6, 1 << (j & 63), true
}

func (f *Broken) Add(key []byte) {
	f.buf = f.Positions(f.buf, key)
	if f.fault == ClearOnDuplicate {
		if ok, _ := f.Contains(key); ok {
			for _, j := range f.buf {
				if w, b, ok := f.slot(j); ok && f.words[w]&b != 0 {
					f.words[w] &^= b
					f.set--
				}
			}
			return
		}
	}
	for _, j := range f.buf {
		if w, b, ok := f.slot(j); ok && f.words[w]&b == 0 {
			f.words[w] |= b
			f.set++
		}
	}
}

func (f *Broken) Contains(key []byte) (bool, int) {
	h1, h2 := f.fault.Hash128(f.k0, f.k1, key)
	for i := 0; i < f.k; i++ {
		if w, b, ok := f.slot(f.fault.Probe(h1, h2, i, f.m)); !ok || f.words[w]&b == 0 {
			return false, i + 1
		}
	}
	return true, f.k
}

func (f *Broken) M() uint64           { return f.m }
func (f *Broken) K() int              { return f.k }
func (f *Broken) SetBits() uint64     { return f.set }
func (f *Broken) Popcount() uint64    { return popcount(f.words) }
func (f *Broken) IsSet(i uint64) bool { return i < f.m && f.words[i>>6]&(1<<(i&63)) != 0 }
func (f *Broken) Words() []uint64     { return f.words }

// Lost reports whether a write to position j is lost: past the storage, as
// through a negative index into memory that is not the array.
func (f *Broken) Lost(j uint64) bool { return j >= 64*uint64(len(f.words)) }

// Reads is what a read of position j answers: a position past m but inside
// the last word lands in the padding, which the filter reads.
func (f *Broken) Reads(j uint64) bool {
	w, b, ok := f.slot(j)
	return ok && f.words[w]&b != 0
}
