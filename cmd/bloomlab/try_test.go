//go:build !wasm

package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/core/keys"
	"github.com/bloomlab/bloomlab/core/sim"

	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/try"
)

func TestTry(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", keys.MaxTypedBytes+1)
	many := strings.TrimSuffix(strings.Repeat("k,", keys.MaxTyped+1), ",")
	runCases(t, []cliCase{
		{"default", []string{"try", "--insert", "apple,pear", "--query", "plum,apple"}, 0, []string{
			"filter               standard (fault: none): 40000 bits, k = 7",
			"holds                4000 generated keys, then 2 typed",
			"insert apple\n  probe 1  bit 28360      new\n  probe 2  bit 39160      already on\n",
			"  3 of 7 bits new",
			"query plum: no: probe 1 reads a zero\n  probe 1  bit 36656      off  <- the first zero: the answer is no\n",
			"query apple: maybe, and it is a member (typed)",
		}, ""},
		{"find a false positive", []string{"try", "--find-fp"}, 0, []string{
			"false positive       want, word 92 of the common words tried in order",
			"query want: maybe, but it was never inserted: a false positive",
			"  probe 1  bit 30465      on  set by member #1095 (a425bdb17e6aaaa9), member #2648 (2ade1f0c3866b7f8), member #3154 (bd8d0b10b95b62f5)",
		}, ""},
		{"typed culprits", []string{"try", "--items", "3", "--bits-per-key", "4", "--hashes", "2", "--insert", "apple,pear,plum,kiwi,lemon", "--find-fp"}, 0, []string{
			"false positive       the, word 1 of",
			"  probe 1  bit 3          on  set by pear, lemon, member #0 (8ffb5d8cee31ec0f)\n",
		}, ""},
		{"none to find", []string{"try", "--variant", "fuse", "--fingerprint-bits", "16", "--find-fp"}, 0, []string{
			"false positive       none: none of the 500 common words is a false positive of this filter",
		}, ""},
		{"a comma in a key", []string{"try", "--insert", `a\,b,c\\`, "--query", `a\,b`}, 0, []string{
			"insert a\\,b\n", "insert c\\\\\n", "query a\\,b: maybe, and it is a member (typed)",
		}, ""},
		{"blocked", []string{"try", "--variant", "blocked", "--insert", "apple"}, 0, []string{"insert apple (block "}, ""},
		{"counting", []string{"try", "--variant", "counting", "--insert", "apple", "--query", "apple"}, 0, []string{
			"counter 28360      new, now 1", "  probe 1  counter 28360      = 1",
		}, ""},
		{"cuckoo", []string{"try", "--variant", "cuckoo", "--insert", "apple", "--query", "apple,plum"}, 0, []string{
			"filter               cuckoo (fault: none):", "  fingerprint 0x", "holds 0x",
		}, ""},
		{"semi-sorted cuckoo", []string{"try", "--variant", "cuckoo-ss", "--fingerprint-bits", "5", "--query", "pear"}, 0, []string{
			"filter               cuckoo-ss (fault: none): 10000 slots",
			"query pear: maybe, but it was never inserted: a false positive\n  fingerprint 0x12\n",
			"  probe 8  slot 695        holds 0x12  matches: stored by one of member #1012 (6c21bba131f0fefd)",
		}, ""},
		{"fuse", []string{"try", "--variant", "fuse", "--insert", "apple", "--query", "apple"}, 0, []string{
			"a static filter: its cells are solved once from every key", "query apple: maybe, and it is a member (typed)",
		}, ""},
		{"ribbon", []string{"try", "--variant", "ribbon", "--insert", "apple", "--query", "apple,salt", "--explain"}, 0, []string{
			"filter               ribbon (fault: none): 4362 rows",
			"a static filter: its rows are solved once from every key", "query apple: maybe, and it is a member (typed)",
			"    start s = floor(x * 4299 / 2^64) = 3491\n    coefficient c = splitmix(x xor 0x3c6ef372fe94f82b) | 1 = 0xa9420b74c3cffb27, 34 bits set\n",
			"    rows s + j for the set bits j of c: 3491, 3492, 3493, 3496,",
			"query salt: no: its rows do not xor to its fingerprint",
		}, ""},
		{"ribbon culprits", []string{"try", "--variant", "ribbon", "--items", "2000", "--insert", "apple,pear", "--find-fp"}, 0, []string{
			"false positive       salt, word 162 of the common words tried in order",
			"  probe 1  row 570        holds 0x7c  solved from member #7 (f73b72ae3378078e), member #42 (b558abd8f1ab1b50),",
		}, ""},
		{"ribbon-128", []string{"try", "--variant", "ribbon-128", "--insert", "apple", "--query", "apple,salt", "--explain"}, 0, []string{
			"filter               ribbon-128 (fault: none): 4162 rows",
			"    start s = floor(x * 4035 / 2^64) = 3277\n    coefficient c = splitmix(x xor 0xa54ff53a5f1d36f1) << 64 | splitmix(x xor 0x3c6ef372fe94f82b) | 1 = 0x752842fea0ad1d26a9420b74c3cffb27, 64 bits set\n",
			"query salt: no: its rows do not xor to its fingerprint",
		}, ""},
		// A query of w = 128 reads more than 64 rows: the culprits of
		// every one are listed, past the 64th too.
		{"ribbon-128 culprits", []string{"try", "--variant", "ribbon-128", "--items", "2000", "--insert", "apple,pear", "--find-fp"}, 0, []string{
			"false positive       get, word 46 of the common words tried in order",
			"  probe 65 row 1751       holds 0x6a  solved from member #5 (7af5c954dba2cf8e), member #30 (ee3b3205adce2245),",
		}, ""},
		{"scalable", []string{"try", "--variant", "scalable", "--insert", "apple", "--query", "apple,plum", "--find-fp"}, 0, []string{
			"link 3               bits 42688 to 100479, k = 10, 466 of 4000 keys", "  probe 25 bit 77972      link 3  new",
			"  10 of 34 bits new, in link 3", "query plum: no: every link has a zero among its probes",
			"query tomato: maybe, but it was never inserted: a false positive", "  probe 1  bit 4905       link 0  on  set by member #14 (",
		}, ""},
		{"lost writes", []string{"try", "--fault", "negative-index", "--insert", "apple,pear,plum,kiwi", "--query", "apple,pear,plum,kiwi"}, 0, []string{
			"lost: past the filter's storage, the write went nowhere", "a false negative",
		}, ""},
		{"explain", []string{"try", "--insert", "apple", "--explain"}, 0, []string{
			"  arithmetic, double: g_i = h1 + i·(h2 | 1) mod 2^64; position = floor(g_i·m / 2^64)\n    key bytes    6170706c65\n",
			"    SipHash-2-4  h1 = 0xb581de2a150b201f (13078979065183674399)\n                 h2 = 0x451eb063b029ac41 (4980612180122119233)\n",
			"    probe 1  i = 0: g = 0xb581de2a150b201f (13078979065183674399) -> floor(g * 40000 / 2^64) = 28360\n",
			"    probe 2  i = 1: g = 0xfaa08e8dc534cc60 (18059591245305793632) -> floor(g * 40000 / 2^64) = 39160\n",
		}, ""},
		{"explain cuckoo", []string{"try", "--variant", "cuckoo", "--query", "pear", "--explain"}, 0, []string{
			"    fingerprint = 1 + floor(h2 * (2^8 - 1) / 2^64) = 0x92 (146)\n    bucket i1 = floor(h1 * 1250 / 2^64) = 919\n",
		}, ""},
		{"explain a fault", []string{"try", "--fault", "negative-index", "--insert", "apple", "--explain"}, 0, []string{
			"  arithmetic: the fault negative-index computes positions its own broken way",
		}, ""},
		{"forge", []string{"try", "--forge"}, 0, []string{
			"forged               forged-g, candidate 17 tried offline with the known seed (1/p = 122.0 expected); the filter is asked once\n\nquery forged-g: maybe, but it was never inserted: a false positive\n",
		}, ""},
		{"forge, weak hash", []string{"try", "--fault", "weak-hash", "--seed", "99", "--insert", "apple", "--forge"}, 0, []string{
			"forged               bQple, the twin of the member apple under the weak hash",
			"query bQple: maybe, but it was never inserted: a false positive",
		}, ""},
		{"fill", []string{"try", "--items", "20", "--bits-per-key", "5", "--hashes", "3", "--fill", "8"}, 0, []string{
			"filled               8 keys crafted with the known seed (71 candidates weighed) turned on 24 bits, 3.0 a key (k = 3); as many random keys are expected to turn on 12.0\n",
			"fill                 44.00% -> 68.00% of the bits on\n  filler-c     3 new\n",
		}, ""},
		{"recover", []string{"try", "--insert", "4821,1234", "--recover", "pins"}, 0, []string{
			"recovered            ", " of the 10000 candidates (pins) test positive: 2 members and ",
			"  1234         a member\n  4821         a member\n",
		}, ""},
		{"two attacks", []string{"try", "--forge", "--recover", "pins"}, 2, nil, "bloomlab try: --forge, --fill and --recover are three attacks"},
		{"fill too many", []string{"try", "--insert", "a,b", "--fill", "31"}, 2, nil, "bloomlab try: a fill crafts 1 to 30 keys beside the 2 typed"},
		{"fill a cuckoo filter", []string{"try", "--variant", "cuckoo", "--fill", "1"}, 2, nil, "bloomlab try: a fill crafts keys that turn on many bits, which applies to the Bloom layouts"},
		{"no such list", []string{"try", "--recover", "phones"}, 2, nil, `bloomlab try: no candidate list "phones"`},
		{"who set", []string{"try", "--items", "300", "--insert", "apple", "--who", "1,0"}, 0, []string{
			"\nwho set bit 1: member #146 (515ce946f9f22bd8)\n\nwho set bit 0: no key\n",
		}, ""},
		{"who set, too many", []string{"try", "--who", strings.TrimSuffix(strings.Repeat("1,", keys.MaxTyped+1), ",")}, 2, nil,
			"bloomlab try: --who: 33 positions, at most 32"},
		{"who set, not a position", []string{"try", "--who", "-1"}, 2, nil,
			`bloomlab try: --who must be a whole number in [0, 17179869183], got "-1"`},
		{"empty key", []string{"try", "--insert", "apple,,pear"}, 2, nil,
			"bloomlab try: --insert key 2 is empty; a key is 1 to 256 bytes of UTF-8 text"},
		{"long key", []string{"try", "--query", "ok," + long}, 2, nil,
			`bloomlab try: --query key 2 "xxxxxxxxxxxxxxxxxxxxxxxx"... is 257 bytes; a key is 1 to 256 bytes of UTF-8 text`},
		{"not UTF-8", []string{"try", "--insert", "pe\xffar"}, 2, nil,
			`bloomlab try: --insert key 1 "pe\xffar" is not valid UTF-8`},
		{"too many keys", []string{"try", "--insert", many}, 2, nil,
			"bloomlab try: --insert: 33 keys, at most 32"},
		{"bad items", []string{"try", "--items", "0"}, 2, nil,
			"bloomlab try: --items must be a whole number in [1, 10000000], got \"0\""},
		{"fault in another layout", []string{"try", "--variant", "counting", "--fault", "negative-index"}, 2, nil,
			"bloomlab try: the negative-index fault lives in the standard filter"},
		{"no queries flag", []string{"try", "--queries", "5"}, 2, nil, "bloomlab try: unknown flag --queries"},
	})
}

