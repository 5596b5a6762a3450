//go:build !wasm

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/bloomlab/bloomlab/core/experiment"
)

func runExperiment(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("experiment")
	list := fs.Bool("list", false, "name the experiments, one line each")
	asJSON := fs.Bool("json", false, "print the table as JSON")
	asCSV := fs.Bool("csv", false, "print the table as CSV")
	quick := fs.Bool("quick", false, "use the quick sizes the browser uses instead of the full, published ones")
	estimate := fs.Bool("estimate", false, "memory: estimate the Go map instead of measuring it")
	items := fs.String("items", "", fmt.Sprintf("keys inserted, in [1, %d] (default: the experiment's)", experiment.MaxItems))
	queries := fs.String("queries", "", fmt.Sprintf("absent queries per measured point, in [1, %d] (default: the experiment's)", experiment.MaxQueries))
	reps := fs.String("replicates", "", fmt.Sprintf("independent repetitions, in [1, %d] (default: the experiment's)", experiment.MaxReplicates))
	seed := fs.String("seed", "1", "seed, a whole number in [0, 2^64-1]")
	workers := fs.String("workers", "", "goroutines, in [1, 1024] (default: one per core); never changes the table")

	name, err := parseExperimentArgs(fs, args)
	if err != nil {
		return failExperiment(fs, err, stderr)
	}
	if *list {
		if name != "" {
			return failExperiment(fs, badFlag("--list takes no experiment name, got %q", name), stderr)
		}
		width := 0
		for _, e := range experiment.All() {
			width = max(width, len(e.Name))
		}
		for _, e := range experiment.All() {
			fmt.Fprintf(stdout, "%-*s  %s\n", width, e.Name, e.Summary)
		}
		return 0
	}
	e, sizes, opts, err := experimentPlan(fs, name, *quick, *estimate, *asJSON && *asCSV,
		map[string]*string{"items": items, "queries": queries, "replicates": reps, "seed": seed, "workers": workers})
	if err != nil {
		return failExperiment(fs, err, stderr)
	}

	pr := newProgress(ctx, "experiment", stderr)
	pr.stage(e.Name)
	opts.Progress = pr.step
	t, err := e.Run(sizes, opts)
	if pr.finish() {
		return statusInterrupted
	}
	if err != nil {
		fmt.Fprintf(stderr, "bloomlab experiment: %v\n", err)
		return 1
	}
	switch {
	case *asJSON:
		writeJSON(stdout, t)
	case *asCSV:
		err = t.WriteCSV(stdout)
	default:
		err = t.WriteText(stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "bloomlab experiment: %v\n", err)
		return 1
	}
	return 0
}

// parseExperimentArgs parses flags that may come before or after the name
// and returns the name ("" if none).
func parseExperimentArgs(fs *flag.FlagSet, args []string) (string, error) {
	var names []string
	for rest := args; ; {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return "", err
			}
			return "", usageError{strings.Replace(err.Error(), "provided but not defined: -", "provided but not defined: --", 1)}
		}
		if fs.NArg() == 0 {
			break
		}
		names, rest = append(names, fs.Arg(0)), fs.Args()[1:]
	}
	if len(names) > 1 {
		return "", badFlag("one experiment at a time, got %s", strings.Join(names, " "))
	}
	if len(names) == 0 {
		return "", nil
	}
	return names[0], nil
}

// experimentPlan turns the parsed flags into the experiment, its sizes and
// options, refusing what does not fit: no name or an unknown one, a size the
// experiment does not use, a size out of range.
func experimentPlan(fs *flag.FlagSet, name string, quick, estimate, both bool, values map[string]*string) (experiment.Experiment, experiment.Sizes, experiment.Options, error) {
	var (
		sizes experiment.Sizes
		opts  experiment.Options
	)
	switch {
	case both:
		return experiment.Experiment{}, sizes, opts, badFlag("--json and --csv exclude each other")
	case name == "":
		return experiment.Experiment{}, sizes, opts, badFlag("name an experiment (one of %s) or use --list", experiment.Names())
	}
	e, ok := experiment.Find(name)
	if !ok {
		return e, sizes, opts, badFlag("unknown experiment %q, want one of %s", name, experiment.Names())
	}
	if estimate && e.Name != "memory" {
		return e, sizes, opts, badFlag("--estimate applies to the memory experiment only")
	}
	sizes = e.Full
	if quick {
		sizes = e.Quick
	}
	seed, err := wholeIn("seed", *values["seed"], 0, math.MaxUint64)
	if err != nil {
		return e, sizes, opts, err
	}
	sizes.Seed = seed
	usesItems, usesQueries, usesReps := e.Uses()
	for _, f := range []struct {
		name string
		uses bool
		max  int
		dst  *int
	}{
		{"items", usesItems, experiment.MaxItems, &sizes.Items},
		{"queries", usesQueries, experiment.MaxQueries, &sizes.Queries},
		{"replicates", usesReps, experiment.MaxReplicates, &sizes.Replicates},
		{"workers", true, 1024, &opts.Workers},
	} {
		if !set(fs, f.name) {
			continue
		}
		if !f.uses {
			return e, sizes, opts, badFlag("%s takes no --%s", e.Name, f.name)
		}
		v, err := wholeIn(f.name, *values[f.name], 1, uint64(f.max))
		if err != nil {
			return e, sizes, opts, err
		}
		*f.dst = int(v)
	}
	opts.Native = !estimate
	return e, sizes, opts, nil
}

// failExperiment is fail with the experiment command's own usage line.
func failExperiment(fs *flag.FlagSet, err error, stderr io.Writer) int {
	usage := func() {
		fmt.Fprintln(stderr, "usage: bloomlab experiment [flags] NAME")
		fmt.Fprintln(stderr, "       bloomlab experiment --list")
		fs.SetOutput(stderr)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	if errors.Is(err, flag.ErrHelp) {
		usage()
		return 0
	}
	fmt.Fprintf(stderr, "bloomlab experiment: %v\n", err)
	usage()
	return 2
}
