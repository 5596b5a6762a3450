package audit

import (
	"fmt"
	"io"
	"math"

	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"
)

// labSetup is how one of the lab's own targets is set up: its layout, a
// fault of the zoo switched on (core.NoFault for none) and a hashing scheme
// for the standard and counting filters. A check that builds another
// layout of the lab, or a filter under a fault that breaks double hashing,
// builds it with double hashing, the only scheme it has.
type labSetup struct {
	core.Fault
	Hashing core.Hashing
	variant core.Variant
	system  labSystemViews
}

// build returns an empty filter of l's layout and fault for shape s.
func (l *labSetup) build(s Shape) (core.Membership, error) {
	return l.variant.Build(core.Spec{M: s.M, K: s.K, N: uint64(s.N), Seed: s.Seed, Fault: l.Fault,
		Hashing: l.hashing(l.variant)})
}

// hashing is the scheme a filter of layout v under l uses.
func (l *labSetup) hashing(v core.Variant) core.Hashing {
	if l.Hashing == "" || v.HashedBy(l.Fault, l.Hashing) != nil {
		return core.DoubleHashing
	}
	return l.Hashing
}

// Lab returns the target of the lab's own filter of variant v (the zero Variant for the
// layout the fault lives in, standard without one), with fault f of the zoo
// switched on ("" or core.NoFault for the real filter) and hashing scheme h
// ("" for double hashing). A pair the lab does not have is an error.
func Lab(v core.Variant, f core.Fault, h core.Hashing) (Target, error) {
	fault, err := core.ParseFault(string(f))
	if err != nil {
		return Target{}, fmt.Errorf("audit: %w", err)
	}
	hashing, err := core.ParseHashing(string(h))
	if err != nil {
		return Target{}, fmt.Errorf("audit: %w", err)
	}
	variant := core.Standard.Effective(fault)
	if !v.IsZero() {
		variant = v
		if err := variant.Accepts(fault); err != nil {
			return Target{}, fmt.Errorf("audit: %w", err)
		}
	}
	if err := variant.HashedBy(fault, hashing); err != nil {
		return Target{}, fmt.Errorf("audit: %w", err)
	}
	l := &labSetup{Fault: fault, Hashing: hashing, variant: variant}
	l.system = l.systemViews()
	name, about := "lab/"+variant.Name(), "the lab's "+variant.Name()+" filter"
	if fault != core.NoFault {
		name += "/" + string(fault)
		about = fault.Describe()
	}
	if hashing != core.DoubleHashing {
		name += "/" + string(hashing) + "-hashing"
		about += ", " + hashing.Describe()
	}
	return Target{
		Name:  name,
		About: about,
		New: func(s Shape) (Filter, error) {
			flt, err := l.build(s)
			if err != nil {
				return nil, err
			}
			return labFilter(flt, l.system), nil
		},
		Load: l.load(),
		Rate: func(s Shape) float64 {
			flt, err := l.build(s)
			if err != nil {
				return 0
			}
			return variant.Theory(flt, uint64(s.N)).Rate
		},
		Seeded: true,
		lab:    l,
	}, nil
}

// MustLab is Lab for arguments known to be good.
func MustLab(v core.Variant, f core.Fault, h core.Hashing) Target {
	t, err := Lab(v, f, h)
	if err != nil {
		panic(err)
	}
	return t
}

// lab filters show every view: positions, storage, and removal for the
// layouts that remove keys; and what core does for a filter in a system
// (saves and loads, merges, counts) where core does it for the layout.
// membership gives the lab's own checks the filter itself. The types below
// are each combination the layouts have: a view is a method, so a filter
// without it must be of a type without the method.
type (
	labView    interface{ membership() core.Membership }
	labBits    struct{ core.Membership }
	labRemoves struct{ labBits }
	// labCounts is a filter core counts but neither saves nor merges
	// (the cuckoo, fuse, ribbon and scalable filters count their keys).
	labCounts        struct{ labBits }
	labCountsRemoves struct{ labCounts }
	// labSystem is a filter core saves, merges and counts; a pointer,
	// since Merge replaces the filter it holds with the union.
	labSystem        struct{ labCounts }
	labSystemRemoves struct{ labSystem }
)

func (f labBits) Test(key []byte) bool             { ok, _ := f.Contains(key); return ok }
func (f labBits) Size() uint64                     { return f.M() }
func (f labBits) membership() core.Membership      { return f.Membership }
func (f labRemoves) Remove(key []byte) bool        { return f.Membership.(Remover).Remove(key) }
func (f labCountsRemoves) Remove(key []byte) bool  { return f.Membership.(Remover).Remove(key) }
func (f *labSystemRemoves) Remove(key []byte) bool { return f.Membership.(Remover).Remove(key) }
func (f *labSystem) Save(w io.Writer) error        { return core.Save(w, f.Membership) }

