// Package plan sizes a real filter from the formulas alone: the calculator
// page and `bloomlab size` are thin faces on it.
//
// Give any two of n (keys), p (false-positive rate) and m (bits) and Solve
// finds the third: m = ceil(-n ln p / (ln 2)^2) from n and p; the rate at the
// optimal k from n and m; and from p and m the largest n whose m for p still
// fits, so that sizing that n again gives back no more than m. Around that it
// sets out what an engineer asks next:
//
//   - k by round against k by ceil, with both rates (round is never worse;
//     at p = 5% it gives 4 and 0.050269 where ceil gives 5 and 0.051029);
//   - bits per key against the information floor log2(1/p): a Bloom filter
//     spends 1/ln 2, about 1.44 times, the floor (Carter et al., 1978);
//   - the memory of the same set kept exactly (core.ExactSetBytes);
//   - what the same n and p cost in other structures, each from its paper's
//     own formula with the paper named (Alternatives), and, apart from
//     Solve since it builds filters, each one the lab can build measured at
//     the same bits per key on 10,000 keys and 20,000 absent queries, with
//     a Wilson interval (Measure);
//   - the rate once the filter holds 1.5, 2 and 5 times the n it was sized
//     for (Overfill);
//   - a cost model: a false positive costs whatever the "maybe" branch does,
//     so the expected cost is p x that cost x the absent queries per second,
//     set against what the filter's "no" answers save.
//
// Sizes are parsed with units (bits, bytes, KiB, MiB, GiB, TiB, and the
// decimal kB, MB, GB, TB); rates as decimals, percentages or "1 in N".
// Every parse error names the field, what was wrong and what is allowed.
//
// The package imports only core and the standard library, so it runs the
// same natively, under Node and in the browser.
package plan
