package app

import (
	"fmt"
	"math"
	"strconv"
)

// formatRate writes a rate the way the lab shows it: six decimals in the
// usual range, scientific notation for tiny rates, 0 for zero.
func formatRate(p float64) string {
	switch {
	case p == 0:
		return "0"
	case p >= 0.001:
		s := strconv.FormatFloat(p, 'f', 6, 64)
		for len(s) > 3 && s[len(s)-1] == '0' && s[len(s)-2] != '.' {
			s = s[:len(s)-1]
		}
		return s
	}
	return strconv.FormatFloat(p, 'e', 1, 64)
}

// formatPercent writes a rate as a percentage with three significant digits.
func formatPercent(p float64) string {
	if p == 0 {
		return "0%"
	}
	return strconv.FormatFloat(p*100, 'g', 3, 64) + "%"
}

// formatInt writes an integer with comma thousands separators.
func formatInt(n uint64) string {
	s := strconv.FormatUint(n, 10)
	if len(s) <= 3 {
		return s
	}
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

// formatBytes writes a byte count in B, KiB, MiB or GiB.
func formatBytes(n uint64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	v := float64(n)
	i := 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	if i == 0 {
		return fmt.Sprintf("%d B", n)
	}
	return strconv.FormatFloat(v, 'f', 2-int(math.Min(2, math.Floor(math.Log10(v)))), 64) + " " + units[i]
}

// formatFloat writes v with d decimals.
func formatFloat(v float64, d int) string { return strconv.FormatFloat(v, 'f', d, 64) }
