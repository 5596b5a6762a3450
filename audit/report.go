package audit

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
)

// WriteText writes the report for people and CI logs: a heading, each check
// (PASS, FAIL or SKIP, ID and contract, then its detail) under its group,
// the digest, the rate the target's filter showed, and last the line
// "N/M checks passed", where M counts the checks that ran, followed by
// ", S skipped" when S checks were skipped.
func (r Report) WriteText(w io.Writer) error {
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "Bloom Lab audit: %s (%s)\n", r.About, r.Target)
	if r.Lab != "" {
		fmt.Fprintf(b, "run by %s\n", r.Lab)
	}
	if r.Narrowed != "" {
		fmt.Fprintf(b, "narrowed to %s\n", r.Narrowed)
	}
	group := ""
	for i, o := range r.Checks {
		if o.Group != group {
			group = o.Group
			passed, ran, skipped := r.groupCount(i)
			fmt.Fprintf(b, "\n%s: %d/%d passed%s\n", group, passed, ran, skippedText(skipped))
		}
		fmt.Fprintf(b, "%s  %s: %s\n      %s\n", o.mark(), o.ID, o.Contract, o.Detail)
	}
	fmt.Fprintf(b, "\ndigest %s\n", r.Digest)
	fmt.Fprintf(b, "the default-shape simulation reported a false-positive rate of %.6f\n", r.ReportedFPR)
	fmt.Fprintln(b, r.Summary())
	return b.Flush()
}

// GroupStart is the group of the one check in a report of an audit that
// could not start: the target did not start, did not say what it can, or
// refused the audit's first filter.
const GroupStart = "start"

// Unstarted is the report of an audit of target that could not start: one
// failed check, id, with the contract it broke and why (the program's
// answer and the end of its standard error, where it has them). Every
// format writes it as it writes any report, so a CI job that saves the
// report always has one to read.
func Unstarted(target, about, id, contract, why string) Report {
	r := Report{Target: target, About: about, Total: 1, Failed: 1,
		Checks: []Outcome{{ID: id, Group: GroupStart, Contract: contract, Detail: why}}}
	r.Open = 1
	r.Digest = r.digest()
	return r
}

// mark is the check's verdict in the text report.
func (o Outcome) mark() string {
	switch {
	case o.Skipped:
		return "SKIP"
	case o.Pass:
		return "PASS"
	}
	return "FAIL"
}

// skippedText is ", S skipped", or "" when nothing was skipped.
func skippedText(skipped int) string {
	if skipped == 0 {
		return ""
	}
	return fmt.Sprintf(", %d skipped", skipped)
}

// groupCount counts the passed, run and skipped checks of the group that
// starts at index i.
func (r Report) groupCount(i int) (passed, ran, skipped int) {
	for _, o := range r.Checks[i:] {
		if o.Group != r.Checks[i].Group {
			break
		}
		switch {
		case o.Skipped:
			skipped++
		case o.Pass:
			passed++
			ran++
		default:
			ran++
		}
	}
	return passed, ran, skipped
}

// WriteJSON writes the report as indented JSON: target, about, checks (id,
// group, contract, pass, skipped when true, detail), passed, failed,
// skipped, total, digest, reportedFpr and lab.
func (r Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
