package compare

import (
	"testing"

	"bloomlab/core"
)

// TestAlternativesMatchLibraries fills the lab's filter and the library of
// each pair the alternatives benchmarks time with the same 200,000 members,
// in the same number of bits, and queries the members and 200,000 absent
// keys (seed 1, bench_test.go's keys). No filter may miss a member. The two
// measured false-positive rates must agree: their 99.9% Wilson intervals
// overlap. That is lenient on purpose (two rates from the same p fail to
// overlap about 3 times in 10^6: the gap must pass 4.65 standard errors of
// the difference), so the theory each filter should meet is
// logged beside them for a reader: CuckooRate at the load (a library
// fingerprint of hash%255 + 1 is uniform on the 255 nonzero values, as the
// lab's is) and 2^-f for the fuse filters.
//
// The cuckoo pair runs at 200,000 keys in seiflotfy's table for them, 2^18
// slots (76.3% load, 10.5 bits per key), below the 95.4% of the n = 10^6
// benchmarks: seiflotfy draws its relocations from math/rand's global
// source, seeded at random, and drops a fingerprint when they run out, so
// near the maximum load a rare run could lose a member for reasons no seed
// here controls.
func TestAlternativesMatchLibraries(t *testing.T) {
	const n, queries = 200_000, 200_000
	ins, out := members.upTo(n), absent.upTo(queries)

	cuckooTheory := core.CuckooRate(8, float64(n)/float64(seiflotfyBits(n)/8))
	pairs := []struct {
		name     string
		theory   float64
		lab, lib func(t *testing.T) (member, uint64)
	}{
		{"cuckoo8", cuckooTheory, fillCuckooTest(0, ins, n), fillCuckooTest(1, ins, n)},
		{"fuse8", core.FuseRate(8), buildFuseTest(fuseContenders[0], ins, n), buildFuseTest(fuseContenders[1], ins, n)},
		{"fuse16", core.FuseRate(16), buildFuseTest(fuseContenders[3], ins, n), buildFuseTest(fuseContenders[4], ins, n)},
	}
	for _, p := range pairs {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			lab, labBits := p.lab(t)
			lib, libBits := p.lib(t)
			if labBits != libBits {
				t.Errorf("lab holds %d bits, the library %d: the rates are not at the same bits per key", labBits, libBits)
			}
			var fp [2]uint64
			var lo, hi [2]float64
			for i, f := range [2]member{lab, lib} {
				for j := range n {
					if !f.Test(ins.at(j)) {
						t.Fatalf("%s: member %d not found (n = %d, seed %d)", [2]string{"lab", "library"}[i], j, n, seed)
					}
				}
				for j := range queries {
					if f.Test(out.at(j)) {
						fp[i]++
					}
				}
				lo[i], hi[i] = core.Wilson(fp[i], queries, core.Z999)
			}
			t.Logf("%.2f bits/key, %d absent keys: lab %d = %.3g [%.3g, %.3g], library %d = %.3g [%.3g, %.3g], theory %.3g (seed %d)",
				float64(labBits)/n, queries, fp[0], float64(fp[0])/queries, lo[0], hi[0],
				fp[1], float64(fp[1])/queries, lo[1], hi[1], p.theory, seed)
			if lo[0] > hi[1] || lo[1] > hi[0] {
				t.Errorf("rates disagree: lab %d and library %d false positives in %d, 99.9%% intervals [%.5f, %.5f] and [%.5f, %.5f] do not overlap (seed %d)",
					fp[0], fp[1], queries, lo[0], hi[0], lo[1], hi[1], seed)
			}
		})
	}
}

// fillCuckooTest inserts the n keys of s into cuckooContenders[i]; every
// insert must find room.
func fillCuckooTest(i int, s *keySet, n int) func(*testing.T) (member, uint64) {
	return func(t *testing.T) (member, uint64) {
		c := cuckooContenders[i]
		f, bits := c.build(n)
		for j := range n {
			if !f.Insert(s.at(j)) {
				t.Fatalf("%s: insert %d of %d failed (seed %d)", c.name, j, n, seed)
			}
		}
		return f, bits
	}
}

func buildFuseTest(c fuseContender, s *keySet, n int) func(*testing.T) (member, uint64) {
	return func(t *testing.T) (member, uint64) {
		f, bits, err := c.build(s, n)
		if err != nil {
			t.Fatalf("%s: %v (n = %d, seed %d)", c.name, err, n, seed)
		}
		return f, bits
	}
}
