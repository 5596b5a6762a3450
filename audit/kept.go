package audit

import "fmt"

// Kept is a filter a target saved in one audit, with the keys that made
// it, so that a later version of the target can be held to the file: a
// filter saved by the version users run today must load, and keep its
// members, in every version after it.
type Kept struct {
	// Name is the round-trip shape's, "default" or "awkward-m".
	Name string
	// Shape is the filter's, as the target's New was given it.
	Shape Shape
	// Keys are the members it holds.
	Keys [][]byte
	// File is what its Save wrote.
	File []byte
}

// Keep fills the filters of the round-trip checks (save/round-trip/*)
// with their members and saves each through t's Save. A target that does
// not save is an error.
func Keep(t Target) ([]Kept, error) {
	have, err := discover(t)
	if err != nil {
		return nil, err
	}
	if !have[NeedSave] {
		return nil, fmt.Errorf("audit: %s does not save filters (Save and the target's Load), so there is nothing to keep", t.Name)
	}
	defer t.done()
	var kept []Kept
	for _, r := range roundTrips() {
		_, file, err := t.filledFile(r.s)
		if err != nil {
			return nil, fmt.Errorf("audit: %s: %w", r.name, err)
		}
		m, k := t.dims(r.s)
		keys := make([][]byte, r.s.Items)
		for i := range keys {
			keys[i] = r.s.key(nil, i)
		}
		kept = append(kept, Kept{Name: r.name, Shape: Shape{M: m, K: k, N: r.s.Items, Seed: t.seedOf(r.s.Seed)}, Keys: keys, File: file})
	}
	return kept, nil
}

// Against is a check for each kept filter, against/NAME in the system
// group: the target's Load reads the file, and every key kept with it
// answers yes. from says where the files came from in the contract
// ("kept by lab/standard, bloomlab v1.2.0").
func Against(kept []Kept, from string) []Check {
	checks := make([]Check, len(kept))
	for i, k := range kept {
		checks[i] = Check{ID: "against/" + k.Name, Group: GroupSystem, Needs: []Need{NeedSave},
			Contract: fmt.Sprintf("the %s filter %s (m = %d, k = %d, %d keys, seed %d) loads, and every key kept with it answers yes",
				k.Name, from, k.Shape.M, k.Shape.K, len(k.Keys), k.Shape.Seed),
			Run: func(t Target) Verdict { return against(t, k) }}
	}
	return checks
}

func against(t Target, k Kept) Verdict {
	flt, err := t.load(k.File)
	if err != nil {
		return fail("the kept %d-byte file does not load: %v", len(k.File), err)
	}
	yes, err := t.count(flt, len(k.Keys), func(dst []byte, i int) []byte { return append(dst[:0], k.Keys[i]...) })
	if err != nil {
		return stopped(err)
	}
	lost := len(k.Keys) - yes
	return verdict(lost == 0, "%d of %d kept members answer no after loading the kept %d-byte file", lost, len(k.Keys), len(k.File))
}
