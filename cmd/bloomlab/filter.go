//go:build !wasm

package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/bloomlab/bloomlab/core"
)

// filterUsage is the filter command's usage, printed for -h.
const filterUsage = `usage: bloomlab filter build [flags] --out FILE [KEYFILE]   a filter of the keys in KEYFILE (or standard input), saved
       bloomlab filter test FILE [KEYFILE]                   each key's answer; exit 0 if all were maybe, 1 if not
       bloomlab filter merge A B --out FILE                  the union of two filters of one shape
       bloomlab filter intersect A B --out FILE              their intersection
       bloomlab filter info FILE                             layout, shape, fill, keys inserted and estimated, rate
Every error is one line and exit status 2. Files are in the format of FORMAT.md.`

// runFilter is a filter as a tool: built, saved, asked, merged and
// described, with the operations of core and its file format.
func runFilter(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintln(stderr, filterUsage)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	run := map[string]func([]string, io.Writer) (int, error){
		"build": filterBuild, "test": filterTest, "info": filterInfo,
		"merge":     func(a []string, w io.Writer) (int, error) { return filterMerge(a, w, false) },
		"intersect": func(a []string, w io.Writer) (int, error) { return filterMerge(a, w, true) },
	}[args[0]]
	if run == nil {
		fmt.Fprintf(stderr, "bloomlab filter: unknown command %q; want build, test, merge, intersect or info\n", args[0])
		return 2
	}
	status, err := run(args[1:], stdout)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(stderr, filterUsage)
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "bloomlab filter %s: %s\n", args[0], userMessage(err))
		return 2
	}
	return status
}

// filterArgs parses args on fs, flags and file names in any order, and
// checks the count of names: at least lo, at most hi.
func filterArgs(fs *flag.FlagSet, args []string, lo, hi int, what string) ([]string, error) {
	var names []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, errors.New(flagMessage(fs, err.Error()))
		}
		if fs.NArg() == 0 {
			break
		}
		names, args = append(names, fs.Arg(0)), fs.Args()[1:]
	}
	if n := len(names); n < lo || n > hi {
		return nil, fmt.Errorf("want %s, got %d names", what, n)
	}
	return names, nil
}

func filterBuild(args []string, stdout io.Writer) (int, error) {
	fs := newFlags("filter build")
	out := fs.String("out", "", "the file to write (required)")
	m := fs.String("m", "0", fmt.Sprintf("the filter's positions, in [1, %d]; 0 for --bits-per-key times the keys, or --n and --p", uint64(core.MaxM)))
	bpk := fs.String("bits-per-key", "10", fmt.Sprintf("bits per key, in [%v, %v], when m is not given", core.MinBitsPerKey, core.MaxBitsPerKey))
	hashes := fs.String("hashes", "0", fmt.Sprintf("hashes per key, in [1, %d], or 0 for the optimal k", core.MaxK))
	n := fs.String("n", "0", "the keys the filter is sized for, with --p (0: sized by --m or --bits-per-key)")
	p := fs.String("p", "0", "the false positive rate the filter is sized for, with --n")
	variant := fs.String("variant", core.Standard.Name(), "the layout: "+core.SavedVariantNames())
	hashing := fs.String("hashing", string(core.DoubleHashing), "how the standard and counting filters find a key's positions: double, enhanced or independent")
	seed := fs.String("seed", "1", "seed, a whole number in [0, 2^64-1]")
	names, err := filterArgs(fs, args, 0, 1, "at most one key file")
	if err != nil {
		return 0, err
	}
	if *out == "" {
		return 0, errors.New("--out FILE is required")
	}
	s, v, perKey, err := buildSpec(fs, *m, *bpk, *hashes, *n, *p, *variant, *hashing, *seed)
	if err != nil {
		return 0, err
	}
	list, err := readKeyFile(newProgress(context.Background(), "filter build", io.Discard), append(names, "-")[0])
	if err != nil {
		return 0, err
	}
	if s.M == 0 {
		s.M = uint64(math.Ceil(float64(list.Len()) * perKey))
	}
	if s.K == 0 {
		s.K = core.OptimalK(s.M, uint64(list.Len()))
	}
	f, err := v.Build(s)
	if err != nil {
		return 0, err
	}
	for i := range list.Len() {
		f.Add(list.Key(i))
	}
	if err := saveFile(*out, f); err != nil {
		return 0, err
	}
	fmt.Fprintf(stdout, "%s: a %s filter of %d keys, m = %d, k = %d, seed %d, %d bytes\n",
		*out, v, list.Len(), f.M(), f.K(), s.Seed, core.FileBytes(f))
	return 0, nil
}

// buildSpec is the shape the build flags ask for, and the bits per key;
// M is 0 where the keys' count and the bits per key decide it, K 0 where
// the optimum does.
func buildSpec(fs *flag.FlagSet, m, bpk, hashes, n, p, variant, hashing, seed string) (s core.Spec, v core.Variant, perKey float64, err error) {
	if v, err = core.ParseVariant(variant); err != nil {
		return
	}
	if !v.Saves() {
		err = fmt.Errorf("--variant: the %s filter has no file format; the %s filters have", v, core.SavedVariantNames())
		return
	}
	if s.Hashing, err = core.ParseHashing(hashing); err != nil {
		return
	}
	if s.Seed, err = wholeIn("seed", seed, 0, math.MaxUint64); err != nil {
		return
	}
	k, err := wholeIn("hashes", hashes, 0, core.MaxK)
	if err != nil {
		return
	}
	s.K = int(k)
	if s.M, err = wholeIn("m", m, 0, core.MaxM); err != nil {
		return
	}
	if perKey, err = floatIn("bits-per-key", bpk, core.MinBitsPerKey, core.MaxBitsPerKey); err != nil {
		return
	}
	if !set(fs, "n") && !set(fs, "p") {
		return
	}
	if s.M != 0 || set(fs, "bits-per-key") {
		err = errors.New("size the filter by --n and --p, or by --m or --bits-per-key, not both")
		return
	}
	keys, err := wholeIn("n", n, 1, core.MaxItems)
	if err != nil {
		return
	}
	rate, err := floatIn("p", p, 1e-12, 0.5)
	if err != nil {
		return
	}
	if s.M, err = core.BitsFor(keys, rate); err == nil && s.K == 0 {
		s.K = core.OptimalK(s.M, keys)
	}
	return
}

