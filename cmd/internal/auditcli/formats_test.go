package auditcli

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/bloomlab/bloomlab/audit"
	"github.com/bloomlab/bloomlab/core"
)

// handBuilt is a report with passes, a failure and a skip, in two groups,
// with details that XML, YAML and TAP must escape: <, &, quotes, # and a
// newline.
func handBuilt() audit.Report {
	return audit.Report{
		Target: "lab/standard/one-hash",
		About:  "one hash reused for all k probes",
		Checks: []audit.Outcome{
			{ID: "no-false-negatives/tiny-m", Group: audit.GroupNegatives, Contract: "no member is ever missed at m = 1",
				Pass: true, Detail: "0 of 100 members missed"},
			{ID: "no-false-negatives/k>m", Group: audit.GroupNegatives, Contract: "k > m & still no misses",
				Pass: true, Detail: `m = 3, k = 7: "0" missed`},
			{ID: "statistics/fpr/#1", Group: audit.GroupStatistics, Contract: "the rate is within 6 sigma of theory",
				Detail: "measured 0.132000 > bound 0.011 <theory 0.008>\nsecond line & more"},
			{ID: "statistics/removal", Group: audit.GroupStatistics, Contract: "removal keeps the members",
				Skipped: true, Closed: true, Detail: "skipped: needs removal (Remove), which lab/standard/one-hash does not show"},
		},
		Passed: 2, Failed: 1, Skipped: 1, Total: 4,
		Digest:      "0123456789abcdef",
		ReportedFPR: 0.0123456789,
	}
}

// oneHash is a real audit of a broken filter: one hash reused for all k
// probes, which the rate checks catch.
var oneHash = sync.OnceValues(func() (audit.Report, error) {
	return audit.Run(audit.MustLab(core.Variant{}, core.OneHash, ""), nil)
})

// named is a report and the name its subtests take.
type named struct {
	name string
	r    audit.Report
}

// reports are the reports every writer test runs on; the real audit is
// left out with -short.
func reports(t *testing.T) []named {
	t.Helper()
	rs := []named{{"hand-built", handBuilt()}}
	if !testing.Short() {
		r, err := oneHash()
		if err != nil {
			t.Fatal(err)
		}
		if r.Failed == 0 {
			t.Fatalf("the one-hash audit failed no check: %d/%d passed", r.Passed, r.Total)
		}
		rs = append(rs, named{"one-hash", r})
	}
	return rs
}

// The JUnit document as CI readers see it, declared here apart from the
// writer's own types so that the test reads what was written.
type (
	readSuites struct {
		XMLName  xml.Name    `xml:"testsuites"`
		Tests    *int        `xml:"tests,attr"`
		Failures *int        `xml:"failures,attr"`
		Errors   *int        `xml:"errors,attr"`
		Skipped  *int        `xml:"skipped,attr"`
		Suites   []readSuite `xml:"testsuite"`
	}
	readSuite struct {
		Name       string `xml:"name,attr"`
		Tests      *int   `xml:"tests,attr"`
		Failures   *int   `xml:"failures,attr"`
		Errors     *int   `xml:"errors,attr"`
		Skipped    *int   `xml:"skipped,attr"`
		Properties []struct {
			Name  string `xml:"name,attr"`
			Value string `xml:"value,attr"`
		} `xml:"properties>property"`
		Cases []readCase `xml:"testcase"`
	}
	readCase struct {
		Name      string       `xml:"name,attr"`
		Classname string       `xml:"classname,attr"`
		Failure   *readMessage `xml:"failure"`
		Skipped   *readMessage `xml:"skipped"`
		Error     *readMessage `xml:"error"`
	}
	readMessage struct {
		Message string `xml:"message,attr"`
		Text    string `xml:",chardata"`
	}
)

