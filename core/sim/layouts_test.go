package sim

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/core"
)

// TestEveryVariantRuns runs every registered layout at the default shape:
// no false negative, its own variant, memory and a theory.
func TestEveryVariantRuns(t *testing.T) {
	t.Parallel()
	for _, v := range core.Variants {
		var p Params
		b, _ := json.Marshal(Params{Variant: v})
		if err := json.Unmarshal(b, &p); err != nil || p.Variant != v {
			t.Errorf("%s: JSON %s read back as %v, %v", v, b, p.Variant, err)
		}
		p = Defaults()
		p.Variant = v
		res, err := Run(p)
		if err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		if res.FalseNegatives != 0 || res.Variant != v || res.MemoryBits == 0 || res.TheoryFPRVariant <= 0 {
			t.Errorf("%s: %d false negatives, variant %s, memory %d bits, theory %g", v, res.FalseNegatives, res.Variant,
				res.MemoryBits, res.TheoryFPRVariant)
		}
	}
	var p Params
	if err := json.Unmarshal([]byte(`{"variant":"quotient"}`), &p); err == nil || !strings.Contains(err.Error(), "unknown variant") {
		t.Errorf("an unknown variant in JSON gave %v", err)
	}
}

// The blocked filter's measured rate lands within 99.9% bounds of the exact
// mixture. The bound counts the queries' binomial noise and the filter's
// own: its rate is an average over blocks whose loads and fills vary.
func TestBlockedFilterMatchesExactRate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		bpk float64
		k   int
	}{{10, 6}, {16, 11}, {20, 14}} {
		t.Run(fmt.Sprintf("%v bits per key", tc.bpk), func(t *testing.T) {
			t.Parallel()
			p := Defaults()
			p.Variant, p.BitsPerKey, p.Hashes, p.Items, p.Queries, p.PresentShare, p.Seed = core.BlockedVariant, tc.bpk, tc.k, 200_000, 4_000_000, 0, 3
			r, err := Run(p)
			if err != nil {
				t.Fatal(err)
			}
			// The blocked theory's rate and its variance over filters.
			mean, variance := r.TheoryFPRVariant, core.RateVariance(core.BlockedVariant, r.M, r.N, r.K)
			q := float64(r.AbsentQueries)
			sd := math.Sqrt(mean*(1-mean)/q + variance)
			if z := (r.EmpiricalFPR - mean) / sd; math.Abs(z) > core.Z999 {
				t.Errorf("measured %.6f, exact blocked theory %.6f: z = %.2f (seed %d)", r.EmpiricalFPR, mean, z, p.Seed)
			}
		})
	}
}

// A scheme is refused where it cannot run, with the reason.
func TestHashingRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		v    core.Variant
		f    core.Fault
		h    core.Hashing
		want string
	}{
		{core.BlockedVariant, core.NoFault, core.IndependentHashing, "the blocked filter draws its positions"},
		{core.Standard, core.NegativeIndex, core.EnhancedDoubleHashing, "the negative-index fault breaks double hashing"},
		{core.Standard, core.NoFault, "triple", `unknown hashing "triple"`},
	} {
		p := Defaults()
		p.Variant, p.Fault, p.Hashing = tc.v, tc.f, tc.h
		if _, err := Run(p); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s, %s, %s: %v, want %q", tc.v, tc.f, tc.h, err, tc.want)
		}
	}
	for _, tc := range []struct {
		v core.Variant
		f core.Fault
	}{{core.Standard, core.KFromCeil}, {core.CountingVariant, core.WrapCounters}, {core.CountingVariant, core.NoFault}} {
		p := Defaults()
		p.Variant, p.Fault, p.Hashing = tc.v, tc.f, core.IndependentHashing
		if _, err := Run(p); err != nil {
			t.Errorf("%s, %s, independent: %v", tc.v, tc.f, err)
		}
	}
}

// TestFingerprintBitsChecked checks the fingerprint widths each layout
// takes, and that cuckoo chooses the widest that holds its keys.
func TestFingerprintBitsChecked(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		v    core.Variant
		bits int
		ok   bool
	}{
		{core.Standard, 0, true}, {core.Standard, 8, false}, {core.CuckooVariant, 0, true}, {core.CuckooVariant, 12, true},
		{core.CuckooVariant, 10, false}, {core.FuseVariant, 16, true}, {core.FuseVariant, 12, true}, {core.FuseVariant, 1, true},
		{core.FuseVariant, 7, true}, {core.FuseVariant, 32, true}, {core.FuseVariant, 0, true}, {core.FuseVariant, 33, false}, {core.FuseVariant, -1, false},
		{core.SemiSortedVariant, 0, true}, {core.SemiSortedVariant, 5, true}, {core.SemiSortedVariant, 11, true}, {core.SemiSortedVariant, 4, false}, {core.SemiSortedVariant, 17, false},
	} {
		if err := tt.v.CheckFingerprintBits(tt.bits); (err == nil) != tt.ok {
			t.Errorf("%s with %d-bit fingerprints: %v", tt.v, tt.bits, err)
		}
	}
	for v, want := range map[core.Variant]string{core.Standard: "", core.CuckooVariant: "8, 12 or 16", core.FuseVariant: "1 to 32", core.SemiSortedVariant: "5 to 16"} {
		if got := v.FingerprintWidths("or"); got != want {
			t.Errorf("%s's widths %q, want %q", v, got, want)
		}
	}
	for _, tt := range []struct {
		v          core.Variant
		bitsPerKey float64
		want       int
	}{
		{core.CuckooVariant, 6, 8}, {core.CuckooVariant, 10, 8}, {core.CuckooVariant, 13, 12}, {core.CuckooVariant, 17, 16}, {core.CuckooVariant, 24, 16},
		// f - 1 bits a slot at 95% load: the widest f with f - 1 <= 0.95 b.
		{core.SemiSortedVariant, 4, 5}, {core.SemiSortedVariant, 6, 6}, {core.SemiSortedVariant, 10, 10}, {core.SemiSortedVariant, 13, 13}, {core.SemiSortedVariant, 17, 16},
	} {
		p := Defaults()
		p.Variant, p.BitsPerKey = tt.v, tt.bitsPerKey
		r, err := Run(p)
		if err != nil || r.FingerprintBits != tt.want {
			t.Errorf("%s at %v bits per key chose %d-bit fingerprints (%v), want %d", tt.v, tt.bitsPerKey, r.FingerprintBits, err, tt.want)
		}
	}
}

// TestCuckooOverfilledFails checks that a cuckoo filter given fewer slots
// than keys reports its failed inserts as figures and false negatives,
// never a panic, and that its theory follows the load it holds.
func TestCuckooOverfilledFails(t *testing.T) {
	t.Parallel()
	p := Defaults()
	p.Variant, p.BitsPerKey, p.PresentShare = core.CuckooVariant, 6, 100
	r, err := Run(p)
	if err != nil {
		t.Fatal(err)
	}
	if r.InsertFailures == 0 || r.FalseNegatives == 0 || r.Load < 0.9 {
		t.Errorf("6 bits per key at 8-bit fingerprints: %d failures, %d false negatives, load %.3f", r.InsertFailures,
			r.FalseNegatives, r.Load)
	}
}
