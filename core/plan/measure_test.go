package plan

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/bloomlab/bloomlab/core"
)

// TestMeasure: at 10^8 keys and 1% the lab builds the Bloom rows and the
// cuckoo filters of 8 and 12 bits, and says why not the others; every rate
// it measures lies within 99.9% bounds (for the whole table) of the lab's
// theory for the filter it built.
func TestMeasure(t *testing.T) {
	t.Parallel()
	pl, err := Solve(Input{Find: FindM, N: 100_000_000, P: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	got := Measure(pl)
	why := map[string]string{
		"cuckoo-p": "the lab's cuckoo filter's fingerprints are 8, 12 or 16 bits wide, not 10",
		"xor":      "the lab has no xor filter",
		"fuse-4":   "the lab's binary fuse filter is 3-wise only",
	}
	if len(got) != len(pl.Alternatives) {
		t.Fatalf("%d measured, %d alternatives", len(got), len(pl.Alternatives))
	}
	bound := zFor(0.001, len(got))
	for i, m := range got {
		a := pl.Alternatives[i]
		if m.ID != a.ID {
			t.Fatalf("row %d: measured %s for %s", i, m.ID, a.ID)
		}
		if w, unbuilt := why[a.ID]; unbuilt {
			if m.Built || !strings.HasPrefix(m.Why, w) {
				t.Errorf("%s: built %v, why %q; want not built because %q", a.ID, m.Built, m.Why, w)
			}
			continue
		}
		if !m.Built || m.Keys != MeasureKeys || m.Queries != MeasureQueries || m.Why != "" {
			t.Errorf("%s: %+v, want built with %d keys and %d queries", a.ID, m, MeasureKeys, MeasureQueries)
			continue
		}
		if m.InsertFailures > 0 {
			t.Errorf("%s: %d inserts failed", a.ID, m.InsertFailures)
		}
		if a.Lab.UsesM() && math.Abs(m.BitsPerKey/a.BitsPerKey-1) > 0.01 {
			t.Errorf("%s: built at %.3f bits per key, the table's %.3f", a.ID, m.BitsPerKey, a.BitsPerKey)
		}
		// A layout that sizes itself takes the slots its formula gives
		// the keys built, rounded up to whole segments (at most 5% here).
		if want := core.FuseSizeFactor(3, m.Keys) * float64(a.Fingerprint); !a.Lab.UsesM() && (m.BitsPerKey < want || m.BitsPerKey > 1.05*want) {
			t.Errorf("%s: built %d keys at %.3f bits per key, its formula %.3f", a.ID, m.Keys, m.BitsPerKey, want)
		}
		if m.Low > m.Rate || m.Rate > m.High {
			t.Errorf("%s: rate %v outside its interval [%v, %v]", a.ID, m.Rate, m.Low, m.High)
		}
		// The formula and the lab's theory agree to a few percent at these
		// sizes (a cuckoo filter's formula is its bound at full load).
		if math.Abs(m.Theory/a.Rate-1) > 0.08 {
			t.Errorf("%s: lab theory %v, the table's formula %v", a.ID, m.Theory, a.Rate)
		}
		q := float64(m.Queries)
		variance := core.RateVariance(a.Lab, uint64(math.Round(m.BitsPerKey*float64(m.Keys))), m.Keys, a.K)
		if a.Lab == core.CountingVariant {
			variance = core.RateVariance(a.Lab, uint64(math.Round(m.BitsPerKey*float64(m.Keys)/4)), m.Keys, a.K)
		}
		sd := math.Sqrt(q*m.Theory*(1-m.Theory) + q*q*variance)
		if z := (float64(m.FalsePositives) - q*m.Theory) / sd; math.Abs(z) > bound {
			t.Errorf("%s: %d false positives in %d, theory %.6f: z = %.2f, bound %.2f", a.ID, m.FalsePositives, m.Queries, m.Theory, z, bound)
		}
	}
}

// zFor returns the two-sided normal bound that any of tests statistics
// passes with probability at most alpha (Bonferroni).
func zFor(alpha float64, tests int) float64 {
	return math.Sqrt2 * math.Erfinv(1-alpha/float64(tests))
}

// TestMeasurePinned pins the false positives of the reference plan: the
// same keys and filters natively, under Node and in the browser.
func TestMeasurePinned(t *testing.T) {
	t.Parallel()
	pl, err := Solve(Input{Find: FindM, N: 100_000_000, P: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]uint64{"bloom": 213, "blocked-same-m": 236, "blocked-same-p": 209, "counting": 213, "cuckoo-8": 624, "cuckoo-12": 40, "fuse-3": 166}
	for _, m := range Measure(pl) {
		if w, ok := want[m.ID]; ok && m.FalsePositives != w {
			t.Errorf("%s: %d false positives, want %d", m.ID, m.FalsePositives, w)
		}
	}
}

// TestMeasureSmallAndUnreachable: a plan of fewer keys than MeasureKeys
// builds with all of them, at its own m; a row that reaches no size is not
// built.
func TestMeasureSmallAndUnreachable(t *testing.T) {
	t.Parallel()
	pl, err := Solve(Input{Find: FindP, N: 4000, M: 40000})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range Measure(pl) {
		if m.ID == "bloom" && (m.Keys != 4000 || m.BitsPerKey != 10) {
			t.Errorf("bloom: %d keys at %v bits per key, want 4000 at 10", m.Keys, m.BitsPerKey)
		}
	}
	got, _ := measure(Alternative{ID: "blocked-same-p", Unreachable: true, Lab: core.BlockedVariant}, 10, nil)
	if got.Built || !strings.Contains(got.Why, "no size tried reaches p") {
		t.Errorf("unreachable row: %+v", got)
	}
}

// TestMeasureCost logs what a plan's measurement takes here; the browser
// test runs it in the page. Its work is bounded by the sizes, not the plan:
// the widest plan (64 bits per key, k = 44) takes the longest.
func TestMeasureCost(t *testing.T) {
	for _, in := range []Input{{Find: FindM, N: 100_000_000, P: 0.01}, {Find: FindM, N: 100_000_000, P: 1e-13}} {
		pl, err := Solve(in)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		Measure(pl)
		t.Logf("p = %v: %v", in.P, time.Since(start))
	}
}

func BenchmarkMeasure(b *testing.B) {
	pl, err := Solve(Input{Find: FindM, N: 100_000_000, P: 0.01})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		Measure(pl)
	}
}
