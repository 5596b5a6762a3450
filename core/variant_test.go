package core

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRegistryRecords checks that every registered variant is complete,
// parses back from its name and JSON, and simulates with no false negative
// at the default shape.
func TestRegistryRecords(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, v := range Variants {
		r := v.record()
		if r.name == "" || r.label == "" || r.unit == "" || r.about == "" || r.build == nil || r.memoryBits == nil ||
			(r.moments == nil) == (r.theory == nil) || (!r.hashings && r.positions == "") ||
			r.terms.Nonzero == "" || r.terms.Dark == "" || r.terms.Share == "" || r.terms.SetBy == "" || r.terms.SetByShort == "" || r.terms.No == "" {
			t.Errorf("variant %q has an incomplete record: %+v", r.name, *r)
		}
		if seen[r.name] {
			t.Errorf("variant %q registered twice", r.name)
		}
		seen[r.name] = true
		if got, err := ParseVariant(v.Name()); err != nil || got != v {
			t.Errorf("ParseVariant(%q) = %v, %v", v.Name(), got, err)
		}
		var p Params
		b, _ := json.Marshal(Params{Variant: v})
		if err := json.Unmarshal(b, &p); err != nil || p.Variant != v {
			t.Errorf("%s: JSON %s read back as %v, %v", v, b, p.Variant, err)
		}
		p = DefaultParams()
		p.Variant = v
		res, err := Simulate(p)
		if err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		if res.FalseNegatives != 0 || res.Variant != v || res.MemoryBits == 0 || res.TheoryFPRVariant <= 0 {
			t.Errorf("%s: %d false negatives, variant %s, memory %d bits, theory %g", v, res.FalseNegatives, res.Variant,
				res.MemoryBits, res.TheoryFPRVariant)
		}
	}
	var p Params
	if err := json.Unmarshal([]byte(`{"variant":"quotient"}`), &p); err == nil || !strings.Contains(err.Error(), "unknown variant") {
		t.Errorf("an unknown variant in JSON gave %v", err)
	}
	if Standard.Name() != "standard" || (Variant{}).Name() != "standard" {
		t.Error("the zero Variant does not read as standard")
	}
}

// TestFingerprintBitsChecked checks the fingerprint widths each layout
// takes, and that cuckoo chooses the widest that holds its keys.
func TestFingerprintBitsChecked(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		v    Variant
		bits int
		ok   bool
	}{
		{Standard, 0, true}, {Standard, 8, false}, {CuckooVariant, 0, true}, {CuckooVariant, 12, true},
		{CuckooVariant, 10, false}, {FuseVariant, 16, true}, {FuseVariant, 12, true}, {FuseVariant, 1, true},
		{FuseVariant, 7, true}, {FuseVariant, 32, true}, {FuseVariant, 0, true}, {FuseVariant, 33, false}, {FuseVariant, -1, false},
		{SemiSortedVariant, 0, true}, {SemiSortedVariant, 5, true}, {SemiSortedVariant, 11, true}, {SemiSortedVariant, 4, false}, {SemiSortedVariant, 17, false},
	} {
		if err := tt.v.CheckFingerprintBits(tt.bits); (err == nil) != tt.ok {
			t.Errorf("%s with %d-bit fingerprints: %v", tt.v, tt.bits, err)
		}
	}
	for v, want := range map[Variant]string{Standard: "", CuckooVariant: "8, 12 or 16", FuseVariant: "1 to 32", SemiSortedVariant: "5 to 16"} {
		if got := v.FingerprintWidths("or"); got != want {
			t.Errorf("%s's widths %q, want %q", v, got, want)
		}
	}
	for _, tt := range []struct {
		v          Variant
		bitsPerKey float64
		want       int
	}{
		{CuckooVariant, 6, 8}, {CuckooVariant, 10, 8}, {CuckooVariant, 13, 12}, {CuckooVariant, 17, 16}, {CuckooVariant, 24, 16},
		// f - 1 bits a slot at 95% load: the widest f with f - 1 <= 0.95 b.
		{SemiSortedVariant, 4, 5}, {SemiSortedVariant, 6, 6}, {SemiSortedVariant, 10, 10}, {SemiSortedVariant, 13, 13}, {SemiSortedVariant, 17, 16},
	} {
		p := DefaultParams()
		p.Variant, p.BitsPerKey = tt.v, tt.bitsPerKey
		r, err := Simulate(p)
		if err != nil || r.FingerprintBits != tt.want {
			t.Errorf("%s at %v bits per key chose %d-bit fingerprints (%v), want %d", tt.v, tt.bitsPerKey, r.FingerprintBits, err, tt.want)
		}
	}
}

// TestCuckooOverfilledFails checks that a cuckoo filter given fewer slots
// than keys reports its failed inserts as figures and false negatives,
// never a panic, and that its theory follows the load it holds.
func TestCuckooOverfilledFails(t *testing.T) {
	t.Parallel()
	p := DefaultParams()
	p.Variant, p.BitsPerKey, p.PresentShare = CuckooVariant, 6, 100
	r, err := Simulate(p)
	if err != nil {
		t.Fatal(err)
	}
	if r.InsertFailures == 0 || r.FalseNegatives == 0 || r.Load < 0.9 {
		t.Errorf("6 bits per key at 8-bit fingerprints: %d failures, %d false negatives, load %.3f", r.InsertFailures,
			r.FalseNegatives, r.Load)
	}
}
