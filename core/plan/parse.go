package plan

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/bloomlab/bloomlab/core"
)

// The ranges the parsers enforce. MaxN keeps n exact in the float64 sizing
// math; MaxBits is the largest m core.BitsFor returns.
const (
	MaxN        = 1 << 53
	MaxBits     = 1 << 63
	MaxKeyBytes = 1 << 20
	// MinP is the smallest rate a plan takes: its optimal k, log2(1/p), is
	// 63 there, within the lab's [1, core.MaxK]; 5e-324 asked for k = 1023.
	MinP = 1e-19
	// BitsPerKeyAtMaxK is the most a plan sizes a structure to:
	// core.BitsPerKeyAtMaxK, 92.
	BitsPerKeyAtMaxK = core.BitsPerKeyAtMaxK
)

// bitsPer maps a unit to the bits it stands for. Single letters are case
// sensitive (b is a bit, B a byte); longer names are not, except the decimal
// units, where "Mb" (megabit) and "MB" (megabyte) would be confused.
var (
	bitsPerExact = map[string]float64{
		"":   1,
		"b":  1,
		"B":  8,
		"kB": 8e3, "KB": 8e3,
		"MB": 8e6,
		"GB": 8e9,
		"TB": 8e12,
	}
	bitsPerFolded = map[string]float64{
		"bit": 1, "bits": 1,
		"byte": 8, "bytes": 8,
		"kib": 8 << 10,
		"mib": 8 << 20,
		"gib": 8 << 30,
		"tib": 8 << 40,
	}
)

// ParseBits reads a filter size m, in bits unless a unit follows: "958505838",
// "958505838 bits", "5000B", "1.5 KiB", "114.26 MiB", "1 GB". Binary units
// (KiB = 1024 bytes) and decimal ones (kB = 1000 bytes) are both accepted;
// sizes in bytes are rounded to the nearest bit, plain bits must be whole.
// The result is in [1, MaxBits].
func ParseBits(s string) (uint64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, fmt.Errorf("plan: m is empty; give bits, such as 958505838, or a size, such as 114.26 MiB")
	}
	num, unit := splitNumber(s)
	per, ok := bitsPerExact[unit]
	if !ok {
		per, ok = bitsPerFolded[strings.ToLower(unit)]
	}
	if !ok {
		return 0, fmt.Errorf("plan: m has unknown unit %q; use bits, bytes, KiB, MiB, GiB or TiB (or kB, MB, GB, TB for powers of 1000)", unit)
	}
	if num == "" {
		return 0, fmt.Errorf("plan: m must start with a number, such as 1.5 KiB, got %q", s)
	}
	clean, err := cleanNumber(num)
	if err != nil {
		return 0, fmt.Errorf("plan: m %v, got %q", err, s)
	}
	if per == 1 && isDigits(clean) {
		// Plain bits stay exact beyond 2^53, where a float64 would round.
		v, err := strconv.ParseUint(clean, 10, 64)
		if err != nil || v < 1 || v > MaxBits {
			return 0, errBitsRange(s)
		}
		return v, nil
	}
	v, err := ParseDecimal(clean)
	if err != nil {
		return 0, fmt.Errorf("plan: m must be a number with an optional unit, such as 1.5 KiB, got %q", s)
	}
	if v <= 0 {
		return 0, errBitsRange(s)
	}
	if per == 1 && v != math.Trunc(v) {
		return 0, fmt.Errorf("plan: m must be a whole number of bits, got %q", s)
	}
	bits := math.Round(v * per)
	if bits < 1 || bits > MaxBits {
		return 0, errBitsRange(s)
	}
	return uint64(bits), nil
}

func errBitsRange(s string) error {
	return fmt.Errorf("plan: m must be from 1 bit to 2^63 bits (1 EiB), got %q", s)
}

