package audit

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strings"

	"bloomlab/core"
)

// Main is the audit's command line, shared by `bloomlab audit` and the
// small runner that runs under Node, so both parse, print and exit alike:
//
//	PROG [--json] [--fault NAME] [--hashing SCHEME] [--faults]
//
// It returns the exit status: 0 when every check passed, 1 when any failed,
// 2 for bad usage (one line naming the flag and what it allows, then the
// usage, on stderr).
func Main(prog string, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(prog, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "")
	faultName := fs.String("fault", string(core.NoFault), "")
	list := fs.Bool("faults", false, "")
	hashing := fs.String("hashing", string(core.DoubleHashing), "")
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
		msg := err.Error()
		switch {
		case strings.HasPrefix(msg, "flag provided but not defined: "):
			return bad("unknown flag --%s; the flags are --json, --fault NAME, --hashing SCHEME and --faults",
				strings.TrimLeft(strings.TrimPrefix(msg, "flag provided but not defined: "), "-"))
		case msg == "flag needs an argument: -fault":
			return bad("--fault needs a name: %s", faultNames())
		}
		return bad("%s; the flags are --json, --fault NAME, --hashing SCHEME and --faults", singleDash.ReplaceAllString(msg, "$1--$2"))
	}
	if fs.NArg() > 0 {
		return bad("unexpected argument %q; the audit takes only the flags --json, --fault NAME and --faults", fs.Arg(0))
	}
	f, err := core.ParseFault(*faultName)
	if err != nil {
		return bad("--fault %q is not in the zoo; want %s", *faultName, faultNames())
	}
	if *list {
		// --faults lists the zoo and nothing else: a flag beside it would
		// be silently ignored.
		var others []string
		fs.Visit(func(fl *flag.Flag) {
			if fl.Name != "faults" {
				others = append(others, "--"+fl.Name)
			}
		})
		if len(others) > 0 {
			return bad("--faults lists the zoo and takes no other flag, got %s", strings.Join(others, " and "))
		}
		for _, f := range core.Faults {
			fmt.Fprintln(stdout, f)
		}
		return 0
	}
	h, err := core.ParseHashing(*hashing)
	if err != nil {
		return bad("--hashing must be double, enhanced or independent, got %q", *hashing)
	}
	r, err := Run(Target{Fault: f, Hashing: h}, nil)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", prog, err)
		return 1
	}
	write := r.WriteText
	if *asJSON {
		write = r.WriteJSON
	}
	if err := write(stdout); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", prog, err)
		return 1
	}
	if !r.AllPassed() {
		return 1
	}
	return 0
}

// singleDash finds a flag named as -name in the flag package's errors;
// the audit names every flag as --name.
var singleDash = regexp.MustCompile(`(^|\s)-(\w[\w-]*)`)

// faultNames lists what --fault accepts.
func faultNames() string {
	names := make([]string, len(core.Faults))
	for i, f := range core.Faults {
		names[i] = string(f)
	}
	return "none or one of " + strings.Join(names, ", ")
}

func usage(w io.Writer, prog string) {
	fmt.Fprintf(w, `usage: %s [--json] [--fault NAME] [--hashing SCHEME] [--faults]
Checks the Bloom filter's contract and prints every check, the digest and
"N/N checks passed".
  --json            print the report as JSON (checks, passed, total, digest)
  --fault NAME      audit a broken filter from the zoo instead: %s
  --hashing SCHEME  how the standard and counting filters find positions:
                    double (the default), enhanced or independent
  --faults          list the fault names, one a line
Exit status: 0 when every check passes, 1 when any fails, 2 for bad usage.
`, prog, faultNames())
}
