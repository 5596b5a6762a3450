package audit

import (
	"math"
	"math/bits"

	"github.com/bloomlab/bloomlab/core"
)

// indexChecks is group 2: every probe position lies in [0, m). A signed
// modulo or a reduction into [0, m] writes outside the array (or into its
// padding) and the damage hides until a key sharing that word goes missing.
// The index derivation needs no allocation, so m can go far past what a
// filter could hold: 2^32 and beyond is where 32-bit arithmetic breaks.
func indexChecks() []Check {
	awkward := []struct {
		name string
		m    uint64
	}{
		{"1", 1}, {"2", 2}, {"3", 3}, {"7", 7}, {"61", 61}, {"64", 64}, {"65", 65},
		{"1000003", 1000003}, {"2^16", 1 << 16}, {"2^31-1", 1<<31 - 1}, {"2^32-1", 1<<32 - 1},
		{"2^32", 1 << 32}, {"2^32+1", 1<<32 + 1}, {"2^34", core.MaxM}, {"2^40+15", 1<<40 + 15},
		{"2^63+1", 1<<63 + 1}, {"2^64-1", math.MaxUint64},
	}
	var checks []Check
	for _, a := range awkward {
		contract := "every probe position for m = " + a.name + " is in [0, m)"
		if a.m <= 64 {
			contract += ", and every position is reached"
		}
		checks = append(checks, Check{ID: "index-range/m-" + a.name, Group: GroupIndices,
			Contract: contract, Needs: []Need{NeedLab}, Run: onLab(func(f *labSetup) Verdict { return probeRange(a.m, a.name, f) })})
	}
	// Any filter that shows its positions, past 2^32 too: a filter whose
	// h1 and h2 are kept in 32 bits is wrong only there. A filter that
	// cannot be built that large answers without allocating the array, or
	// refuses with its reason.
	for _, a := range []struct {
		name string
		m    uint64
	}{{"1", 1}, {"1000", 1000}, {"2^33", 1 << 33}, {"2^40+15", 1<<40 + 15}, {"2^63+1", 1<<63 + 1}} {
		s := standard(a.m, 0, 7, 2000)
		needs := []Need{NeedPositions, NeedBloom}
		contract := "every position the filter reports for m = " + a.name + " is below its size, at least m"
		if a.m > 1<<32 {
			needs = append(needs, NeedWide)
			contract += ", and they spread over the whole array"
		}
		checks = append(checks, Check{ID: "index-range/positions-m-" + a.name, Group: GroupIndices,
			Contract: contract, Needs: needs, Run: func(t Target) Verdict { return filterRange(s, t) }})
	}
	for _, l := range bitLayouts() {
		for _, m := range []uint64{1, 1000} {
			v := l.Variant
			s := standard(m, 0, 7, 2000).with(v)
			checks = append(checks, Check{ID: "index-range/" + v.Name() + "-m-" + itoa(m), Group: GroupIndices,
				Contract: "every position the lab's " + v.Name() + " filter reports for m = " + itoa(m) + " is below its size",
				Needs:    s.needs(), Run: func(t Target) Verdict { return filterRange(s, t) }})
		}
	}
	return checks
}

// probeKeys and probeEdges are the hash inputs the index checks feed the
// derivation: real hashes of 512 keys, and the edge values of (h1, h2).
const probeKeys = 512

var probeEdges = [][2]uint64{{0, 0}, {math.MaxUint64, math.MaxUint64}, {1 << 63, 1 << 63},
	{math.MaxUint64, 1}, {1, math.MaxUint64}, {1<<63 - 1, 1 << 63}}

