module bloomlab/compare

go 1.26

require (
	bloomlab v0.0.0
	github.com/bits-and-blooms/bloom/v3 v3.7.1
)

require (
	github.com/bits-and-blooms/bitset v1.24.2 // indirect
	github.com/dchest/siphash v1.2.3 // indirect
)

replace bloomlab => ../
