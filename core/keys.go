package core

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"
)

// Namespace separates the keys a simulation inserts from those it only
// queries. The first eight bytes of every key are a bijection of (namespace,
// index), so two namespaces can never produce the same key, whatever the
// seed: an absent query is absent by construction, not by luck.
type Namespace uint8

const (
	Members Namespace = iota // keys that are inserted
	Absent                   // keys that are only queried
)

// Key bytes: at least the eight that carry (namespace, index), at most 1024.
const (
	MinKeyBytes = 8
	MaxKeyBytes = 1024
)

// maxIndex bounds the index so that namespace and index fit one word.
const maxIndex = 1<<62 - 1

// Key writes the index-th key of namespace ns under seed into dst[:0] and
// returns it; keyBytes must be in [MinKeyBytes, MaxKeyBytes] (Key panics
// otherwise, since the callers check it once up front). The first word is
// splitmix(ns<<62 | index) xored with a seed mask, a bijection; the rest is
// filler derived from the same word, so longer keys cost more to hash but are
// no easier to tell apart.
func Key(dst []byte, ns Namespace, index, seed uint64, keyBytes int) []byte {
	one := [1][]byte{dst}
	Keys(one[:], ns, index, seed, keyBytes)
	return one[0]
}

// Keys writes keys first, first+1, ... of namespace ns under seed into the
// buffers of dst, one a buffer, as Key would one at a time; it panics as Key
// does. The simulation and the experiments make their keys a batch at a
// time this way, the seed's mask made once. Every byte of a key is written,
// so a buffer is not cleared first.
func Keys(dst [][]byte, ns Namespace, first, seed uint64, keyBytes int) {
	if keyBytes < MinKeyBytes || keyBytes > MaxKeyBytes {
		panic(fmt.Sprintf("core: key bytes must be in [%d, %d], got %d", MinKeyBytes, MaxKeyBytes, keyBytes))
	}
	mask := SplitMix(seed ^ 0x243f6a8885a308d3)
	if keyBytes == 16 {
		// The experiments' keys: two words, without the general loop.
		for j := range dst {
			w := SplitMix(uint64(ns)<<62|(first+uint64(j))&maxIndex) ^ mask
			key := slices.Grow(dst[j][:0], 16)[:16]
			binary.LittleEndian.PutUint64(key, w)
			binary.LittleEndian.PutUint64(key[8:], SplitMix(w))
			dst[j] = key
		}
		return
	}
	for j := range dst {
		w := SplitMix(uint64(ns)<<62|(first+uint64(j))&maxIndex) ^ mask
		key := slices.Grow(dst[j][:0], keyBytes)[:keyBytes]
		binary.LittleEndian.PutUint64(key, w)
		off := 8
		for ; off+8 <= keyBytes; off += 8 {
			w = SplitMix(w)
			binary.LittleEndian.PutUint64(key[off:], w)
		}
		if off < keyBytes {
			var word [8]byte
			binary.LittleEndian.PutUint64(word[:], SplitMix(w))
			copy(key[off:], word[:])
		}
		dst[j] = key
	}
}

// TextKey writes the structured text key "key-<index>" for members or
// "miss-<index>" for absent queries, the kind of key real systems hash and a
// weak hash maps onto neighbouring indices.
func TextKey(dst []byte, ns Namespace, index uint64) []byte {
	prefix := "key-"
	if ns == Absent {
		prefix = "miss-"
	}
	return strconv.AppendUint(append(dst[:0], prefix...), index, 10)
}
