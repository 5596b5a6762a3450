package core

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// KeyLimits bound a key list a user brings (a file in the CLI, a paste or an
// upload in the browser).
type KeyLimits struct {
	MaxKeys      int   // keys read, duplicates included
	MaxBytes     int64 // bytes of input, line endings included
	MaxLineBytes int   // bytes of one key
}

// DefaultKeyLimits allow as many keys as a simulation inserts, 256 MiB of
// input and 4 KiB a key.
var DefaultKeyLimits = KeyLimits{MaxKeys: MaxItems, MaxBytes: 256 << 20, MaxLineBytes: 4 << 10}

// What can be wrong with a key list; ReadKeys wraps one of these with the
// line and the limit, so errors.Is tells them apart.
var (
	ErrNoKeys        = errors.New("core: no keys")
	ErrNotText       = errors.New("core: keys must be text")
	ErrKeyTooLong    = errors.New("core: key too long")
	ErrTooManyKeys   = errors.New("core: too many keys")
	ErrKeysTooLarge  = errors.New("core: key list too large")
	errKeyLimitRange = errors.New("core: key limits must be positive")
)

// KeyList is a key list as read: its distinct keys and how many lines
// repeated an earlier one, so that a duplicate never counts twice in n.
type KeyList struct {
	Keys       [][]byte // distinct keys, in the order first seen
	Lines      int      // keys read, duplicates included; blank lines are not keys
	Duplicates int      // keys that repeated an earlier key
}

// ReadKeys reads one key per line. A key is the line's bytes without its
// "\n" or "\r\n"; blank lines are skipped and nothing else is trimmed, so
// "a" and "a " are two keys. It refuses, with the line number, input that is
// not text (a NUL byte or invalid UTF-8), a key over lim.MaxLineBytes, more
// than lim.MaxKeys keys or lim.MaxBytes bytes, and input without a key.
func ReadKeys(r io.Reader, lim KeyLimits) (KeyList, error) {
	if lim.MaxKeys < 1 || lim.MaxBytes < 1 || lim.MaxLineBytes < 1 {
		return KeyList{}, errKeyLimitRange
	}
	// Room for the longest key and its "\r\n": a buffer that fills without
	// a newline holds a key that is too long.
	br := bufio.NewReaderSize(r, lim.MaxLineBytes+2)
	var (
		list  KeyList
		seen  = map[string]struct{}{}
		arena keyArena
		total int64
	)
	for line := 1; ; line++ {
		raw, err := br.ReadSlice('\n')
		total += int64(len(raw))
		if total > lim.MaxBytes {
			return KeyList{}, fmt.Errorf("%w: more than %d bytes, the limit", ErrKeysTooLarge, lim.MaxBytes)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			return KeyList{}, fmt.Errorf("%w: line %d is over %d bytes, the limit for one key", ErrKeyTooLong, line, lim.MaxLineBytes)
		}
		if err != nil && err != io.EOF {
			return KeyList{}, fmt.Errorf("core: reading keys: %w", err)
		}
		key := bytes.TrimSuffix(bytes.TrimSuffix(raw, []byte("\n")), []byte("\r"))
		switch {
		case len(key) > lim.MaxLineBytes:
			return KeyList{}, fmt.Errorf("%w: line %d is %d bytes, the limit for one key is %d", ErrKeyTooLong, line, len(key), lim.MaxLineBytes)
		case bytes.IndexByte(key, 0) >= 0:
			return KeyList{}, fmt.Errorf("%w: line %d holds a NUL byte (a binary file?); give one key per line", ErrNotText, line)
		case !utf8.Valid(key):
			return KeyList{}, fmt.Errorf("%w: line %d is not valid UTF-8", ErrNotText, line)
		}
		if len(key) > 0 {
			if list.Lines == lim.MaxKeys {
				return KeyList{}, fmt.Errorf("%w: more than %d, the limit", ErrTooManyKeys, lim.MaxKeys)
			}
			list.Lines++
			if _, dup := seen[string(key)]; dup {
				list.Duplicates++
			} else {
				seen[string(key)] = struct{}{}
				list.Keys = append(list.Keys, arena.copy(key))
			}
		}
		if err == io.EOF {
			break
		}
	}
	if list.Lines == 0 {
		return KeyList{}, fmt.Errorf("%w: the input is empty or holds only blank lines", ErrNoKeys)
	}
	return list, nil
}

// ParseKeys is ReadKeys for text already in memory, such as a paste.
func ParseKeys(text []byte, lim KeyLimits) (KeyList, error) {
	return ReadKeys(bytes.NewReader(text), lim)
}

// keyArena copies keys into large shared blocks rather than one allocation
// each; a block is never grown, so earlier keys stay where they are.
type keyArena struct{ block []byte }

func (a *keyArena) copy(key []byte) []byte {
	if len(key) > cap(a.block)-len(a.block) {
		a.block = make([]byte, 0, max(1<<20, len(key)))
	}
	start := len(a.block)
	a.block = append(a.block, key...)
	return a.block[start:len(a.block):len(a.block)]
}
