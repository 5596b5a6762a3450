//go:build !wasm

package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/bloomlab/bloomlab/core/keys"
	"github.com/bloomlab/bloomlab/core/sim"

	"github.com/bloomlab/bloomlab/core"
)

func runSimulate(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("simulate")
	params := filterFlags(fs)
	queries := fs.String("queries", "5000", fmt.Sprintf("queries, in [0, %d]", core.MaxQueries))
	present := fs.String("present-share", "10", "percent of queries that are members, in [0, 100]")
	keysFile := fs.String("keys", "", "build the filter from this file's keys, one a line, - for standard input (replaces --items)")
	absentFile := fs.String("absent", "", "with --keys: measure the rate on this file's keys, one a line, - for standard input")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return fail("simulate", fs, err, stderr)
	}
	p, err := params(*queries, *present)
	if err != nil {
		return fail("simulate", fs, err, stderr)
	}
	if *absentFile != "" && *keysFile == "" {
		return fail("simulate", fs, badFlag("--absent needs --keys: the absent keys are measured against a filter of your keys"), stderr)
	}
	if *keysFile == "-" && *absentFile == "-" {
		return fail("simulate", fs, badFlag("--keys and --absent cannot both be - (standard input): give one of them a file"), stderr)
	}
	if *keysFile != "" {
		return simulateOwnKeys(ctx, p, *keysFile, *absentFile, *asJSON, stdout, stderr)
	}
	pr := newProgress(ctx, "simulate", stderr)
	r, err := sim.RunSteps(p, pr.step)
	if pr.finish() {
		return statusInterrupted
	}
	if err != nil {
		return fail("simulate", fs, badFlag("%v", err), stderr)
	}
	if *asJSON {
		writeJSON(stdout, r)
		return 0
	}
	writeResult(stdout, r)
	return 0
}

// filterFlags defines the flags that describe the lab's filter, which
// simulate and try share, and returns what reads them into Params once
// they are parsed, with the queries and present share given.
func filterFlags(fs *flag.FlagSet) func(queries, present string) (sim.Params, error) {
	d := sim.Defaults()
	bpk := fs.String("bits-per-key", "10", fmt.Sprintf("bits per key, in [%v, %v]", core.MinBitsPerKey, core.MaxBitsPerKey))
	hashes := fs.String("hashes", "7", fmt.Sprintf("hashes per key, in [1, %d], or 0 for the optimal k", core.MaxK))
	items := fs.String("items", "4000", fmt.Sprintf("keys inserted, in [1, %d]", core.MaxItems))
	keyBytes := fs.String("key-bytes", "16", fmt.Sprintf("bytes per generated key, in [%d, %d]", core.MinKeyBytes, core.MaxKeyBytes))
	passes := fs.String("duplicate-passes", "1", fmt.Sprintf("times every key is inserted, in [1, %d]", core.MaxPasses))
	seed := fs.String("seed", "1", "seed, a whole number in [0, 2^64-1]")
	variant := fs.String("variant", d.Variant.Name(), core.VariantNames()+"; "+core.ScalableVariant.Sizes())
	fingerprints := fs.String("fingerprint-bits", "0", fingerprintHelp())
	fault := fs.String("fault", string(d.Fault), "none, or a fault from 'bloomlab audit --faults'")
	hashing := fs.String("hashing", string(core.DoubleHashing), "how the standard and counting filters find a key's positions: double, enhanced or independent")
	m := fs.String("m", "0", fmt.Sprintf("the filter's positions, in [1, %d], in place of bits per key x items (the lab's player keeps m while it inserts); 0 for that product", uint64(core.MaxM)))
	return func(queries, present string) (sim.Params, error) {
		return paramsFromFlags(simFlags{*bpk, *hashes, *items, queries, present, *keyBytes, *passes, *seed, *variant, *fault, *hashing, *fingerprints, *m})
	}
}

// fingerprintHelp is --fingerprint-bits' help, from the registry: "the
// fingerprint width of the cuckoo (8, 12 or 16) and fuse (1 to 32)
// filters, 0 for the layout's choice".
func fingerprintHelp() string {
	var with []string
	for _, v := range core.Variants {
		if v.Fingerprints() != nil {
			with = append(with, v.Name()+" ("+v.FingerprintWidths("or")+")")
		}
	}
	last := len(with) - 1
	return "fingerprint width of the " + strings.Join(with[:last], ", ") + " and " + with[last] + " filters, 0 for the layout's choice"
}

