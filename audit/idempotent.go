package audit

import (
	"slices"

	"bloomlab/core"
)

// idempotentChecks is group 3: inserting a key that is already present
// changes nothing, and the order of inserts does not matter. A filter that
// toggles or clears bits on a duplicate passes a fresh-keys test and loses
// members the first time a stream repeats itself.
func idempotentChecks() []Check {
	replays := []struct {
		name, contract string
		s              shape
		times          int
	}{
		{"standard", "replaying 4000 inserts leaves the bit array byte for byte the same",
			standard(0, 10, 7, 4000), 1},
		{"standard-tiny-m", "replaying inserts into an overfilled 10-bit filter leaves it the same",
			standard(10, 0, 3, 50), 1},
		{"standard-k-1", "replaying inserts with a single hash leaves the bit array the same",
			standard(0, 10, 1, 4000), 1},
		{"standard-k-64", "replaying inserts with k = 64 leaves the bit array the same",
			standard(0, 64, 64, 500), 1},
		{"standard-replay-5", "replaying the inserts five more times leaves the bit array the same",
			standard(0, 10, 7, 2000), 5},
		{"blocked", "replaying inserts into the blocked filter leaves it byte for byte the same",
			standard(0, 10, 7, 4000).with(core.BlockedVariant), 1},
		{"blocked-tiny-m", "replaying inserts into an overfilled single block leaves it the same",
			standard(1, 0, 5, 200).with(core.BlockedVariant), 1},
		{"counting", "replaying inserts into the counting filter leaves the same counters nonzero",
			standard(0, 10, 7, 4000).with(core.CountingVariant), 1},
		{"counting-replay-15", "15 more passes, past the counters' 15, leave the same counters nonzero",
			standard(0, 10, 7, 1000).with(core.CountingVariant), 15},
	}
	var checks []Check
	for _, r := range replays {
		checks = append(checks, Check{ID: "idempotent/" + r.name, Group: GroupIdempotent, Contract: r.contract,
			Run: func(f Target) Verdict { return replay(r.s, r.times, f) }})
	}
	for _, v := range core.Variants {
		s := standard(0, 10, 7, 4000).with(v)
		checks = append(checks, Check{ID: "idempotent/order-" + string(v), Group: GroupIdempotent,
			Contract: "inserting the keys of a " + string(v) + " filter in reverse order gives the same storage",
			Run:      func(f Target) Verdict { return reverseOrder(s, f) }})
	}
	return checks
}

// replay fills the shape, snapshots it, inserts every member times more
// and compares. Bits must match byte for byte; a counting filter's counters
// legitimately grow, so there the set of nonzero counters must match.
func replay(s shape, times int, f Target) Verdict {
	flt, err := s.fill(f)
	if err != nil {
		return fail("%v", err)
	}
	words := slices.Clone(flt.Words())
	live := nonzero(flt)
	set := flt.SetBits()
	s.insert(flt, times)
	_, counting := flt.(counter)
	inserts := s.Items * times
	if counting {
		same, at := equalWords(live, nonzero(flt))
		if !same || flt.SetBits() != set {
			return fail("after %d repeated inserts the nonzero counters changed from position %d on, %d -> %d nonzero (%s)",
				inserts, 64*at, set, flt.SetBits(), s.describe(f))
		}
		return pass("the same %d counters nonzero after %d repeated inserts (%s)", set, inserts, s.describe(f))
	}
	same, at := equalWords(words, flt.Words())
	if !same || flt.SetBits() != set {
		return fail("after %d repeated inserts word %d of %d changed, set bits %d -> %d (%s)",
			inserts, at, len(words), set, flt.SetBits(), s.describe(f))
	}
	return pass("all %d bytes the same after %d repeated inserts, %d bits set (%s)",
		8*len(words), inserts, set, s.describe(f))
}

// reverseOrder fills the shape forwards and a twin backwards: a filter's
// storage is a function of its key set, not of the order keys arrived in.
func reverseOrder(s shape, f Target) Verdict {
	fwd, err := s.fill(f)
	if err != nil {
		return fail("%v", err)
	}
	back, err := s.build(f)
	if err != nil {
		return fail("%v", err)
	}
	var key []byte
	for i := s.Items - 1; i >= 0; i-- {
		key = s.key(key, i)
		back.Add(key)
	}
	same, at := equalWords(fwd.Words(), back.Words())
	if !same {
		return fail("forward and reverse inserts differ from word %d of %d, set bits %d against %d (%s)",
			at, len(fwd.Words()), fwd.SetBits(), back.SetBits(), s.describe(f))
	}
	return pass("forward and reverse inserts give the same %d words, %d positions set (%s)",
		len(fwd.Words()), fwd.SetBits(), s.describe(f))
}