// Count is core.EstimateKeys: n̂ = -(m/k) ln(1 - x/m) with its delta-method
// SD, or the count a layout keeps (SD 0). A filter whose every position is
// set has no estimate: +Inf, which no bound holds.
func (f labCounts) Count() (n, sd float64) {
	e, err := core.EstimateKeys(f.Membership)
	if err != nil {
		return math.Inf(1), 0
	}
	return e.N, e.SD
}

// Merge is core.Union in place: other must be a lab filter of the same
// shape (core.ErrIncompatible names what differs).
func (f *labSystem) Merge(other Filter) error {
	o, ok := other.(labView)
	if !ok {
		return fmt.Errorf("audit: the lab's filters merge only with the lab's, got a %T", other)
	}
	u, err := core.Union(f.Membership, o.membership())
	if err != nil {
		return err
	}
	f.Membership = u.Filter
	return nil
}

// labSystemViews is what core does for a lab target's filters in a
// system, as asked of core itself (systemViews).
type labSystemViews struct{ saves, merges, counts bool }

// systemViews asks core whether it saves, merges and counts a small filter
// of l's layout, fault and hashing: a broken filter of the zoo is not one
// core saves or merges, nor do the layouts without a file format or a
// union.
func (l *labSetup) systemViews() labSystemViews {
	flt, err := l.build(Shape{M: 1024, K: 3, N: 100, Seed: 1})
	if err != nil {
		return labSystemViews{}
	}
	_, union := core.Union(flt, flt)
	_, count := core.EstimateKeys(flt)
	return labSystemViews{saves: core.Save(io.Discard, flt) == nil, merges: union == nil, counts: count == nil}
}

// load is l's Target.Load, core.Load for a layout core saves (nil
// otherwise): a file of another layout is refused, since it is not one
// l's filters wrote.
func (l *labSetup) load() func(r io.Reader) (Filter, error) {
	if !l.system.saves {
		return nil
	}
	own := l.variant.Effective(l.Fault)
	return func(r io.Reader) (Filter, error) {
		flt, err := core.Load(r)
		if err != nil {
			return nil, err
		}
		if v := flt.(core.Shaped).Shape().Variant; v != own {
			return nil, fmt.Errorf("audit: the file holds a %s filter, and the lab's %s target reads only %s filters", v, own, own)
		}
		return labFilter(flt, l.system), nil
	}
}

// labFilter shows a lab filter to the checks, with removal where its
// layout has it and the views of sys (none for the lab's other layouts a
// check builds by name).
func labFilter(flt core.Membership, sys labSystemViews) Filter {
	_, removes := flt.(Remover)
	b := labBits{flt}
	switch {
	case sys.saves && sys.merges && sys.counts && removes:
		return &labSystemRemoves{labSystem{labCounts{b}}}
	case sys.saves && sys.merges && sys.counts:
		return &labSystem{labCounts{b}}
	case sys.counts && removes:
		return labCountsRemoves{labCounts{b}}
	case sys.counts:
		return labCounts{b}
	case removes:
		return labRemoves{b}
	}
	return b
}

// reportedRate is the false-positive rate t's filter shows at the lab's
// default shape: the lab's own simulation for its targets, the same shape,
// keys and absent queries for any other.
func (t Target) reportedRate() (rate float64) {
	defer t.done()
	defer func() {
		if recover() != nil { // a broken filter's rate is no rate
			rate = 0
		}
	}()
	p := sim.Defaults()
	if t.lab != nil {
		r, err := sim.Run(defaults(t.lab))
		if err != nil {
			return 0
		}
		return r.EmpiricalFPR
	}
	m, k := p.Shape()
	flt, err := t.New(Shape{M: m, K: k, N: p.Items, Seed: p.Seed})
	if err != nil || flt == nil {
		return 0
	}
	var key []byte
	for i := range p.Items {
		key = core.Key(key, core.Members, uint64(i), p.Seed, p.KeyBytes)
		flt.Add(key)
	}
	absent := p.Queries - p.Queries*p.PresentShare/100
	fp, err := t.count(flt, absent, func(dst []byte, q int) []byte { return core.Key(dst, core.Absent, uint64(q), p.Seed, p.KeyBytes) })
	if err != nil {
		return 0
	}
	return float64(fp) / float64(absent)
}

// onLab runs a check of the lab's machinery on the lab behind target t;
// such a check needs NeedLab, so t.lab is set.
func onLab(run func(*labSetup) Verdict) func(Target) Verdict {
	return func(t Target) Verdict { return run(t.lab) }
}
