package experiment

import (
	"math"
	"strings"
	"testing"

	"bloomlab/core"
)

// TestFrontierSizing: each structure's cheapest filter reaches the target
// by its theory and one bit (or block, or fingerprint bit) less does not.
func TestFrontierSizing(t *testing.T) {
	t.Parallel()
	const n = 100_000
	for _, p := range frontierRates {
		s, _, ok := cheapestStandard(n, p)
		if !ok || core.Rate(s.M, n, s.K) > p || core.Rate(s.M-1, n, core.OptimalK(s.M-1, n)) <= p {
			t.Errorf("standard at %g: m = %d, k = %d (found %t)", p, s.M, s.K, ok)
		}
		if bpk, want := float64(s.M)/n, core.InfoFloor(p)/math.Ln2; math.Abs(bpk-want) > 0.01*want {
			t.Errorf("standard at %g: %.3f bits per key, the formula says %.3f", p, bpk, want)
		}
		b, _, ok := cheapestBlocked(n, p)
		if !ok || core.BlockedRateExact(b.M, n, b.K) > p || b.M%core.BlockSize != 0 {
			t.Errorf("blocked at %g: m = %d, k = %d (found %t)", p, b.M, b.K, ok)
		}
		if less := b.M - core.BlockSize; less > 0 && core.BlockedRateExact(less, n, blockedBestK(less, n)) <= p {
			t.Errorf("blocked at %g: one block fewer, %d bits, reaches it too", p, less)
		}
		if f, _, ok := cheapestFuse(n, p); !ok || core.FuseRate(f.FingerprintBits) > p || core.FuseRate(f.FingerprintBits-1) <= p {
			t.Errorf("fuse at %g: f = %d (found %t)", p, f.FingerprintBits, ok)
		}
		c, why, ok := cheapestCuckoo(n, p)
		if ok != (p >= core.CuckooRate(16, cuckooFull)) {
			t.Errorf("cuckoo at %g: found %t (%s)", p, ok, why)
		}
		if ok && core.CuckooRate(c.FingerprintBits, cuckooFull) > p {
			t.Errorf("cuckoo at %g: f = %d gives %g", p, c.FingerprintBits, core.CuckooRate(c.FingerprintBits, cuckooFull))
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
	// 95% intervals: more than 6 of some 27 outside has a chance under
	// 0.5% (binomial), and the seed is fixed.
	if measured < 25 || outside > 6 {
		t.Errorf("%d of %d intervals miss their theory", outside, measured)
	}
	if len(tab.Notes) == 0 || !strings.Contains(tab.Notes[0], "at 1% the fuse filter") {
		t.Errorf("notes %q: want the fuse filter cheapest at 1%%", tab.Notes)
	}
}
