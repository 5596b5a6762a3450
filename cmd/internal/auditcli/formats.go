package auditcli

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/bloomlab/bloomlab/audit"
)

// writeJUnit writes the report as JUnit XML, the test report GitHub, GitLab
// and Jenkins read: one testsuite named by the target, one testcase per
// check named by its ID with its group as classname. A failed check carries
// <failure> with the detail as message (and "contract: detail" as text), a
// skipped one <skipped> with the reason. The counts follow JUnit: tests counts every check, skipped ones
// too. About, digest, the reported rate and the lab that ran the audit are
// the suite's properties.
func writeJUnit(r audit.Report, w io.Writer) error {
	suite := junitSuite{
		Name:     r.Target,
		Tests:    len(r.Checks),
		Failures: r.Failed,
		Skipped:  r.Skipped,
		Properties: []junitProperty{
			{"about", r.About},
			{"digest", r.Digest},
			{"reportedFpr", strconv.FormatFloat(r.ReportedFPR, 'f', 6, 64)},
		},
	}
	if r.Lab != "" {
		suite.Properties = append(suite.Properties, junitProperty{"lab", r.Lab})
	}
	if r.Narrowed != "" {
		suite.Properties = append(suite.Properties, junitProperty{"narrowed", r.Narrowed})
	}
	for _, o := range r.Checks {
		c := junitCase{Name: o.ID, Classname: o.Group}
		switch {
		case o.Skipped:
			c.Skipped = &junitMessage{Message: o.Detail}
		case !o.Pass:
			c.Failure = &junitMessage{Message: o.Detail, Type: "contract", Text: o.Contract + ": " + o.Detail}
		}
		suite.Cases = append(suite.Cases, c)
	}
	doc := junitSuites{Name: "Bloom Lab audit", Tests: suite.Tests, Failures: suite.Failures,
		Skipped: suite.Skipped, Suites: []junitSuite{suite}}
	b := bufio.NewWriter(w)
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(b)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	b.WriteString("\n")
	return b.Flush()
}

// The JUnit XML elements, as Jenkins's and GitLab's readers expect them;
// errors is always 0, since a check that panics is a failure.
type (
	junitSuites struct {
		XMLName  xml.Name     `xml:"testsuites"`
		Name     string       `xml:"name,attr"`
		Tests    int          `xml:"tests,attr"`
		Failures int          `xml:"failures,attr"`
		Errors   int          `xml:"errors,attr"`
		Skipped  int          `xml:"skipped,attr"`
		Suites   []junitSuite `xml:"testsuite"`
	}
	junitSuite struct {
		Name       string          `xml:"name,attr"`
		Tests      int             `xml:"tests,attr"`
		Failures   int             `xml:"failures,attr"`
		Errors     int             `xml:"errors,attr"`
		Skipped    int             `xml:"skipped,attr"`
		Properties []junitProperty `xml:"properties>property"`
		Cases      []junitCase     `xml:"testcase"`
	}
	junitProperty struct {
		Name  string `xml:"name,attr"`
		Value string `xml:"value,attr"`
	}
	junitCase struct {
		Name      string        `xml:"name,attr"`
		Classname string        `xml:"classname,attr"`
		Failure   *junitMessage `xml:"failure"`
		Skipped   *junitMessage `xml:"skipped"`
	}
	junitMessage struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr,omitempty"`
		Text    string `xml:",chardata"`
	}
)

// writeTAP writes the report in TAP version 13: the plan 1..N, then a line
// per check, "ok N - ID" or "not ok N - ID" followed by a YAML block with
// the group, contract and detail; a skipped check is "ok N - ID # SKIP"
// and the reason. Comments at the end give the digest and the summary line
// of WriteText, and the lab that ran the audit.
func writeTAP(r audit.Report, w io.Writer) error {
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "TAP version 13\n1..%d\n", len(r.Checks))
	for i, o := range r.Checks {
		n, id := i+1, tapText(o.ID)
		switch {
		case o.Skipped:
			fmt.Fprintf(b, "ok %d - %s # SKIP %s\n", n, id, tapText(strings.TrimPrefix(o.Detail, "skipped: ")))
		case o.Pass:
			fmt.Fprintf(b, "ok %d - %s\n", n, id)
		default:
			fmt.Fprintf(b, "not ok %d - %s\n  ---\n", n, id)
			fmt.Fprintf(b, "  message: %s\n", strconv.Quote(o.Detail))
			fmt.Fprintf(b, "  severity: fail\n")
			fmt.Fprintf(b, "  group: %s\n", strconv.Quote(o.Group))
			fmt.Fprintf(b, "  contract: %s\n", strconv.Quote(o.Contract))
			fmt.Fprintf(b, "  ...\n")
		}
	}
	fmt.Fprintf(b, "# %s: %s\n", tapText(r.Target), tapText(r.About))
	fmt.Fprintf(b, "# digest %s\n", r.Digest)
	if r.Lab != "" {
		fmt.Fprintf(b, "# run by %s\n", tapText(r.Lab))
	}
	if r.Narrowed != "" {
		fmt.Fprintf(b, "# narrowed to %s\n", tapText(r.Narrowed))
	}
	fmt.Fprintf(b, "# %s\n", r.Summary())
	return b.Flush()
}

// tapText keeps s on its test line: a newline would end the line and a
// bare # would start a directive, so newlines become spaces and # is
// escaped as TAP says.
func tapText(s string) string {
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "#", `\#`).Replace(s)
}
