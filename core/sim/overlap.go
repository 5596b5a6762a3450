package sim

import (
	"fmt"
	"math"
	"slices"

	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/keys"
)

// Overlap is how many of a filter's distinct keys map to each of its
// positions: a set bit of a standard filter may carry one key or several,
// and the rate of false positives is the chance that an absent key lands
// only on bits other keys set. For n keys of k uniform probes each the
// count at a position is close to Poisson with mean kn/m (Bloom's own
// analysis); the blocked filter's counts spread wider, since a key's
// probes share one block.
type Overlap struct {
	// Counts[i] is the number of keys with position i among their
	// positions, at most 255 (a key probing a position twice counts
	// once).
	Counts []uint8 `json:"-"`
	// Histogram[c] is the number of positions that c keys map to, for c
	// from 0 to OverlapTop, the last counting OverlapTop or more.
	Histogram []uint64 `json:"histogram"`
	// Mean is the mean count, kn/m for n keys of k distinct positions.
	Mean float64 `json:"mean"`
	// Keys is the number of keys counted.
	Keys uint64 `json:"keys"`
}

// OverlapTop is the histogram's last class: OverlapTop or more keys.
const OverlapTop = 8

// MaxOverlapM bounds the positions Overlap counts: a byte each.
const MaxOverlapM = 1 << 24

// OverlapOf counts, for the filter p describes, how many of its keys map
// to each position: the generated members, then each distinct typed key. It applies to the layouts whose positions a key
// sets (the Bloom layouts, faults included: a position past the array,
// which a broken filter computes, is not counted). step is called between
// chunks of keys, as in Run.
func OverlapOf(p Params, typed []string, step Step) (Overlap, error) {
	if err := p.Validate(); err != nil {
		return Overlap{}, err
	}
	if len(typed) > keys.MaxTyped {
		return Overlap{}, fmt.Errorf("sim: %d keys typed, at most %d", len(typed), keys.MaxTyped)
	}
	if !p.Variant.Bloom() {
		return Overlap{}, fmt.Errorf("sim: a %s filter's positions hold fingerprints, not keys' bits: it has no overlap to count", p.Variant.Name())
	}
	r, err := p.Start()
	if err != nil {
		return Overlap{}, err
	}
	f, m := r.Filter, r.Filter.M()
	if m > MaxOverlapM {
		return Overlap{}, fmt.Errorf("sim: the overlap is counted for at most %d positions, this filter has %d", MaxOverlapM, m)
	}
	o := Overlap{Counts: make([]uint8, m)}
	var pos []uint64
	count := func(key []byte) {
		pos = slices.Compact(sortedPositions(f.Positions(pos, key)))
		for _, i := range pos {
			if i < m && o.Counts[i] < math.MaxUint8 {
				o.Counts[i]++
			}
		}
		o.Keys++
	}
	pr := &Pace{Step: step, Total: p.Items + len(typed)}
	var keys [core.BatchKeys][]byte
	for first := uint64(0); first < uint64(p.Items); {
		b := int(min(core.BatchKeys, uint64(p.Items)-first, uint64(pr.Room())))
		core.Keys(keys[:b], core.Members, first, p.Seed, p.KeyBytes)
		for _, key := range keys[:b] {
			count(key)
		}
		first += uint64(b)
		if err := pr.Advance(b); err != nil {
			return Overlap{}, err
		}
	}
	for i, t := range typed {
		if !slices.Contains(typed[:i], t) {
			count([]byte(t))
		}
	}
	o.Histogram = make([]uint64, OverlapTop+1)
	total := uint64(0)
	for _, c := range o.Counts {
		o.Histogram[min(int(c), OverlapTop)]++
		total += uint64(c)
	}
	o.Mean = float64(total) / float64(m)
	return o, nil
}

// sortedPositions sorts ps in place.
func sortedPositions(ps []uint64) []uint64 {
	slices.Sort(ps)
	return ps
}

// PoissonShares are the shares of positions that c keys map to under the
// Poisson model with mean λ, for c from 0 to OverlapTop, the last taking
// the whole tail.
func PoissonShares(mean float64) []float64 {
	out := make([]float64, OverlapTop+1)
	term, sum := math.Exp(-mean), 0.0
	for c := range OverlapTop {
		out[c] = term
		sum += term
		term *= mean / float64(c+1)
	}
	out[OverlapTop] = math.Max(0, 1-sum)
	return out
}
