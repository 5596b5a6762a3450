package core

import (
	"encoding/binary"
	"fmt"
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
	if keyBytes < MinKeyBytes || keyBytes > MaxKeyBytes {
		panic(fmt.Sprintf("core: key bytes must be in [%d, %d], got %d", MinKeyBytes, MaxKeyBytes, keyBytes))
	}
	id := uint64(ns)<<62 | index&maxIndex
	w := splitmix(id) ^ splitmix(seed^0x243f6a8885a308d3)
	dst = append(dst[:0], make([]byte, keyBytes)...)
	binary.LittleEndian.PutUint64(dst, w)
	for off, x := 8, w; off < keyBytes; off += 8 {
		x = splitmix(x)
		var word [8]byte
		binary.LittleEndian.PutUint64(word[:], x)
		copy(dst[off:], word[:])
	}
	return dst
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