func TestWriteJUnit(t *testing.T) {
	for _, tt := range reports(t) {
		r := tt.r
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := writeJUnit(r, &b); err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(b.String(), `<?xml version="1.0" encoding="UTF-8"?>`+"\n<testsuites ") {
				t.Errorf("JUnit should start with the XML declaration and <testsuites>:\n%.200s", b.String())
			}
			var doc readSuites
			if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
				t.Fatalf("not XML: %v\n%s", err, b.String())
			}
			counts := func(what string, tests, failures, errors, skipped *int) {
				t.Helper()
				got := []*int{tests, failures, errors, skipped}
				want := []int{len(r.Checks), r.Failed, 0, r.Skipped}
				for i, label := range []string{"tests", "failures", "errors", "skipped"} {
					if got[i] == nil || *got[i] != want[i] {
						t.Errorf("%s %s = %s, want %d", what, label, show(got[i]), want[i])
					}
				}
			}
			counts("testsuites", doc.Tests, doc.Failures, doc.Errors, doc.Skipped)
			if len(doc.Suites) != 1 {
				t.Fatalf("%d testsuites, want 1", len(doc.Suites))
			}
			s := doc.Suites[0]
			counts("testsuite", s.Tests, s.Failures, s.Errors, s.Skipped)
			if s.Name != r.Target {
				t.Errorf("testsuite name %q, want the target %q", s.Name, r.Target)
			}
			props := map[string]string{}
			for _, p := range s.Properties {
				props[p.Name] = p.Value
			}
			if props["digest"] != r.Digest || props["about"] != r.About ||
				props["reportedFpr"] != strconv.FormatFloat(r.ReportedFPR, 'f', 6, 64) {
				t.Errorf("properties %v, want about, digest and reportedFpr of the report", props)
			}
			if len(s.Cases) != len(r.Checks) {
				t.Fatalf("%d testcases, want %d", len(s.Cases), len(r.Checks))
			}
			for i, o := range r.Checks {
				c := s.Cases[i]
				if c.Name != o.ID || c.Classname != o.Group {
					t.Errorf("testcase %d is %q in %q, want %q in %q", i, c.Name, c.Classname, o.ID, o.Group)
				}
				if c.Error != nil {
					t.Errorf("%s: an <error>; a check fails or is skipped, never errs", o.ID)
				}
				switch {
				case o.Skipped:
					if c.Skipped == nil || c.Skipped.Message != o.Detail || c.Failure != nil {
						t.Errorf("%s: skipped check written as %+v, want <skipped message=%q>", o.ID, c, o.Detail)
					}
				case o.Pass:
					if c.Failure != nil || c.Skipped != nil {
						t.Errorf("%s: passed check written as %+v", o.ID, c)
					}
				default:
					if c.Failure == nil || c.Failure.Message != o.Detail || c.Skipped != nil ||
						!strings.Contains(c.Failure.Text, o.Contract) {
						t.Errorf("%s: failed check written as %+v, want <failure message=%q>", o.ID, c, o.Detail)
					}
				}
			}
		})
	}
}

