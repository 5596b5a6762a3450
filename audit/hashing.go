package audit

import (
	"fmt"
	"strings"

	"github.com/bloomlab/bloomlab/core"
)

// hashingChecks is group 6: the lab's hash is SipHash-2-4, byte for byte
// against the reference vectors, and the positions it leads to are uniform
// by chi-square, on random binary keys and on the structured text keys real
// systems store ("key-17"), where a weak hash gives itself away.
func hashingChecks() []Check {
	checks := []Check{
		{ID: "hashing/siphash64/empty", Contract: "SipHash-2-4 of the empty message under key 00..0f is 0x726fdb47dd0e0e31",
			Run: func(Target) Verdict { return sip64(0, 1) }},
		{ID: "hashing/siphash64/00..0e", Contract: "SipHash-2-4 of 00..0e under key 00..0f is 0xa129ca6149be45e5",
			Run: func(Target) Verdict { return sip64(15, 16) }},
		{ID: "hashing/siphash64/all-lengths", Contract: "SipHash-2-4 matches all 64 reference vectors, lengths 0 to 63",
			Run: func(Target) Verdict { return sip64(0, 64) }},
		{ID: "hashing/siphash128/empty", Contract: "the lab's 128-bit hash of the empty message matches the SipHash-2-4-128 vector",
			Run: onLab(func(f *labSetup) Verdict { return sip128(f, 0, 1) })},
		{ID: "hashing/siphash128/00..0e", Contract: "the lab's 128-bit hash of 00..0e matches the SipHash-2-4-128 vector",
			Run: onLab(func(f *labSetup) Verdict { return sip128(f, 15, 16) })},
		{ID: "hashing/siphash128/all-lengths", Contract: "the lab's 128-bit hash matches all 64 SipHash-2-4-128 vectors",
			Run: onLab(func(f *labSetup) Verdict { return sip128(f, 0, 64) })},
	}
	for _, u := range []struct {
		text bool
		m    uint64
	}{{false, 1009}, {false, 1024}, {true, 1009}, {true, 1024}} {
		kind := "binary"
		if u.text {
			kind = "text"
		}
		checks = append(checks, Check{ID: fmt.Sprintf("hashing/uniform/%s-keys-m-%d", kind, u.m),
			Contract: fmt.Sprintf("positions of %d %s keys spread evenly over m = %d, by chi-square", uniformKeys, kind, u.m),
			Run:      onLab(func(f *labSetup) Verdict { return positionsUniform(f, u.text, u.m) })})
	}
	checks = append(checks,
		Check{ID: "hashing/probe-pairs-independent",
			Contract: "a key's first and last positions are independent: their joint 32x32 histogram is uniform",
			Run:      onLab(probePairs)},
		Check{ID: "hashing/blocked-blocks-uniform",
			Contract: "the blocked filter spreads keys evenly over its 1009 blocks, by chi-square",
			Run:      onLab(func(f *labSetup) Verdict { return blockedUniform(f, false) })},
		Check{ID: "hashing/blocked-slots-uniform",
			Contract: "the blocked filter spreads positions evenly over the 512 bits of a block, by chi-square",
			Run:      onLab(func(f *labSetup) Verdict { return blockedUniform(f, true) })},
		Check{ID: "hashing/avalanche",
			Contract: "flipping any one key bit flips each of the 128 hash bits half the time",
			Run:      onLab(avalanche)},
	)
	for i := range checks {
		checks[i].Group = GroupHashing
		if checks[i].Needs = []Need{NeedLab}; strings.HasPrefix(checks[i].ID, "hashing/blocked-") {
			checks[i].Needs = append(checks[i].Needs, layoutNeed(core.BlockedVariant))
		}
	}
	return append(checks, wholeKeyChecks()...)
}

// The reference key 00 01 .. 0f as two little-endian words.
const refK0, refK1 = 0x0706050403020100, 0x0f0e0d0c0b0a0908

// refMessage returns the reference message of n bytes, 00 01 .. (n-1).
func refMessage(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i)
	}
	return b
}

func sip64(from, to int) Verdict {
	bad, first := 0, -1
	var got uint64
	for n := from; n < to; n++ {
		if h := core.Sip64(refK0, refK1, refMessage(n)); h != sip64Vectors[n] {
			if bad == 0 {
				first, got = n, h
			}
			bad++
		}
	}
	if bad > 0 {
		return fail("%d of %d vectors differ; %d bytes gives 0x%016x, want 0x%016x", bad, to-from, first, got, sip64Vectors[first])
	}
	if to-from == 1 {
		return pass("0x%016x", sip64Vectors[from])
	}
	return pass("%d of %d vectors match", to-from, to-from)
}

func sip128(f *labSetup, from, to int) Verdict {
	bad, first := 0, -1
	var lo, hi uint64
	for n := from; n < to; n++ {
		a, b := f.Hash128(refK0, refK1, refMessage(n))
		if a != sip128Vectors[n][0] || b != sip128Vectors[n][1] {
			if bad == 0 {
				first, lo, hi = n, a, b
			}
			bad++
		}
	}
	if bad > 0 {
		return fail("%d of %d vectors differ; %d bytes gives %016x %016x, want %016x %016x", bad, to-from, first,
			lo, hi, sip128Vectors[first][0], sip128Vectors[first][1])
	}
	if to-from == 1 {
		return pass("%016x %016x", sip128Vectors[from][0], sip128Vectors[from][1])
	}
	return pass("%d of %d vectors match", to-from, to-from)
}

