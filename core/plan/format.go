package plan

import (
	"math"
	"strconv"
)

// FormatSize writes m bits as bytes in binary units, two decimals from KiB
// up: 958505838 bits is "114.26 MiB", 40000 bits "4.88 KiB", 80 bits "10 B".
// A size that is not whole bytes rounds up to the next byte below 1 KiB.
func FormatSize(bits uint64) string {
	if bits < 8*1024 {
		return strconv.FormatUint((bits+7)/8, 10) + " B"
	}
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	v := float64(bits) / 8 / 1024
	i := 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	return formatFixed(v, 2) + " " + units[i]
}

// FormatBytes writes a byte count the way FormatSize does.
func FormatBytes(b uint64) string {
	if b > math.MaxUint64/8 {
		return FormatSize(math.MaxUint64)
	}
	return FormatSize(b * 8)
}

func formatFixed(v float64, d int) string { return strconv.FormatFloat(v, 'f', d, 64) }
