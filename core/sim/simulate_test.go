package sim

import (
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/keys"
)

var update = flag.Bool("update", false, "rewrite testdata golden files")

func TestDefaultShape(t *testing.T) {
	t.Parallel()
	r, err := Run(Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if r.M != 40000 || r.N != 4000 || r.K != 7 || r.FilterBytes != 5000 {
		t.Errorf("m %d n %d k %d bytes %d; want 40000 4000 7 5000", r.M, r.N, r.K, r.FilterBytes)
	}
	if fmt.Sprintf("%.6f", r.TheoryFPR) != "0.008194" || fmt.Sprintf("%.6f", r.TheoryFPRExact) != "0.008194" {
		t.Errorf("theory %.6f / %.6f, want 0.008194", r.TheoryFPR, r.TheoryFPRExact)
	}
	if r.FalseNegatives != 0 {
		t.Errorf("%d false negatives", r.FalseNegatives)
	}
	// Set bits are a sum of nearly independent indicators: within 5 standard
	// deviations of m f (1 - f) around the expectation.
	sd := math.Sqrt(float64(r.M) * r.Occupancy * (1 - r.Occupancy))
	if d := math.Abs(float64(r.SetBits) - r.ExpectedSetBits); d > 5*sd {
		t.Errorf("set bits %d, expected %.1f (sd %.1f)", r.SetBits, r.ExpectedSetBits, sd)
	}
	if r.PresentQueries != 500 || r.AbsentQueries != 4500 {
		t.Errorf("queries %d present, %d absent; want 500 and 4500", r.PresentQueries, r.AbsentQueries)
	}
}

// TestDigestsGolden pins the bits: the same params give the same digest on
// every platform (this test runs natively and under GOOS=js GOARCH=wasm).
func TestDigestsGolden(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for _, v := range core.Variants {
		for _, f := range append([]core.Fault{core.NoFault}, core.Faults...) {
			p := Defaults()
			p.Variant, p.Fault, p.DuplicatePasses = v, f, 2
			r, err := Run(p)
			if v.Effective(f) != v {
				// A fault that lives in another layout is refused, not
				// run there in silence.
				if err == nil {
					t.Errorf("variant %s with fault %s ran, as variant %s", v, f, r.Variant)
				}
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%s %s %s\n", v, f, r.Digest)
		}
	}
	// Fuse widths whose cells straddle words, beside its default 8.
	for _, bits := range []int{7, 12, 20} {
		p := Defaults()
		p.Variant, p.FingerprintBits, p.DuplicatePasses = core.FuseVariant, bits, 2
		r, err := Run(p)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %s f=%d %s\n", core.FuseVariant, core.NoFault, bits, r.Digest)
	}
	// Ribbon widths beside its default 7: the narrowest, one whose rows
	// straddle words, and the widest.
	for _, bits := range []int{1, 13, 32} {
		p := Defaults()
		p.Variant, p.FingerprintBits, p.DuplicatePasses = core.RibbonVariant, bits, 2
		r, err := Run(p)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %s f=%d %s\n", core.RibbonVariant, core.NoFault, bits, r.Digest)
	}
	const path = "testdata/digests.golden"
	if *update {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./core/sim -update to create it)", err)
	}
	if b.String() != string(want) {
		t.Errorf("digests moved:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestSeedMovesBits(t *testing.T) {
	t.Parallel()
	p := Defaults()
	a, _ := Run(p)
	p.Seed = 2
	b, _ := Run(p)
	if a.Digest == b.Digest {
		t.Fatal("a new seed gave the same digest")
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		change func(*Params)
		want   string
	}{
		{"bits per key low", func(p *Params) { p.BitsPerKey = 0 }, "bits per key must be in"},
		{"bits per key NaN", func(p *Params) { p.BitsPerKey = math.NaN() }, "bits per key must be in"},
		{"hashes", func(p *Params) { p.Hashes = -1 }, "hashes must be in"},
		{"items", func(p *Params) { p.Items = 0 }, "items must be in"},
		{"queries", func(p *Params) { p.Queries = core.MaxQueries + 1 }, "queries must be in"},
		{"present share", func(p *Params) { p.PresentShare = 101 }, "present share must be in"},
		{"key bytes", func(p *Params) { p.KeyBytes = 4 }, "key bytes must be in"},
		{"passes", func(p *Params) { p.DuplicatePasses = 0 }, "duplicate passes must be in"},
		{"fingerprints", func(p *Params) { p.FingerprintBits = 12 }, "standard filter has no fingerprints"},
		{"fault's layout", func(p *Params) { p.Variant, p.Fault = core.BlockedVariant, core.WrapCounters }, "lives in the counting filter"},
		{"fault", func(p *Params) { p.Fault = "gremlin" }, "unknown fault"},
		{"capacity", func(p *Params) { p.Variant, p.Capacity = core.ScalableVariant, core.MaxItems+1 }, "capacity must be in [0, 10000000]"},
		{"capacity of a fixed filter", func(p *Params) { p.Capacity = 10 }, "the standard filter takes 0"},
		{"scalable hashing", func(p *Params) { p.Variant, p.Hashing = core.ScalableVariant, core.EnhancedDoubleHashing }, "has a seed of its own in each link"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Defaults()
			tt.change(&p)
			_, err := Run(p)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestStepCancels(t *testing.T) {
	t.Parallel()
	p := Defaults()
	p.Items = 100_000
	calls := 0
	_, err := RunSteps(p, func(done, total int) error {
		calls++
		if done > total {
			t.Errorf("done %d > total %d", done, total)
		}
		return ErrCancelled
	})
	if err != ErrCancelled || calls != 1 {
		t.Fatalf("err %v after %d calls; want ErrCancelled after 1", err, calls)
	}
}

// TestRatesMatchTheory checks each variant's measured rate against its own
// theory with a 99.9% Wilson interval at fixed seeds: no flakes, and a real
// bias shows.
func TestRatesMatchTheory(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		v   core.Variant
		bpk float64
		k   int
	}{{core.Standard, 8, 1}, {core.Standard, 4, 2}, {core.Standard, 10, 6}, {core.Standard, 9.585, 7}, {core.BlockedVariant, 10, 6}, {core.BlockedVariant, 9.585, 7}, {core.CountingVariant, 8, 5}, {core.ScalableVariant, 10, 7}} {
		t.Run(fmt.Sprintf("%s/%v/%d", tt.v, tt.bpk, tt.k), func(t *testing.T) {
			t.Parallel()
			p := Defaults()
			p.Variant, p.BitsPerKey, p.Hashes, p.Items, p.Queries, p.PresentShare = tt.v, tt.bpk, tt.k, 100_000, 1_000_000, 0
			r, err := Run(p)
			if err != nil {
				t.Fatal(err)
			}
			lo, hi := core.Wilson(r.FalsePositives, r.AbsentQueries, core.Z999)
			if r.TheoryFPRVariant < lo || r.TheoryFPRVariant > hi {
				t.Errorf("measured %.6f [%.6f, %.6f], theory %.6f (seed %d)", r.EmpiricalFPR, lo, hi, r.TheoryFPRVariant, p.Seed)
			}
			if math.Abs(r.ProbesPerNegative-r.ExpectedProbes) > 0.02*r.ExpectedProbes {
				t.Errorf("probes per negative %.4f, expected %.4f", r.ProbesPerNegative, r.ExpectedProbes)
			}
		})
	}
}

func ExampleRun() {
	r, _ := Run(Defaults())
	fmt.Printf("m=%d n=%d k=%d bytes=%d theory=%.6f false negatives=%d\n",
		r.M, r.N, r.K, r.FilterBytes, r.TheoryFPR, r.FalseNegatives)
	// Output: m=40000 n=4000 k=7 bytes=5000 theory=0.008194 false negatives=0
}

// BenchmarkSimulate is one simulation of 10^6 keys at 1% (9.585 bits per
// key, k = 7, 16-byte keys) and 10^6 queries, 10% of them members; ns/key
// is the time over the 2*10^6 inserts and queries.
func BenchmarkSimulate(b *testing.B) {
	for _, size := range []struct {
		name string
		n    int
	}{{"n=1e6", 1_000_000}} {
		b.Run(size.name, func(b *testing.B) {
			p := Defaults()
			p.BitsPerKey, p.Hashes, p.Items, p.Queries = 9.585, 0, size.n, size.n
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Run(p); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(p.Items+p.Queries), "ns/key")
		})
	}
}

func TestRunTypedBadKeys(t *testing.T) {
	t.Parallel()
	p := Defaults()
	for _, tc := range []struct {
		typed []string
		want  string
	}{
		{[]string{"a", ""}, "insert key 2 is empty"},
		{[]string{strings.Repeat("x", keys.MaxTypedBytes+1)}, "257 bytes"},
		{[]string{"\xff"}, "UTF-8"},
		{slices.Repeat([]string{"k"}, keys.MaxTyped+1), "33 keys typed, at most 32"},
	} {
		if _, err := RunTyped(p, tc.typed, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%d keys: error %v, want one saying %q", len(tc.typed), err, tc.want)
		}
	}
}
