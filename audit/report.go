package audit

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"bloomlab/core"
)

// WriteText writes the report for people and CI logs: a heading, each check
// (verdict, ID and contract, then its detail) under its group, the digest,
// the rate the simulation reported, and last the line "N/M checks passed".
func (r Report) WriteText(w io.Writer) error {
	b := bufio.NewWriter(w)
	what := core.Fault(r.Fault).Describe()
	if what == "" {
		what = "an unknown fault"
	}
	if r.Hashing != "" {
		fmt.Fprintf(b, "Bloom Lab audit: %s (fault %s), %s\n", what, r.Fault, r.Hashing.Describe())
	} else {
		fmt.Fprintf(b, "Bloom Lab audit: %s (fault %s)\n", what, r.Fault)
	}
	group := ""
	for i, o := range r.Checks {
		if o.Group != group {
			group = o.Group
			passed, total := r.groupCount(i)
			fmt.Fprintf(b, "\n%s: %d/%d passed\n", group, passed, total)
		}
		verdict := "PASS"
		if !o.Pass {
			verdict = "FAIL"
		}
		fmt.Fprintf(b, "%s  %s: %s\n      %s\n", verdict, o.ID, o.Contract, o.Detail)
	}
	fmt.Fprintf(b, "\ndigest %s\n", r.Digest)
	fmt.Fprintf(b, "the default-shape simulation reported a false-positive rate of %.6f\n", r.ReportedFPR)
	fmt.Fprintf(b, "%d/%d checks passed\n", r.Passed, r.Total)
	return b.Flush()
}

// groupCount counts the passed and total checks of the group that starts
// at index i.
func (r Report) groupCount(i int) (passed, total int) {
	for _, o := range r.Checks[i:] {
		if o.Group != r.Checks[i].Group {
			break
		}
		total++
		if o.Pass {
			passed++
		}
	}
	return passed, total
}

// WriteJSON writes the report as indented JSON: fault, checks (id, group,
// contract, pass, detail), passed, total, digest and reportedFpr.
func (r Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
