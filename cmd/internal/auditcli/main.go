// Package auditcli is the audit's command line, shared by `bloomlab audit`
// and the small runner cmd/bloomaudit that runs under Node, so both parse,
// print and exit alike. It imports only the audit and core packages: the
// command that can start programs (bloomlab) hands it the means.
package auditcli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/bloomlab/bloomlab/audit"
	"github.com/bloomlab/bloomlab/cmd/internal/buildinfo"
	"github.com/bloomlab/bloomlab/core"
)

// formats are the report formats --format names, each one of the
// report's writers.
var formats = map[string]func(audit.Report, io.Writer) error{
	"text":  audit.Report.WriteText,
	"json":  audit.Report.WriteJSON,
	"junit": writeJUnit,
	"tap":   writeTAP,
}

const formatNames = "text, json, junit or tap"

// flagList names every flag, for the errors that list them.
const flagList = "--format FORMAT, --json, --run REGEX, --group NAME, --variant LAYOUT, --fault NAME, --hashing SCHEME, --faults, --keep DIR, --against DIR, --exec and --exec-timeout"

// Main runs the audit as the command prog with the arguments args:
//
//	PROG [--format FORMAT] [--json] [--run REGEX] [--group NAME] [--keep DIR] [--against DIR] [--variant LAYOUT] [--fault NAME] [--hashing SCHEME] [--faults]
//	PROG [--format FORMAT] [--json] [--run REGEX] [--group NAME] [--keep DIR] [--against DIR] [--exec-timeout D] --exec -- CMD [ARGS...]
//
// It returns the exit status: 0 when every check that ran passed, 1 when
// any failed (or the target refused the audit's first filter), 2 for bad
// usage (one line naming the flag and what it allows, then the usage, on
// stderr) and for a program that cannot be started or whose handshake is
// malformed. Whatever happens after the flags are read, it writes a
// well-formed report in the format asked.
func Main(prog string, args []string, stdout, stderr io.Writer) int {
	return MainWith(context.Background(), prog, args, stdout, stderr, Options{})
}

// Options are what a command gives the audit beyond its arguments.
type Options struct {
	// Progress is called with the checks done of the total as the audit
	// runs; an error from it stops the audit, which then prints nothing
	// and returns 1: the caller knows why it stopped.
	Progress func(done, total int) error
	// Exec starts the program of --exec, with a timeout a request (0 for
	// the default), and returns its target and what ends it; nil where no
	// program can run (under Node), and --exec is then refused.
	Exec func(ctx context.Context, argv []string, timeout time.Duration) (audit.Target, func(), error)
}