// ParseKeys reads a key count n: "100000000", "100,000,000", "100_000_000"
// or "1e8", optionally followed by "keys". The result is in [1, MaxN].
func ParseKeys(s string) (uint64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, fmt.Errorf("plan: n is empty; give the number of keys, such as 1000000 or 1e6")
	}
	num, unit := splitNumber(s)
	switch strings.ToLower(unit) {
	case "", "key", "keys":
	default:
		return 0, fmt.Errorf("plan: n must be a count of keys, such as 100000000, 100,000,000 or 1e8, got %q", s)
	}
	clean, err := cleanNumber(num)
	if err != nil || num == "" {
		return 0, fmt.Errorf("plan: n must be a count of keys, such as 100000000, 100,000,000 or 1e8, got %q", s)
	}
	var v float64
	if isDigits(clean) {
		u, err := strconv.ParseUint(clean, 10, 64)
		if err != nil || u < 1 || u > MaxN {
			return 0, errKeysRange(s)
		}
		return u, nil
	}
	v, err = ParseDecimal(clean)
	if err != nil {
		return 0, fmt.Errorf("plan: n must be a count of keys, such as 100000000, 100,000,000 or 1e8, got %q", s)
	}
	if v != math.Trunc(v) {
		return 0, fmt.Errorf("plan: n must be a whole number of keys, got %q", s)
	}
	if v < 1 || v > MaxN {
		return 0, errKeysRange(s)
	}
	return uint64(v), nil
}

func errKeysRange(s string) error {
	return fmt.Errorf("plan: n must be from 1 to 2^53 (%d) keys, got %q", uint64(MaxN), s)
}

// ParseRate reads a false-positive rate p: "0.01", "1e-2", "1%" or "1 in 100"
// (also "1/100"). The result is in [MinP, 1).
func ParseRate(s string) (float64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, fmt.Errorf("plan: p is empty; give a rate such as 0.01, 1%% or 1 in 100")
	}
	bad := func() (float64, error) {
		return 0, fmt.Errorf("plan: p must be a rate such as 0.01, 1%% or 1 in 100, got %q", s)
	}
	var v float64
	if a, b, ok := cutRatio(s); ok {
		num, err1 := ParseDecimal(a)
		den, err2 := ParseDecimal(b)
		if err1 != nil || err2 != nil || !(den > 0) {
			return bad()
		}
		v = num / den
	} else {
		percent := strings.HasSuffix(s, "%")
		clean, err := cleanNumber(strings.TrimSpace(strings.TrimSuffix(s, "%")))
		if err != nil {
			return bad()
		}
		v, err = ParseDecimal(clean)
		if err != nil {
			return bad()
		}
		if percent {
			v /= 100
		}
	}
	switch {
	case v <= 0:
		return 0, fmt.Errorf("plan: p must be above 0 (a set that never errs is an exact set), got %q", s)
	case v < MinP:
		return 0, fmt.Errorf("plan: p must be at least %v (below it the optimal k passes %d, the most the lab's filters take), got %q", MinP, core.MaxK, s)
	case v >= 1:
		return 0, fmt.Errorf("plan: p must be below 1 (100%%), got %q", s)
	}
	return v, nil
}

// cutRatio splits "1 in 100" or "1/100" into its two numbers.
func cutRatio(s string) (string, string, bool) {
	for _, sep := range []string{" in ", "/"} {
		if a, b, ok := strings.Cut(strings.ToLower(s), sep); ok {
			a, _ = cleanNumber(strings.TrimSpace(a))
			b, _ = cleanNumber(strings.TrimSpace(b))
			return a, b, true
		}
	}
	return "", "", false
}

// ParseKeyBytes reads the length of one key in bytes, for the exact set's
// memory: a whole number in [1, MaxKeyBytes].
func ParseKeyBytes(s string) (int, error) {
	s = strings.TrimSpace(s)
	num, unit := splitNumber(s)
	switch strings.ToLower(unit) {
	case "", "b", "byte", "bytes":
	default:
		num = "x"
	}
	v, err := strconv.ParseUint(num, 10, 32)
	if err != nil || v < 1 || v > MaxKeyBytes {
		return 0, fmt.Errorf("plan: key bytes must be a whole number from 1 to %d, got %q", MaxKeyBytes, s)
	}
	return int(v), nil
}

