package audit

import (
	"fmt"

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
			return labFilter(flt), nil
		},
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
// layouts that remove keys. membership gives the lab's own checks the filter itself.
type (
	labView    interface{ membership() core.Membership }
	labBits    struct{ core.Membership }
	labRemoves struct{ labBits }
)

func (f labBits) Test(key []byte) bool        { ok, _ := f.Contains(key); return ok }
func (f labBits) Size() uint64                { return f.M() }
func (f labBits) membership() core.Membership { return f.Membership }
func (f labRemoves) Remove(key []byte) bool   { return f.Membership.(Remover).Remove(key) }

// labFilter shows a lab filter to the checks, with removal where its
// layout has it.
func labFilter(flt core.Membership) Filter {
	if _, ok := flt.(Remover); ok {
		return labRemoves{labBits{flt}}
	}
	return labBits{flt}
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