// simFlags are the simulate command's flag values, as typed.
type simFlags struct {
	bitsPerKey, hashes, items, queries, present, keyBytes, passes, seed, variant, fault, hashing, fingerprints, m string
}

func paramsFromFlags(f simFlags) (sim.Params, error) {
	var p sim.Params
	var err error
	whole := func(name, s string, lo, hi uint64) int {
		if err != nil {
			return 0
		}
		var v uint64
		v, err = wholeIn(name, s, lo, hi)
		return int(v)
	}
	if p.BitsPerKey, err = floatIn("bits-per-key", f.bitsPerKey, core.MinBitsPerKey, core.MaxBitsPerKey); err != nil {
		return p, err
	}
	p.Hashes = whole("hashes", f.hashes, 0, core.MaxK)
	p.Items = whole("items", f.items, 1, core.MaxItems)
	p.Queries = whole("queries", f.queries, 0, core.MaxQueries)
	p.PresentShare = whole("present-share", f.present, 0, 100)
	p.KeyBytes = whole("key-bytes", f.keyBytes, core.MinKeyBytes, core.MaxKeyBytes)
	p.DuplicatePasses = whole("duplicate-passes", f.passes, 1, core.MaxPasses)
	p.FingerprintBits = whole("fingerprint-bits", f.fingerprints, 0, 64)
	if f.m != "" {
		p.M = uint64(whole("m", f.m, 0, core.MaxM))
	}
	if err != nil {
		return p, err
	}
	if p.Seed, err = strconv.ParseUint(f.seed, 10, 64); err != nil {
		return p, badFlag("--seed must be a whole number in [0, 18446744073709551615], got %q", f.seed)
	}
	v, err := core.ParseVariant(f.variant)
	if err != nil {
		return p, badFlag("--variant must be %s, got %q", core.VariantNames(), f.variant)
	}
	fault, err := core.ParseFault(f.fault)
	if err != nil {
		return p, badFlag("--fault: %v", err)
	}
	h, err := core.ParseHashing(f.hashing)
	if err != nil {
		return p, badFlag("--hashing must be double, enhanced or independent, got %q", f.hashing)
	}
	p.Variant, p.Fault, p.Hashing = v, fault, h
	if err := v.Effective(fault).CheckFingerprintBits(p.FingerprintBits); err != nil {
		return p, badFlag("--fingerprint-bits: %s", core.Message(err))
	}
	return p, nil
}

// simulateOwnKeys builds the filter from the keys in keysFile and measures
// it on the keys in absentFile (none if empty).
func simulateOwnKeys(ctx context.Context, p sim.Params, keysFile, absentFile string, asJSON bool, stdout, stderr io.Writer) int {
	pr := newProgress(ctx, "simulate", stderr)
	// An error may be Ctrl-C's: then it is the interrupted line instead.
	failed := func(format string, args ...any) int {
		if pr.finish() {
			return statusInterrupted
		}
		fmt.Fprintf(stderr, "bloomlab simulate: %s\n", userMessage(fmt.Errorf(format, args...)))
		return 1
	}
	members, err := readKeyFile(pr, keysFile)
	if err != nil {
		return failed("--keys %v", err)
	}
	var absent keys.List
	if absentFile != "" {
		if absent, err = readKeyFile(pr, absentFile); err != nil {
			return failed("--absent %v", err)
		}
	}
	pr.stage("")
	r, err := sim.RunKeyLists(p, members, absent, pr.step)
	if err != nil {
		return failed("%v", err)
	}
	if pr.finish() {
		return statusInterrupted
	}
	if asJSON {
		writeJSON(stdout, r)
		return 0
	}
	writeResult(stdout, r.Result)
	fmt.Fprintf(stdout, "%-20s %d lines, %d duplicates not counted twice\n", "keys file", members.Lines, members.Duplicates)
	if absentFile != "" {
		fmt.Fprintf(stdout, "%-20s %d lines, %d duplicates, %d members left out of the rate\n", "absent file",
			absent.Lines, absent.Duplicates, r.AbsentMembers)
	}
	return 0
}

// readKeyFile reads the keys in file name, or standard input for "-".
func readKeyFile(pr *progress, name string) (keys.List, error) {
	f, label := os.Stdin, "standard input"
	if name != "-" {
		var err error
		if f, err = os.Open(name); err != nil {
			return keys.List{}, err
		}
		defer f.Close()
		label = name
	}
	base := filepath.Base(label)
	list, err := keys.ReadSteps(pr.reader(f, "reading "+base), sim.DefaultKeyLimits, pr.stageStep("deduplicating "+base))
	if err != nil {
		return list, fmt.Errorf("%s: %w", label, err)
	}
	return list, nil
}

