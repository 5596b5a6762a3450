package keys

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"
)

// lineKey is "key-<i>", a line of a list as core.TextKey writes members.
func lineKey(i uint64) []byte { return strconv.AppendUint([]byte("key-"), i, 10) }

// defaultLimits are the limits the lab reads a list with, core's
// DefaultKeyLimits (which this package cannot import).
var defaultLimits = Limits{MaxKeys: 10_000_000, MaxBytes: 256 << 20, MaxLineBytes: 4 << 10}

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
		{"a byte order mark is dropped", "\ufeffa\nb\n", []string{"a", "b"}, 2, 0},
		{"a byte order mark and a key of the limit", "\ufeff" + long + "\n", []string{long}, 1, 0},
		{"a byte order mark only at the start", "a\n\ufeffb\n", []string{"a", "\ufeffb"}, 2, 0},
		{"a byte order mark alone", "\ufeff\na\n", []string{"a"}, 1, 0},
		{"bare cr (old Mac)", "a\rb\rc\r", []string{"a", "b", "c"}, 3, 0},
		{"bare cr without a final one", "a\rb", []string{"a", "b"}, 2, 0},
		{"cr, lf and crlf mixed", "a\rb\nc\r\nd\r\re\n\nf", []string{"a", "b", "c", "d", "e", "f"}, 6, 0},
		{"cr then crlf is a blank line", "a\r\r\nb\r\n", []string{"a", "b"}, 2, 0},
		{"duplicates across line ends", "a\rb\r\na\nb\r", []string{"a", "b"}, 4, 2},
		{"a byte order mark then cr", "\ufeffa\rb\r", []string{"a", "b"}, 2, 0},
	} {
		// A reader that hands over one byte at a time puts every line end,
		// and the "\n" of every "\r\n", at the edge of a read.
		for _, r := range []struct {
			name string
			wrap func(io.Reader) io.Reader
		}{{"whole", func(r io.Reader) io.Reader { return r }}, {"byte by byte", iotest.OneByteReader}} {
			t.Run(tc.name+"/"+r.name, func(t *testing.T) {
				got, err := Read(r.wrap(strings.NewReader(tc.in)), defaultLimits)
				if err != nil {
					t.Fatal(err)
				}
				keys := keyStrings(got)
				if strings.Join(keys, "|") != strings.Join(tc.keys, "|") || got.Lines != tc.lines || got.Duplicates != tc.dup {
					t.Errorf("keys %q lines %d duplicates %d; want %q %d %d", keys, got.Lines, got.Duplicates, tc.keys, tc.lines, tc.dup)
				}
			})
		}
	}
}

