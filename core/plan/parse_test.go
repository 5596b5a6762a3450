package plan

import (
	"fmt"
	"math"
	"testing"

	"github.com/bloomlab/bloomlab/core"
)

func TestParseBits(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want uint64
		err  string
	}{
		{in: "958505838", want: 958_505_838},
		{in: "958505838 bits", want: 958_505_838},
		{in: "958,505,838 bits", want: 958_505_838},
		{in: "958_505_838b", want: 958_505_838},
		{in: "1 bit", want: 1},
		{in: "5000B", want: 40_000},
		{in: "5000 bytes", want: 40_000},
		{in: "1.5 KiB", want: 12_288},
		{in: "1.5 kib", want: 12_288},
		{in: "114.26 MiB", want: 958_482_350}, // 114.26 x 2^20 x 8, to the nearest bit
		{in: "1 GiB", want: 8 << 30},
		{in: "2 TiB", want: 16 << 40},
		{in: "1 kB", want: 8000},
		{in: "1 MB", want: 8_000_000},
		{in: "1e6", want: 1_000_000},
		{in: "  64  ", want: 64},
		{in: "9223372036854775808", want: 1 << 63},
		{in: "", err: "plan: m is empty; give bits, such as 958505838, or a size, such as 114.26 MiB"},
		{in: "0", err: `plan: m must be from 1 bit to 2^63 bits (1 EiB), got "0"`},
		{in: "-5 KiB", err: `plan: m must be from 1 bit to 2^63 bits (1 EiB), got "-5 KiB"`},
		{in: "9223372036854775809", err: `plan: m must be from 1 bit to 2^63 bits (1 EiB), got "9223372036854775809"`},
		{in: "2 EiB", err: `plan: m has unknown unit "EiB"; use bits, bytes, KiB, MiB, GiB or TiB (or kB, MB, GB, TB for powers of 1000)`},
		{in: "5 Mb", err: `plan: m has unknown unit "Mb"; use bits, bytes, KiB, MiB, GiB or TiB (or kB, MB, GB, TB for powers of 1000)`},
		{in: "1.5 bits", err: `plan: m must be a whole number of bits, got "1.5 bits"`},
		{in: "1,5 KiB", err: `plan: m has a comma that does not separate thousands (use a point for decimals), got "1,5 KiB"`},
		{in: "MiB", err: `plan: m must start with a number, such as 1.5 KiB, got "MiB"`},
		{in: "1..5 KiB", err: `plan: m must be a number with an optional unit, such as 1.5 KiB, got "1..5 KiB"`},
		{in: "lots", err: `plan: m has unknown unit "lots"; use bits, bytes, KiB, MiB, GiB or TiB (or kB, MB, GB, TB for powers of 1000)`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got, err := ParseBits(tt.in)
			checkParse(t, got, tt.want, err, tt.err)
		})
	}
}

func TestParseKeys(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want uint64
		err  string
	}{
		{in: "100000000", want: 100_000_000},
		{in: "100,000,000", want: 100_000_000},
		{in: "100_000_000 keys", want: 100_000_000},
		{in: "1e8", want: 100_000_000},
		{in: "2.5e3", want: 2500},
		{in: "1 key", want: 1},
		{in: "9007199254740992", want: 1 << 53},
		{in: "", err: "plan: n is empty; give the number of keys, such as 1000000 or 1e6"},
		{in: "0", err: `plan: n must be from 1 to 2^53 (9007199254740992) keys, got "0"`},
		{in: "-3", err: `plan: n must be from 1 to 2^53 (9007199254740992) keys, got "-3"`},
		{in: "1e17", err: `plan: n must be from 1 to 2^53 (9007199254740992) keys, got "1e17"`},
		{in: "2.5", err: `plan: n must be a whole number of keys, got "2.5"`},
		{in: "10 MiB", err: `plan: n must be a count of keys, such as 100000000, 100,000,000 or 1e8, got "10 MiB"`},
		{in: "1,00", err: `plan: n must be a count of keys, such as 100000000, 100,000,000 or 1e8, got "1,00"`},
		{in: "many", err: `plan: n must be a count of keys, such as 100000000, 100,000,000 or 1e8, got "many"`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got, err := ParseKeys(tt.in)
			checkParse(t, got, tt.want, err, tt.err)
		})
	}
}

