// Package system is two filters as a system holds them: a second filter
// beside the lab's, of the same shape over its own keys, their union and
// intersection measured against theory, and the three ways the third
// article's "Where the contract can leak" finds a false negative in a
// system of filters that each keep the contract: a merge across salts
// (seeds), a stale snapshot, and replicas that each missed some writes.
// Each story is counted, not described: the members that answer no.
//
// Build is the one entry, pure and deterministic like sim.Run: the same
// Params give the same Result everywhere, so the lab's page and a test
// read one count. The lab shows it (app/lab's second view) and wires it;
// nothing here knows a page.
//
// The keys are the lab's generated ones (core.Keys): the first filter A
// holds members 0 to n-1, the second B members n-s to 2n-s-1, s the keys
// both hold (0 by default: the next n). The rates are measured over the
// lab's absent queries, absent from both by construction.
//
// It imports core and core/sim (the lab's Params, Step and Pace) only.
package system
