package experiment

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/coretest"
	"github.com/bloomlab/bloomlab/core/plan"
)

// TestFrontierSizing: each structure's cheapest filter reaches the target
// by its theory and one bit (or block, or fingerprint bit) less does not.
func TestFrontierSizing(t *testing.T) {
	t.Parallel()
	const n = 100_000
	for _, p := range frontierRates {
		sized := plan.Cheapest(n, p)
		s, b, counting, c, f, rib := sized[0], sized[1], sized[2], sized[3], sized[5], sized[6]
		if w := rib.Spec.FingerprintBits; !rib.Reaches || core.RibbonRate(w) > p || core.RibbonRate(w-1) <= p || rib.Bits != core.RibbonRows(n, core.RibbonWidth)*uint64(w) {
			t.Errorf("ribbon at %g: %+v", p, rib)
		}
		// At w = 128 the same results in fewer rows.
		if wide := sized[7]; wide.Variant != core.RibbonWideVariant || wide.Spec.FingerprintBits != rib.Spec.FingerprintBits ||
			wide.Bits != core.RibbonRows(n, core.RibbonWideWidth)*uint64(wide.Spec.FingerprintBits) || wide.Bits >= rib.Bits {
			t.Errorf("ribbon-128 at %g: %+v, ribbon %+v", p, wide, rib)
		}
		if ss := sized[4]; ss.Reaches && (ss.Bits*uint64(c.Spec.FingerprintBits) > c.Bits*uint64(ss.Spec.FingerprintBits-1)+c.Bits || core.CuckooRate(ss.Spec.FingerprintBits, 0.95) > p) {
			t.Errorf("semi-sorted cuckoo at %g: %+v, plain %+v", p, ss, c)
		}
		if !s.Reaches || core.Rate(s.Spec.M, n, s.Spec.K) > p || core.Rate(s.Spec.M-1, n, core.OptimalK(s.Spec.M-1, n)) <= p {
			t.Errorf("standard at %g: %+v", p, s)
		}
		if bpk, want := s.BitsPerKey(n), core.InfoFloor(p)/math.Ln2; math.Abs(bpk-want) > 0.01*want {
			t.Errorf("standard at %g: %.3f bits per key, the formula says %.3f", p, bpk, want)
		}
		if counting.Bits != 4*s.Bits || counting.Spec != s.Spec || counting.Variant != core.CountingVariant {
			t.Errorf("counting at %g: %+v, standard %+v", p, counting, s)
		}
		if !b.Reaches || core.BlockedRateExact(b.Spec.M, n, b.Spec.K) > p || b.Spec.M%core.BlockSize != 0 {
			t.Errorf("blocked at %g: %+v", p, b)
		}
		if less := b.Spec.M - core.BlockSize; less > 0 && core.BlockedRateExact(less, n, core.BlockedBestK(less, n)) <= p {
			t.Errorf("blocked at %g: one block fewer, %d bits, reaches it too", p, less)
		}
		if w := f.Spec.FingerprintBits; !f.Reaches || core.FuseRate(w) > p || core.FuseRate(w-1) <= p {
			t.Errorf("fuse at %g: %+v", p, f)
		}
		if sc := sized[8]; !sc.Reaches || sc.Variant != core.ScalableVariant || sc.Rate > p || sc.Bits < 15*s.Bits/8*99/100 {
			t.Errorf("scalable at %g: %+v, standard %+v", p, sc, s)
		}
		if c.Reaches != (p >= core.CuckooRate(16, 0.95)) || c.Reaches && core.CuckooRate(c.Spec.FingerprintBits, 0.95) > p {
			t.Errorf("cuckoo at %g: %+v", p, c)
		}
	}
}

// TestFrontierMeasures: built and measured, no structure spends fewer
// bits than the floor of the rate its theory gives, the measured rates
// agree with the theories, and at 1% a structure beats the standard filter.
func TestFrontierMeasures(t *testing.T) {
	t.Parallel()
	tab, err := frontier.Run(Sizes{Items: 20_000, Queries: 200_000, Seed: 3}, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	col := func(key string) int {
		i := tab.Column(key)
		if i < 0 {
			t.Fatalf("no column %s", key)
		}
		return i
	}
	bpk, theory, ci, structure, target := col("bitsPerKey"), col("theory"), col("ci95"), col("structure"), col("target")
	outside, measured := 0, 0
	for _, row := range tab.Rows {
		if row[bpk].Missing {
			continue
		}
		measured++
		b, th := row[bpk].Value, row[theory].Value
		if b < core.InfoFloor(th) {
			t.Errorf("%s at %g: %.3f bits per key for a rate of %g, under the floor %.3f", row[structure].Text, row[target].Value, b, th, core.InfoFloor(th))
		}
		if lo, hi := row[ci].Value, row[ci].High; th < lo || th > hi {
			outside++
		}
	}
	// 95% intervals: more than 7 of some 48 outside has a chance under
	// 0.25% (binomial), and the seed is fixed.
	if measured < 48 || outside > 7 {
		t.Errorf("%d of %d intervals miss their theory", outside, measured)
	}
	if len(tab.Notes) == 0 || !strings.Contains(tab.Notes[0], "at 1% the ribbon-128 filter") {
		t.Errorf("notes %q: want the Ribbon filter at w = 128 cheapest at 1%%", tab.Notes)
	}
	// The growth note's figures are the scalable row's at 1%.
	for _, row := range tab.Rows {
		if row[structure].Text == "scalable" && row[target].Value == 0.01 {
			if want := fmt.Sprintf("take %.2f bits per key", row[bpk].Value); len(tab.Notes) < 2 || !strings.Contains(tab.Notes[1], want) {
				t.Errorf("notes %q: want the scalable chain's %q", tab.Notes, want)
			}
		}
	}
}

// TestFrontierListsTheRegistry: a layout registered from outside core, the
// word filter of core/coretest, is sized, built and measured at every
// rate with the lab's own layouts, without an edit here. It changes the
// registry, so it does not run in parallel.
func TestFrontierListsTheRegistry(t *testing.T) {
	_, unregister := coretest.RegisterWord()
	defer unregister()
	tab, err := frontier.Run(Sizes{Items: 2_000, Queries: 20_000, Seed: 3}, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	// Its k stops at 10, so from 0.1% on its row says why it is not built.
	target, structure, bpk, observed := tab.Column("target"), tab.Column("structure"), tab.Column("bitsPerKey"), tab.Column("observed")
	rows := 0
	for _, row := range tab.Rows {
		if row[structure].Text != coretest.WordName {
			continue
		}
		rows++
		if row[target].Value >= 0.01 && (row[bpk].Missing || row[observed].Missing) {
			t.Errorf("the word filter's row at %g is not measured: %+v", row[target].Value, row)
		}
	}
	if rows != len(frontierRates) {
		t.Errorf("%d rows of the word filter, want one a rate, %d", rows, len(frontierRates))
	}
}