// MainWith is Main with a context, whose end kills the program --exec
// started, and the options.
func MainWith(ctx context.Context, prog string, args []string, stdout, stderr io.Writer, opts Options) int {
	fs := flag.NewFlagSet(prog, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	format := fs.String("format", "text", "")
	asJSON := fs.Bool("json", false, "")
	variant := fs.String("variant", "", "")
	faultName := fs.String("fault", string(core.NoFault), "")
	hashing := fs.String("hashing", string(core.DoubleHashing), "")
	list := fs.Bool("faults", false, "")
	execute := fs.Bool("exec", false, "")
	timeout := fs.Duration("exec-timeout", 0, "")
	runRegex := fs.String("run", "", "")
	group := fs.String("group", "", "")
	keep := fs.String("keep", "", "")
	againstDir := fs.String("against", "", "")
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, prog+": "+format+"\n", a...)
		usage(stderr, prog)
		return 2
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage(stderr, prog)
			return 0
		}
		return bad("%s", parseError(err))
	}
	if fs.NArg() > 0 && !*execute {
		return bad("unexpected argument %q; the audit takes only the flags %s", fs.Arg(0), flagList)
	}
	if *list {
		if msg := listFaults(fs, stdout); msg != "" {
			return bad("%s", msg)
		}
		return 0
	}
	write, ok := formats[*format]
	if !ok {
		return bad("--format must be %s, got %q", formatNames, *format)
	}
	if *asJSON {
		if set(fs, "format") && *format != "json" {
			return bad("--json is short for --format json and conflicts with --format %s; give one of them", *format)
		}
		write = formats["json"]
	}
	all := audit.Checks()
	if set(fs, "against") {
		kept, from, err := readKept(*againstDir)
		if err != nil {
			return bad("--against: %v", err)
		}
		all = append(all, audit.Against(kept, from)...)
	}
	if set(fs, "keep") && *keep == "" {
		return bad("--keep needs the directory to keep the saved filters in")
	}
	checks, narrowed, msg := narrow(fs, all, *runRegex, *group)
	if msg != "" {
		return bad("%s", msg)
	}
	audited := func(t audit.Target) int {
		code := runAudit(ctx, t, checks, narrowed, opts.Progress, write, prog, stdout, stderr)
		if *keep == "" || ctx.Err() != nil {
			return code
		}
		if err := writeKept(*keep, t, buildinfo.Read().String()); err != nil {
			fmt.Fprintf(stderr, "%s: --keep: %s\n", prog, core.Message(err))
			return 1
		}
		return code
	}
	if *execute {
		if msg := execUsage(fs, *timeout); msg != "" {
			return bad("%s", msg)
		}
		if opts.Exec == nil {
			return bad("--exec starts a program, which %s cannot do where it runs (under Node); bloomlab audit --exec can", prog)
		}
		t, end, err := opts.Exec(ctx, fs.Args(), *timeout)
		if err != nil {
			if ctx.Err() != nil { // stopped: the caller says why
				return 1
			}
			return unstarted(fs.Args(), err, write, prog, stdout, stderr)
		}
		defer end()
		return audited(t)
	}
	t, msg := target(*variant, *faultName, *hashing)
	if msg != "" {
		return bad("%s", msg)
	}
	if set(fs, "exec-timeout") {
		return bad("--exec-timeout bounds the requests of --exec, which is not given")
	}
	return audited(t)
}

// listFaults prints the zoo, one fault a line, or returns the usage error:
// --faults lists the zoo and nothing else, since a flag beside it would be
// silently ignored.
func listFaults(fs *flag.FlagSet, stdout io.Writer) string {
	var others []string
	fs.Visit(func(fl *flag.Flag) {
		if fl.Name != "faults" {
			others = append(others, "--"+fl.Name)
		}
	})
	if len(others) > 0 {
		return fmt.Sprintf("--faults lists the zoo and takes no other flag, got %s", strings.Join(others, " and "))
	}
	for _, f := range core.Faults {
		fmt.Fprintln(stdout, f)
	}
	return ""
}

// unstarted reports a program of argv that could not be started or whose
// handshake the protocol does not allow: the error on stderr, a report of
// the one failed check start/handshake, and exit 2, as for bad usage (1 if
// even the report cannot be written).
func unstarted(argv []string, err error, write func(audit.Report, io.Writer) error, prog string, stdout, stderr io.Writer) int {
	fmt.Fprintf(stderr, "%s: %v\n", prog, err)
	r := audit.Unstarted(filepath.Base(argv[0]), strings.Join(argv, " "), "start/handshake",
		"the program starts and says what it can, hello to ready (audit/program/PROTOCOL.md)", core.Message(err))
	if !writeReport(r, write, prog, stdout, stderr) {
		return 1
	}
	return 2
}

// narrow reads --run and --group: which of all the checks to run, the
// report's words for it, or the usage error. A narrowing that keeps no
// check is an error: a CI job would pass on nothing.
func narrow(fs *flag.FlagSet, all []audit.Check, runRegex, group string) ([]audit.Check, string, string) {
	if !set(fs, "run") && !set(fs, "group") {
		return all, "", ""
	}
	var re *regexp.Regexp
	if set(fs, "run") {
		var err error
		if re, err = regexp.Compile(runRegex); err != nil || runRegex == "" {
			return nil, "", fmt.Sprintf("--run needs a regular expression over the check IDs, as in --run 'fpr/|seed', got %q", runRegex)
		}
	}
	name := ""
	if set(fs, "group") {
		for _, g := range audit.Groups {
			if strings.EqualFold(strings.ReplaceAll(group, "-", " "), g) {
				name = g
			}
		}
		if name == "" {
			return nil, "", fmt.Sprintf("--group must be one of %s, got %q", groupNames(), group)
		}
	}
	only := func(c audit.Check) bool {
		return (name == "" || c.Group == name) && (re == nil || re.MatchString(c.ID))
	}
	var kept []audit.Check
	for _, c := range all {
		if only(c) {
			kept = append(kept, c)
		}
	}
	var words []string
	if name != "" {
		words = append(words, "--group "+strings.ReplaceAll(name, " ", "-"))
	}
	if re != nil {
		words = append(words, "--run "+runRegex)
	}
	if len(kept) == 0 {
		return nil, "", fmt.Sprintf("%s keeps none of the %d checks", strings.Join(words, " "), len(all))
	}
	return kept, fmt.Sprintf("%s: %d of %d checks", strings.Join(words, " "), len(kept), len(all)), ""
}