// ParseAmount reads a non-negative finite number for the cost model's fields
// (a cost, or queries per second); name words the error.
func ParseAmount(name, s string) (float64, error) {
	s = strings.TrimSpace(s)
	clean, err := cleanNumber(s)
	v, err2 := ParseDecimal(clean)
	if s == "" || err != nil || err2 != nil || v < 0 || v > 1e15 {
		return 0, fmt.Errorf("plan: %s must be a number from 0 to 10^15, got %q", name, s)
	}
	return v, nil
}

// splitNumber cuts s after its leading number (digits, separators, a point,
// a sign and an exponent) and returns the number and the trimmed rest.
func splitNumber(s string) (num, unit string) {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	for i < len(s) {
		c := s[i]
		switch {
		case c >= '0' && c <= '9', c == '.', c == ',', c == '_':
			i++
			continue
		case (c == 'e' || c == 'E') && i > 0:
			j := i + 1
			if j < len(s) && (s[j] == '+' || s[j] == '-') {
				j++
			}
			if j < len(s) && s[j] >= '0' && s[j] <= '9' {
				i = j
				continue
			}
		}
		break
	}
	return s[:i], strings.TrimSpace(s[i:])
}

// cleanNumber drops thousands separators: underscores between digits, and
// commas only where they group the integer part by three, so that a decimal
// comma ("1,5") is refused rather than read as 15.
func cleanNumber(num string) (string, error) {
	intPart := num
	if i := strings.IndexAny(num, ".eE"); i >= 0 {
		intPart = num[:i]
		if strings.ContainsRune(num[i:], ',') {
			return "", fmt.Errorf("uses a comma after the decimal point")
		}
	}
	if strings.ContainsRune(intPart, ',') {
		groups := strings.Split(strings.TrimLeft(intPart, "+-"), ",")
		for i, g := range groups {
			if (i == 0 && (len(g) < 1 || len(g) > 3)) || (i > 0 && len(g) != 3) || !isDigits(g) {
				return "", fmt.Errorf("has a comma that does not separate thousands (use a point for decimals)")
			}
		}
	}
	out := strings.ReplaceAll(num, ",", "")
	if strings.Contains(out, "__") || strings.HasPrefix(out, "_") || strings.HasSuffix(out, "_") {
		return "", fmt.Errorf("has a misplaced underscore")
	}
	return strings.ReplaceAll(out, "_", ""), nil
}

// ParseDecimal reads a finite number written in decimal: an optional sign,
// digits with at most one point, and an optional exponent ("1.5", ".5",
// "1e-3"). strconv.ParseFloat also takes hexadecimal ("0x1p-4"),
// underscores after a base prefix, "Inf" and "NaN", none of which a person
// types for a rate or a size; every number a user gives goes through here.
func ParseDecimal(s string) (float64, error) {
	if !isDecimal(s) {
		return 0, fmt.Errorf("%q is not a decimal number", s)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a finite number", s)
	}
	return v, nil
}

// isDecimal reports whether s is [+-]digits[.digits][(e|E)[+-]digits], with
// digits on at least one side of the point.
func isDecimal(s string) bool {
	unsign := func(s string) string {
		if s != "" && (s[0] == '+' || s[0] == '-') {
			return s[1:]
		}
		return s
	}
	mant := unsign(s)
	if i := strings.IndexAny(mant, "eE"); i >= 0 {
		if !isDigits(unsign(mant[i+1:])) {
			return false
		}
		mant = mant[:i]
	}
	whole, frac, _ := strings.Cut(mant, ".")
	return (whole != "" || frac != "") && (whole == "" || isDigits(whole)) && (frac == "" || isDigits(frac))
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