// --json is try.Run's result for the same request, marshalled.
func TestTryJSON(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args    []string
		change  func(p *sim.Params)
		insert  []string
		query   []string
		explain bool
	}{
		{[]string{"--insert", "apple,pear", "--query", "plum,apple,want"}, nil, []string{"apple", "pear"}, []string{"plum", "apple", "want"}, false},
		{[]string{"--variant", "counting", "--seed", "5", "--insert", `a\,b`, "--query", "a\\,b,kiwi"}, func(p *sim.Params) {
			p.Variant, p.Seed = core.CountingVariant, 5
		}, []string{"a,b"}, []string{"a,b", "kiwi"}, false},
		{[]string{"--variant", "cuckoo", "--fingerprint-bits", "8", "--items", "900", "--query", "plum"}, func(p *sim.Params) {
			p.Variant, p.FingerprintBits, p.Items = core.CuckooVariant, 8, 900
		}, nil, []string{"plum"}, false},
		{[]string{"--variant", "blocked", "--insert", "apple", "--query", "plum", "--explain"}, func(p *sim.Params) {
			p.Variant = core.BlockedVariant
		}, []string{"apple"}, []string{"plum"}, true},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := run(append([]string{"try", "--json"}, tc.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			p := sim.Defaults()
			if tc.change != nil {
				tc.change(&p)
			}
			p.Queries, p.PresentShare = 0, 0
			res, err := try.Run(try.Request{Params: p, Insert: tc.insert, Query: tc.query, Explain: tc.explain}, nil)
			if err != nil {
				t.Fatal(err)
			}
			var want bytes.Buffer
			writeJSON(&want, res)
			if stdout != want.String() {
				t.Fatalf("try --json differs from try.Run:\n%s\nwant\n%s", stdout, want.String())
			}
		})
	}
	// The fields a page reads, named lowerCamel.
	_, stdout, _ := run("try", "--json", "--insert", "apple", "--query", "want", "--find-fp")
	var got map[string]any
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{"variant", "m", "k", "unit", "inserts", "queries", "findFalsePositive"} {
		if _, ok := got[field]; !ok {
			t.Errorf("try --json lacks %q", field)
		}
	}
	q := got["queries"].([]any)[0].(map[string]any)
	if q["verdict"] != "false-positive" || q["culprits"] == nil || got["inserts"].([]any)[0].(map[string]any)["new"] == nil {
		t.Errorf("query want: %v", q)
	}
	if fp := got["findFalsePositive"].(map[string]any); fp["tried"] != 92.0 || fp["query"].(map[string]any)["key"] != "want" {
		t.Errorf("findFalsePositive: %v", fp)
	}
}
