package core

// Layout is what a layout's record says when it is registered from outside
// the package: by a test that adds a throwaway layout to see that every
// layer takes it (core/coretest), or by a new layout tried out before it
// gets its file and its line in Variants. Cheapest, where set, is the
// layout's own sizing for the calculator and the frontier (see
// Variant.Cheapest); without it the layout is sized from its Theory.
type Layout struct {
	Name, Label, Unit, About, Positions string
	Terms                               Terms
	Build                               func(Spec) (Membership, error)
	Theory                              func(f Membership, n uint64) Theory
	Cheapest                            func(n uint64, p float64) Sizing
}

// Register adds l to the end of the registry, as a new layout's file and
// its one line in Variants do, and returns its Variant and a func that
// takes it out again. It changes Variants, so it is for tests and tools
// that own the process: nothing may read the registry while it runs, and
// the lab itself never calls it.
func Register(l Layout) (Variant, func()) {
	v := Variant{&kind{name: l.Name, label: l.Label, unit: l.Unit, about: l.About, positions: l.Positions,
		usesK: true, terms: l.Terms, build: l.Build, theory: l.Theory, cheapest: l.Cheapest,
		memoryBits: func(f Membership) uint64 { return f.M() }}}
	before := Variants
	Variants = append(Variants[:len(Variants):len(Variants)], v)
	return v, func() { Variants = before }
}
