// Auditlibraries puts each library of the comparison, in Go and in other
// languages through their adapters, through the lab's audit and prints,
// per group, how many checks it passed, failed and skipped; then each
// failed check with its detail, and why checks were skipped. A failure is a finding about the library, so it exits 0 unless
// a library could not be audited at all.
//
//	cd compare && go run ./cmd/auditlibraries        # a table for the terminal
//	cd compare && go run ./cmd/auditlibraries -md    # the README's table
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/bloomlab/bloomlab/audit"
	"github.com/bloomlab/bloomlab/compare"
)

// tally is one library's passed, failed and skipped checks in one group.
type tally struct{ passed, failed, skipped int }

func (t tally) String() string { return fmt.Sprintf("%d / %d / %d", t.passed, t.failed, t.skipped) }

func main() {
	md := flag.Bool("md", false, "print the table as Markdown, as the README shows it")
	flag.Parse()
	var reports []audit.Report
	run := func(t audit.Target) {
		r, err := audit.Run(t, nil)
		if err != nil {
			fmt.Fprintf(os.Stderr, "auditlibraries: %v\n", err)
			os.Exit(1)
		}
		reports = append(reports, r)
	}
	for _, t := range compare.Targets() {
		run(t)
	}
	// The filters of other languages, through their adapters; one whose
	// runtime or library is missing is left out, saying how to install it.
	for _, p := range compare.Programs() {
		if p.Example {
			continue
		}
		prog, err := p.Start(context.Background())
		if err != nil {
			fmt.Fprintf(os.Stderr, "auditlibraries: leaving out %v\n", err)
			continue
		}
		run(prog.Target())
		prog.Close()
	}
	if *md {
		writeMarkdown(os.Stdout, reports)
		return
	}
	writeText(os.Stdout, reports)
}

// tallies counts r's outcomes per group, in audit.Groups order, with the
// totals last.
func tallies(r audit.Report) []tally {
	out := make([]tally, len(audit.Groups)+1)
	for _, o := range r.Checks {
		i := indexOf(o.Group)
		for _, t := range []*tally{&out[i], &out[len(audit.Groups)]} {
			switch {
			case o.Skipped:
				t.skipped++
			case o.Pass:
				t.passed++
			default:
				t.failed++
			}
		}
	}
	return out
}

func indexOf(group string) int {
	for i, g := range audit.Groups {
		if g == group {
			return i
		}
	}
	panic("auditlibraries: check in unknown group " + group)
}

// rows are the table's row names: the groups, then the total.
func rows() []string { return append(append([]string{}, audit.Groups...), "all checks") }

func writeText(w io.Writer, reports []audit.Report) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "passed / failed / skipped")
	for _, r := range reports {
		fmt.Fprintf(tw, "\t%s", r.Target)
	}
	fmt.Fprintln(tw)
	counts := make([][]tally, len(reports))
	for i, r := range reports {
		counts[i] = tallies(r)
	}
	for g, name := range rows() {
		fmt.Fprint(tw, name)
		for i := range reports {
			fmt.Fprintf(tw, "\t%s", counts[i][g])
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	for _, r := range reports {
		fmt.Fprintf(w, "\n%s: %s\n", r.Target, r.About)
		fmt.Fprintf(w, "  %d passed, %d failed, %d skipped of %d; rate %.6f at the lab's default shape; digest %s\n",
			r.Passed, r.Failed, r.Skipped, r.Total, r.ReportedFPR, r.Digest)
		skipped := map[string]int{}
		for _, o := range r.Checks {
			switch {
			case o.Skipped:
				skipped[o.Detail]++
			case !o.Pass:
				fmt.Fprintf(w, "  FAIL %s: %s\n       %s\n", o.ID, o.Contract, o.Detail)
			}
		}
		why := make([]string, 0, len(skipped))
		for d := range skipped {
			why = append(why, d)
		}
		sort.Strings(why)
		for _, d := range why {
			fmt.Fprintf(w, "  %d %s\n", skipped[d], d)
		}
	}
}

// writeMarkdown writes the table alone, one column per library.
func writeMarkdown(w io.Writer, reports []audit.Report) {
	head, rule := []string{"group (passed / failed / skipped)"}, []string{"---"}
	counts := make([][]tally, len(reports))
	for i, r := range reports {
		head, rule = append(head, r.Target), append(rule, "---:")
		counts[i] = tallies(r)
	}
	fmt.Fprintf(w, "| %s |\n| %s |\n", strings.Join(head, " | "), strings.Join(rule, " | "))
	for g, name := range rows() {
		cells := []string{name}
		for i := range reports {
			cells = append(cells, counts[i][g].String())
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
}
