package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"bloomlab/core"
)

// Regenerate the pinned digests after an intended change with
//
//	go test ./audit -run TestDigestGolden -update
//
// then check that GOOS=js GOARCH=wasm go test ./audit (under Node) agrees.
var update = flag.Bool("update", false, "rewrite testdata/digest.golden with the digests of this run")

const goldenPath = "testdata/digest.golden"

// zoo runs the audit once per fault (the real filter first) and shares the
// reports between tests; the faults run concurrently.
var zoo = sync.OnceValue(func() map[core.Fault]Report {
	faults := append([]core.Fault{core.NoFault}, core.Faults...)
	reports := make([]Report, len(faults))
	errs := make([]error, len(faults))
	var wg sync.WaitGroup
	for i, f := range faults {
		wg.Go(func() { reports[i], errs[i] = Run(Target{Fault: f}, nil) })
	}
	wg.Wait()
	out := map[core.Fault]Report{}
	for i, f := range faults {
		if errs[i] != nil {
			panic(fmt.Sprintf("audit of %s: %v", f, errs[i]))
		}
		out[f] = reports[i]
	}
	return out
})

func TestChecksAreWellFormed(t *testing.T) {
	checks := Checks()
	if len(checks) < 88 {
		t.Errorf("%d checks, want at least 88", len(checks))
	}
	prefix := map[string]string{GroupNegatives: "no-false-negatives/", GroupIndices: "index-range/",
		GroupIdempotent: "idempotent/", GroupAccounting: "accounting/", GroupFormulas: "formulas/",
		GroupHashing: "hashing/", GroupStatistics: "statistics/", GroupDeterminism: "determinism/"}
	seen := map[string]bool{}
	perGroup := map[string]int{}
	last := 0
	for _, c := range checks {
		g := slices.Index(Groups, c.Group)
		switch {
		case g < 0:
			t.Errorf("%s: unknown group %q", c.ID, c.Group)
		case g < last:
			t.Errorf("%s: group %q listed after group %q", c.ID, c.Group, Groups[last])
		case !strings.HasPrefix(c.ID, prefix[c.Group]):
			t.Errorf("%s: ID should start with %q in group %q", c.ID, prefix[c.Group], c.Group)
		}
		last = max(last, g)
		if seen[c.ID] {
			t.Errorf("%s: duplicate ID", c.ID)
		}
		seen[c.ID] = true
		if c.Contract == "" || strings.Contains(c.Contract, "\n") || c.Run == nil {
			t.Errorf("%s: needs a one-line contract and a run function", c.ID)
		}
		perGroup[c.Group]++
	}
	for _, g := range Groups {
		if perGroup[g] == 0 {
			t.Errorf("group %q has no checks", g)
		}
	}
	t.Logf("%d checks: %v", len(checks), perGroup)
}

func TestRealFilterPassesEveryCheck(t *testing.T) {
	r := zoo()[core.NoFault]
	for _, o := range r.Checks {
		if !o.Pass {
			t.Errorf("%s failed on the real filter: %s", o.ID, o.Detail)
		}
	}
	if r.Passed != r.Total || r.Total != len(Checks()) || !r.AllPassed() {
		t.Errorf("report says %d/%d passed of %d checks", r.Passed, r.Total, len(Checks()))
	}
}

// TestZooIsCaught is the audit's reason to exist: every broken filter in the
// zoo fails at least one check.
func TestZooIsCaught(t *testing.T) {
	for _, f := range core.Faults {
		t.Run(string(f), func(t *testing.T) {
			r := zoo()[f]
			var failed []string
			for _, o := range r.Checks {
				if !o.Pass {
					failed = append(failed, o.ID)
				}
			}
			if len(failed) == 0 {
				t.Fatalf("no check catches fault %s (%s)", f, f.Describe())
			}
			if r.Fault != string(f) || r.Passed != r.Total-len(failed) || r.AllPassed() {
				t.Errorf("report for %s: fault %q, %d/%d passed with %d failures", f, r.Fault, r.Passed, r.Total, len(failed))
			}
			t.Logf("%d checks catch %s: %s", len(failed), f, strings.Join(failed, " "))
		})
	}
}