func TestParseRate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want float64
		err  string
	}{
		{in: "0.01", want: 0.01},
		{in: "1e-2", want: 0.01},
		{in: "1%", want: 0.01},
		{in: "0.5 %", want: 0.005},
		{in: "1 in 1000", want: 0.001},
		{in: "1 in 1,000", want: 0.001},
		{in: "1/1000", want: 0.001},
		{in: ".05", want: 0.05},
		{in: "", err: "plan: p is empty; give a rate such as 0.01, 1% or 1 in 100"},
		{in: "0", err: `plan: p must be above 0 (a set that never errs is an exact set), got "0"`},
		{in: "1", err: `plan: p must be below 1 (100%), got "1"`},
		{in: "100%", err: `plan: p must be below 1 (100%), got "100%"`},
		{in: "1 in 0", err: `plan: p must be a rate such as 0.01, 1% or 1 in 100, got "1 in 0"`},
		{in: "NaN", err: `plan: p must be a rate such as 0.01, 1% or 1 in 100, got "NaN"`},
		{in: "one percent", err: `plan: p must be a rate such as 0.01, 1% or 1 in 100, got "one percent"`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got, err := ParseRate(tt.in)
			checkParse(t, got, tt.want, err, tt.err)
		})
	}
}

func TestParseSmallFields(t *testing.T) {
	t.Parallel()
	if v, err := ParseKeyBytes("36"); v != 36 || err != nil {
		t.Errorf("ParseKeyBytes(36) = %d, %v", v, err)
	}
	if v, err := ParseKeyBytes("16 bytes"); v != 16 || err != nil {
		t.Errorf("ParseKeyBytes(16 bytes) = %d, %v", v, err)
	}
	if _, err := ParseKeyBytes("0"); err == nil || err.Error() != `plan: key bytes must be a whole number from 1 to 1048576, got "0"` {
		t.Errorf("ParseKeyBytes(0): %v", err)
	}
	if v, err := ParseAmount("absent queries per second", "12,000"); v != 12000 || err != nil {
		t.Errorf("ParseAmount(12,000) = %v, %v", v, err)
	}
	if _, err := ParseAmount("cost of a maybe", "-1"); err == nil || err.Error() != `plan: cost of a maybe must be a number from 0 to 10^15, got "-1"` {
		t.Errorf("ParseAmount(-1): %v", err)
	}
	if u, err := ParseUnknown("n"); u != FindN || err != nil {
		t.Errorf("ParseUnknown(n) = %q, %v", u, err)
	}
	if _, err := ParseUnknown("k"); err == nil {
		t.Error("ParseUnknown(k) gave no error")
	}
}

func TestFormatSize(t *testing.T) {
	t.Parallel()
	tests := []struct {
		bits uint64
		want string
	}{{1, "1 B"}, {80, "10 B"}, {8191, "1024 B"}, {8192, "1.00 KiB"}, {40000, "4.88 KiB"},
		{958_505_838, "114.26 MiB"}, {8 << 30, "1.00 GiB"}, {1 << 63, "1.00 EiB"}}
	for _, tt := range tests {
		if got := FormatSize(tt.bits); got != tt.want {
			t.Errorf("FormatSize(%d) = %q, want %q", tt.bits, got, tt.want)
		}
	}
}

func checkParse[T comparable](t *testing.T, got, want T, err error, wantErr string) {
	t.Helper()
	switch {
	case wantErr != "" && (err == nil || err.Error() != wantErr):
		t.Errorf("error %v, want %q", err, wantErr)
	case wantErr == "" && err != nil:
		t.Errorf("error %v", err)
	case wantErr == "" && got != want:
		t.Errorf("got %v, want %v", fmt.Sprint(got), fmt.Sprint(want))
	}
}

// FuzzParseBits: no input panics, and every accepted size is in range.
func FuzzParseBits(f *testing.F) {
	for _, s := range []string{"958505838", "1.5 KiB", "5000B", "1e6", "-1", "1,000,000 bits", "1e400 GiB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if v, err := ParseBits(s); err == nil && (v < 1 || v > MaxBits) {
			t.Errorf("ParseBits(%q) = %d, out of range", s, v)
		}
		if v, err := ParseKeys(s); err == nil && (v < 1 || v > MaxN) {
			t.Errorf("ParseKeys(%q) = %d, out of range", s, v)
		}
		if v, err := ParseRate(s); err == nil && !(v > 0 && v < 1) {
			t.Errorf("ParseRate(%q) = %v, out of range", s, v)
		}
	})
}

// TestBitsPerKeyAtMaxK ties the constant to core.MaxK: the last whole bits
// per key whose optimal k, rounded up, a filter of the lab still takes.
func TestBitsPerKeyAtMaxK(t *testing.T) {
	t.Parallel()
	if k := math.Ceil(BitsPerKeyAtMaxK * math.Ln2); k > core.MaxK {
		t.Errorf("%d bits per key want k = %v, past core.MaxK = %d", BitsPerKeyAtMaxK, k, core.MaxK)
	}
	if k := math.Ceil((BitsPerKeyAtMaxK + 1) * math.Ln2); k <= core.MaxK {
		t.Errorf("%d bits per key want only k = %v, within core.MaxK = %d: the bound could be higher", BitsPerKeyAtMaxK+1, k, core.MaxK)
	}
}