func TestReadKeysRefuses(t *testing.T) {
	t.Parallel()
	small := Limits{MaxKeys: 3, MaxBytes: 20, MaxLineBytes: 8}
	for _, tc := range []struct {
		name string
		in   string
		lim  Limits
		want error
		says string
	}{
		{"empty", "", defaultLimits, ErrNoKeys, "empty"},
		{"blank lines only", "\n\r\n\n", defaultLimits, ErrNoKeys, "blank"},
		{"a NUL byte", "a\nb\x00c\n", defaultLimits, ErrNotText, "line 2 holds a NUL byte"},
		{"binary", "\x7fELF\x02\x01\x01\x00\x00", defaultLimits, ErrNotText, "line 1"},
		{"invalid utf-8", "a\nb\n\xff\xfe\n", defaultLimits, ErrNotText, "line 3 is not valid UTF-8"},
		{"a key one byte over", "a\n" + strings.Repeat("x", 4097) + "\n", defaultLimits, ErrKeyTooLong, "line 2"},
		{"a key far over", strings.Repeat("x", 100_000), defaultLimits, ErrKeyTooLong, "line 1 is over 4096 bytes"},
		{"a key over a small limit", "short\nlongerthan8\n", small, ErrKeyTooLong, "line 2 is 11 bytes"},
		{"too many keys", "a\nb\nc\nd\n", small, ErrTooManyKeys, "more than 3"},
		{"too many bytes", "aaaa\nbbbb\ncccc\ndddd\n", Limits{MaxKeys: 10, MaxBytes: 12, MaxLineBytes: 8}, ErrKeysTooLarge, "more than 12 bytes"},
		{"a byte order mark alone", "\ufeff", defaultLimits, ErrNoKeys, "empty"},
		{"line numbers count crlf once", "a\r\nb\r\n\xff\r\n", defaultLimits, ErrNotText, "line 3 is not valid UTF-8"},
		{"line numbers count bare cr", "a\rb\r\r\xff\r", defaultLimits, ErrNotText, "line 4 is not valid UTF-8"},
		{"a key over the limit in a cr file", "a\r" + strings.Repeat("x", 4097) + "\rb\r", defaultLimits, ErrKeyTooLong, "line 2"},
		{"too many keys in a cr file", "a\rb\rc\rd\r", small, ErrTooManyKeys, "more than 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tc.in), tc.lim)
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			if !strings.HasPrefix(err.Error(), "keys: ") || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("error %q does not say %q", err, tc.says)
			}
		})
	}
	t.Run("the limits themselves", func(t *testing.T) {
		if _, err := Read(strings.NewReader("a\n"), Limits{}); err == nil {
			t.Error("zero limits accepted")
		}
	})
	t.Run("a reader that fails", func(t *testing.T) {
		_, err := Read(iotest.ErrReader(errors.New("disk on fire")), defaultLimits)
		if err == nil || !strings.Contains(err.Error(), "disk on fire") {
			t.Errorf("error %v, want the reader's", err)
		}
	})
	t.Run("exactly at the limits", func(t *testing.T) {
		list, err := Read(strings.NewReader("aaaaaaaa\nb\nc\n"), small)
		if err != nil || list.Len() != 3 {
			t.Errorf("%d keys, error %v; want 3 keys at the limits", list.Len(), err)
		}
	})
}

