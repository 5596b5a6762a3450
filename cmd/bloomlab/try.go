//go:build !wasm

package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"bloomlab/core"
)

// runTry is the key panel on the command line: the lab's filter (the
// simulate flags' generated keys), then --insert's keys, then --query's
// answered one by one.
//
// Keys are separated by commas. A comma inside a key is written \, and a
// backslash \\ (any other backslash stands for itself); keys are printed
// the same way, so a printed key can be pasted back.
func runTry(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("try")
	params := filterFlags(fs)
	insert := fs.String("insert", "", `keys to insert after the generated ones, comma-separated (\, for a comma in a key, \\ for a backslash)`)
	query := fs.String("query", "", `keys to query, comma-separated (\, for a comma in a key, \\ for a backslash)`)
	explain := fs.Bool("explain", false, "show each typed key's arithmetic: its SipHash-2-4 halves h1 and h2 and every probe's value and reduction to a position")
	findFP := fs.Bool("find-fp", false, fmt.Sprintf("also try the %d built-in common English words in order and show the first false positive", len(core.CommonWords())))
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return fail("try", fs, err, stderr)
	}
	p, err := params("0", "0")
	if err != nil {
		return fail("try", fs, err, stderr)
	}
	req := core.TryRequest{Params: p, Insert: core.SplitTryKeys(*insert), Query: core.SplitTryKeys(*query), Explain: *explain}
	for _, list := range []struct {
		flag string
		keys []string
	}{{"--insert", req.Insert}, {"--query", req.Query}} {
		if len(list.keys) > core.MaxTryKeys {
			return fail("try", fs, badFlag("%s: %d keys, at most %d", list.flag, len(list.keys), core.MaxTryKeys), stderr)
		}
		if err := core.CheckTryKeys(list.flag, list.keys); err != nil {
			return fail("try", fs, badFlag("%s", core.Message(err)), stderr)
		}
	}

	pr := newProgress(ctx, "try", stderr)
	out := tryOutput{}
	out.TryResult, err = core.Try(req, pr.step)
	if err == nil && *findFP {
		// Ctrl-C's error is caught by finish below; any other error is
		// the search's answer: no word is a false positive.
		pr.stage("trying common words")
		q, tried, ferr := core.FindFalsePositive(req, pr.step)
		out.FindFalsePositive = &findFalsePositive{Query: &q, Tried: tried}
		if ferr != nil {
			out.FindFalsePositive.Query, out.FindFalsePositive.None = nil, core.Message(ferr)
		}
	}
	if pr.finish() {
		return statusInterrupted
	}
	if err != nil {
		return fail("try", fs, badFlag("%v", err), stderr)
	}
	if *asJSON {
		writeJSON(stdout, out)
		return 0
	}
	writeTry(stdout, out)
	return 0
}

// tryOutput is core.TryResult, with --find-fp's search when asked: without
// it the JSON is core.TryResult's own.
type tryOutput struct {
	core.TryResult
	FindFalsePositive *findFalsePositive `json:"findFalsePositive,omitempty"`
}

// findFalsePositive is --find-fp's answer: the false positive and the
// words tried to find it, or why there is none.
type findFalsePositive struct {
	Query *core.TryQuery `json:"query,omitempty"`
	Tried int            `json:"tried"`
	None  string         `json:"none,omitempty"`
}

func writeTry(w io.Writer, out tryOutput) {
	r := out.TryResult
	unit := r.Unit
	fmt.Fprintf(w, "%-20s %s (fault: %s): %d %ss", "filter", r.Variant, r.Fault, r.M, unit)
	if r.Variant.UsesK() {
		fmt.Fprintf(w, ", k = %d", r.K)
	}
	fmt.Fprintf(w, "\n%-20s %d generated keys, then %d typed\n", "holds", r.N, len(r.Inserts))
	if r.BuildError != "" {
		fmt.Fprintf(w, "%-20s FAILED: %s; the filter answers maybe for every key\n", "construction", r.BuildError)
	}
	for _, in := range r.Inserts {
		writeInsert(w, r, in)
	}
	for _, q := range r.Queries {
		writeQuery(w, r, q)
	}
	if f := out.FindFalsePositive; f != nil {
		if f.Query == nil {
			fmt.Fprintf(w, "\n%-20s none: %s\n", "false positive", f.None)
			return
		}
		fmt.Fprintf(w, "\n%-20s %s, word %d of the common words tried in order\n", "false positive", core.JoinTryKeys([]string{f.Query.Key}), f.Tried)
		writeQuery(w, r, *f.Query)
	}
}

