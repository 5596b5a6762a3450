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
// verdict moves.
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
// github.com/FastFilter/xorfilter, and alternatives_test.go checks that each
// pair measures the same rate at the same bits per key.
package compare
