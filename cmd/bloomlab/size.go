//go:build !wasm

package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/plan"
)

// sizing is the size command's answer. The first fields (m n k bytes
// bitsPerKey fpr) are read by other tools and keep their names; the rest is
// the calculator's plan: k by round and by ceil, the information floor, the
// exact set, the blocked filter, the overfill line and the alternatives.
type sizing struct {
	plan.Plan
	Memory  string           `json:"memory"`
	Blocked blockedSummary   `json:"blocked"`
	Cost    *plan.CostResult `json:"cost,omitempty"`
}

// blockedSummary lifts the blocked filter's two rows out of the
// alternatives: its rate at the same m, and the m it needs for p.
type blockedSummary struct {
	KSameM          int     `json:"kSameM"`
	FPRSameM        float64 `json:"fprSameM"`
	MSameP          uint64  `json:"mSameP,omitempty"`
	BitsPerKeySameP float64 `json:"bitsPerKeySameP,omitempty"`
}

func runSize(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("size")
	f := sizeFlags{
		n:         fs.String("n", "", "keys to insert, in [1, 2^53] (100000000, 100,000,000 or 1e8)"),
		p:         fs.String("p", "", "target false-positive rate, in (0, 1) (0.01, 1% or '1 in 100')"),
		m:         fs.String("m", "", "bits in the filter, in [1, 2^63], or a size: 5000B, 1.5 KiB, 114.26 MiB, 1 GiB"),
		k:         fs.String("k", "", "hashes per key, in [1, 64] (default: the optimal k)"),
		keyBytes:  fs.String("key-bytes", "16", fmt.Sprintf("bytes per key, for the exact set's memory, in [1, %d]", plan.MaxKeyBytes)),
		maybeCost: fs.String("maybe-cost", "1", "cost model: what one \"maybe\" on an absent key costs (any unit: ms, cents)"),
		savedCost: fs.String("saved-cost", "1", "cost model: what one \"no\" saves (the lookup it avoids)"),
		absentQPS: fs.String("absent-qps", "", "cost model: absent keys queried per second (prints the cost model)"),
	}
	asJSON := fs.Bool("json", false, "print JSON")
	s, err := sizeFromFlags(fs, args, f)
	if err != nil {
		return fail("size", fs, err, stderr)
	}
	if *asJSON {
		writeJSON(stdout, s)
		return 0
	}
	writeSizing(stdout, s)
	return 0
}

type sizeFlags struct {
	n, p, m, k, keyBytes, maybeCost, savedCost, absentQPS *string
}

// flagError turns a plan parse error ("plan: m has unknown unit ...") into
// the flag's own wording ("--m has unknown unit ...").
func flagError(err error) error {
	return badFlag("--%s", strings.TrimPrefix(err.Error(), "plan: "))
}

func sizeFromFlags(fs *flag.FlagSet, args []string, f sizeFlags) (sizing, error) {
	if err := parse(fs, args); err != nil {
		return sizing{}, err
	}
	in := plan.Input{}
	var err error
	switch {
	case set(fs, "n") && set(fs, "m") && set(fs, "p"):
		return sizing{}, badFlag("give either --p (to size m) or --m (to get the rate), not both")
	case set(fs, "n") && set(fs, "p"):
		in.Find = plan.FindM
	case set(fs, "n") && set(fs, "m"):
		in.Find = plan.FindP
	case set(fs, "m") && set(fs, "p"):
		in.Find = plan.FindN
	case !set(fs, "n"):
		return sizing{}, badFlag("--n is required: give --n and --p, or --m, --n and --k (or --m and --p for the keys m holds)")
	default:
		return sizing{}, badFlag("give --p (to size m) or --m (to get the rate)")
	}
	if set(fs, "n") {
		if in.N, err = plan.ParseKeys(*f.n); err != nil {
			return sizing{}, badFlag("--n must be a whole number in [1, %d], got %q", uint64(plan.MaxN), *f.n)
		}
	}
	if set(fs, "p") {
		if in.P, err = plan.ParseRate(*f.p); err != nil {
			return sizing{}, badFlag("--p must be a rate in [%v, 1), such as 0.01, 1%% or 1 in 100, got %q", plan.MinP, *f.p)
		}
	}
	if set(fs, "m") {
		if in.M, err = plan.ParseBits(*f.m); err != nil {
			return sizing{}, flagError(err)
		}
	}
	if set(fs, "k") {
		v, err := wholeIn("k", *f.k, 1, core.MaxK)
		if err != nil {
			return sizing{}, err
		}
		in.K = int(v)
	}
	if in.KeyBytes, err = plan.ParseKeyBytes(*f.keyBytes); err != nil {
		return sizing{}, badFlag("--key-bytes must be a whole number from 1 to %d, got %q", plan.MaxKeyBytes, *f.keyBytes)
	}
	var withCost bool
	if set(fs, "absent-qps") {
		withCost = true
		for _, a := range []struct {
			name, flag string
			dst        *float64
		}{{"maybe-cost", *f.maybeCost, &in.Cost.Maybe}, {"saved-cost", *f.savedCost, &in.Cost.Saved}, {"absent-qps", *f.absentQPS, &in.Cost.AbsentQPS}} {
			if *a.dst, err = plan.ParseAmount(a.name, a.flag); err != nil {
				return sizing{}, flagError(err)
			}
		}
	}
	pl, err := plan.Solve(in)
	if err != nil {
		return sizing{}, badFlag("%s", strings.TrimPrefix(err.Error(), "plan: "))
	}
	s := sizing{Plan: pl, Memory: plan.FormatSize(pl.M)}
	if withCost {
		s.Cost = &pl.Cost
	}
	for _, a := range pl.Alternatives {
		switch a.ID {
		case "blocked-same-m":
			s.Blocked.FPRSameM, s.Blocked.KSameM = a.Rate, a.K
		case "blocked-same-p":
			s.Blocked.MSameP, s.Blocked.BitsPerKeySameP = a.Bits, a.BitsPerKey
		}
	}
	return s, nil
}

