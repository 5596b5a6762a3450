package audit

import (
	"fmt"
	"math"

	"github.com/bloomlab/bloomlab/core"
)

// wholeKeyChecks belong to group 6: a filter must hash the whole key, every
// byte of it, whatever its length. The mistakes they catch are common in
// real code and invisible to rate checks on random keys: a fixed-width read
// of the first 8 bytes, a C string cut at its first NUL, a hash of the last
// bytes only. Each check needs only Add and Test: it compares the false
// positives of queries that nearly match the members with those of random
// absent queries on the same filter, which a filter that hashes the whole
// key cannot tell apart.
func wholeKeyChecks() []Check {
	var checks []Check
	for _, b := range []struct {
		name string
		at   int
	}{{"first", 0}, {"middle", wholeKeyBytes / 2}, {"last", wholeKeyBytes - 1}} {
		checks = append(checks, Check{ID: "hashing/whole-key/near-miss-" + b.name + "-byte",
			Contract: fmt.Sprintf("queries that differ from a %d-byte member in its %s byte are false positives no more often than random queries", wholeKeyBytes, b.name),
			Run:      func(t Target) Verdict { return nearMiss(t, b.at) }})
	}
	checks = append(checks,
		Check{ID: "hashing/whole-key/shared-prefix",
			Contract: fmt.Sprintf("members and queries that share a %d-byte prefix are false positives no more often than random queries", len(sharedAffix)),
			Run:      func(t Target) Verdict { return sharedAffixes(t, true) }},
		Check{ID: "hashing/whole-key/shared-suffix",
			Contract: fmt.Sprintf("members and queries that share a %d-byte suffix are false positives no more often than random queries", len(sharedAffix)),
			Run:      func(t Target) Verdict { return sharedAffixes(t, false) }},
		Check{ID: "hashing/whole-key/lengths",
			Contract: "keys of every even length from 0 to 64 bytes, 4 KiB and 1 MiB are found, and their neighbours a byte shorter or longer are false positives no more often than random queries",
			Run:      keyLengths},
	)
	for i := range checks {
		checks[i].Group = GroupHashing
	}
	return checks
}

// wholeKeyN is the members of the near-miss and affix checks, and
// wholeKeyBytes their length: twice the 8 bytes a fixed-width read takes.
const (
	wholeKeyN     = 10000
	wholeKeyBytes = 16
)

// sharedAffix is the prefix or suffix all keys of an affix check share:
// 48 bytes as a key of a real table might carry, a NUL separator among
// them.
var sharedAffix = []byte("tenant-0042/region-eu-west-1/table-users\x00shard07")

// zOneSided is the one-sided normal tail of 10^-6.
const zOneSided = 4.7534

// noWorse judges near, the false positives of q queries that nearly match
// members, against random, those of q random absent queries on the same
// filter. A filter that hashes the whole key answers both from one rate P,
// so near - random has mean 0 and variance 2qP(1 - P), at most near +
// random: near may exceed random by z = 4.75 of that (a one-sided tail of
// 10^-6) and 2 more for small counts. p is the filter's theory at the
// shape, from which nearCatches says what a pass rules out.
func noWorse(near, random, q int, p float64, what string, about string) Verdict {
	allowed := zOneSided*math.Sqrt(float64(near+random)) + 2
	power := "no near rate fails it, the theory's being too high"
	if d := nearCatches(q, p); !math.IsNaN(d) {
		power = fmt.Sprintf("fails near queries at %.1f times the random rate%s", d, surely)
	}
	return verdict(float64(near-random) <= allowed,
		"%s: %d of %d false positives, random queries %d of %d, at most %.1f more allowed; %s (%s)",
		what, near, q, random, q, allowed, power, about)
}

// nearCatches is how many times likelier than random queries, of rate p,
// q near queries must be to be false positives for noWorse to fail them:
// at a near rate p(1 + d), near - random has mean qpd and spread at most
// sqrt(qp(2 + d)), and must clear the bound by zOneSided of that. NaN
// when not even near queries that are all false positives would fail.
func nearCatches(q int, p float64) float64 {
	qp := float64(q) * p
	return 1 + least(0, 1/p-1, func(d float64) bool {
		spread := math.Sqrt(qp * (2 + d))
		return qp*d-zOneSided*spread >= zOneSided*spread+2
	})
}