// TestWriteTAP reads the TAP stream line by line: the version, the plan,
// then one test line per check in order, with a YAML block after each
// failure and a SKIP directive on each skip.
func TestWriteTAP(t *testing.T) {
	for _, tt := range reports(t) {
		r := tt.r
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := writeTAP(r, &b); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
			if len(lines) < 2 || lines[0] != "TAP version 13" || lines[1] != fmt.Sprintf("1..%d", len(r.Checks)) {
				t.Fatalf("TAP should open with the version and the plan 1..%d:\n%.200s", len(r.Checks), b.String())
			}
			next := 2
			for i, o := range r.Checks {
				if next >= len(lines) {
					t.Fatalf("the stream ends before check %d, %s", i+1, o.ID)
				}
				line := lines[next]
				next++
				id := strings.ReplaceAll(o.ID, "#", `\#`)
				var want string
				switch {
				case o.Skipped:
					reason := strings.ReplaceAll(strings.TrimPrefix(o.Detail, "skipped: "), "#", `\#`)
					want = fmt.Sprintf("ok %d - %s # SKIP %s", i+1, id, reason)
				case o.Pass:
					want = fmt.Sprintf("ok %d - %s", i+1, id)
				default:
					want = fmt.Sprintf("not ok %d - %s", i+1, id)
				}
				if line != want {
					t.Errorf("line %d is %q, want %q", next, line, want)
				}
				if o.Skipped || o.Pass {
					continue
				}
				block := map[string]string{}
				if next >= len(lines) || lines[next] != "  ---" {
					t.Errorf("%s: not ok without a YAML block", o.ID)
					continue
				}
				for next++; next < len(lines) && lines[next] != "  ..."; next++ {
					k, v, ok := strings.Cut(strings.TrimPrefix(lines[next], "  "), ": ")
					if !ok || !strings.HasPrefix(lines[next], "  ") {
						t.Errorf("%s: YAML line %q is not an indented key: value", o.ID, lines[next])
					}
					block[k] = v
				}
				next++ // the closing "  ..."
				if msg, err := strconv.Unquote(block["message"]); err != nil || msg != o.Detail || block["severity"] != "fail" {
					t.Errorf("%s: YAML block %v, want message %q and severity fail", o.ID, block, o.Detail)
				}
			}
			for _, line := range lines[next:] {
				if !strings.HasPrefix(line, "# ") {
					t.Errorf("after the checks only comments may follow, got %q", line)
				}
			}
			summary := "# " + wantSummary(r)
			if last := lines[len(lines)-1]; last != summary {
				t.Errorf("last line %q, want %q", last, summary)
			}
		})
	}
}

// Example_writeTAP shows a skipped check's directive and a failed
// check's YAML block.
func Example_writeTAP() {
	r := audit.Report{
		Target: "mine",
		About:  "a filter under test",
		Checks: []audit.Outcome{
			{ID: "a", Group: audit.GroupNegatives, Contract: "no misses", Pass: true, Detail: "0 missed"},
			{ID: "b", Group: audit.GroupIndices, Contract: "indices in [0, m)", Detail: "index 40000 at m = 40000"},
			{ID: "c", Group: audit.GroupIdempotent, Contract: "duplicates change nothing", Skipped: true, Closed: true,
				Detail: "skipped: needs raw storage (Words), which mine does not show"},
		},
		Passed: 1, Failed: 1, Skipped: 1, Total: 3, Digest: "d1", Lab: "bloomlab v1.2.0 (go1.26.8)",
	}
	writeTAP(r, os.Stdout)
	// Output:
	// TAP version 13
	// 1..3
	// ok 1 - a
	// not ok 2 - b
	//   ---
	//   message: "index 40000 at m = 40000"
	//   severity: fail
	//   group: "indices in range"
	//   contract: "indices in [0, m)"
	//   ...
	// ok 3 - c # SKIP needs raw storage (Words), which mine does not show
	// # mine: a filter under test
	// # digest d1
	// # run by bloomlab v1.2.0 (go1.26.8)
	// # 1/2 checks passed, 1 skipped (all 2 checks open to mine ran)
}

// Example_writeJUnit shows the JUnit XML that CI test reports read.
func Example_writeJUnit() {
	r := audit.Report{
		Target: "mine",
		About:  "a filter under test",
		Checks: []audit.Outcome{
			{ID: "a", Group: audit.GroupNegatives, Contract: "no misses", Pass: true, Detail: "0 missed"},
			{ID: "b", Group: audit.GroupIndices, Contract: "indices in [0, m)", Detail: "index 40000 at m = 40000"},
			{ID: "c", Group: audit.GroupIdempotent, Contract: "duplicates change nothing", Skipped: true, Closed: true,
				Detail: "skipped: needs raw storage (Words), which mine does not show"},
		},
		Passed: 1, Failed: 1, Skipped: 1, Total: 3, Digest: "d1", ReportedFPR: 0.0081, Lab: "bloomlab v1.2.0 (go1.26.8)",
	}
	writeJUnit(r, os.Stdout)
	// Output:
	// <?xml version="1.0" encoding="UTF-8"?>
	// <testsuites name="Bloom Lab audit" tests="3" failures="1" errors="0" skipped="1">
	//   <testsuite name="mine" tests="3" failures="1" errors="0" skipped="1">
	//     <properties>
	//       <property name="about" value="a filter under test"></property>
	//       <property name="digest" value="d1"></property>
	//       <property name="reportedFpr" value="0.008100"></property>
	//       <property name="lab" value="bloomlab v1.2.0 (go1.26.8)"></property>
	//     </properties>
	//     <testcase name="a" classname="no false negatives"></testcase>
	//     <testcase name="b" classname="indices in range">
	//       <failure message="index 40000 at m = 40000" type="contract">indices in [0, m): index 40000 at m = 40000</failure>
	//     </testcase>
	//     <testcase name="c" classname="idempotent duplicates">
	//       <skipped message="skipped: needs raw storage (Words), which mine does not show"></skipped>
	//     </testcase>
	//   </testsuite>
	// </testsuites>
}