func writeInsert(w io.Writer, r core.TryResult, in core.TryInsert) {
	fmt.Fprintf(w, "\ninsert %s", core.JoinTryKeys([]string{in.Key}))
	if in.Block != nil {
		fmt.Fprintf(w, " (block %d)", *in.Block)
	}
	fmt.Fprintln(w)
	fresh := 0
	for i, j := range in.Positions {
		state := ""
		switch {
		case in.Lost != nil && in.Lost[i]:
			state = "lost: past the filter's storage, the write went nowhere"
		case in.New == nil:
		case in.New[i]:
			state = "new"
			fresh++
		case r.Variant.Bloom():
			state = "already on"
		}
		if in.Counters != nil {
			state += fmt.Sprintf(", now %d", in.Counters[i])
		}
		line := fmt.Sprintf("  probe %-2d %s %-10d %s", i+1, r.Unit, j, strings.TrimPrefix(state, ", "))
		fmt.Fprintln(w, strings.TrimRight(line, " "))
	}
	switch {
	case in.New == nil:
		fmt.Fprintf(w, "  a static filter: its %ss are solved once from every key, none is any one key's\n", r.Unit)
	case r.Variant.Bloom():
		fmt.Fprintf(w, "  %d of %d %ss new\n", fresh, len(in.Positions), r.Unit)
	}
	writeExplain(w, r, in.Explain)
}

// writeExplain prints a key's arithmetic: every number in hex and in
// decimal, so it can be checked by hand or with any SipHash.
func writeExplain(w io.Writer, r core.TryResult, e *core.Explanation) {
	if e == nil {
		if r.Fault != core.NoFault {
			fmt.Fprintf(w, "  arithmetic: the fault %s computes positions its own broken way; --explain shows the real filters'\n", r.Fault)
		}
		return
	}
	num := func(v uint64) string { return fmt.Sprintf("%#x (%d)", v, v) }
	fmt.Fprintf(w, "  arithmetic, %s: %s\n", e.Scheme, e.Formula)
	fmt.Fprintf(w, "    key bytes    %s\n", e.KeyHex)
	fmt.Fprintf(w, "    SipHash key  k0 = %s, k1 = %s\n", num(e.K0), num(e.K1))
	fmt.Fprintf(w, "    SipHash-2-4  h1 = %s\n", num(e.H1))
	fmt.Fprintf(w, "                 h2 = %s\n", num(e.H2))
	fmt.Fprintf(w, "    m = %d\n", e.M)
	switch {
	case e.Blocked != nil:
		b := e.Blocked
		fmt.Fprintf(w, "    block = floor(h1 * %d / 2^64) = %d, its first bit %d\n", b.Blocks, b.Block, b.Base)
		for _, s := range e.Steps {
			fmt.Fprintf(w, "    probe %-2d g = %s, bits %d..%d = %d -> bit %d\n", s.I+1, num(s.G), s.Shift, s.Shift+8, s.Position-b.Base, s.Position)
		}
	case e.Cuckoo != nil:
		c := e.Cuckoo
		fmt.Fprintf(w, "    fingerprint = 1 + floor(h2 * (2^%d - 1) / 2^64) = %s\n", c.FingerprintBits, num(c.Fingerprint))
		fmt.Fprintf(w, "    bucket i1 = floor(h1 * %d / 2^64) = %d\n", c.Buckets, c.Bucket1)
		fmt.Fprintf(w, "    bucket i2 = g(fp) - i1 mod %d = %d - %d mod %d = %d\n", c.Buckets, c.G, c.Bucket1, c.Buckets, c.Bucket2)
		fmt.Fprintf(w, "    slots %d..%d and %d..%d\n", 4*c.Bucket1, 4*c.Bucket1+3, 4*c.Bucket2, 4*c.Bucket2+3)
	case e.Fuse != nil:
		f := e.Fuse
		fmt.Fprintf(w, "    x = splitmix(h1 + %s) = %s\n", num(f.ConstructionSeed), num(f.X))
		fmt.Fprintf(w, "    fingerprint = (x xor x >> 32) mod 2^%d = %s\n", f.FingerprintBits, num(f.Fingerprint))
		fmt.Fprintf(w, "    %d segments of L = %d cells\n", f.Segments, f.SegmentLength)
		for _, s := range e.Steps {
			fmt.Fprintf(w, "    cell %d = %d\n", s.I, s.Position)
		}
	case e.Scheme == string(core.EnhancedDoubleHashing):
		for _, s := range e.Steps {
			fmt.Fprintf(w, "    probe %-2d a = %d, b = %d -> %d\n", s.I+1, s.A, s.B, s.Position)
		}
	default:
		for _, s := range e.Steps {
			fmt.Fprintf(w, "    probe %-2d i = %d: g = %s -> floor(g * %d / 2^64) = %d\n", s.I+1, s.I, num(s.G), e.M, s.Position)
		}
	}
}

