package auditcli

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bloomlab/bloomlab/audit"
	"github.com/bloomlab/bloomlab/cmd/internal/buildinfo"
	"github.com/bloomlab/bloomlab/core"
)

const prog = "bloomlab audit"

// run runs the audit command with args and returns its exit status, stdout
// and stderr.
func run(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := Main(prog, args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// summary matches the text report's last line.
var summary = regexp.MustCompile(`^(\d+)/(\d+) checks passed(, (\d+) skipped \((all \d+|\d+ of the \d+) checks open to \S+ ran\))?$`)

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

// passed reads the last line of a text report: the checks passed and run.
func passed(t *testing.T, out string) (p, n int) {
	t.Helper()
	m := summary.FindStringSubmatch(lastLine(out))
	if m == nil {
		t.Fatalf("last line %q, want N/M checks passed", lastLine(out))
	}
	p, _ = strconv.Atoi(m[1])
	n, _ = strconv.Atoi(m[2])
	return p, n
}

// TestTarget maps the flags' values to the lab's targets without running
// an audit: an empty --variant takes the layout the fault lives in.
// underRace is set when the race detector is on: the tests that run whole
// audits skip there, ten times slower with nothing for the detector to
// find; make test runs them natively.
var underRace bool

// wholeAudits skips t under the race detector.
func wholeAudits(t *testing.T) {
	t.Helper()
	if underRace {
		t.Skip("runs whole audits: run without -race (make test does)")
	}
}

func TestTarget(t *testing.T) {
	t.Parallel()
	tests := []struct{ variant, fault, hashing, want string }{
		{"", "none", "double", "lab/standard"},
		{"", "", "", "lab/standard"},
		{"blocked", "none", "double", "lab/blocked"},
		{"counting", "none", "enhanced", "lab/counting/enhanced-hashing"},
		{"", "none", "independent", "lab/standard/independent-hashing"},
		{"", "one-hash", "double", "lab/standard/one-hash"},
		{"", "wrap-counters", "double", "lab/counting/wrap-counters"},
		{"blocked", "k-ceil", "double", "lab/blocked/k-ceil"},
	}
	for _, tt := range tests {
		got, msg := target(tt.variant, tt.fault, tt.hashing)
		if msg != "" || got.Name != tt.want || got.New == nil {
			t.Errorf("--variant %q --fault %q --hashing %q: target %q (%s), want %s",
				tt.variant, tt.fault, tt.hashing, got.Name, msg, tt.want)
		}
	}
}

// TestReports runs the audit of the real filter and of a broken one: exit
// status 0 and 1, and the text report naming the target.
func TestReports(t *testing.T) {
	wholeAudits(t)
	t.Parallel()
	tests := []struct {
		args   []string
		code   int
		target string
		check  func(t *testing.T, p, n int, out string)
	}{
		{nil, 0, "lab/standard", func(t *testing.T, p, n int, _ string) {
			if p != n || n < 80 {
				t.Errorf("%d/%d checks passed, want every one of at least 80", p, n)
			}
		}},
		{[]string{"--fault", "one-hash"}, 1, "lab/standard/one-hash", func(t *testing.T, p, n int, out string) {
			if p >= n || !strings.Contains(out, "\nFAIL  statistics/fpr/") {
				t.Errorf("%d/%d checks passed, want a rate check failed", p, n)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			t.Parallel()
			code, out, errOut := run(tt.args...)
			if code != tt.code {
				t.Errorf("%s %s: exit %d, want %d\nstderr: %s", prog, strings.Join(tt.args, " "), code, tt.code, errOut)
			}
			if errOut != "" {
				t.Errorf("stderr should be empty, got %q", errOut)
			}
			first, _, _ := strings.Cut(out, "\n")
			if !strings.HasPrefix(first, "Bloom Lab audit: ") || !strings.HasSuffix(first, " ("+tt.target+")") {
				t.Errorf("heading %q should name the target %s", first, tt.target)
			}
			p, n := passed(t, out)
			tt.check(t, p, n, out)
		})
	}
}

// TestJUnit reads the JUnit report of a broken filter: the exit status is
// still 1, and the counts agree with the testcases.
func TestJUnit(t *testing.T) {
	wholeAudits(t)
	t.Parallel()
	code, out, errOut := run("--format", "junit", "--fault", "one-hash")
	if code != 1 {
		t.Errorf("exit %d, want 1 for a broken filter\nstderr: %s", code, errOut)
	}
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Skipped  int `xml:"skipped,attr"`
		Suites   []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name    string    `xml:"name,attr"`
				Failure *struct{} `xml:"failure"`
				Skipped *struct{} `xml:"skipped"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not XML: %v\n%.300s", err, out)
	}
	if len(doc.Suites) != 1 || doc.Suites[0].Name != "lab/standard/one-hash" {
		t.Fatalf("want one testsuite named lab/standard/one-hash:\n%.300s", out)
	}
	failures, skipped := 0, 0
	for _, c := range doc.Suites[0].Cases {
		if c.Failure != nil {
			failures++
		}
		if c.Skipped != nil {
			skipped++
		}
	}
	if doc.Tests != len(doc.Suites[0].Cases) || doc.Failures != failures || doc.Skipped != skipped || failures == 0 {
		t.Errorf("tests %d, failures %d, skipped %d; the testcases show %d, %d failed, %d skipped",
			doc.Tests, doc.Failures, doc.Skipped, len(doc.Suites[0].Cases), failures, skipped)
	}
}

// TestTAP reads the TAP report of the real filter: the plan, then every
// line ok, numbered in order.
func TestTAP(t *testing.T) {
	wholeAudits(t)
	t.Parallel()
	code, out, errOut := run("--format", "tap")
	if code != 0 {
		t.Errorf("exit %d, want 0\nstderr: %s", code, errOut)
	}
	lines := strings.Split(out, "\n")
	if len(lines) < 3 || lines[0] != "TAP version 13" || !strings.HasPrefix(lines[1], "1..") {
		t.Fatalf("TAP should open with the version and the plan:\n%.200s", out)
	}
	plan, err := strconv.Atoi(strings.TrimPrefix(lines[1], "1.."))
	if err != nil || plan < 80 {
		t.Fatalf("plan %q, want 1..N with N >= 80", lines[1])
	}
	n := 0
	for _, line := range lines[2:] {
		if strings.HasPrefix(line, "not ok ") {
			t.Errorf("the real filter failed: %s", line)
		}
		if strings.HasPrefix(line, "ok ") || strings.HasPrefix(line, "not ok ") {
			n++
			if want := "ok " + strconv.Itoa(n) + " - "; !strings.HasPrefix(line, want) {
				t.Errorf("test line %q, want it to start %q", line, want)
			}
		}
	}
	if n != plan {
		t.Errorf("%d test lines, plan 1..%d", n, plan)
	}
}

// TestJSONShorthand: --json is --format json, byte for byte, alone or
// beside it (left out with -short, to save a third audit).
func TestJSONShorthand(t *testing.T) {
	wholeAudits(t)
	t.Parallel()
	runs := [][]string{{"--json"}, {"--format", "json"}, {"--format=json", "--json"}}
	if testing.Short() {
		runs = runs[:2]
	}
	outs := make([]string, len(runs))
	for i, args := range runs {
		code, out, errOut := run(args...)
		if code != 0 {
			t.Fatalf("%s %s: exit %d, want 0\nstderr: %s", prog, strings.Join(args, " "), code, errOut)
		}
		outs[i] = out
	}
	for i := range outs[1:] {
		if outs[i+1] != outs[0] {
			t.Errorf("%s printed another report than --json", strings.Join(runs[i+1], " "))
		}
	}
	var r struct {
		Target                         string
		Passed, Failed, Skipped, Total int
		Checks                         []struct{ ID string }
		Digest                         string
		Lab                            string
	}
	if err := json.Unmarshal([]byte(outs[0]), &r); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if r.Target != "lab/standard" || r.Failed != 0 || r.Passed+r.Skipped != r.Total || r.Total != len(r.Checks) || r.Digest == "" {
		t.Errorf("JSON report of %q: %d/%d passed, %d checks, digest %q", r.Target, r.Passed, r.Total, len(r.Checks), r.Digest)
	}
	if want := buildinfo.Read().String(); r.Lab != want {
		t.Errorf("the report names the lab %q, want %q", r.Lab, want)
	}
}

func TestFaults(t *testing.T) {
	t.Parallel()
	code, out, errOut := run("--faults")
	if code != 0 || errOut != "" {
		t.Fatalf("--faults: exit %d, stderr %q", code, errOut)
	}
	got := strings.Fields(out)
	if len(got) != len(core.Faults) {
		t.Fatalf("--faults listed %d names, the zoo has %d: %q", len(got), len(core.Faults), out)
	}
	for i, f := range core.Faults {
		if got[i] != string(f) {
			t.Errorf("name %d is %q, want %q", i, got[i], f)
		}
	}
}

// TestUsageErrors: a bad flag gets exit status 2, one line naming the flag
// and what it allows, then the usage, and nothing on stdout.
func TestUsageErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		args  []string
		words []string // each in the error line
	}{
		{"unknown fault", []string{"--fault", "bogus"}, []string{"--fault", `"bogus"`, "one-hash"}},
		{"fault without a name", []string{"--fault"}, []string{"--fault needs a value", "negative-index"}},
		{"unknown flag", []string{"--bogus"}, []string{"unknown flag --bogus", "--format", "--json", "--variant", "--faults"}},
		{"bad boolean", []string{"--json=maybe"}, []string{"--json:", "maybe"}},
		{"unknown scheme", []string{"--hashing", "triple"}, []string{`--hashing must be double, enhanced or independent, got "triple"`}},
		{"scheme without a name", []string{"--hashing"}, []string{"--hashing needs a value: double, enhanced or independent"}},
		{"unknown format", []string{"--format", "xml"}, []string{`--format must be text, json, junit or tap, got "xml"`}},
		{"format without a name", []string{"--format"}, []string{"--format needs a value: text, json, junit or tap"}},
		{"json and another format", []string{"--json", "--format", "tap"}, []string{"--json", "--format tap"}},
		{"json and text", []string{"--format", "text", "--json"}, []string{"--json", "--format text"}},
		{"unknown variant", []string{"--variant", "quotient"}, []string{`--variant must be standard, blocked, counting, cuckoo, cuckoo-ss, fuse, ribbon, ribbon-128 or scalable, got "quotient"`}},
		{"variant without a name", []string{"--variant"}, []string{"--variant needs a value: standard, blocked, counting, cuckoo, cuckoo-ss, fuse, ribbon, ribbon-128 or scalable"}},
		{"fault in another layout", []string{"--variant", "counting", "--fault", "negative-index"},
			[]string{"--variant counting", "negative-index", "standard"}},
		{"counter fault in bits", []string{"--variant", "blocked", "--fault", "wrap-counters"},
			[]string{"--variant blocked", "wrap-counters", "counting"}},
		{"scheme a fault breaks", []string{"--fault", "one-hash", "--hashing", "enhanced"},
			[]string{"--hashing enhanced", "one-hash", "double hashing"}},
		{"scheme of the blocked filter", []string{"--variant", "blocked", "--hashing", "independent"},
			[]string{"--hashing independent", "blocked"}},
		// --faults lists the zoo; a flag beside it would be ignored.
		{"faults with json", []string{"--json", "--faults"}, []string{"--faults lists the zoo and takes no other flag, got --json"}},
		{"faults with a fault", []string{"--fault", "off-by-one", "--faults"}, []string{"--faults", "got --fault"}},
		{"faults with a format", []string{"--faults", "--format", "tap"}, []string{"--faults", "got --format"}},
		{"stray argument", []string{"now"}, []string{`unexpected argument "now"`}},
		{"exec without a program", []string{"--exec"}, []string{"--exec needs the program to audit after --"}},
		{"exec and the lab's fault", []string{"--fault", "off-by-one", "--exec", "--", "node", "a.js"},
			[]string{"--fault chooses the lab's own filter; --exec audits the program's"}},
		{"exec and the lab's layout", []string{"--exec", "--variant", "blocked", "--", "node"}, []string{"--variant chooses the lab's own filter"}},
		{"exec timeout too short", []string{"--exec-timeout", "1us", "--exec", "--", "node"}, []string{"--exec-timeout must be from 1ms to 1h, got 1µs"}},
		{"exec timeout alone", []string{"--exec-timeout", "5s"}, []string{"--exec-timeout bounds the requests of --exec"}},
		{"exec timeout without a value", []string{"--exec-timeout"}, []string{"--exec-timeout needs a value: a duration such as 30s"}},
		{"exec where no program can start", []string{"--exec", "--", "node", "a.js"}, []string{"--exec starts a program", "bloomlab audit --exec can"}},
		{"exec timeout not a duration", []string{"--exec-timeout", "soon", "--exec", "--", "node"}, []string{"--exec-timeout", "soon"}},
		{"unknown group", []string{"--group", "speed"}, []string{`--group must be one of no-false-negatives,`, "determinism", `got "speed"`}},
		{"group without a name", []string{"--group"}, []string{"--group needs a value: no-false-negatives,"}},
		{"run not a regexp", []string{"--run", "fpr/("}, []string{"--run needs a regular expression over the check IDs", `"fpr/("`}},
		{"run empty", []string{"--run", ""}, []string{"--run needs a regular expression"}},
		{"run keeps nothing", []string{"--run", "^nothing$"}, []string{"--run ^nothing$ keeps none of the"}},
		{"against nothing kept", []string{"--against", "testdata/none"}, []string{"--against: testdata/none holds no kept filters (kept.json from --keep)"}},
		{"keep without a directory", []string{"--keep"}, []string{"--keep needs a value: a directory"}},
		{"keep an empty name", []string{"--keep", ""}, []string{"--keep needs the directory"}},
		{"group and run keep nothing", []string{"--group", "statistics", "--run", "seed-high"}, []string{"--group statistics --run seed-high keeps none of the"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, out, errOut := run(tt.args...)
			if code != 2 {
				t.Errorf("%s %s: exit %d, want 2", prog, strings.Join(tt.args, " "), code)
			}
			first, rest, _ := strings.Cut(errOut, "\n")
			if !strings.HasPrefix(first, prog+": ") || !strings.HasPrefix(rest, "usage: "+prog+" ") {
				t.Errorf("stderr should be one error line then usage, got:\n%s", errOut)
			}
			for _, w := range tt.words {
				if !strings.Contains(first, w) {
					t.Errorf("error line %q should mention %q", first, w)
				}
			}
			if out != "" {
				t.Errorf("stdout should be empty, got %q", out)
			}
		})
	}
}

func TestHelp(t *testing.T) {
	t.Parallel()
	for _, arg := range []string{"-h", "--help"} {
		code, out, errOut := run(arg)
		if code != 0 || out != "" {
			t.Errorf("%s: exit %d, stdout %q", arg, code, out)
		}
		if want := "usage: " + prog + " [--format FORMAT] [--json] [--run REGEX] [--group NAME] [--keep DIR] [--against DIR]\n"; !strings.HasPrefix(errOut, want) {
			t.Errorf("%s: usage starts %q, want %q", arg, errOut[:min(len(errOut), len(want))], want)
		}
		for _, f := range []string{"--format", "junit", "tap", "--run", "--group", "--variant", "--fault", "--hashing", "--faults", "--keep", "--against"} {
			if !strings.Contains(errOut, f) {
				t.Errorf("%s: usage does not mention %s", arg, f)
			}
		}
	}
}

// failingWriter refuses every write, as a closed pipe would.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

// TestWriteError: a report that cannot be written is a failure, said on
// stderr, even when every check passed.
func TestWriteError(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a whole audit to fail at the last step; left out with -short")
	}
	t.Parallel()
	var errOut bytes.Buffer
	if code := Main(prog, []string{"--format", "tap"}, failingWriter{}, &errOut); code != 1 {
		t.Errorf("exit %d, want 1 when stdout refuses the report", code)
	}
	if !strings.Contains(errOut.String(), "broken pipe") {
		t.Errorf("stderr %q should say why the report was not written", errOut.String())
	}
}

// --run and --group narrow the audit to the checks being debugged, for the
// lab's filter and programs alike: the report holds those alone, says so,
// and counts them.
func TestNarrowing(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args []string
		want func(c audit.Check) bool
		says string
	}{
		{[]string{"--group", "indices-in-range"}, func(c audit.Check) bool { return c.Group == audit.GroupIndices }, "--group indices-in-range: "},
		{[]string{"--group", "Statistics", "--run", "past-n"}, func(c audit.Check) bool {
			return c.Group == audit.GroupStatistics && strings.Contains(c.ID, "past-n")
		}, "--group statistics --run past-n: "},
		{[]string{"--run", "seed"}, func(c audit.Check) bool { return strings.Contains(c.ID, "seed") }, "--run seed: "},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			t.Parallel()
			code, out, errOut := run(append([]string{"--json"}, tt.args...)...)
			var r audit.Report
			if err := json.Unmarshal([]byte(out), &r); err != nil || code != 0 {
				t.Fatalf("exit %d, %v; stderr %s", code, err, errOut)
			}
			var want []string
			for _, c := range audit.Checks() {
				if tt.want(c) {
					want = append(want, c.ID)
				}
			}
			var got []string
			for _, o := range r.Checks {
				got = append(got, o.ID)
			}
			if !slices.Equal(got, want) || r.Total != len(want) || r.Passed+r.Failed+r.Skipped != len(want) {
				t.Errorf("ran %v (total %d), want %v", got, r.Total, want)
			}
			if w := fmt.Sprintf("%s%d of %d checks", tt.says, len(want), len(audit.Checks())); r.Narrowed != w {
				t.Errorf("narrowed %q, want %q", r.Narrowed, w)
			}
		})
	}
}

// Every format writes a whole report whatever happens: a program that
// cannot start or botches its handshake is one failed check, start/handshake,
// with its answer, and exit 2; a target that refuses the audit's first
// filter is one failed check, start/first-filter, and exit 1.
func TestReportsOnEveryPath(t *testing.T) {
	t.Parallel()
	handshake := func(context.Context, []string, time.Duration) (audit.Target, func(), error) {
		return audit.Target{}, nil, errors.New(`program: program x: to "bloomlab-audit 1" it answered "hi", want "hello NAME"; its stderr ends: x: starting`)
	}
	refusing := func(context.Context, []string, time.Duration) (audit.Target, func(), error) {
		return audit.Target{Name: "tiny", About: "a filter that takes nothing", New: func(audit.Shape) (audit.Filter, error) {
			return nil, audit.Refusal{Reason: "no room"}
		}}, func() {}, nil
	}
	for _, c := range []struct {
		name   string
		exec   func(context.Context, []string, time.Duration) (audit.Target, func(), error)
		code   int
		id     string
		detail string
	}{
		{"handshake", handshake, 2, "start/handshake", `answered "hi", want "hello NAME"; its stderr ends: x: starting`},
		{"first filter", refusing, 1, "start/first-filter", "refused: no room"},
	} {
		for format := range formats {
			t.Run(c.name+"/"+format, func(t *testing.T) {
				t.Parallel()
				var out, errOut bytes.Buffer
				code := MainWith(context.Background(), prog, []string{"--format", format, "--exec", "--", "./x"}, &out, &errOut, Options{Exec: c.exec})
				if code != c.code || !strings.Contains(errOut.String(), c.detail) {
					t.Errorf("exit %d, want %d; stderr %q", code, c.code, errOut.String())
				}
				text := out.String()
				switch format {
				case "json":
					var r audit.Report
					if err := json.Unmarshal(out.Bytes(), &r); err != nil || len(r.Checks) != 1 || r.Checks[0].ID != c.id || r.Failed != 1 || !strings.Contains(r.Checks[0].Detail, c.detail) {
						t.Errorf("JSON report %v: %s", err, text)
					}
				case "junit":
					var doc struct {
						Failures int `xml:"failures,attr"`
						Cases    []struct {
							Name    string `xml:"name,attr"`
							Failure struct {
								Message string `xml:"message,attr"`
							} `xml:"failure"`
						} `xml:"testsuite>testcase"`
					}
					if err := xml.Unmarshal(out.Bytes(), &doc); err != nil || doc.Failures != 1 || len(doc.Cases) != 1 || doc.Cases[0].Name != c.id ||
						!strings.Contains(doc.Cases[0].Failure.Message, c.detail) {
						t.Errorf("JUnit report %v: %s", err, text)
					}
				case "tap":
					if !strings.HasPrefix(text, "TAP version 13\n1..1\nnot ok 1 - "+c.id+"\n") || !strings.Contains(text, "# 0/1 checks passed\n") {
						t.Errorf("TAP report:\n%s", text)
					}
				case "text":
					if !strings.Contains(text, "FAIL  "+c.id+": ") || !strings.Contains(text, c.detail) || lastLine(text) != "0/1 checks passed" {
						t.Errorf("text report:\n%s", text)
					}
				}
			})
		}
	}
}