func show(p *int) string {
	if p == nil {
		return "missing"
	}
	return strconv.Itoa(*p)
}

func TestWriteTextMarksSkips(t *testing.T) {
	for _, tt := range reports(t) {
		r := tt.r
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := r.WriteText(&b); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if want := fmt.Sprintf("Bloom Lab audit: %s (%s)", r.About, r.Target); lines[0] != want {
				t.Errorf("heading %q, want %q", lines[0], want)
			}
			last := wantSummary(r)
			if lines[len(lines)-1] != last {
				t.Errorf("last line %q, want %q", lines[len(lines)-1], last)
			}
			if !strings.Contains(out, "\ndigest "+r.Digest+"\n") {
				t.Errorf("text lacks the digest %s", r.Digest)
			}
			type count struct{ passed, ran, skipped int }
			groups := map[string]*count{}
			for _, o := range r.Checks {
				c := groups[o.Group]
				if c == nil {
					c = &count{}
					groups[o.Group] = c
				}
				mark := "FAIL"
				switch {
				case o.Skipped:
					mark = "SKIP"
					c.skipped++
				case o.Pass:
					mark = "PASS"
					c.passed++
					c.ran++
				default:
					c.ran++
				}
				if !strings.Contains(out, mark+"  "+o.ID+": "+o.Contract+"\n      "+o.Detail+"\n") {
					t.Errorf("text lacks %s  %s with its contract and detail", mark, o.ID)
				}
			}
			for g, c := range groups {
				want := fmt.Sprintf("\n%s: %d/%d passed", g, c.passed, c.ran)
				if c.skipped > 0 {
					want += fmt.Sprintf(", %d skipped", c.skipped)
				}
				if !strings.Contains(out, want+"\n") {
					t.Errorf("text lacks the group line %q", want[1:])
				}
			}
		})
	}
}

// TestWriteJSONRoundTrip reads the JSON back into a Report: every field,
// skipped marks included, survives.
func TestWriteJSONRoundTrip(t *testing.T) {
	for _, tt := range reports(t) {
		r := tt.r
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := r.WriteJSON(&b); err != nil {
				t.Fatal(err)
			}
			var got audit.Report
			if err := json.Unmarshal(b.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, r) {
				t.Errorf("JSON does not round-trip the report:\n%s", b.String())
			}
		})
	}
}

// wantSummary is the summary line a report's counts call for, written out
// here rather than asked of Summary.
func wantSummary(r audit.Report) string {
	ran := r.Passed + r.Failed
	if r.Skipped == 0 {
		return fmt.Sprintf("%d/%d checks passed", r.Passed, ran)
	}
	open := 0
	for _, o := range r.Checks {
		if !o.Closed {
			open++
		}
	}
	if ran == open {
		return fmt.Sprintf("%d/%d checks passed, %d skipped (all %d checks open to %s ran)", r.Passed, ran, r.Skipped, ran, r.Target)
	}
	return fmt.Sprintf("%d/%d checks passed, %d skipped (%d of the %d checks open to %s ran)", r.Passed, ran, r.Skipped, ran, open, r.Target)
}
