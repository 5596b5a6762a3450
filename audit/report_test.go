package audit_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"bloomlab/audit"
	"bloomlab/core"
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
				Skipped: true, Detail: "skipped: needs removal (Remove), which lab/standard/one-hash does not show"},
		},
		Passed: 2, Failed: 1, Skipped: 1, Total: 4,
		Digest:      "0123456789abcdef",
		ReportedFPR: 0.0123456789,
	}
}

// oneHash is a real audit of a broken filter: one hash reused for all k
// probes, which the rate checks catch.
var oneHash = sync.OnceValues(func() (audit.Report, error) {
	return audit.Run(audit.MustLab("", core.OneHash, ""), nil)
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
			last := fmt.Sprintf("%d/%d checks passed", r.Passed, r.Passed+r.Failed)
			if r.Skipped > 0 {
				last += fmt.Sprintf(", %d skipped", r.Skipped)
			}
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