// probeRange derives all MaxK probe positions for each key's hash under f
// and checks they are in [0, m); for m up to 64 it also checks that every
// position is reached.
func probeRange(m uint64, name string, f *labSetup) Verdict {
	k0, k1 := core.SipKey(1)
	var key []byte
	seen := uint64(0)
	bad, total, example := uint64(0), uint64(0), uint64(0)
	try := func(h1, h2 uint64) {
		for i := 0; i < core.MaxK; i++ {
			j := f.Probe(h1, h2, i, m)
			total++
			if j >= m {
				if bad == 0 {
					example = j
				}
				bad++
			} else if m <= 64 {
				seen |= 1 << j
			}
		}
	}
	for i := uint64(0); i < probeKeys; i++ {
		key = core.Key(key, core.Members, i, 1, 16)
		try(f.Hash128(k0, k1, key))
	}
	for _, e := range probeEdges {
		try(e[0], e[1])
	}
	if bad > 0 {
		return fail("%d of %d positions outside [0, %s), the first is %d", bad, total, name, example)
	}
	if m <= 64 {
		want := uint64(math.MaxUint64) >> (64 - m)
		if reached := popcount64(seen); seen != want {
			return fail("all %d positions in [0, %s), but only %d of the %d positions are ever reached",
				total, name, reached, m)
		}
		return pass("all %d positions in [0, %s), each of the %d reached", total, name, m)
	}
	return pass("all %d positions in [0, %s)", total, name)
}

// filterRange builds the shape from t and checks the positions it reports
// for 2000 keys against its size, and its size against the m asked for: a
// filter may round m up, never down, and the lab's rounds only to whole
// blocks, where it shows blocks (core.Blocks).
func filterRange(s shape, t Target) Verdict {
	built, err := t.build(s)
	if err != nil {
		return fail("%v", err)
	}
	flt := built.(Positioner)
	m, _ := t.dims(s)
	size := flt.Size()
	var blocks core.Blocks
	if lv, ok := built.(labView); ok {
		blocks, _ = lv.membership().(core.Blocks)
	}
	switch {
	case t.lab == nil && size < m:
		return fail("asked for m = %d, the filter has %d positions, fewer (%s)", m, size, t.describe(s))
	case t.lab == nil:
	case blocks != nil && !wholeBlocks(blocks, m, size):
		return fail("asked for m = %d, the filter has %d positions, want whole blocks (%s)", m, size, t.describe(s))
	case blocks == nil && size != m:
		return fail("asked for m = %d, the filter has %d positions, want %d (%s)", m, size, m, t.describe(s))
	}
	bad, total, example := 0, 0, uint64(0)
	s.eachPosition(flt, func(j uint64) {
		total++
		if j >= size {
			if bad == 0 {
				example = j
			}
			bad++
		}
	})
	if bad > 0 {
		return fail("%d of %d positions at or past %d, the first is %d (%s)", bad, total, size, example, t.describe(s))
	}
	if m > 1<<32 {
		return spread(s, t, flt, size, total)
	}
	return pass("all %d positions below %d (%s)", total, size, t.describe(s))
}

// wholeBlocks reports whether size positions are m rounded up to whole
// blocks of filter b: as many blocks as m needs, each as long as b's first.
func wholeBlocks(b core.Blocks, m, size uint64) bool {
	block := blockLength(b, size)
	return block > 0 && size == (m+block-1)/block*block
}

// spreadSlices is how many equal slices of [0, m) spread counts positions in.
const spreadSlices = 16

// spread holds the positions of a filter past m = 2^32 to the whole array:
// counted in 16 equal slices of [0, m), they must be as even as chance
// allows (chi-square within its 99.9% bound, 15 degrees of freedom), and
// as many odd as even. A filter that keeps its hashes in 32 bits, or
// reduces a 32-bit value, puts every position in the first 2^32, or on
// every 2^(log2 m - 32)-th position: in range, and wrong.
func spread(s shape, t Target, flt Positioner, m uint64, total int) Verdict {
	counts := make([]uint64, spreadSlices)
	odd := 0
	s.eachPosition(flt, func(j uint64) {
		hi, lo := bits.Mul64(j, spreadSlices)
		slice, _ := bits.Div64(hi, lo, m)
		counts[slice]++
		odd += int(j & 1)
	})
	stat, dof := core.ChiSquare(counts)
	bound := core.ChiSquareBound(dof, core.Z999)
	half := float64(total) / 2
	oddBound := core.Z999 * math.Sqrt(float64(total)/4)
	return verdict(stat <= bound && math.Abs(float64(odd)-half) <= oddBound,
		"all %d positions below %d; over 16 equal slices of [0, m) chi-square %.1f (99.9%% bound %.1f), the first slice %d, the last %d; %d odd, chance gives %.0f ± %.0f (%s)",
		total, m, stat, bound, counts[0], counts[spreadSlices-1], odd, half, oddBound, t.describe(s))
}
