package core

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRegistryRecords checks that every registered variant is complete and
// parses back from its name and JSON (package sim runs each).
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
		var back Variant
		b, _ := json.Marshal(v)
		if err := json.Unmarshal(b, &back); err != nil || back != v {
			t.Errorf("%s: JSON %s read back as %v, %v", v, b, back, err)
		}
	}
	var p Variant
	if err := json.Unmarshal([]byte(`"quotient"`), &p); err == nil || !strings.Contains(err.Error(), "unknown variant") {
		t.Errorf("an unknown variant in JSON gave %v", err)
	}
	if Standard.Name() != "standard" || (Variant{}).Name() != "standard" {
		t.Error("the zero Variant does not read as standard")
	}
}
