package engine

import "github.com/bloomlab/bloomlab/core"

// BitStore is what the picture reads of a filter: its M positions, each a
// field of Stride bits of Words packed from bit 0 (a bit, a 4-bit counter,
// an f-bit fingerprint: a cuckoo slot, a fuse cell), Group consecutive
// positions to a bucket. A lab run on a worker sends this back rather than
// the filter, which stays there.
type BitStore struct {
	M        uint64
	Stride   uint
	Group    int
	Counters bool     // the values are counts, shaded by size
	Words    []uint64 `json:"-"` // sent on their own from a worker
	// Links are the first positions of a scalable filter's links after
	// the first, in order: the picture tells the links apart by them.
	Links []uint64 `json:"links,omitempty"`
}

// LinkOf is the link position pos falls in, 0 for a layout without links.
func (s BitStore) LinkOf(pos uint64) int {
	i := 0
	for i < len(s.Links) && s.Links[i] <= pos {
		i++
	}
	return i
}

// StoreOf is the picture's view of f.
func StoreOf(f core.Membership) BitStore {
	s := BitStore{M: f.M(), Stride: 1, Group: 1, Words: f.Words()}
	if _, ok := f.(core.Counters); ok {
		s.Stride, s.Counters = 4, true
	}
	if x, ok := f.(interface{ FingerprintBits() int }); ok && x.FingerprintBits() > 0 {
		s.Stride = uint(x.FingerprintBits())
	}
	// A semi-sorted cuckoo filter's buckets are encoded: the picture reads
	// their slots decoded, laid out as a plain filter's.
	if x, ok := f.(interface{ Slots() []uint64 }); ok {
		s.Words = x.Slots()
	}
	if x, ok := f.(interface{ Buckets() uint64 }); ok && x.Buckets() > 0 && s.M%x.Buckets() == 0 {
		s.Group = int(s.M / x.Buckets())
	}
	if chain, ok := f.(core.Linked); ok {
		for _, l := range chain.Chain()[1:] {
			s.Links = append(s.Links, l.Start)
		}
	}
	return s
}

// Value is what position pos holds: a bit, a count, a fingerprint (0 for
// empty); 0 past the end.
func (s BitStore) Value(pos uint64) uint64 {
	if pos >= s.M {
		return 0
	}
	return field(s.Words, pos*uint64(s.Stride), s.Stride)
}

// field reads the width bits at bit offset off of words.
func field(words []uint64, off uint64, width uint) uint64 {
	w, sh := off>>6, off&63
	v := words[w] >> sh
	if sh+uint64(width) > 64 && w+1 < uint64(len(words)) {
		v |= words[w+1] << (64 - sh)
	}
	return v & (^uint64(0) >> (64 - width))
}