func writeQuery(w io.Writer, r core.TryResult, q core.TryQuery) {
	fmt.Fprintf(w, "\nquery %s: ", core.JoinTryKeys([]string{q.Key}))
	switch q.Verdict {
	case core.VerdictNo:
		if q.FirstZero > 0 {
			fmt.Fprintf(w, "no: probe %d reads a zero\n", q.FirstZero)
		} else {
			fmt.Fprintf(w, "no: its fingerprint is not where it would be\n")
		}
	case core.VerdictMember:
		fmt.Fprintf(w, "maybe, and it is a member (%s)\n", q.Member)
	case core.VerdictFalseNegative:
		fmt.Fprintf(w, "no, yet it is a member (%s): a false negative, which a working filter never gives\n", q.Member)
	case core.VerdictFalsePositive:
		fmt.Fprintf(w, "maybe, but it was never inserted: a false positive\n")
	}
	if q.Fingerprint != nil {
		fmt.Fprintf(w, "  fingerprint %#x\n", *q.Fingerprint)
	}
	blame := map[uint64]core.TryCulprit{}
	for _, c := range q.Culprits {
		blame[c.Position] = c
	}
	for i, p := range q.Probes {
		var state string
		switch {
		case p.Counter != nil:
			state = fmt.Sprintf("= %d", *p.Counter)
		case p.Value != nil && (p.Set || r.Unit != "slot"):
			state = fmt.Sprintf("holds %#x", *p.Value)
		case p.Value != nil:
			state = "empty"
		case p.Set:
			state = "on"
		default:
			state = "off"
		}
		if i+1 == q.FirstZero {
			state += "  <- the first zero: the answer is no"
		}
		if c, ok := blame[p.Position]; ok {
			state += "  " + culpritWords(r, c)
			delete(blame, p.Position) // a position probed twice is explained once
		}
		fmt.Fprintf(w, "  probe %-2d %s %-10d %s\n", i+1, r.Unit, p.Position, state)
	}
	writeExplain(w, r, q.Explain)
}

// culpritWords names the keys to blame for one position.
func culpritWords(r core.TryResult, c core.TryCulprit) string {
	var names []string
	for _, k := range c.Typed {
		names = append(names, core.JoinTryKeys([]string{k}))
	}
	for _, g := range c.Generated {
		names = append(names, fmt.Sprintf("member #%d (%s)", g.Index, g.Hex))
	}
	if c.More > 0 {
		names = append(names, fmt.Sprintf("%d more members", c.More))
	}
	list := "no key"
	if len(names) > 0 {
		list = strings.Join(names, ", ")
	}
	switch {
	case r.Variant.Bloom():
		return "set by " + list
	case r.Unit == "slot":
		return "matches: stored by one of " + list
	}
	return "solved from " + list
}
