// Package audit checks that a Bloom filter keeps its contract: the lab's
// own filter in each variant, each broken filter of the lab's zoo
// (core.Faults), or any other implementation, put through the same checks.
//
// A Target is a named way to build a filter for a Shape (m positions, k
// probes, the n keys it is meant for, a seed). Its filter needs only Add and
// Test; what else it shows (its positions, its storage, removal, Save
// with the target's Load, Merge, Count) is discovered, and a check that
// needs something the filter does not show is skipped, with the reason,
// never counted as passed. The lab's targets
// (Lab) also open the lab's machinery (its hash, index derivation, formulas,
// counters and simulation) to the checks of those. Package audittest runs
// the checks as subtests of a user's own go test.
//
// The audit is data: a list of named checks (Checks), each with a stable ID,
// one line saying what it checks, what it needs, and a function that audits
// a target. The groups run in the order of the lab's specification, and the
// order matters: a filter that has lost half its keys can still report a
// beautiful false-positive rate, so the rate is checked last, after
//
//  1. no false negatives, over a grid of shapes (tiny m, fewer bits than
//     keys, k above m, k = 1, large k, duplicate passes, many seeds, each
//     of the lab's variants), past the n a filter was built for (2, 5 and
//     10 times it: a filter cannot refuse more keys, so it must keep
//     them), and after removals;
//  2. every index in [0, m), for awkward m from 1 to past 2^40;
//  3. duplicate inserts change no answer, and no byte where storage shows;
//  4. bit accounting closes (set bits = popcount = distinct positions
//     written, at most min(m, kn), nothing in the padding);
//  5. the formulas stay legal and reproduce known vectors;
//  6. hashing: the SipHash-2-4 reference vectors and chi-square uniformity,
//     and the whole key hashed: queries one byte from a member, keys that
//     share a long prefix or suffix, and neighbours of every length from 0
//     to 64 bytes (and 4 KiB, 1 MiB) are false positives no more often
//     than random queries;
//  7. statistics: the measured rate within 10% of the target's own theory
//     (random keys and the text keys key-N and miss-N, and past n, where a
//     filter that drops writes looks better than its design), fills and
//     probes within honest bounds;
//  8. determinism: the same build gives the same answers and the same
//     digest; a new seed, and nothing else, moves the bits;
//  9. the filter in a system (system.go, damage.go): saved and loaded it
//     answers as before (a tiny m, an m not a multiple of 64, k = 64); a
//     damaged file (truncated, flipped, a size that disagrees, a size
//     past any bound) is refused or keeps every member, and its Load
//     allocates at most 16 times the file's bytes and 1 MiB; a union of
//     filters over disjoint keys keeps all of them, and one of another
//     m, k or seed is refused or keeps them all; the estimated count is
//     within 5 SD + 1 of n at fills of 10% to 90%. Keep and Against hold
//     a later version of a target to the files an earlier one saved.
//
// Every check uses fixed seeds and bounds with a tail of 10^-6 or smaller,
// so a pass or a failure reproduces exactly. Run folds every verdict into a
// digest that covers integers exactly and floats at six decimals, so the
// same audit gives the same digest natively, under Node and in a browser.
//
// A new check is one entry in its group's list, in that group's file, with
// a stable ID under the group's prefix; nothing else is written by hand.
// make golden then rewrites every file that pins the list: the digests and
// zoo tables of testdata/, the libraries' verdicts in compare/testdata/,
// and the README's tables and counts. Its diff is the check's findings: a
// fault it catches, a library it fails. No comment, example or test states
// how many checks there are; each counts Checks.
package audit
