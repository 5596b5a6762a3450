// Package compare holds only benchmarks: Bloom Lab's standard and blocked
// filters beside github.com/bits-and-blooms/bloom/v3, measured in the same
// run. It is a module of its own, so the comparison's dependency never
// reaches the lab's go.mod or its WebAssembly.
//
//	cd compare && go test -run '^$' -bench . -count 6 .
package compare
