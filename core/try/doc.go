// Package try is the key panel of Bloom Lab, for the browser and for
// `bloomlab try`: a learner types "apple", inserts it and sees its k
// positions light up; queries "pear" and sees why the filter says maybe.
// Run works on the lab's current filter: the params' generated members,
// inserted DuplicatePasses times exactly as sim.Run inserts them (the same
// filter, the same bits), then every typed key of the request, in order;
// then it answers the typed queries against the result.
//
// A query's verdict is one of:
//
//   - "no": the filter answers no and the key is not a member. For the
//     Bloom layouts FirstZero is the probe that read the first zero.
//   - "member": the key is a typed insert ("typed") or a generated member
//     ("generated #i"), and the filter answers maybe, as it must.
//   - "false-positive": the filter answers maybe for a key it never saw.
//     Culprits says which inserted keys are to blame (below).
//   - "false-negative": a member the filter answers no for. A real Bloom
//     filter never gives one; the fault zoo does (a write lost past the
//     array), and a cuckoo filter too full to take a key.
//
// Culprits, by layout:
//
//   - Bloom layouts (standard, blocked, counting): for each distinct probed
//     position, in probe order, the inserted keys whose positions include
//     it, which are the keys that set that bit (or counted on that
//     counter). Under the clear-on-duplicate fault a key that set a bit
//     may also have cleared it.
//   - cuckoo: for each probed slot whose fingerprint equals the query's,
//     the inserted keys with that same fingerprint and that slot among their
//     positions (their two buckets): one of them is stored there, the table
//     does not record which. A match in the stash has no slot, so no entry.
//   - scalable: for each probed position of the link that said maybe (the
//     newest whose probes are all set), the inserted keys that went into
//     that link and whose positions there include it. A generated member
//     is taken to have gone into the link that was last at its turn; one
//     the chain already said maybe to then set nothing, and may be listed.
//   - fuse: for each of the query's three cells, the inserted keys whose
//     cells include it: the cell's value was solved from their
//     fingerprints, and the three cells xor to the query's fingerprint by
//     chance.
//   - ribbon: for each row the query's coefficient selects, the inserted
//     keys whose coefficients select it too: Z was solved from their
//     fingerprints, and the selected rows xor to the query's by chance.
//
// Generated culprits are listed by index, at most MaxCulprits of them
// a position, the rest counted in More. Finding them reads every member
// once; the scan runs in chunks that call the Step, as sim.Run does.
//
// Attacks (attack.go) use the same filter as one who holds the link, and so
// the seed, would: forge a false positive offline, craft keys that fill the
// filter, or recover members from a list of candidates.
//
// The package imports core, core/keys and core/sim. It knows no layout: what a filter shows
// beyond core.Membership (its arithmetic, its values, its fingerprints, its
// links) it asks through core's views, and the words for a layout's
// positions come from its record's core.Terms; a new layout needs nothing
// here (core's TestNewLayoutTouchesOnlyItsFile).
package try
