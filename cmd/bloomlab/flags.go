//go:build !wasm

package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"sync"

	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/plan"
)

// usageError is a bad flag or value: the command prints it on one line,
// then its usage, and exits 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func badFlag(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// newFlags returns a flag set that reports errors to the caller instead of
// printing them, so each command words its own one-line error.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parse parses args; a parse error becomes a usageError in the lab's own
// words, naming the flag as --name like every other flag error.
func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{flagMessage(fs, err.Error())}
	}
	if fs.NArg() > 0 {
		return badFlag("unexpected argument %q", fs.Arg(0))
	}
	return nil
}

// flagErrors are the flag package's own errors, which name a flag as
// -name; compiled on the first bad command line, not at start.
var flagErrors = sync.OnceValue(func() (e struct{ undefined, noValue, badValue *regexp.Regexp }) {
	e.undefined = regexp.MustCompile(`^flag provided but not defined: -+(.*)$`)
	e.noValue = regexp.MustCompile(`^flag needs an argument: -+(.*)$`)
	e.badValue = regexp.MustCompile(`^invalid (?:boolean )?value (".*") for (?:flag )?-+([^:]*): .*$`)
	return e
})

func flagMessage(fs *flag.FlagSet, msg string) string {
	re := flagErrors()
	if m := re.undefined.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("unknown flag --%s", m[1])
	}
	if m := re.noValue.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("--%s needs a value", m[1])
	}
	if m := re.badValue.FindStringSubmatch(msg); m != nil {
		if f := fs.Lookup(m[2]); f != nil {
			return fmt.Sprintf("--%s: %s is not a valid value (%s)", m[2], m[1], f.Usage)
		}
	}
	return msg
}

// userMessage is err without Go package prefixes: users see the command's
// name instead.
func userMessage(err error) string { return core.Message(err) }

// fail prints err for command name and returns the exit status: 2 with
// usage for bad usage (0 for -h), 1 otherwise.
func fail(name string, fs *flag.FlagSet, err error, stderr io.Writer) int {
	if errors.Is(err, flag.ErrHelp) {
		printUsage(name, fs, stderr)
		return 0
	}
	var ue usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(stderr, "bloomlab %s: %s\n", name, userMessage(ue))
		printUsage(name, fs, stderr)
		return 2
	}
	fmt.Fprintf(stderr, "bloomlab %s: %s\n", name, userMessage(err))
	return 1
}

func printUsage(name string, fs *flag.FlagSet, w io.Writer) {
	fmt.Fprintf(w, "usage: bloomlab %s [flags]\n", name)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// set reports whether flag name was given on the command line.
func set(fs *flag.FlagSet, name string) bool {
	found := false
	fs.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	return found
}

// wholeIn parses s as a whole number in [lo, hi] for flag name.
func wholeIn(name, s string, lo, hi uint64) (uint64, error) {
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil || v < lo || v > hi {
		return 0, badFlag("--%s must be a whole number in [%d, %d], got %q", name, lo, hi, s)
	}
	return v, nil
}

// floatIn parses s as a finite number in [lo, hi] for flag name.
func floatIn(name, s string, lo, hi float64) (float64, error) {
	v, err := plan.ParseDecimal(s)
	if err != nil || v < lo || v > hi {
		return 0, badFlag("--%s must be a number in [%v, %v], got %q", name, lo, hi, s)
	}
	return v, nil
}

func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}