// groupNames lists what --group accepts: each group, its spaces as hyphens.
func groupNames() string {
	names := make([]string, len(audit.Groups))
	for i, g := range audit.Groups {
		names[i] = strings.ReplaceAll(g, " ", "-")
	}
	return strings.Join(names, ", ")
}

// parseError is the one-line usage error for an error of the flag
// package: an unknown flag, a flag without its value (naming the values it
// allows), or the package's own words with the flags written --name.
func parseError(err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		return fmt.Sprintf("unknown flag --%s; the flags are %s", strings.TrimLeft(name, "-"), flagList)
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: "); ok {
		name = strings.TrimLeft(name, "-")
		if allowed := values(name); allowed != "" {
			return fmt.Sprintf("--%s needs a value: %s", name, allowed)
		}
	}
	return fmt.Sprintf("%s; the flags are %s", singleDash().ReplaceAllString(msg, "$1--$2"), flagList)
}

// runAudit audits t with checks, reporting
// progress, writes the report with write and returns the exit status: 1
// when the audit stopped, could not start or write, or a check failed. A
// stop, asked for by progress or by the end of ctx, prints nothing; a
// target that refuses the first filter gets a report of that one failure.
func runAudit(ctx context.Context, t audit.Target, checks []audit.Check, narrowed string, progress func(done, total int) error, write func(audit.Report, io.Writer) error, prog string, stdout, stderr io.Writer) int {
	var step audit.Progress
	stopped := false
	if progress != nil {
		step = func(done, total int, _ audit.Outcome) error {
			err := progress(done, total)
			stopped = err != nil
			return err
		}
	}
	r, err := audit.RunList(t, checks, step)
	if err != nil {
		if stopped || ctx.Err() != nil {
			return 1
		}
		fmt.Fprintf(stderr, "%s: %s\n", prog, core.Message(err))
		r = audit.Unstarted(t.Name, t.About, "start/first-filter",
			"the target builds the audit's first filter, m = 100000, k = 7, n = 10000", core.Message(err))
	}
	r.Narrowed = narrowed
	if !writeReport(r, write, prog, stdout, stderr) || !r.AllPassed() {
		return 1
	}
	return 0
}

// writeReport writes r with write, naming the lab that ran it, and says
// whether it could; the error goes to stderr.
func writeReport(r audit.Report, write func(audit.Report, io.Writer) error, prog string, stdout, stderr io.Writer) bool {
	r.Lab = buildinfo.Read().String()
	if err := write(r, stdout); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", prog, err)
		return false
	}
	return true
}

// target builds the lab's target from the flags' values, or returns the
// one-line usage error naming the flag at fault. An empty variant is the
// layout the fault lives in.
func target(variant, faultName, hashing string) (audit.Target, string) {
	f, err := core.ParseFault(faultName)
	if err != nil {
		return audit.Target{}, fmt.Sprintf("--fault %q is not in the zoo; want %s", faultName, faultNames())
	}
	h, err := core.ParseHashing(hashing)
	if err != nil {
		return audit.Target{}, fmt.Sprintf("--hashing must be double, enhanced or independent, got %q", hashing)
	}
	v := core.Standard.Effective(f)
	if variant != "" {
		if v, err = core.ParseVariant(variant); err != nil {
			return audit.Target{}, fmt.Sprintf("--variant must be %s, got %q", core.VariantNames(), variant)
		}
		if err := v.Accepts(f); err != nil {
			return audit.Target{}, fmt.Sprintf("--variant %s: %s", v, core.Message(err))
		}
	}
	if err := v.HashedBy(f, h); err != nil {
		return audit.Target{}, fmt.Sprintf("--hashing %s: %s", h, core.Message(err))
	}
	t, err := audit.Lab(v, f, h)
	if err != nil {
		return audit.Target{}, core.Message(err)
	}
	return t, ""
}

