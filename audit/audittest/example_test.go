package audittest_test

import (
	"fmt"
	"hash/fnv"

	"github.com/bloomlab/bloomlab/audit"
)

// bloom is a user's own filter: m bits, k positions by double hashing over
// FNV-1a, keyed by a seed.
type bloom struct {
	bits []uint64
	m    uint64
	k    int
	seed uint64
}

func (b *bloom) positions(key []byte, at func(uint64) bool) bool {
	h := fnv.New64a()
	fmt.Fprint(h, b.seed)
	h.Write(key)
	h1 := h.Sum64()
	h2 := h1>>33 | 1
	for i := 0; i < b.k; i++ {
		if !at((h1 + uint64(i)*h2) % b.m) {
			return false
		}
	}
	return true
}

func (b *bloom) Add(key []byte) {
	b.positions(key, func(j uint64) bool { b.bits[j/64] |= 1 << (j % 64); return true })
}

func (b *bloom) Test(key []byte) bool {
	return b.positions(key, func(j uint64) bool { return b.bits[j/64]&(1<<(j%64)) != 0 })
}

// A target names the filter and builds it for the shape each check asks
// for. In a test, audittest.Run(t, target) runs every check as a subtest;
// here audit.RunCheck runs the no-false-negatives group, the one to trust
// before any rate.
func Example() {
	target := audit.Target{
		Name:   "myfilter",
		Seeded: true,
		New: func(s audit.Shape) (audit.Filter, error) {
			return &bloom{bits: make([]uint64, (s.M+63)/64), m: s.M, k: s.K, seed: s.Seed}, nil
		},
	}
	passed, skipped := 0, 0
	for _, c := range audit.Checks() {
		if c.Group != audit.GroupNegatives {
			continue
		}
		o, err := audit.RunCheck(target, c)
		switch {
		case err != nil:
			fmt.Println(err)
			return
		case o.Skipped:
			skipped++
		case o.Pass:
			passed++
		default:
			fmt.Println("FAIL", o.ID, o.Detail)
		}
	}
	fmt.Printf("no false negatives: %d passed, %d skipped\n", passed, skipped)
	// Output:
	// no false negatives: 18 passed, 30 skipped
}
