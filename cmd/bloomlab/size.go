package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"

	"bloomlab/core"
)

func init() {
	commands["size"] = command{"size a filter: from n and p, or the rate of m, n and k", runSize}
}

// sizing is the size command's answer; the JSON names are read by other tools.
type sizing struct {
	M          uint64  `json:"m"`
	N          uint64  `json:"n"`
	K          int     `json:"k"`
	Bytes      uint64  `json:"bytes"`
	BitsPerKey float64 `json:"bitsPerKey"`
	FPR        float64 `json:"fpr"`
}

func runSize(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("size")
	n := fs.String("n", "", "keys to insert, in [1, 2^53]")
	p := fs.String("p", "", "target false-positive rate, in (0, 1)")
	m := fs.String("m", "", "bits in the filter, in [1, 2^63]")
	k := fs.String("k", "", "hashes per key, in [1, 64] (default: the optimal k)")
	asJSON := fs.Bool("json", false, "print JSON")
	s, err := sizeFromFlags(fs, args, n, p, m, k)
	if err != nil {
		return fail("size", fs, err, stderr)
	}
	if *asJSON {
		writeJSON(stdout, s)
		return 0
	}
	fmt.Fprintf(stdout, "m            %d bits (%d bytes)\n", s.M, s.Bytes)
	fmt.Fprintf(stdout, "n            %d keys\n", s.N)
	fmt.Fprintf(stdout, "k            %d hashes\n", s.K)
	fmt.Fprintf(stdout, "bits per key %.3f\n", s.BitsPerKey)
	fmt.Fprintf(stdout, "fpr          %.6f\n", s.FPR)
	return 0
}

// maxN keeps n exactly representable in the float64 sizing math.
const maxN = 1 << 53

func sizeFromFlags(fs *flag.FlagSet, args []string, nFlag, pFlag, mFlag, kFlag *string) (sizing, error) {
	if err := parse(fs, args); err != nil {
		return sizing{}, err
	}
	if !set(fs, "n") {
		return sizing{}, badFlag("--n is required: give -n and -p, or -m, -n and -k")
	}
	n, err := wholeIn("n", *nFlag, 1, maxN)
	if err != nil {
		return sizing{}, err
	}
	var m uint64
	switch {
	case set(fs, "m") && set(fs, "p"):
		return sizing{}, badFlag("give either -p (to size m) or -m (to get the rate), not both")
	case set(fs, "p"):
		p, err := strconv.ParseFloat(*pFlag, 64)
		if err != nil || !(p > 0 && p < 1) {
			return sizing{}, badFlag("--p must be a number in (0, 1), got %q", *pFlag)
		}
		if m, err = core.BitsFor(n, p); err != nil {
			return sizing{}, badFlag("%v", err)
		}
	case set(fs, "m"):
		if m, err = wholeIn("m", *mFlag, 1, math.MaxInt64); err != nil {
			return sizing{}, err
		}
	default:
		return sizing{}, badFlag("give -p (to size m) or -m (to get the rate)")
	}
	k := core.OptimalK(m, n)
	if set(fs, "k") {
		v, err := wholeIn("k", *kFlag, 1, core.MaxK)
		if err != nil {
			return sizing{}, err
		}
		k = int(v)
	}
	return sizing{M: m, N: n, K: k, Bytes: (m + 7) / 8, BitsPerKey: float64(m) / float64(n),
		FPR: core.Rate(m, n, k)}, nil
}
