package core

// Layout is what a new layout's record says, for a test that adds one from
// outside the package as a new layout's own file would.
type Layout struct {
	Name, Label, Unit, About, Positions string
	Terms                               Terms
	Build                               func(Spec) (Membership, error)
	Theory                              func(f Membership, n uint64) Theory
}

// Register adds l to the registry, as a new layout's file and its one line
// in Variants do, and returns its Variant and a func that takes it out.
func Register(l Layout) (Variant, func()) {
	v := Variant{&kind{name: l.Name, label: l.Label, unit: l.Unit, about: l.About, positions: l.Positions,
		usesK: true, terms: l.Terms, build: l.Build, theory: l.Theory,
		memoryBits: func(f Membership) uint64 { return f.M() }}}
	before := Variants
	Variants = append(Variants[:len(Variants):len(Variants)], v)
	return v, func() { Variants = before }
}
