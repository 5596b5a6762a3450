package sim

import (
	"fmt"
	"slices"
	"testing"

	"github.com/bloomlab/bloomlab/core"
)

// TestSplitCoversEveryMember: the parts are contiguous, cover 0..n-1 once
// and differ in length by at most one.
func TestSplitCoversEveryMember(t *testing.T) {
	t.Parallel()
	for _, n := range []uint64{0, 1, 7, 1000, 1 << 20} {
		for _, count := range []int{1, 2, 3, 8} {
			parts := Split(n, count)
			next, shortest, longest := uint64(0), n, uint64(0)
			for _, p := range parts {
				if p.Lo != next || p.Hi < p.Lo {
					t.Fatalf("n %d in %d: parts %v", n, count, parts)
				}
				next = p.Hi
				shortest, longest = min(shortest, p.Hi-p.Lo), max(longest, p.Hi-p.Lo)
			}
			if len(parts) != count || next != n || longest-shortest > 1 {
				t.Errorf("n %d in %d: parts %v", n, count, parts)
			}
		}
	}
}

// TestMergedPartsAreTheWholeFilter builds the lab's filter whole and in
// 2, 3 and 7 parts merged by core.Union, for the standard, blocked and
// counting filters, with typed keys and repeated passes: the merged
// filter's storage is the whole one's word for word (a counting filter's
// every counter, the saturated ones of 6 passes included), and the run
// measured on it is the whole run, digest and all.
func TestMergedPartsAreTheWholeFilter(t *testing.T) {
	t.Parallel()
	typed := []string{"apple", "pear"}
	for _, tc := range []struct {
		v      core.Variant
		passes int
	}{{core.Standard, 1}, {core.BlockedVariant, 1}, {core.CountingVariant, 1}, {core.CountingVariant, 6}} {
		p := Defaults()
		p.Variant, p.Items, p.Queries, p.DuplicatePasses, p.Seed = tc.v, 30_001, 20_000, tc.passes, 5
		whole, err := RunTyped(p, typed, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, count := range []int{2, 3, 7} {
			t.Run(fmt.Sprintf("%s, %d passes, %d parts", tc.v, tc.passes, count), func(t *testing.T) {
				t.Parallel()
				var parts []core.Membership
				for i := range count {
					f, err := BuildPart(p, typed, i, count, nil)
					if err != nil {
						t.Fatal(err)
					}
					parts = append(parts, f)
				}
				merged, err := RunMerged(p, typed, parts, nil)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(merged.Filter.Words(), whole.Filter.Words()) {
					t.Fatalf("seed %d: the merged filter's storage differs from the whole one's", p.Seed)
				}
				if c, ok := whole.Filter.(core.Counters); ok {
					saturated := 0
					for i := range whole.Filter.M() {
						if c.Counter(i) == core.CounterMax {
							saturated++
						}
					}
					t.Logf("%d counters at %d", saturated, core.CounterMax)
					if tc.passes > 1 && saturated == 0 {
						t.Error("no counter saturates, so this case shows nothing of saturation")
					}
				}
				if merged.Digest != whole.Digest || merged.FalsePositives != whole.FalsePositives ||
					!slices.Equal(merged.LastInserted, whole.LastInserted) || !slices.Equal(merged.FirstProbed, whole.FirstProbed) {
					t.Errorf("seed %d: merged run %s (%d false positives), whole %s (%d)", p.Seed, merged.Digest, merged.FalsePositives, whole.Digest, whole.FalsePositives)
				}
			})
		}
	}
}

// TestInParts: only large runs of the layouts whose union is the whole
// filter, without a fault that breaks it, on two or more workers.
func TestInParts(t *testing.T) {
	t.Parallel()
	big := Defaults()
	big.Items = PartsFrom
	for _, tc := range []struct {
		name    string
		change  func(p *Params)
		workers int
		want    bool
	}{
		{"standard", func(p *Params) {}, 2, true},
		{"one worker", func(p *Params) {}, 1, false},
		{"too few members", func(p *Params) { p.Items = PartsFrom - 1 }, 8, false},
		{"blocked", func(p *Params) { p.Variant = core.BlockedVariant }, 2, true},
		{"counting", func(p *Params) { p.Variant = core.CountingVariant }, 2, true},
		{"wrapping counters", func(p *Params) { p.Variant, p.Fault = core.CountingVariant, core.WrapCounters }, 2, false},
		{"cuckoo", func(p *Params) { p.Variant = core.CuckooVariant }, 2, false},
	} {
		p := big
		tc.change(&p)
		if got := p.InParts(tc.workers); got != tc.want {
			t.Errorf("%s on %d workers: in parts %v, want %v", tc.name, tc.workers, got, tc.want)
		}
	}
}