// execUsage is the usage error of --exec's command line, "" if it is
// whole: a command after --, no flag of the lab's own filter beside it,
// and a timeout that can be met.
func execUsage(fs *flag.FlagSet, timeout time.Duration) string {
	if fs.NArg() == 0 {
		return "--exec needs the program to audit after --, as in --exec -- node adapter.js"
	}
	for _, name := range []string{"variant", "fault", "hashing"} {
		if set(fs, name) {
			return fmt.Sprintf("--%s chooses the lab's own filter; --exec audits the program's", name)
		}
	}
	if set(fs, "exec-timeout") && (timeout < time.Millisecond || timeout > time.Hour) {
		return fmt.Sprintf("--exec-timeout must be from 1ms to 1h, got %v", timeout)
	}
	return ""
}

// values says what the flag name takes, "" for a boolean flag.
func values(name string) string {
	switch name {
	case "format":
		return formatNames
	case "variant":
		return core.VariantNames()
	case "fault":
		return faultNames()
	case "hashing":
		return "double, enhanced or independent"
	case "exec-timeout":
		return "a duration such as 30s"
	case "run":
		return "a regular expression over the check IDs"
	case "group":
		return groupNames()
	case "keep", "against":
		return "a directory"
	}
	return ""
}

// set reports whether flag name was given on the command line.
func set(fs *flag.FlagSet, name string) bool {
	found := false
	fs.Visit(func(fl *flag.Flag) { found = found || fl.Name == name })
	return found
}

// singleDash finds a flag named as -name in the flag package's errors;
// the audit names every flag as --name.
var singleDash = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^|\s)-(\w[\w-]*)`) })

// faultNames lists what --fault accepts.
func faultNames() string {
	names := make([]string, len(core.Faults))
	for i, f := range core.Faults {
		names[i] = string(f)
	}
	return "none or one of " + strings.Join(names, ", ")
}

func usage(w io.Writer, prog string) {
	fmt.Fprintf(w, `usage: %s [--format FORMAT] [--json] [--run REGEX] [--group NAME] [--keep DIR] [--against DIR]
         [--variant LAYOUT] [--fault NAME] [--hashing SCHEME] [--faults]
       %[1]s [--format FORMAT] [--json] [--run REGEX] [--group NAME] [--keep DIR] [--against DIR]
         [--exec-timeout D] --exec -- CMD [ARGS...]
Checks the Bloom filter's contract and prints every check, the digest and
"N/M checks passed" (M counts the checks that ran, then ", S skipped" and
how many of the checks open to the target ran, if any were skipped).
  --format FORMAT   how to print the report: text (the default), json,
                    junit (JUnit XML for CI test reports) or tap (TAP 13)
  --json            short for --format json
  --run REGEX       run only the checks whose IDs match REGEX
  --group NAME      run only the checks of one group: %[4]s
  --variant LAYOUT  the layout to audit: %[2]s
                    (by default the one the fault lives in, standard without
                    one)
  --fault NAME      audit a broken filter from the zoo instead: %[3]s
  --hashing SCHEME  how the standard and counting filters find positions:
                    double (the default), enhanced or independent
  --faults          list the fault names, one a line
  --keep DIR        also save the target's round-trip filters, with their
                    keys, into DIR (through the target's Save)
  --against DIR     also check that the target loads the filters kept in
                    DIR by --keep and finds every key kept with them: a
                    filter saved by one version, read by the next
  --exec            audit the filters of the program CMD, in any language,
                    through the protocol of audit/program/PROTOCOL.md
  --exec-timeout D  how long the program may take to answer a request
                    (default 30s)
Exit status: 0 when every check that ran passed, 1 when any failed, 2 for
bad usage or a program that cannot be started or says what the protocol
does not have. Every format writes a whole report whatever happens.
`, prog, core.VariantNames(), faultNames(), groupNames())
}
