package core

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"
)

func TestReadKeys(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 4096)
	for _, tc := range []struct {
		name       string
		in         string
		keys       []string
		lines, dup int
	}{
		{"one key a line", "a\nb\nc\n", []string{"a", "b", "c"}, 3, 0},
		{"no final newline", "a\nb", []string{"a", "b"}, 2, 0},
		{"crlf", "a\r\nb\r\n", []string{"a", "b"}, 2, 0},
		{"blank lines are not keys", "\n\na\n\r\n\nb\n\n", []string{"a", "b"}, 2, 0},
		{"duplicates count once", "a\nb\na\na\nb\n", []string{"a", "b"}, 5, 3},
		{"spaces are part of a key", "a\na \n a\n", []string{"a", "a ", " a"}, 3, 0},
		{"unicode", "ключ\n鍵\nclé\n", []string{"ключ", "鍵", "clé"}, 3, 0},
		{"keys of exactly the limit", long + "\r\n" + long + "\n", []string{long}, 2, 1},
		{"a key of the limit without newline", long, []string{long}, 1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReadKeys(strings.NewReader(tc.in), DefaultKeyLimits)
			if err != nil {
				t.Fatal(err)
			}
			var keys []string
			for _, k := range got.Keys {
				keys = append(keys, string(k))
			}
			if strings.Join(keys, "|") != strings.Join(tc.keys, "|") || got.Lines != tc.lines || got.Duplicates != tc.dup {
				t.Errorf("keys %q lines %d duplicates %d; want %q %d %d", keys, got.Lines, got.Duplicates, tc.keys, tc.lines, tc.dup)
			}
		})
	}
}

func TestReadKeysRefuses(t *testing.T) {
	t.Parallel()
	small := KeyLimits{MaxKeys: 3, MaxBytes: 20, MaxLineBytes: 8}
	for _, tc := range []struct {
		name string
		in   string
		lim  KeyLimits
		want error
		says string
	}{
		{"empty", "", DefaultKeyLimits, ErrNoKeys, "empty"},
		{"blank lines only", "\n\r\n\n", DefaultKeyLimits, ErrNoKeys, "blank"},
		{"a NUL byte", "a\nb\x00c\n", DefaultKeyLimits, ErrNotText, "line 2 holds a NUL byte"},
		{"binary", "\x7fELF\x02\x01\x01\x00\x00", DefaultKeyLimits, ErrNotText, "line 1"},
		{"invalid utf-8", "a\nb\n\xff\xfe\n", DefaultKeyLimits, ErrNotText, "line 3 is not valid UTF-8"},
		{"a key one byte over", "a\n" + strings.Repeat("x", 4097) + "\n", DefaultKeyLimits, ErrKeyTooLong, "line 2"},
		{"a key far over", strings.Repeat("x", 100_000), DefaultKeyLimits, ErrKeyTooLong, "line 1 is over 4096 bytes"},
		{"a key over a small limit", "short\nlongerthan8\n", small, ErrKeyTooLong, "line 2 is 11 bytes"},
		{"too many keys", "a\nb\nc\nd\n", small, ErrTooManyKeys, "more than 3"},
		{"too many bytes", "aaaa\nbbbb\ncccc\ndddd\n", KeyLimits{MaxKeys: 10, MaxBytes: 12, MaxLineBytes: 8}, ErrKeysTooLarge, "more than 12 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadKeys(strings.NewReader(tc.in), tc.lim)
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			if !strings.HasPrefix(err.Error(), "core: ") || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("error %q does not say %q", err, tc.says)
			}
		})
	}
	t.Run("the limits themselves", func(t *testing.T) {
		if _, err := ReadKeys(strings.NewReader("a\n"), KeyLimits{}); err == nil {
			t.Error("zero limits accepted")
		}
	})
	t.Run("a reader that fails", func(t *testing.T) {
		_, err := ReadKeys(iotest.ErrReader(errors.New("disk on fire")), DefaultKeyLimits)
		if err == nil || !strings.Contains(err.Error(), "disk on fire") {
			t.Errorf("error %v, want the reader's", err)
		}
	})
	t.Run("exactly at the limits", func(t *testing.T) {
		list, err := ReadKeys(strings.NewReader("aaaaaaaa\nb\nc\n"), small)
		if err != nil || len(list.Keys) != 3 {
			t.Errorf("%d keys, error %v; want 3 keys at the limits", len(list.Keys), err)
		}
	})
}

func TestReadKeysKeepsKeysApart(t *testing.T) {
	t.Parallel()
	// Keys share arena blocks: reading more must never overwrite earlier ones.
	var in bytes.Buffer
	var want []string
	for i := 0; i < 200_000; i++ {
		k := string(TextKey(nil, Members, uint64(i)))
		in.WriteString(k + "\n")
		want = append(want, k)
	}
	list, err := ReadKeys(&in, DefaultKeyLimits)
	if err != nil {
		t.Fatal(err)
	}
	for i, k := range list.Keys {
		if string(k) != want[i] {
			t.Fatalf("key %d is %q, want %q", i, k, want[i])
		}
	}
}

func FuzzReadKeys(f *testing.F) {
	for _, s := range []string{"", "a\nb\n", "a\r\n\r\nb", "\x00", "\xff", "a\na\n", strings.Repeat("z", 40)} {
		f.Add([]byte(s))
	}
	lim := KeyLimits{MaxKeys: 50, MaxBytes: 1000, MaxLineBytes: 32}
	f.Fuzz(func(t *testing.T, in []byte) {
		list, err := ParseKeys(in, lim)
		if err != nil {
			return
		}
		if list.Lines != len(list.Keys)+list.Duplicates || len(list.Keys) == 0 {
			t.Fatalf("lines %d, keys %d, duplicates %d", list.Lines, len(list.Keys), list.Duplicates)
		}
		seen := map[string]bool{}
		for _, k := range list.Keys {
			if len(k) == 0 || len(k) > lim.MaxLineBytes || !utf8.Valid(k) || bytes.ContainsAny(k, "\x00\n") || seen[string(k)] {
				t.Fatalf("bad key %q", k)
			}
			seen[string(k)] = true
		}
	})
}
