package sim

import (
	"fmt"

	"github.com/bloomlab/bloomlab/core"
)

// A large run may build its filter in parts, as distributed jobs build
// theirs: the members cut into one contiguous range a worker, each part a
// filter of the run's Shape over its range (BuildPart), and the parts
// merged by core.Union into the run's filter (RunMerged), which is then
// queried as RunTyped queries the filter it builds whole. For a layout
// whose union is the filter of both key sets (core.Variant.UnionIsWhole)
// the merged filter is the whole one, position for position: the parts
// only change where the work is done.

// PartsFrom is the fewest members a lab run builds in parts: the lab's
// worker takes runs of 60,000 operations and up whole; from a million
// members a run's inserts are worth sharing out.
const PartsFrom = 1 << 20

// InParts reports whether a run of p builds its filter in parts among
// workers workers: two or more of them, at least PartsFrom members, and a
// layout whose union is the whole filter.
func (p Params) InParts(workers int) bool {
	fault, _ := core.WithDefaults(p.Fault, p.Hashing)
	return workers > 1 && p.Items >= PartsFrom && p.Variant.Effective(fault).UnionIsWhole(fault)
}

// Part is the members lo..hi-1 of a run.
type Part struct{ Lo, Hi uint64 }

// Split cuts n members into count contiguous parts, the first n mod count
// of them one longer than the rest, so that they cover 0..n-1 once each.
// It panics if count is below 1.
func Split(n uint64, count int) []Part {
	if count < 1 {
		panic(fmt.Sprintf("sim: a split into %d parts", count))
	}
	c := uint64(count)
	parts := make([]Part, count)
	lo := uint64(0)
	for i := range parts {
		size := n / c
		if uint64(i) < n%c {
			size++
		}
		parts[i] = Part{lo, lo + size}
		lo += size
	}
	return parts
}

// BuildPart builds part i of count of p's filter: an empty filter of the
// run's Shape given the members of part i of Split(Items, count),
// DuplicatePasses times, and, in the last part, the typed keys after them.
// Its step counts the part's inserts.
func BuildPart(p Params, typed []string, i, count int, step Step) (core.Membership, error) {
	if i < 0 || i >= count {
		return nil, fmt.Errorf("sim: part %d of %d", i, count)
	}
	typedKeys, err := typedBytes(typed)
	if err != nil {
		return nil, err
	}
	r, err := p.Start()
	if err != nil {
		return nil, err
	}
	part := Split(uint64(p.Items), count)[i]
	if i < count-1 {
		typedKeys = nil
	}
	pr := &Pace{Step: step, Total: int(part.Hi-part.Lo)*p.DuplicatePasses + len(typedKeys)}
	member, _, _ := p.lists()
	if _, err := fill(r.Filter, part.Lo, part.Hi, p.DuplicatePasses, typedKeys, pr, member); err != nil {
		return nil, err
	}
	return r.Filter, nil
}

// RunMerged measures the filter merged by core.Union from parts, which
// BuildPart built for p and typed, as RunTyped measures the filter it
// builds whole: for a layout whose union is the whole filter, the same
// Result, digest and all. The merged filter must be of the run's Shape and
// hold every insert the run makes. Its step counts the queries, after the
// inserts the parts made.
func RunMerged(p Params, typed []string, parts []core.Membership, step Step) (Result, error) {
	if _, err := typedBytes(typed); err != nil {
		return Result{}, err
	}
	r, err := p.Start()
	if err != nil {
		return Result{}, err
	}
	if len(parts) == 0 {
		return Result{}, fmt.Errorf("sim: no parts to merge")
	}
	f := parts[0]
	for _, part := range parts[1:] {
		u, err := core.Union(f, part)
		if err != nil {
			return Result{}, fmt.Errorf("sim: merging the parts: %w", err)
		}
		f = u.Filter
	}
	want := r.Filter.(core.Shaped).Shape()
	merged, ok := f.(core.Shaped)
	if !ok {
		return Result{}, fmt.Errorf("sim: the merged parts are no filter of a shape")
	}
	if err := want.Compatible(merged.Shape()); err != nil {
		return Result{}, fmt.Errorf("sim: the merged parts are not the run's filter: %w", err)
	}
	inserts := p.Items*p.DuplicatePasses + len(typed)
	if got := merged.Inserted(); got != uint64(inserts) {
		return Result{}, fmt.Errorf("sim: the parts hold %d inserts, the run makes %d", got, inserts)
	}
	r.Filter = f
	pr := r.plan(p, len(typed), step)
	pr.Done = inserts
	_, present, absent := p.lists()
	probes, err := r.query(lastInserted(p, typed), pr, present, absent)
	if err != nil {
		return Result{}, err
	}
	r.end(p, len(typed), probes)
	return r, nil
}

// lastInserted is the last key a whole run inserts: the last typed key,
// or else the last member.
func lastInserted(p Params, typed []string) []byte {
	if len(typed) > 0 {
		return []byte(typed[len(typed)-1])
	}
	return core.Key(nil, core.Members, uint64(p.Items-1), p.Seed, p.KeyBytes)
}
