// Package audit proves the lab's Bloom filter keeps its contract, and shows
// which promises a broken filter from the zoo (core.Faults) breaks.
//
// The audit is data: a list of named checks (Checks), each with a stable ID,
// one line saying what it checks, and a function that audits the lab's
// filter with one fault switched on (core.NoFault is the real filter). The
// groups run in the order of the lab's specification, and the order matters:
// a filter that has lost half its keys can still report a beautiful
// false-positive rate, so the rate is checked last, after
//
//  1. no false negatives, over a grid of shapes (tiny m, fewer bits than
//     keys, k above m, k = 1, large k, duplicate passes, many seeds, each
//     variant);
//  2. every index in [0, m), for awkward m from 1 to past 2^40;
//  3. duplicate inserts are idempotent, byte for byte;
//  4. bit accounting closes (set bits = popcount = distinct positions
//     written, at most min(m, kn), nothing in the padding);
//  5. the formulas stay legal and reproduce known vectors;
//  6. hashing: the SipHash-2-4 reference vectors and chi-square uniformity;
//  7. statistics: measured rates, fills and probes within honest bounds of
//     theory;
//  8. determinism: same parameters, same digest; a new seed moves the bits.
//
// Every check uses fixed seeds and bounds with a tail of 10^-6 or smaller,
// so a pass or a failure reproduces exactly. Run folds every verdict into a
// digest that covers integers exactly and floats at six decimals, so the
// same audit gives the same digest natively, under Node and in a browser.
package audit
