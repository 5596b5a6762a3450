package try

import (
	"slices"
	"testing"

	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"
)

// Who set a position: every inserted key that maps to it, typed keys by
// name and generated members by index, as a key-by-key scan finds them.
func TestTrySetters(t *testing.T) {
	t.Parallel()
	p := sim.Defaults()
	p.Items, p.Queries, p.PresentShare = 300, 0, 0
	p.BitsPerKey = 4
	req := Request{Params: p, Insert: []string{"apple", "pear"}}
	pre, err := Run(req, nil)
	if err != nil {
		t.Fatal(err)
	}
	apple := pre.Inserts[0].Positions
	req.Setters = []uint64{apple[0], apple[3], 0, 1, 2}
	res, err := Run(req, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := p.Start()
	for i, pos := range req.Setters {
		s := res.Setters[i]
		if s.Position != pos {
			t.Fatalf("setters %d are of position %d, want %d", i, s.Position, pos)
		}
		var typed []string
		for _, k := range req.Insert {
			if slices.Contains(r.Filter.Positions(nil, []byte(k)), pos) {
				typed = append(typed, k)
			}
		}
		var gen []uint64
		for j := range uint64(p.Items) {
			if slices.Contains(r.Filter.Positions(nil, core.Key(nil, core.Members, j, p.Seed, p.KeyBytes)), pos) {
				gen = append(gen, j)
			}
		}
		if !slices.Equal(s.Typed, typed) {
			t.Errorf("position %d set by typed %v, want %v", pos, s.Typed, typed)
		}
		var got []uint64
		for _, g := range s.Generated {
			got = append(got, g.Index)
		}
		if len(gen) > MaxCulprits {
			if s.More != uint64(len(gen)-MaxCulprits) {
				t.Errorf("position %d: %d more, want %d", pos, s.More, len(gen)-MaxCulprits)
			}
			gen = gen[:MaxCulprits]
		}
		if !slices.Equal(got, gen) {
			t.Errorf("position %d set by members %v, want %v", pos, got, gen)
		}
	}
	if !slices.Contains(res.Setters[0].Typed, "apple") {
		t.Error("apple's own first bit does not name apple")
	}
}

// A cuckoo slot is set by the key whose fingerprint it holds; an empty
// slot by none.
func TestTrySettersCuckoo(t *testing.T) {
	t.Parallel()
	p := sim.Defaults()
	p.Variant, p.Items, p.Queries, p.PresentShare = core.CuckooVariant, 200, 0, 0
	req := Request{Params: p, Insert: []string{"apple"}}
	pre, err := Run(req, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := p.Start()
	for i := range uint64(p.Items) {
		r.Filter.Add(core.Key(nil, core.Members, i, p.Seed, p.KeyBytes))
	}
	r.Filter.Add([]byte("apple"))
	c := r.Filter.(*core.Cuckoo)
	var stored, empty uint64 = 1 << 63, 1 << 63
	for _, pos := range pre.Inserts[0].Positions {
		if c.Fingerprint(pos) != 0 && stored == 1<<63 {
			stored = pos
		}
	}
	for pos := range c.M() {
		if c.Fingerprint(pos) == 0 {
			empty = pos
			break
		}
	}
	req.Setters = []uint64{stored, empty}
	res, err := Run(req, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := res.Setters[0]; len(s.Typed)+len(s.Generated) == 0 {
		t.Errorf("slot %d holds a fingerprint, yet no key set it", stored)
	}
	if s := res.Setters[1]; len(s.Typed)+len(s.Generated) != 0 || s.More != 0 {
		t.Errorf("empty slot %d set by %+v", empty, s)
	}
}