// nearMiss fills the filter with wholeKeyN members of wholeKeyBytes bytes
// and queries each member with its byte at index at changed, then as many
// random absent keys.
func nearMiss(t Target, at int) Verdict {
	s := standard(0, 10, 7, wholeKeyN).keyBytes(wholeKeyBytes)
	flt, err := t.fill(s)
	if err != nil {
		return fail("%v", err)
	}
	near, err := t.count(flt, s.Items, func(dst []byte, i int) []byte {
		dst = s.key(dst, i)
		dst[at] ^= 1
		return dst
	})
	if err != nil {
		return stopped(err)
	}
	random, err := t.count(flt, s.Items, s.absent)
	if err != nil {
		return stopped(err)
	}
	return noWorse(near, random, s.Items, t.rate(s), fmt.Sprintf("members with byte %d changed", at), t.describe(s))
}

// sharedAffixes fills the filter with wholeKeyN members that all begin
// (prefix) or all end with sharedAffix, the rest of each a member key of
// wholeKeyBytes, and queries as many absent keys with the same affix, then
// as many random absent keys.
func sharedAffixes(t Target, prefix bool) Verdict {
	s := standard(0, 10, 7, wholeKeyN).keyBytes(wholeKeyBytes)
	flt, err := t.build(s)
	if err != nil {
		return fail("%v", err)
	}
	affixed := func(dst, own []byte) []byte {
		if prefix {
			return append(append(dst[:0], sharedAffix...), own...)
		}
		return append(append(dst[:0], own...), sharedAffix...)
	}
	var own, key []byte
	for i := 0; i < s.Items; i++ {
		own = s.key(own, i)
		key = affixed(key, own)
		flt.Add(key)
	}
	near, err := t.count(flt, s.Items, func(dst []byte, i int) []byte {
		own = s.absent(own, i)
		return affixed(dst, own)
	})
	if err != nil {
		return stopped(err)
	}
	random, err := t.count(flt, s.Items, s.absent)
	if err != nil {
		return stopped(err)
	}
	what := "absent keys with the members' suffix"
	if prefix {
		what = "absent keys with the members' prefix"
	}
	return noWorse(near, random, s.Items, t.rate(s), what, t.describe(s))
}

// Key streams of the lengths check: lengthStreams random byte strings of
// maxShortKey bytes, whose prefixes of every even length are members and
// whose prefixes of every odd length their neighbours; and one long
// stream whose prefixes of 4 KiB and 1 MiB are members, those a byte
// shorter or longer neighbours.
const (
	lengthStreams = 100
	maxShortKey   = 64
)

var longKeys = []int{4 << 10, 1 << 20}

// keyLengths inserts every member of the lengths check, finds each again,
// and queries the neighbours, then as many random absent keys.
func keyLengths(t Target) Verdict {
	streams := make([][]byte, lengthStreams)
	for i := range streams {
		streams[i] = core.Key(nil, core.Members, uint64(i), 7, maxShortKey)
	}
	long := make([]byte, longKeys[len(longKeys)-1]+1)
	for off := 0; off < len(long); off += core.MaxKeyBytes {
		copy(long[off:], core.Key(nil, core.Members, uint64(lengthStreams+off/core.MaxKeyBytes), 7, core.MaxKeyBytes))
	}
	var members, neighbours [][]byte
	for i, st := range streams {
		for l := 0; l <= maxShortKey; l++ {
			switch {
			case l%2 == 1:
				neighbours = append(neighbours, st[:l])
			case l > 0 || i == 0: // the empty key once
				members = append(members, st[:l])
			}
		}
	}
	for _, l := range longKeys {
		members = append(members, long[:l])
		neighbours = append(neighbours, long[:l-1], long[:l+1])
	}
	s := standard(0, 10, 7, len(members))
	flt, err := t.build(s)
	if err != nil {
		return fail("%v", err)
	}
	for _, key := range members {
		flt.Add(key)
	}
	lost, first := 0, -1
	err = t.ask(flt, len(members), func(_ []byte, i int) []byte { return members[i] }, func(i int, found bool) {
		if !found {
			if lost == 0 {
				first = len(members[i])
			}
			lost++
		}
	})
	if err != nil {
		return stopped(err)
	}
	if lost > 0 {
		return fail("%d of %d members of lengths 0 to %d, 4 KiB and 1 MiB not found, the first of %d bytes (%s)",
			lost, len(members), maxShortKey, first, t.describe(s))
	}
	near, err := t.count(flt, len(neighbours), func(_ []byte, i int) []byte { return neighbours[i] })
	if err != nil {
		return stopped(err)
	}
	random, err := t.count(flt, len(neighbours), s.absent)
	if err != nil {
		return stopped(err)
	}
	return noWorse(near, random, len(neighbours), t.rate(s),
		fmt.Sprintf("all %d members found; their neighbours a byte shorter or longer", len(members)), t.describe(s))
}
