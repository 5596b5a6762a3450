package core

// The lab's limits: the ranges a run's settings are checked against
// (sim.Params.Validate), shared with every front end and the filters.
const (
	MinBitsPerKey = 0.1
	MaxBitsPerKey = 64
	MaxItems      = 10_000_000
	MaxQueries    = 100_000_000
	MaxPasses     = 100
)