// writeChain writes a scalable filter's links, its bound and why it
// stopped growing, if it did.
func writeChain(row func(name, format string, args ...any), chain core.Linked) {
	for i, l := range chain.Chain() {
		row(fmt.Sprintf("link %d", i), "%d bits from bit %d, k = %d, %d of %d keys (%.3f bits per key), rate %.6f at capacity",
			l.M, l.Start, l.K, l.N, l.Capacity, float64(l.M)/float64(l.Capacity), l.Rate)
	}
	if held := chain.Keys(); held > 0 {
		row("keys held", "%d: a key the chain already says maybe to is not inserted (as in Redis), so duplicates and false positives take no room", held)
	}
	row("rate bound", "%.6f = p0/(1 - r), p0 = %.6f, r = %v: the chain's rate stays below it however far it grows",
		chain.Bound(), chain.Target(), core.ScalableTightening)
	if chain.Limit() != "" {
		row("", "NOTICE: the chain stopped growing (%s); %d keys went into its last link past capacity", chain.Limit(), chain.PastCapacity())
	}
}

func writeResult(w io.Writer, r sim.Result) {
	row := func(name, format string, args ...any) {
		fmt.Fprintf(w, "%-20s %s\n", name, fmt.Sprintf(format, args...))
	}
	row("variant", "%s (fault: %s)", r.Variant, r.Fault)
	row("m", "%d %ss", r.M, r.Variant.Unit())
	row("n", "%d keys", r.N)
	if r.Variant.UsesK() {
		row("k", "%d hashes", r.K)
		row("bits per key", "%.3f", r.BitsPerKey)
	}
	if r.FingerprintBits > 0 {
		row("fingerprint bits", "%d", r.FingerprintBits)
	}
	row("memory", "%d bytes, %.3f bits per key", r.FilterBytes, r.MemoryBitsPerKey)
	row("set "+r.Variant.Unit()+"s", "%d (expected %.1f)", r.SetBits, r.ExpectedSetBits)
	row("occupancy", "%.4f", r.Occupancy)
	switch {
	case r.Variant.Chain():
		row("hashing", "double hashing in each link, under a seed of its own: one SipHash a link")
	case r.Variant.UsesK():
		row("hashing", "%s", r.Hashing.Describe())
	}
	if r.Variant.Bloom() {
		row("theory fpr", "%.6f (exact m: %.6f)", r.TheoryFPR, r.TheoryFPRExact)
	}
	if !r.Variant.Bloom() || r.TheoryFPRVariant != r.TheoryFPRExact {
		row(r.Variant.Name()+" theory fpr", "%.6f", r.TheoryFPRVariant)
	}
	if r.Variant.Deletes() && r.Load > 0 {
		row("load", "%.4f of slots, %d relocations", r.Load, r.Relocations)
	}
	if r.InsertFailures > 0 {
		row("insert failures", "%d: the table is too full for these keys", r.InsertFailures)
	}
	if chain, ok := r.Filter.(core.Linked); ok {
		writeChain(row, chain)
	}
	if r.Variant.Static() {
		row("construction", "%d failed attempts before the one that built it", r.BuildRetries)
	}
	if r.BuildError != "" {
		row("", "FAILED: %s; the filter answers maybe for every key", r.BuildError)
	}
	row("empirical fpr", "%.6f, 95%% [%.6f, %.6f] for the queries alone", r.EmpiricalFPR, r.QueryCILow, r.QueryCIHigh)
	if r.Variant.Chain() {
		row("", "the theory reads this chain's own bits, so the queries are the measurement's only noise")
	} else {
		row("", "95%% [%.6f, %.6f] for the whole measurement (the filter is one draw too)", r.WholeCILow, r.WholeCIHigh)
	}
	row("false positives", "%d of %d absent queries", r.FalsePositives, r.AbsentQueries)
	row("false negatives", "%d of %d present queries", r.FalseNegatives, r.PresentQueries)
	switch {
	case r.FalseNegatives > 0 && r.InsertFailures > 0:
		row("", "the members whose inserts failed are not in the filter: it is full, not broken")
	case r.FalseNegatives > 0:
		row("", "BROKEN: a filter must never miss a member it holds")
	}
	row("probes per negative", "%.3f (expected %.3f)", r.ProbesPerNegative, r.ExpectedProbes)
	row("exact set bytes", "%d (estimated Go map)", r.ExactSetBytes)
	row("digest", "%s", r.Digest)
}
