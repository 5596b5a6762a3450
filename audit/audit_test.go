package audit

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/bloomlab/bloomlab/core"
)

// Regenerate the pinned digests after an intended change with
//
//	go test ./audit -run TestDigestGolden -update
//
// then check that GOOS=js GOARCH=wasm go test ./audit (under Node) agrees.
var update = flag.Bool("update", false, "rewrite testdata/digest.golden with the digests of this run")

const goldenPath = "testdata/digest.golden"

// underRace is set when the race detector is on. The audits of the whole
// zoo are single-threaded arithmetic, ten times slower under the detector
// and with nothing for it to find, so the tests that need them skip there;
// make test runs them natively without it, and under Node.
var underRace bool

// wholeZoo skips t under the race detector.
func wholeZoo(t *testing.T) {
	t.Helper()
	if underRace {
		t.Skip("audits the whole zoo: run without -race (make test does)")
	}
}

// realReport is the audit of the real filter, shared by the tests that need only
// it.
var realReport = sync.OnceValue(func() Report {
	r, err := Run(MustLab(core.Variant{}, "", ""), nil)
	if err != nil {
		panic(err)
	}
	return r
})

// zoo runs the audit once per fault (the real filter first) and shares the
// reports between tests; the faults run concurrently.
var zoo = sync.OnceValue(func() map[core.Fault]Report {
	faults := core.Faults
	reports := make([]Report, len(faults))
	errs := make([]error, len(faults))
	var wg sync.WaitGroup
	for i, f := range faults {
		wg.Go(func() { reports[i], errs[i] = Run(MustLab(core.Variant{}, f, ""), nil) })
	}
	wg.Wait()
	out := map[core.Fault]Report{core.NoFault: realReport()}
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

// The real filter passes every check it can run. The standard filter
// cannot remove a key, so the removal check is skipped, with its reason;
// the counting filter runs it and passes.
func TestRealFilterPassesEveryCheck(t *testing.T) {
	r := realReport()
	wide := 0 // the checks of filters built past 2^32, which are not the lab's
	for _, c := range Checks() {
		if slices.Contains(c.Needs, NeedWide) {
			wide++
		}
	}
	for _, o := range r.Checks {
		if !o.Pass && !(o.Skipped && (o.ID == "no-false-negatives/remove-half" || strings.Contains(o.Detail, string(NeedWide)))) {
			t.Errorf("%s failed on the real filter: %s", o.ID, o.Detail)
		}
	}
	if r.Passed != r.Total-1-wide || r.Skipped != 1+wide || r.Failed != 0 || r.Total != len(Checks()) || !r.AllPassed() {
		t.Errorf("report says %d passed, %d failed, %d skipped of %d checks", r.Passed, r.Failed, r.Skipped, len(Checks()))
	}
	if underRace {
		return
	}
	c, err := Run(MustLab(core.CountingVariant, "", ""), nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Passed != c.Total-wide || !c.AllPassed() {
		for _, o := range c.Checks {
			if !o.Pass && !strings.Contains(o.Detail, string(NeedWide)) {
				t.Errorf("counting filter: %s: %s", o.ID, o.Detail)
			}
		}
	}
}

// TestZooIsCaught is the audit's reason to exist: every broken filter in the
// zoo fails at least one check.
func TestZooIsCaught(t *testing.T) {
	wholeZoo(t)
	for _, f := range core.Faults {
		t.Run(string(f), func(t *testing.T) {
			r := zoo()[f]
			var failed []string
			for _, o := range r.Checks {
				if !o.Pass && !o.Skipped {
					failed = append(failed, o.ID)
				}
			}
			if len(failed) == 0 {
				t.Fatalf("no check catches fault %s (%s)", f, f.Describe())
			}
			if !strings.HasSuffix(r.Target, "/"+string(f)) || r.Failed != len(failed) || r.AllPassed() {
				t.Errorf("report for %s: target %q, %d/%d passed with %d failures", f, r.Target, r.Passed, r.Total, len(failed))
			}
			t.Logf("%d checks catch %s: %s", len(failed), f, strings.Join(failed, " "))
		})
	}
}

// TestBrokenFilterLooksFine pins the lesson the lab teaches: a filter whose
// signed index loses its writes reports a rate better than theory while
// its members go missing, and only the order of the checks gives it away.
func TestBrokenFilterLooksFine(t *testing.T) {
	wholeZoo(t)
	real, broken := zoo()[core.NoFault], zoo()[core.NegativeIndex]
	lo, _ := core.Wilson(uint64(math.Round(broken.ReportedFPR*4500)), 4500, core.Z999)
	theory := core.Rate(40000, 4000, 7)
	if broken.ReportedFPR <= 0 || broken.ReportedFPR >= theory/4 {
		t.Errorf("negative-index reported %.6f, want a rate well below theory %.6f", broken.ReportedFPR, theory)
	}
	if lo >= theory {
		t.Errorf("negative-index's 99.9%% interval starts at %.6f, above theory %.6f", lo, theory)
	}
	negatives := 0
	for _, o := range broken.Checks {
		if o.Group == GroupNegatives && !o.Pass && !o.Skipped {
			negatives++
		}
	}
	if negatives == 0 || broken.AllPassed() || !real.AllPassed() {
		t.Errorf("negative-index failed %d no-false-negatives checks, passed %d/%d; the real filter %d/%d",
			negatives, broken.Passed, broken.Total, real.Passed, real.Total)
	}
}

func TestRunIsDeterministic(t *testing.T) {
	wholeZoo(t)
	a := realReport()
	b, err := Run(MustLab(core.Standard, core.NoFault, core.DoubleHashing), nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Digest != b.Digest || !slices.Equal(a.Checks, b.Checks) || a.Target != "lab/standard" {
		t.Errorf("two runs differ: digests %s and %s (%s)", a.Digest, b.Digest, a.Target)
	}
	if _, err := Run(Target{Name: "nothing"}, nil); err == nil || !strings.Contains(err.Error(), "no New") {
		t.Errorf("a target without New: err %v", err)
	}
}

// TestDigestGolden pins the digest of every audit. It runs natively and
// under GOOS=js GOARCH=wasm with Node, so the two must agree.
func TestDigestGolden(t *testing.T) {
	wholeZoo(t)
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
	if !underRace {
		total := len(Checks())
		var dones []int
		pauses := 0
		r, err := Run(MustLab(core.Variant{}, "", ""), func(done, n int, last Outcome) error {
			if n != total {
				t.Errorf("progress(%d, %d, %q): want total %d", done, n, last.ID, total)
			}
			if last.ID == "" {
				pauses++
				return nil
			}
			dones = append(dones, done)
			return nil
		})
		if pauses < 100 {
			t.Errorf("%d pauses inside long checks, want them every %d steps", pauses, pauseEvery)
		}
		if err != nil || len(dones) != total || dones[0] != 1 || dones[total-1] != total || r.Digest != realReport().Digest {
			t.Fatalf("progress called %d times (want %d), err %v, digest %q", len(dones), total, err, r.Digest)
		}
	}
	stop := errors.New("stop")
	r, err := Run(MustLab(core.Variant{}, "", ""), func(done, n int, last Outcome) error {
		if done == 5 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || len(r.Checks) != 5 || r.Digest != "" {
		t.Errorf("cancelled at 5: err %v, %d outcomes, digest %q", err, len(r.Checks), r.Digest)
	}
	// A pause inside a long check stops the run there, within the check.
	r, err = Run(MustLab(core.Variant{}, "", ""), func(done, n int, last Outcome) error {
		if last.ID == "" && strings.HasPrefix(Checks()[done].ID, "statistics/fpr/") {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || len(r.Checks) == 0 || !strings.HasPrefix(Checks()[len(r.Checks)].ID, "statistics/fpr/") || r.Digest != "" {
		t.Errorf("stopped inside the first rate check: err %v, %d outcomes, digest %q", err, len(r.Checks), r.Digest)
	}
}

func TestLabRejectsWhatTheLabLacks(t *testing.T) {
	for _, c := range []struct {
		v    core.Variant
		f    core.Fault
		h    core.Hashing
		want string
	}{
		{core.Variant{}, "no-such-fault", "", "one-hash"},
		{core.Variant{}, "", "triple", "triple"},
		{core.BlockedVariant, core.WrapCounters, "", "counting"},
		{core.BlockedVariant, "", core.IndependentHashing, "blocked"},
		{core.Variant{}, core.NegativeIndex, core.IndependentHashing, "double hashing"},
	} {
		_, err := Lab(c.v, c.f, c.h)
		if err == nil || !strings.HasPrefix(err.Error(), "audit: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Lab(%q, %q, %q): err = %v, want an audit error naming %q", c.v, c.f, c.h, err, c.want)
		}
	}
	if got := MustLab(core.Variant{}, core.WrapCounters, "").Name; got != "lab/counting/wrap-counters" {
		t.Errorf("the counter fault's target is %q, want it in the counting filter", got)
	}
}

func TestRunSurvivesPanics(t *testing.T) {
	v := runCheck(Check{ID: "x", Run: func(Target) Verdict { panic("boom") }}, MustLab(core.Variant{}, "", ""))
	if v.Pass || !strings.Contains(v.Detail, "boom") {
		t.Errorf("a panicking check gave %+v", v)
	}
}

// TestDetailsArePlatformFree keeps floats in details at fixed decimals: a
// float printed with %v could differ in its last digits between platforms
// and move the digest.
func TestDetailsArePlatformFree(t *testing.T) {
	for _, o := range realReport().Checks {
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
		{"ceil k", bestK(&labSetup{Fault: core.KFromCeil}, 300000, 100000)},
		{"wrong target", target(&labSetup{Fault: core.NoFault}, "0.01", "9.585", 8, "0.010039")},
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
	wholeZoo(t)
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
	wholeZoo(t)
	t.Parallel()
	seen := map[string]core.Hashing{zoo()[core.NoFault].Digest: core.DoubleHashing}
	for _, h := range []core.Hashing{core.EnhancedDoubleHashing, core.IndependentHashing} {
		r, err := Run(MustLab(core.Variant{}, "", h), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range r.Checks {
			if !o.Pass && !o.Skipped {
				t.Errorf("%s hashing: %s failed: %s", h, o.ID, o.Detail)
			}
		}
		if !strings.HasSuffix(r.Target, "/"+string(h)+"-hashing") || seen[r.Digest] != "" {
			t.Errorf("%s hashing: report names %q, digest %s (also %q's)", h, r.Target, r.Digest, seen[r.Digest])
		}
		seen[r.Digest] = h
	}
}

// blackBox shows only Add and Test of t's filters, as a library that
// shows nothing else would: the audit must skip what it cannot see.
func blackBox(t Target) Target {
	return Target{Name: t.Name + "/black-box", About: t.About, Rate: t.Rate,
		New: func(s Shape) (Filter, error) {
			f, err := t.New(s)
			if err != nil {
				return nil, err
			}
			return struct{ Filter }{f}, nil
		}}
}

// failedGroups lists the groups with a failed check, in report order.
func failedGroups(r Report) []string {
	var groups []string
	for _, o := range r.Checks {
		if !o.Pass && !o.Skipped && !slices.Contains(groups, o.Group) {
			groups = append(groups, o.Group)
		}
	}
	return groups
}

// Through Add and Test alone, the real filter passes every check that
// can run and the rest are skipped with their reason; a fault that loses
// no key and moves the rate by 16% is caught by the statistics group
// alone, and the signed index by the no-false-negatives group first (and
// by the whole-key lengths check, whose members it loses too).
func TestBlackBoxTargets(t *testing.T) {
	wholeZoo(t)
	t.Parallel()
	for _, c := range []struct {
		fault core.Fault
		want  []string
	}{
		{core.NoFault, nil},
		{core.ShortRange, []string{GroupStatistics}},
		{core.NegativeIndex, []string{GroupNegatives, GroupHashing, GroupStatistics}},
	} {
		r, err := Run(blackBox(MustLab(core.Variant{}, c.fault, "")), nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := failedGroups(r); !slices.Equal(got, c.want) {
			t.Errorf("black-box %s: failed groups %q, want %q", c.fault, got, c.want)
		}
		ran := 0
		for _, o := range r.Checks {
			switch {
			case o.Skipped && !strings.HasPrefix(o.Detail, "skipped: needs "):
				t.Errorf("black-box %s: %s skipped without its reason: %q", c.fault, o.ID, o.Detail)
			case !o.Skipped:
				ran++
			}
		}
		if r.Skipped == 0 || ran < 20 || r.Passed+r.Failed+r.Skipped != r.Total {
			t.Errorf("black-box %s: %d ran, %d passed, %d failed, %d skipped of %d", c.fault, ran, r.Passed, r.Failed, r.Skipped, r.Total)
		}
		t.Logf("black-box %s: %d passed, %d failed, %d skipped", c.fault, r.Passed, r.Failed, r.Skipped)
	}
}

// The rate check holds a filter to ±10% of its own theory: a filter with
// 2% fewer bits than its theory assumes is 10% worse at 10 bits per key
// and must fail; the same filter at its true size passes.
func TestRateCheckCatchesTenPercent(t *testing.T) {
	wholeZoo(t)
	t.Parallel()
	check := Checks()[slices.IndexFunc(Checks(), func(c Check) bool { return c.ID == "statistics/fpr/bits-per-key-10-k-7" })]
	for _, c := range []struct {
		shrink float64
		pass   bool
	}{{0, true}, {0.02, false}, {-0.02, false}} {
		short := Target{Name: fmt.Sprintf("short-%g", c.shrink), New: func(s Shape) (Filter, error) {
			f, err := core.NewFilter(uint64(float64(s.M)*(1-c.shrink)), s.K, s.Seed)
			return labFilter(f, labSystemViews{}), err
		}}
		o, err := RunCheck(short, check)
		if err != nil {
			t.Fatal(err)
		}
		if o.Pass != c.pass {
			t.Errorf("%d%% fewer bits: pass %t, want %t: %s", int(c.shrink*100), o.Pass, c.pass, o.Detail)
		}
		t.Logf("%s: %s", short.Name, o.Detail)
	}
}

// TestZooTable pins, for each fault, the rate its default-shape filter
// reports and the checks that catch it, group by group, and that each is
// caught by the group that should catch it. Regenerate with -update.
func TestZooTable(t *testing.T) {
	wholeZoo(t)
	must := map[core.Fault]string{
		core.NegativeIndex: GroupNegatives, core.KFromCeil: GroupFormulas, core.WeakHash: GroupStatistics,
		core.ClearOnDuplicate: GroupIdempotent, core.OffByOne: GroupIndices, core.OneHash: GroupHashing,
		core.WrapCounters: GroupNegatives, core.ShortRange: GroupStatistics,
	}
	var got strings.Builder
	for _, f := range append([]core.Fault{core.NoFault}, core.Faults...) {
		r := zoo()[f]
		got.WriteString(caughtBy(string(f), r))
		if g, ok := must[f]; ok && !slices.Contains(failedGroups(r), g) {
			t.Errorf("%s is not caught by the %s group", f, g)
		}
	}
	matchGolden(t, "testdata/zoo.golden", got.String(), "TestZooTable")
}

// caughtBy is a zoo table's entry for the report r of a filter called
// name: its reported rate and counts, then the checks it failed, group by
// group.
func caughtBy(name string, r Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: reports %.6f, %d passed, %d failed, %d skipped\n", name, r.ReportedFPR, r.Passed, r.Failed, r.Skipped)
	for _, g := range Groups {
		var ids []string
		for _, o := range r.Checks {
			if o.Group == g && !o.Pass && !o.Skipped {
				ids = append(ids, strings.TrimPrefix(o.ID, strings.SplitN(o.ID, "/", 2)[0]+"/"))
			}
		}
		if len(ids) > 0 {
			fmt.Fprintf(&b, "  %s (%d): %s\n", g, len(ids), strings.Join(ids, " "))
		}
	}
	return b.String()
}

// matchGolden compares got with the file at path, or rewrites the file with
// -update; test names the test that regenerates it.
func matchGolden(t *testing.T, path, got, test string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (regenerate with go test ./audit -run %s -update)", err, test)
	}
	if got != string(want) {
		t.Errorf("%s changed:\n got:\n%s want:\n%s", path, got, want)
	}
}

// A filter that ignores its seed while its target says it takes one fails
// the seed check, whose two filters share their members and queries; the
// same filter reading its seed passes. The lab's own check fails two
// fillings under one seed: only the filter's seed may differ between them.
func TestSeedChecksCatchAnIgnoredSeed(t *testing.T) {
	t.Parallel()
	lab := blackBox(MustLab(core.Standard, core.NoFault, ""))
	lab.Seeded = true
	ignoring := lab
	ignoring.Name += "/seed-ignored"
	ignoring.New = func(s Shape) (Filter, error) { s.Seed = 1; return lab.New(s) }
	for _, c := range []struct {
		target Target
		pass   bool
	}{{lab, true}, {ignoring, false}} {
		o, err := RunCheck(c.target, checkByID(t, "determinism/seed-moves-answers"))
		if err != nil {
			t.Fatal(err)
		}
		if o.Skipped || o.Pass != c.pass {
			t.Errorf("%s on %s: pass %v, want %v: %s", o.ID, c.target.Name, o.Pass, c.pass, o.Detail)
		}
	}

	f := MustLab(core.Standard, core.NoFault, "").lab
	s := standard(0, 10, 7, 4000).with(core.Standard).seed(1)
	a, err := s.fill(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		seed uint64
		pass bool
	}{{2, true}, {1, false}} {
		b, err := s.fillKeyed(f, c.seed)
		if err != nil {
			t.Fatal(err)
		}
		if v := seedApart(s, f, a, b); v.Pass != c.pass {
			t.Errorf("seed 1 against the same members keyed by seed %d: pass %v, want %v: %s", c.seed, v.Pass, c.pass, v.Detail)
		}
	}
}

// capped is a filter that keeps at most n keys, as one that refuses to
// grow does without saying so: past n its Add records nothing, or, with
// clear, empties the filter and starts over.
type capped struct {
	Filter
	fresh func() Filter
	n     int
	added int
	clear bool
}

func (c *capped) Add(key []byte) {
	if c.added == c.n {
		if !c.clear {
			return
		}
		c.Filter, c.added = c.fresh(), 0
	}
	c.added++
	c.Filter.Add(key)
}

// A filter that drops the writes past the n it was built for, or clears
// itself when it fills, loses members there and shows the design's rate
// at n, not at the keys it was given: the checks past n fail it, and pass
// the filter that keeps every key.
func TestPastNChecksCatchLostWrites(t *testing.T) {
	t.Parallel()
	lab := blackBox(MustLab(core.Standard, core.NoFault, ""))
	capping := func(clear bool) Target {
		c := lab
		c.Name += map[bool]string{false: "/drops-past-n", true: "/clears-when-full"}[clear]
		c.New = func(s Shape) (Filter, error) {
			fresh := func() Filter { f, _ := lab.New(s); return f }
			return &capped{Filter: fresh(), fresh: fresh, n: s.N, clear: clear}, nil
		}
		return c
	}
	var ids []string
	for _, c := range Checks() {
		if strings.Contains(c.ID, "/past-n-") {
			ids = append(ids, c.ID)
		}
	}
	if len(ids) != 2*len(pastN) {
		t.Fatalf("checks past n: %q", ids)
	}
	for _, c := range []struct {
		target Target
		pass   bool
	}{{lab, true}, {capping(false), false}, {capping(true), false}} {
		for _, id := range ids {
			o, err := RunCheck(c.target, checkByID(t, id))
			if err != nil {
				t.Fatal(err)
			}
			if o.Skipped || o.Pass != c.pass {
				t.Errorf("%s on %s: pass %v, want %v: %s", id, c.target.Name, o.Pass, c.pass, o.Detail)
			}
		}
	}
}

// checkByID is the check named id.
func checkByID(t *testing.T, id string) Check {
	t.Helper()
	for _, c := range Checks() {
		if c.ID == id {
			return c
		}
	}
	t.Fatalf("no check %s", id)
	return Check{}
}

// partial is a filter that hashes only part of each key, as real code does
// by mistake: cut turns the key into the bytes it reads.
type partial struct {
	Filter
	cut func(key []byte) []byte
}

func (p partial) Add(key []byte)       { p.Filter.Add(p.cut(key)) }
func (p partial) Test(key []byte) bool { return p.Filter.Test(p.cut(key)) }

// The whole-key checks fail each filter that reads part of its key where
// the part it drops matters, pass it where it does not, and pass the lab's
// filter, which hashes every byte.
func TestWholeKeyChecksCatchPartialKeys(t *testing.T) {
	t.Parallel()
	lab := blackBox(MustLab(core.Standard, core.NoFault, ""))
	reading := func(name string, cut func([]byte) []byte) Target {
		p := lab
		p.Name += "/" + name
		p.New = func(s Shape) (Filter, error) {
			f, err := lab.New(s)
			return partial{f, cut}, err
		}
		return p
	}
	first8 := reading("first-8-bytes", func(k []byte) []byte { // a fixed-width read, zero-padded
		var w [8]byte
		copy(w[:], k)
		return w[:]
	})
	cString := reading("c-string", func(k []byte) []byte {
		if i := bytes.IndexByte(k, 0); i >= 0 {
			return k[:i]
		}
		return k
	})
	last8 := reading("last-8-bytes", func(k []byte) []byte { return k[max(0, len(k)-8):] })
	const (
		first, middle, last, prefix, suffix, lengths = "hashing/whole-key/near-miss-first-byte", "hashing/whole-key/near-miss-middle-byte",
			"hashing/whole-key/near-miss-last-byte", "hashing/whole-key/shared-prefix", "hashing/whole-key/shared-suffix", "hashing/whole-key/lengths"
	)
	for _, c := range []struct {
		target Target
		fails  []string // the checks it must fail; it must pass the others named in checks
		passes []string
	}{
		{lab, nil, []string{first, middle, last, prefix, suffix, lengths}},
		{first8, []string{middle, last, prefix, lengths}, []string{first, suffix}},
		{cString, []string{middle, last, prefix, lengths}, []string{first, suffix}},
		{last8, []string{first, suffix}, []string{middle, last, prefix}},
	} {
		for _, id := range append(slices.Clone(c.fails), c.passes...) {
			o, err := RunCheck(c.target, checkByID(t, id))
			if err != nil {
				t.Fatal(err)
			}
			if want := !slices.Contains(c.fails, id); o.Skipped || o.Pass != want {
				t.Errorf("%s on %s: pass %v, want %v: %s", id, c.target.Name, o.Pass, want, o.Detail)
			} else {
				t.Logf("%s on %s: %s", id, c.target.Name, o.Detail)
			}
		}
	}
}

// binomial draws the successes of n trials of probability p.
func binomial(r *rand.Rand, n int, p float64) int {
	hits := 0
	for range n {
		if r.Float64() < p {
			hits++
		}
	}
	return hits
}

// The power a rate check states holds when its counts are drawn: at the
// stated shift every one of 300 draws fails, and inside the bound most
// pass, so the draws can tell a stated figure that flatters.
func TestStatedPowerHolds(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const p, q, draws = 0.01, 100000, 300
	up, down := rateCatches(p, 0, q)
	passes := func(rate float64) (n int) {
		for range draws {
			if ratio := float64(binomial(r, q, rate)) / q / p; math.Abs(ratio-1) <= rateBand {
				n++
			}
		}
		return n
	}
	for _, c := range []struct {
		name     string
		rate     float64
		min, max int
	}{
		{"stated rise", p * (1 + up), 0, 0},
		{"stated fall", p * (1 - down), 0, 0},
		{"inside the band, above", p * (1 + 0.8*rateBand), draws / 2, draws},
		{"inside the band, below", p * (1 - 0.8*rateBand), draws / 2, draws},
	} {
		if n := passes(c.rate); n < c.min || n > c.max {
			t.Errorf("rate band, %s (%.5f): %d of %d draws pass, want %d to %d", c.name, c.rate, n, draws, c.min, c.max)
		}
	}

	const nq = 10000
	d := nearCatches(nq, p)
	nearPasses := func(times float64) (n int) {
		for range draws {
			if noWorse(binomial(r, nq, p*times), binomial(r, nq, p), nq, p, "", "").Pass {
				n++
			}
		}
		return n
	}
	if n := nearPasses(d); n != 0 {
		t.Errorf("near queries at the stated %.2f times the random rate: %d of %d draws pass", d, n, draws)
	}
	if n := nearPasses(1 + 0.4*(d-1)); n < draws/2 {
		t.Errorf("near queries at 0.4 of the stated excess: %d of %d draws pass, want most", n, draws)
	}
}

// A shape the target refuses by design skips the check with the reason;
// any other error building it fails the check.
func TestRefusalSkips(t *testing.T) {
	lab := MustLab(core.Standard, core.NoFault, "")
	limited := func(err error) Target {
		return Target{Name: "limited", New: func(s Shape) (Filter, error) {
			if s.M > 1<<20 {
				return nil, err
			}
			f, err := lab.New(s)
			return struct{ Filter }{f}, err
		}}
	}
	c := checkByID(t, "statistics/fpr/bits-per-key-10-k-7")
	o, err := RunCheck(limited(Refusal{Reason: "m past 2^20"}), c)
	if err != nil {
		t.Fatal(err)
	}
	if want := "skipped: limited refuses m = 10000000, k = 7, n = 1000000: m past 2^20"; !o.Skipped || o.Pass || o.Detail != want {
		t.Errorf("refused: skipped %v, pass %v, %q; want skipped with %q", o.Skipped, o.Pass, o.Detail, want)
	}
	o, err = RunCheck(limited(errors.New("out of memory")), c)
	if err != nil {
		t.Fatal(err)
	}
	if o.Skipped || o.Pass || !strings.Contains(o.Detail, "out of memory") {
		t.Errorf("failed to build: skipped %v, pass %v, %q; want a failure", o.Skipped, o.Pass, o.Detail)
	}
}