// TestBrokenFilterLooksFine pins the lesson the lab teaches: a filter that
// writes outside its array reports a rate as good as the real one.
func TestBrokenFilterLooksFine(t *testing.T) {
	real, broken := zoo()[core.NoFault], zoo()[core.NegativeIndex]
	lo, hi := core.Wilson(uint64(math.Round(broken.ReportedFPR*4500)), 4500, core.Z999)
	if theory := core.Rate(40000, 4000, 7); theory < lo || theory > hi {
		t.Errorf("negative-index reported %.6f, outside the 99.9%% interval [%.6f, %.6f] around theory %.6f",
			broken.ReportedFPR, lo, hi, theory)
	}
	if broken.AllPassed() || !real.AllPassed() {
		t.Errorf("negative-index passed %d/%d, the real filter %d/%d", broken.Passed, broken.Total, real.Passed, real.Total)
	}
}

func TestRunIsDeterministic(t *testing.T) {
	a := zoo()[core.NoFault]
	b, err := Run(Target{Fault: core.NoFault}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Digest != b.Digest || !slices.Equal(a.Checks, b.Checks) {
		t.Errorf("two runs differ: digests %s and %s", a.Digest, b.Digest)
	}
	if c, _ := Run(Target{}, nil); c.Digest != a.Digest || c.Fault != string(core.NoFault) {
		t.Errorf("the empty fault should audit the real filter: %q %s", c.Fault, c.Digest)
	}
}

// TestDigestGolden pins the digest of every audit. It runs natively and
// under GOOS=js GOARCH=wasm with Node, so the two must agree.
func TestDigestGolden(t *testing.T) {
	reports := zoo()
	var got strings.Builder
	for _, f := range append([]core.Fault{core.NoFault}, core.Faults...) {
		fmt.Fprintf(&got, "%s %s\n", f, reports[f].Digest)
	}
	if *update {
		if err := os.WriteFile(goldenPath, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", goldenPath)
		return
	}
	want, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatalf("%v (regenerate with go test ./audit -run TestDigestGolden -update)", err)
	}
	if got.String() != string(want) {
		t.Errorf("digests changed:\n got:\n%s want:\n%s(if the change is intended, run go test ./audit -run TestDigestGolden -update)",
			got.String(), want)
	}
}

func TestProgressReportsAndCancels(t *testing.T) {
	total := len(Checks())
	var dones []int
	r, err := Run(Target{Fault: core.NoFault}, func(done, n int, last Outcome) error {
		if n != total || last.ID == "" {
			t.Errorf("progress(%d, %d, %q): want total %d and an outcome", done, n, last.ID, total)
		}
		dones = append(dones, done)
		return nil
	})
	if err != nil || len(dones) != total || dones[0] != 1 || dones[total-1] != total || r.Digest == "" {
		t.Fatalf("progress called %d times (want %d), err %v, digest %q", len(dones), total, err, r.Digest)
	}
	stop := errors.New("stop")
	r, err = Run(Target{Fault: core.NoFault}, func(done, n int, last Outcome) error {
		if done == 5 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || len(r.Checks) != 5 || r.Digest != "" {
		t.Errorf("cancelled at 5: err %v, %d outcomes, digest %q", err, len(r.Checks), r.Digest)
	}
}

func TestRunRejectsUnknownFault(t *testing.T) {
	_, err := Run(Target{Fault: "no-such-fault"}, nil)
	if err == nil || !strings.HasPrefix(err.Error(), "audit: ") || !strings.Contains(err.Error(), "one-hash") {
		t.Errorf("err = %v, want an audit error listing the faults", err)
	}
}

func TestRunSurvivesPanics(t *testing.T) {
	v := runCheck(Check{ID: "x", Run: func(Target) Verdict { panic("boom") }}, Target{Fault: core.NoFault})
	if v.Pass || !strings.Contains(v.Detail, "boom") {
		t.Errorf("a panicking check gave %+v", v)
	}
}

func TestWriteText(t *testing.T) {
	for _, f := range []core.Fault{core.NoFault, core.OneHash} {
		t.Run(string(f), func(t *testing.T) {
			r := zoo()[f]
			var b bytes.Buffer
			if err := r.WriteText(&b); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if want := fmt.Sprintf("%d/%d checks passed", r.Passed, r.Total); lines[len(lines)-1] != want {
				t.Errorf("last line %q, want %q", lines[len(lines)-1], want)
			}
			if !strings.Contains(out, "\ndigest "+r.Digest+"\n") || !strings.Contains(out, "(fault "+string(f)+")") {
				t.Errorf("text lacks the digest or the fault:\n%s", out)
			}
			for _, o := range r.Checks {
				mark := "PASS  "
				if !o.Pass {
					mark = "FAIL  "
				}
				if !strings.Contains(out, mark+o.ID+": "+o.Contract+"\n      "+o.Detail+"\n") {
					t.Errorf("text lacks %s%s", mark, o.ID)
				}
			}
		})
	}
}

func TestWriteJSON(t *testing.T) {
	r := zoo()[core.WeakHash]
	var b bytes.Buffer
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Fault  string `json:"fault"`
		Checks []struct {
			ID       *string `json:"id"`
			Contract *string `json:"contract"`
			Pass     *bool   `json:"pass"`
			Detail   *string `json:"detail"`
		} `json:"checks"`
		Passed, Total *int
		Digest        string   `json:"digest"`
		ReportedFPR   *float64 `json:"reportedFpr"`
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Fault != "weak-hash" || got.Passed == nil || *got.Passed != r.Passed || *got.Total != r.Total ||
		got.Digest != r.Digest || got.ReportedFPR == nil || len(got.Checks) != r.Total {
		t.Fatalf("JSON does not round-trip the report: %s", b.String())
	}
	for i, c := range got.Checks {
		if c.ID == nil || c.Contract == nil || c.Pass == nil || c.Detail == nil {
			t.Errorf("check %d lacks one of id, contract, pass, detail", i)
		}
	}
}

// TestDetailsArePlatformFree keeps floats in details at fixed decimals: a
// float printed with %v could differ in its last digits between platforms
// and move the digest.
func TestDetailsArePlatformFree(t *testing.T) {
	for _, o := range zoo()[core.NoFault].Checks {
		for _, word := range strings.Fields(o.Detail) {
			word = strings.Trim(word, ",;:()[]%")
			if i := strings.IndexByte(word, '.'); i >= 0 && len(word)-i-1 > 9 {
				t.Errorf("%s: detail has a long float %q: %s", o.ID, word, o.Detail)
			}
		}
	}
}

// The helpers below judge; they must be able to say no. Each gets a broken
// input and must fail it.
func TestHelpersCanFail(t *testing.T) {
	tests := []struct {
		name string
		v    Verdict
	}{
		{"rate above 1", unitInterval("x", func(m, n uint64, k int) float64 { return 1.5 })},
		{"rate NaN", unitInterval("x", func(m, n uint64, k int) float64 { return math.NaN() })},
		{"rate without keys", unitInterval("x", func(m, n uint64, k int) float64 { return 0.5 })},
		{"rate falling in n", monotoneInN("x", func(m, n uint64, k int) float64 { return 1 / (1 + float64(n)) })},
		{"rate rising in m", monotoneInM("x", func(m, n uint64, k int) float64 { return float64(m) / 1e6 })},
		{"clumped counts", chiSquare([]uint64{900, 10, 10, 10, 10, 10, 10, 10, 10, 10}, "x")},
		{"counts too even", chiSquare(slices.Repeat([]uint64{100}, 1000), "x")},
		{"ceil k", bestK(Target{Fault: core.KFromCeil}, 300000, 100000)},
		{"wrong target", target(Target{Fault: core.NoFault}, "0.01", "9.585", 8, "0.010039")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.v.Pass {
				t.Errorf("passed a broken input: %s", tt.v.Detail)
			}
		})
	}
}

// Figures print with significant digits: a rate of 2e-7 is not shown as
// 0.000000, in any fault's report.
func TestDetailsKeepTheirDigits(t *testing.T) {
	for f, r := range zoo() {
		for _, o := range r.Checks {
			if strings.Contains(o.Detail, "0.000000") {
				t.Errorf("%s under %s: %s", o.ID, f, o.Detail)
			}
		}
	}
}

// Every scheme passes the whole contract, each with its own pinned bits and
// a digest of its own; the report names the scheme.
func TestEverySchemePasses(t *testing.T) {
	t.Parallel()
	seen := map[string]core.Hashing{zoo()[core.NoFault].Digest: core.DoubleHashing}
	for _, h := range []core.Hashing{core.EnhancedDoubleHashing, core.IndependentHashing} {
		r, err := Run(Target{Fault: core.NoFault, Hashing: h}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range r.Checks {
			if !o.Pass {
				t.Errorf("%s hashing: %s failed: %s", h, o.ID, o.Detail)
			}
		}
		if r.Hashing != h || seen[r.Digest] != "" {
			t.Errorf("%s hashing: report names %q, digest %s (also %q's)", h, r.Hashing, r.Digest, seen[r.Digest])
		}
		seen[r.Digest] = h
	}
	if _, err := Run(Target{Hashing: "triple"}, nil); err == nil {
		t.Error("an unknown scheme was audited")
	}
}