// loadFile reads the filter in file name; Load's bound on what it
// allocates holds for a file as for any reader.
func loadFile(name string) (core.Membership, error) {
	file, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	info, err := file.Stat()
	if err != nil {
		return nil, err
	}
	f, err := core.Load(&sizedReader{bufio.NewReader(file), info.Size()})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return f, nil
}

// sizedReader reads a file through a buffer and says how much of it is
// left (Len, as a bytes.Reader does), so that core.Load reads a payload the
// file holds whole into one array rather than in chunks copied together.
type sizedReader struct {
	r    *bufio.Reader
	left int64
}

func (s *sizedReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	s.left -= int64(n)
	return n, err
}

func (s *sizedReader) Len() int { return int(min(max(s.left, 0), math.MaxInt)) }

// saveFile writes f to file name, through a file beside it renamed at
// the end, so a failed save leaves no half file under the name.
func saveFile(name string, f core.Membership) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), ".bloomlab-filter-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	w := bufio.NewWriter(tmp)
	if err := core.Save(w, f); err != nil {
		tmp.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), name)
}

func filterTest(args []string, stdout io.Writer) (int, error) {
	fs := newFlags("filter test")
	names, err := filterArgs(fs, args, 1, 2, "a filter file and at most one key file")
	if err != nil {
		return 0, err
	}
	f, err := loadFile(names[0])
	if err != nil {
		return 0, err
	}
	list, err := readKeyFile(newProgress(context.Background(), "filter test", io.Discard), append(names[1:], "-")[0])
	if err != nil {
		return 0, err
	}
	no := 0
	w := bufio.NewWriter(stdout)
	for i := range list.Len() {
		answer := "maybe"
		if ok, _ := f.Contains(list.Key(i)); !ok {
			answer, no = "no", no+1
		}
		fmt.Fprintf(w, "%s\t%s\n", answer, list.Key(i))
	}
	w.Flush()
	if no > 0 {
		return 1, nil
	}
	return 0, nil
}

func filterMerge(args []string, stdout io.Writer, intersect bool) (int, error) {
	fs := newFlags("filter merge")
	out := fs.String("out", "", "the file to write (required)")
	names, err := filterArgs(fs, args, 2, 2, "two filter files")
	if err != nil {
		return 0, err
	}
	if *out == "" {
		return 0, errors.New("--out FILE is required")
	}
	a, err := loadFile(names[0])
	if err != nil {
		return 0, err
	}
	b, err := loadFile(names[1])
	if err != nil {
		return 0, err
	}
	op, what := core.Union, "union"
	if intersect {
		op, what = core.Intersect, "intersection"
	}
	merged, err := op(a, b)
	if err != nil {
		return 0, fmt.Errorf("%s and %s: %w", names[0], names[1], err)
	}
	if err := saveFile(*out, merged.Filter); err != nil {
		return 0, err
	}
	fmt.Fprintf(stdout, "%s: the %s of %s and %s, %d of %d positions set", *out, what, names[0], names[1], merged.Filter.SetBits(), merged.Filter.M())
	if merged.Saturated > 0 {
		fmt.Fprintf(stdout, "; %d counters saturated at %d", merged.Saturated, core.CounterMax)
	}
	fmt.Fprintln(stdout)
	return 0, nil
}

func filterInfo(args []string, stdout io.Writer) (int, error) {
	fs := newFlags("filter info")
	names, err := filterArgs(fs, args, 1, 1, "one filter file")
	if err != nil {
		return 0, err
	}
	f, err := loadFile(names[0])
	if err != nil {
		return 0, err
	}
	d := core.Describe(f)
	shape := d.Shape
	row := func(name, format string, args ...any) {
		fmt.Fprintf(stdout, "%-14s %s\n", name, fmt.Sprintf(format, args...))
	}
	row("layout", "%s", shape.Variant.Label())
	row("m", "%d %ss", shape.M, shape.Variant.Unit())
	row("k", "%d", shape.K)
	row("hashing", "%s", shape.Hashing)
	row("seed", "%d", shape.Seed)
	row("fill", "%d of %d %s (%.2f%%)", d.Nonzero, f.M(), shape.Variant.Terms().Nonzero, 100*d.Fill)
	row("inserted", "%d keys (repeats included)", d.Inserted)
	if d.EstimateErr != nil {
		row("estimated", "none: %s", userMessage(d.EstimateErr))
	} else {
		row("estimated", "%.1f ± %.1f distinct keys (one standard deviation)", d.Estimate.N, d.Estimate.SD)
	}
	// The rate now is read off the bits: a query of an absent key is a
	// false positive when its k probes all find a set position. The design
	// size is the n this m and k are optimal for, n = m ln 2 / k.
	fill := d.Fill
	design := uint64(math.Round(float64(shape.M) * math.Ln2 / float64(shape.K)))
	row("rate", "%.6g now (fill^k); %.6g at the design size, %d keys (m ln 2 / k, where this k is optimal)",
		math.Pow(fill, float64(shape.K)), shape.Variant.Theory(f, design).Rate, design)
	return 0, nil
}