func writeSizing(w io.Writer, s sizing) {
	fmt.Fprintf(w, "m            %d bits (%d bytes)\n", s.M, s.Bytes)
	fmt.Fprintf(w, "n            %d keys\n", s.N)
	fmt.Fprintf(w, "k            %d hashes\n", s.K)
	fmt.Fprintf(w, "bits per key %.3f\n", s.BitsPerKey)
	fmt.Fprintf(w, "fpr          %.6f\n", s.Rate)
	fmt.Fprintf(w, "memory       %s\n", s.Memory)
	if s.Find != plan.FindP {
		fmt.Fprintf(w, "target p     %v\n", s.P)
	}
	verdict := "the same k"
	switch {
	case s.RateRound < s.RateCeil:
		verdict = "round is better"
	case s.RateRound > s.RateCeil:
		verdict = "ceil is better here"
	}
	fmt.Fprintf(w, "k by round   %d, fpr %.6f   ((m/n) ln 2 = %.3f)\n", s.KRound, s.RateRound, s.KStar)
	fmt.Fprintf(w, "k by ceil    %d, fpr %.6f   (%s)\n", s.KCeil, s.RateCeil, verdict)
	fmt.Fprintf(w, "info floor   %.3f bits per key; this filter spends %.2fx that\n", s.InfoFloor, s.Overhead)
	fmt.Fprintf(w, "exact set    %s for %d-byte keys (%.1fx the filter)\n", plan.FormatBytes(s.ExactSetBytes), s.KeyBytes, float64(s.ExactSetBytes)/float64(s.Bytes))
	fmt.Fprintf(w, "blocked      fpr %.6f at the same m (k = %d)", s.Blocked.FPRSameM, s.Blocked.KSameM)
	if s.Blocked.MSameP > 0 {
		fmt.Fprintf(w, "; %d bits (%.3f per key) to reach p = %.6g\n", s.Blocked.MSameP, s.Blocked.BitsPerKeySameP, s.P)
	} else {
		fmt.Fprintf(w, "; cannot reach p = %.6g within 64x the memory\n", s.P)
	}
	over := make([]string, len(s.Overfill))
	for i, o := range s.Overfill {
		over[i] = fmt.Sprintf("%vx n (%d keys): fpr %.6f", o.Factor, o.N, o.Rate)
	}
	fmt.Fprintf(w, "overfill     %s\n", strings.Join(over, ", "))
	if s.Cost != nil {
		c := s.Cost
		fmt.Fprintf(w, "cost         %.4g false positives/s cost %.4g/s; the \"no\" answers save %.4g/s; net %.4g/s (the filter pays while p < %.4g)\n",
			c.FalsePositives, c.Spent, c.SavedTotal, c.Net, c.BreakEven)
	}
	fmt.Fprintf(w, "\nthe same n and p in other structures (from theory alone; blocked: the exact mixture of block fills):\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "structure\tbits/key\tmemory\tfpr\tsource")
	for _, a := range s.Alternatives {
		if a.Unreachable {
			fmt.Fprintf(tw, "%s\t-\t-\t-\t%s\n", a.Name, a.Source)
			continue
		}
		fmt.Fprintf(tw, "%s\t%.3f\t%s\t%.6f\t%s\n", a.Name, a.BitsPerKey, plan.FormatSize(a.Bits), a.Rate, a.Source)
	}
	tw.Flush()
}
