// Package compare puts real Bloom filter libraries through the lab's audit
// and times them beside the lab's own filter. It is a module of its own, so
// the libraries never reach the lab's go.mod or its WebAssembly.
//
// The audit takes any filter as an audit.Target. Targets returns two:
// github.com/bits-and-blooms/bloom/v3 (a standard filter that shows its
// positions and its storage, and takes no seed) and
// github.com/greatroar/blobloom hashed by xxh3 (a blocked filter of 512-bit
// blocks, with its own rate theory, that shows its storage through its own
// Dump and not its positions). A check that needs a view a library does not
// show is skipped with the reason, never passed, and every check of the
// lab's own machinery (its hash, formulas and simulation) is skipped for a
// library. Each library's verdicts are pinned in testdata/<name>.verdicts:
// a library failing a check is a finding, and the test fails only when a
// verdict moves. The README's tables of them are read from those files
// (readme_test.go); make golden, at the repository's root, rewrites both.
//
//	cd compare && go test ./...                         # the pinned verdicts, the example
//	cd compare && go run ./cmd/auditlibraries           # passed, failed, skipped per group
//	cd compare && go test -run '^$' -bench . -count 6   # the benchmarks
//
// The benchmarks (bench_test.go) time insert, positive and negative queries
// at 10^6 and 10^7 keys of 24 bytes, each filter sized for 1%; an insert
// never re-adds a key to the filter it already holds, since a filter
// refilled with the same keys sets no new bits and flatters every filter.
// alternatives_bench_test.go times the lab's cuckoo and binary fuse filters
// the same way beside github.com/seiflotfy/cuckoofilter and
// github.com/FastFilter/xorfilter, and the lab's semi-sorted cuckoo filter
// beside the packed table of github.com/linvon/cuckoo-filter v0.4.0 (a Go
// port of the paper authors' semi-sorted table), and alternatives_test.go
// checks that each pair measures the same rate at the same bits per key.
//
// The semi-sorted pair, f = 8, in the library's table for n = 10^6 keys,
// 2^18 buckets: both hold 7.34 bits per key at 95.4% load, where a plain
// table of the same slots holds 8.39, and both answer 2.94% of absent keys
// (theory 2.95%). At 200,000 keys in 2^16 buckets (76.3% load) they measure
// 2.36% and 2.32% at f = 8 (9.18 bits per key; theory 2.37%) and 0.153%
// each at f = 12 (14.42; theory 0.149%), within each other's 99.9%
// intervals; linvon holds 56 bits more for the same table, 7 bytes it
// reserves because it reads every bucket as a uint64. Medians of two sets
// of 6 runs on a shared 2-core machine, ns per key, lab then linvon: insert
// 571 and 433, then 488 and 658, so neither is the faster; member query
// 324 and 137, then 309 and 90; absent 258 and 83, then 198 and 68: the
// library's 64-bit metro hash against the lab's 128-bit SipHash-2-4, as
// between the plain pair. linvon's insert allocates once (4 bytes), the
// lab's never; no query allocates.
package compare
