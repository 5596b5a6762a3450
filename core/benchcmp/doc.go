// Package benchcmp holds only benchmarks: Bloom Lab's standard and blocked
// filters beside github.com/bits-and-blooms/bloom/v3, measured in the same
// run, so the comparison's dependency never reaches the lab itself.
//
//	go test -run '^$' -bench . -count 6 ./core/benchcmp
package benchcmp