func TestReadKeysKeepsKeysApart(t *testing.T) {
	t.Parallel()
	// Keys share arena blocks: reading more must never overwrite earlier ones.
	var in bytes.Buffer
	var want []string
	for i := 0; i < 200_000; i++ {
		k := string(lineKey(uint64(i)))
		in.WriteString(k + "\n")
		want = append(want, k)
	}
	list, err := Read(&in, defaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if list.Len() != len(want) {
		t.Fatalf("%d keys, want %d", list.Len(), len(want))
	}
	for i, k := range keyStrings(list) {
		if k != want[i] {
			t.Fatalf("key %d is %q, want %q", i, k, want[i])
		}
	}
}

func FuzzReadKeys(f *testing.F) {
	for _, s := range []string{"", "a\nb\n", "a\r\n\r\nb", "\x00", "\xff", "a\na\n", strings.Repeat("z", 40),
		"\ufeffa\rb\r\r\na\n", "a\r\r\n\rb\n\r"} {
		f.Add([]byte(s))
	}
	lim := Limits{MaxKeys: 50, MaxBytes: 1000, MaxLineBytes: 32}
	f.Fuzz(func(t *testing.T, in []byte) {
		list, err := Parse(in, lim)
		if err != nil {
			return
		}
		if list.Lines != list.Len()+list.Duplicates || list.Len() == 0 {
			t.Fatalf("lines %d, keys %d, duplicates %d", list.Lines, list.Len(), list.Duplicates)
		}
		seen := map[string]bool{}
		for _, k := range keyStrings(list) {
			if len(k) == 0 || len(k) > lim.MaxLineBytes || !utf8.ValidString(k) || strings.ContainsAny(k, "\x00\r\n") || seen[k] {
				t.Fatalf("bad key %q", k)
			}
			seen[k] = true
		}
		// The same keys as splitting the text the simple way.
		text := strings.TrimPrefix(string(in), "\ufeff")
		text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
		var want []string
		clear(seen)
		for _, k := range strings.Split(text, "\n") {
			if k != "" && !seen[k] {
				seen[k] = true
				want = append(want, k)
			}
		}
		if got := keyStrings(list); !slices.Equal(got, want) {
			t.Fatalf("keys %q, want %q", got, want)
		}
	})
}

// keyStrings is a list's distinct keys, in order.
func keyStrings(l List) []string {
	var keys []string
	for i := range l.Len() {
		keys = append(keys, string(l.Key(i)))
	}
	return keys
}

// The arena drops duplicates by moving keys down in place; with blocks of
// 16 and 32 bytes, keys of 1 to 16 bytes jump blocks all the time, both as
// added and as moved.
func TestKeyArenaDropsDuplicatesInPlace(t *testing.T) {
	t.Parallel()
	for _, shift := range []uint{4, 5, 20} {
		for _, seed := range []uint64{1, 2, 3} {
			state := seed
			// A 64-bit linear congruential step (Knuth's MMIX constants),
			// its high bits taken: a fixed, repeatable stream.
			a := keyArena{shift: shift}
			var want []string
			seen := map[string]bool{}
			for range 5000 {
				// Few distinct keys, so that most lines repeat one.
				state = state*6364136223846793005 + 1442695040888963407
				v := (state >> 33) % 1500
				key := strings.Repeat(string(rune('a'+v%26)), int(1+v%16)) + strconv.FormatUint(v, 36)
				key = key[:min(len(key), 16)]
				if !a.add([]byte(key)) {
					t.Fatal("arena full")
				}
				if !seen[key] {
					seen[key] = true
					want = append(want, key)
				}
			}
			dups, _ := a.dropDuplicates(nil)
			var got []string
			for i := range a.Len() {
				got = append(got, string(a.Key(i)))
			}
			if dups != 5000-len(want) || !slices.Equal(got, want) {
				t.Fatalf("shift %d seed %d: %d keys, %d duplicates; want %d, %d", shift, seed, len(got), dups, len(want), 5000-len(want))
			}
		}
	}
}

func BenchmarkReadKeys(b *testing.B) {
	for _, n := range []int{10_000, 1_000_000} {
		var in bytes.Buffer
		for i := range n {
			in.Write(lineKey(uint64(i % (n - n/100)))) // 1% repeat a key
			in.WriteByte('\n')
		}
		b.Run(strconv.Itoa(n)+"-keys", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(in.Len()))
			for b.Loop() {
				if _, err := Parse(in.Bytes(), defaultLimits); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestReadKeysStepsCancels pins the step in dropping duplicates, which once
// had none: ten million keys could not be stopped for a second or two.
func TestReadKeysStepsCancels(t *testing.T) {
	t.Parallel()
	var in bytes.Buffer
	n := 3 * stepEvery
	for i := range n {
		in.Write(lineKey(uint64(i % (n - 100))))
		in.WriteByte('\n')
	}
	stop := errors.New("stop")
	calls, first := 0, 0
	_, err := ReadSteps(bytes.NewReader(in.Bytes()), defaultLimits, func(done, total int) error {
		calls++
		first = done
		if total != n {
			t.Errorf("total %d, want the %d keys read", total, n)
		}
		return stop
	})
	if !errors.Is(err, stop) || calls != 1 || first != stepEvery {
		t.Fatalf("error %v after %d steps, the first at %d; want the step's error after one at %d", err, calls, first, stepEvery)
	}
	list, err := ReadSteps(bytes.NewReader(in.Bytes()), defaultLimits, func(done, total int) error { return nil })
	if err != nil || list.Len() != n-100 || list.Duplicates != 100 {
		t.Fatalf("with a step that lets it run: %d keys, %d duplicates, error %v; want %d, 100, nil", list.Len(), list.Duplicates, err, n-100)
	}
}