// zChi is the normal quantile for the two-sided chi-square bounds: six
// sigma, a tail near 10^-9, so a fixed seed never lands outside by luck.
const zChi = 6

// uniformKeys is how many keys the uniformity checks hash.
const uniformKeys = 20000

// chiSquare judges counts against a uniform spread. A statistic far above
// its degrees of freedom means clumps; far below means a spread too regular
// to be random, which is what a weak hash does to sequential keys.
func chiSquare(counts []uint64, what string) Verdict {
	stat, dof := core.ChiSquare(counts)
	lo, hi := core.ChiSquareBound(dof, -zChi), core.ChiSquareBound(dof, zChi)
	return verdict(stat >= lo && stat <= hi, "%s: chi-square %.1f on %d dof (%.3f per dof), allowed [%.1f, %.1f]",
		what, stat, dof, stat/float64(dof), lo, hi)
}

// positionsUniform counts all k = 7 positions of each key over m cells.
func positionsUniform(f *labSetup, text bool, m uint64) Verdict {
	const k = 7
	k0, k1 := core.SipKey(1)
	counts := make([]uint64, m)
	var key []byte
	for i := uint64(0); i < uniformKeys; i++ {
		if text {
			key = core.TextKey(key, core.Members, i)
		} else {
			key = core.Key(key, core.Members, i, 1, 16)
		}
		h1, h2 := f.Hash128(k0, k1, key)
		for p := 0; p < k; p++ {
			j := f.Probe(h1, h2, p, m)
			if j >= m {
				return fail("position %d of key %d is %d, outside [0, %d)", p, i, j, m)
			}
			counts[j]++
		}
	}
	return chiSquare(counts, fmt.Sprintf("%d positions", k*uniformKeys))
}

// probePairs histograms (first, last) position pairs of k = 7 probes into
// m = 1024 on a 32x32 grid: double hashing must not tie the probes of a key
// together.
func probePairs(f *labSetup) Verdict {
	const m, k, side = 1024, 7, 32
	k0, k1 := core.SipKey(1)
	counts := make([]uint64, side*side)
	var key []byte
	for i := uint64(0); i < uniformKeys; i++ {
		key = core.Key(key, core.Members, i, 1, 16)
		h1, h2 := f.Hash128(k0, k1, key)
		a, b := f.Probe(h1, h2, 0, m), f.Probe(h1, h2, k-1, m)
		if a >= m || b >= m {
			return fail("key %d maps to positions %d and %d, outside [0, %d)", i, a, b, m)
		}
		counts[a/(m/side)*side+b/(m/side)]++
	}
	return chiSquare(counts, fmt.Sprintf("%d (first, last) pairs", uniformKeys))
}

// blockedUniform histograms the blocked filter's positions by block (the
// first position of each key) or by offset inside the block (all of them).
func blockedUniform(f *labSetup, slots bool) Verdict {
	const blocks, k = 1009, 7
	flt, err := core.New(core.BlockedVariant, f.Fault, blocks*core.BlockSize, k, 1)
	if err != nil {
		return fail("%v", err)
	}
	m := flt.M()
	cells := uint64(blocks)
	if slots {
		cells = core.BlockSize
	}
	counts := make([]uint64, cells)
	var key []byte
	var pos []uint64
	for i := uint64(0); i < uniformKeys; i++ {
		key = core.Key(key, core.Members, i, 1, 16)
		pos = flt.Positions(pos, key)
		for p, j := range pos {
			if j >= m {
				return fail("position %d of key %d is %d, outside [0, %d)", p, i, j, m)
			}
			if slots {
				counts[j%core.BlockSize]++
			} else if p == 0 {
				counts[j/core.BlockSize]++
			}
		}
	}
	what := fmt.Sprintf("%d keys over %d blocks", uniformKeys, blocks)
	if slots {
		what = fmt.Sprintf("%d positions over %d block offsets", k*uniformKeys, core.BlockSize)
	}
	return chiSquare(counts, what+" ("+core.BlockedVariant.Effective(f.Fault).Name()+")")
}

// avalanche flips each of the 128 bits of 32 keys and counts, for each of
// the 128 output bits, how often it flips. Each count is binomial with 4096
// trials at one half if the hash avalanches; six sigma is 192.
func avalanche(f *labSetup) Verdict {
	const keys, keyBits = 32, 128
	k0, k1 := core.SipKey(1)
	var flips [128]uint64
	var key []byte
	for i := uint64(0); i < keys; i++ {
		key = core.Key(key, core.Members, i, 1, keyBits/8)
		a1, a2 := f.Hash128(k0, k1, key)
		for b := 0; b < keyBits; b++ {
			key[b/8] ^= 1 << (b % 8)
			b1, b2 := f.Hash128(k0, k1, key)
			key[b/8] ^= 1 << (b % 8)
			d1, d2 := a1^b1, a2^b2
			for o := 0; o < 64; o++ {
				flips[o] += d1 >> o & 1
				flips[64+o] += d2 >> o & 1
			}
		}
	}
	const trials = keys * keyBits
	const limit = zChi * 32 // six sigma of Binomial(4096, 1/2)
	worst, at := uint64(0), 0
	for o, c := range flips {
		d := max(c, trials/2) - min(c, trials/2)
		if d > worst {
			worst, at = d, o
		}
	}
	return verdict(worst <= limit, "%d flips per output bit; the worst, bit %d, flipped %d times, %d from %d (limit %d)",
		trials, at, flips[at], worst, trials/2, limit)
}
