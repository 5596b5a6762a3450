package core_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/coretest"
	"github.com/bloomlab/bloomlab/core/sim"
	"github.com/bloomlab/bloomlab/core/try"
)

func TestNewLayoutTouchesOnlyItsFile(t *testing.T) {
	v, unregister := coretest.RegisterWord()
	defer unregister()

	// The edges parse it: a name, JSON, the list in messages.
	if got, err := core.ParseVariant("word"); err != nil || got != v {
		t.Fatalf("ParseVariant(word) = %v, %v", got, err)
	}
	if !strings.HasSuffix(core.VariantNames(), " or word") {
		t.Errorf("VariantNames() = %q, want the new layout last", core.VariantNames())
	}
	var p sim.Params
	if err := json.Unmarshal([]byte(`{"variant":"word"}`), &p); err != nil || p.Variant != v {
		t.Errorf(`{"variant":"word"} read as %v, %v`, p.Variant, err)
	}

	// The simulation runs it through the contract's first clause.
	p = sim.Defaults()
	p.Variant, p.Hashes = v, 4
	r, err := sim.Run(p)
	if err != nil {
		t.Fatal(err)
	}
	if r.FalseNegatives != 0 || r.Variant != v || r.SetBits == 0 || r.MemoryBits != r.M || r.TheoryFPRVariant <= 0 {
		t.Errorf("simulated: %d false negatives, variant %s, %d set bits, %d memory bits of %d, theory %g",
			r.FalseNegatives, r.Variant, r.SetBits, r.MemoryBits, r.M, r.TheoryFPRVariant)
	}

	// Explain shows its own arithmetic, ending in its positions.
	f, err := v.Build(core.Spec{M: 4096, K: 4, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	f.Add([]byte("apple"))
	e, ok := core.Explain(f, []byte("apple"))
	if !ok || e.Scheme != "word" || len(e.Steps) != 4 {
		t.Fatalf("Explain: %v, scheme %q, %d steps", ok, e.Scheme, len(e.Steps))
	}
	for i, s := range e.Steps {
		if s.Position != e.Positions[i] {
			t.Errorf("step %d ends at %d, the filter's position is %d", i, s.Position, e.Positions[i])
		}
	}

	// The key panel inserts, answers, explains and blames in its words.
	p = sim.Defaults()
	p.Variant, p.Hashes, p.Items, p.BitsPerKey = v, 3, 40, 2
	res, err := try.Run(try.Request{Params: p, Insert: []string{"apple", "pear"}, Query: queries(30), Explain: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Unit != "bit" || len(res.Inserts) != 2 || len(res.Inserts[0].Positions) != 3 || len(res.Inserts[0].New) != 3 {
		t.Errorf("inserts: unit %q, %+v", res.Unit, res.Inserts)
	}
	var fp *try.Query
	for i, q := range res.Queries {
		if q.Explain == nil || q.Explain.Scheme != "word" {
			t.Fatalf("query %q not explained by its layout: %+v", q.Key, q.Explain)
		}
		if q.Verdict == try.VerdictFalsePositive && fp == nil {
			fp = &res.Queries[i]
		}
	}
	if fp == nil {
		t.Fatal("no false positive among 30 queries of a filter at 2 bits per key")
	}
	var blamed int
	for _, c := range fp.Culprits {
		blamed += len(c.Typed) + len(c.Generated)
	}
	if blamed == 0 {
		t.Errorf("false positive %q has no keys to blame: %+v", fp.Key, fp.Culprits)
	}
	if got := fmt.Sprintf(v.Terms().SetBy, "apple"); got != "Set in its word by apple." {
		t.Errorf("the layout's words read %q", got)
	}
}

// queries are n made-up keys to ask.
func queries(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprint("query-", i)
	}
	return out
}
