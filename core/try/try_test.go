package try

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bloomlab/bloomlab/core/keys"
	"github.com/bloomlab/bloomlab/core/sim"

	"github.com/bloomlab/bloomlab/core"
)

// tryParams is the default shape with a few fields changed.
func tryParams(change func(p *sim.Params)) sim.Params {
	p := sim.Defaults()
	if change != nil {
		change(&p)
	}
	return p
}

// panelOf builds req's filled filter, failing the test on error.
func panelOf(t *testing.T, req Request) (*panel, []Insert) {
	t.Helper()
	pn, ins, err := newPanel(req, nil)
	if err != nil {
		t.Fatalf("seed %d: %v", req.Params.Seed, err)
	}
	return pn, ins
}

// TestTryFilterIsSimulatesFilter: the key panel answers on the filter the
// lab shows, with and without typed keys.
func TestTryFilterIsSimulatesFilter(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		change func(p *sim.Params)
	}{
		{"default", nil},
		{"two passes, seed 7", func(p *sim.Params) { p.DuplicatePasses, p.Seed = 2, 7 }},
		{"past a chunk", func(p *sim.Params) { p.Items, p.Queries = 20000, 100 }},
		{"blocked", func(p *sim.Params) { p.Variant = core.BlockedVariant }},
		{"counting, 3 passes", func(p *sim.Params) { p.Variant, p.DuplicatePasses = core.CountingVariant, 3 }},
		{"independent hashing", func(p *sim.Params) { p.Hashing = core.IndependentHashing }},
		{"cuckoo", func(p *sim.Params) { p.Variant = core.CuckooVariant }},
		{"fuse", func(p *sim.Params) { p.Variant = core.FuseVariant }},
		{"negative-index", func(p *sim.Params) { p.Fault = core.NegativeIndex }},
		{"clear-on-duplicate, 2 passes", func(p *sim.Params) { p.Fault, p.DuplicatePasses = core.ClearOnDuplicate, 2 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := tryParams(func(p *sim.Params) {
				p.Items = 3000
				if tc.change != nil {
					tc.change(p)
				}
			})
			lab, err := sim.Run(p)
			if err != nil {
				t.Fatal(err)
			}
			pn, _ := panelOf(t, Request{Params: p})
			if !slices.Equal(pn.f.Words(), lab.Filter.Words()) || pn.f.SetBits() != lab.SetBits {
				t.Fatalf("seed %d: the key panel's filter differs from sim.Run's (set %d, want %d)", p.Seed, pn.f.SetBits(), lab.SetBits)
			}
			res, err := Run(Request{Params: p}, nil)
			if err != nil || res.M != lab.M || res.K != lab.K || res.Variant != lab.Variant || res.Unit != lab.Variant.Unit() {
				t.Fatalf("Try: %v, m %d k %d %v, want m %d k %d %v", err, res.M, res.K, res.Variant, lab.M, lab.K, lab.Variant)
			}

			// With typed keys, the lab's run holds the panel's filter too.
			typed := []string{"apple", "pear", "plum", "apple"}
			withTyped, err := sim.RunTyped(p, typed, nil)
			if err != nil {
				t.Fatal(err)
			}
			pn, _ = panelOf(t, Request{Params: p, Insert: typed})
			if !slices.Equal(pn.f.Words(), withTyped.Filter.Words()) {
				t.Fatalf("seed %d: sim.RunTyped's filter differs from the key panel's", p.Seed)
			}
			if withTyped.N != lab.N+4 || withTyped.Typed != 4 || withTyped.AbsentQueries != lab.AbsentQueries {
				t.Errorf("typed run: n %d typed %d absent %d, want n %d typed 4 absent %d", withTyped.N, withTyped.Typed, withTyped.AbsentQueries, lab.N+4, lab.AbsentQueries)
			}
			if p.Fault == core.NoFault {
				for _, key := range typed {
					if maybe, _ := withTyped.Filter.Contains([]byte(key)); !maybe {
						t.Errorf("typed key %q not found", key)
					}
				}
			}
			if want := withTyped.Filter.Positions(nil, []byte("apple")); !slices.Equal(withTyped.LastInserted, want) {
				t.Errorf("last inserted %v, want the last typed key's %v", withTyped.LastInserted, want)
			}
			if none, _ := sim.RunTyped(p, nil, nil); none.Digest != lab.Digest {
				t.Errorf("no typed keys: digest %s, want sim.Run's %s", none.Digest, lab.Digest)
			}
		})
	}
}

// bitOn reads bit j of words as a Bloom filter stores it.
func bitOn(words []uint64, j uint64) bool {
	return j < 64*uint64(len(words)) && words[j>>6]>>(j&63)&1 != 0
}

// Inserting a typed key sets exactly its positions, and New marks the ones
// that were zero, each once.
func TestTryInsertSetsItsPositions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		change func(p *sim.Params)
	}{
		{"standard", nil},
		{"small, k 12", func(p *sim.Params) { p.Items, p.BitsPerKey, p.Hashes = 40, 3, 12 }},
		{"blocked", func(p *sim.Params) { p.Variant = core.BlockedVariant }},
		{"one-hash", func(p *sim.Params) { p.Fault = core.OneHash }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := tryParams(tc.change)
			keys := []string{"apple", "pear", "apple", "grüne äpfel"}
			base, _ := panelOf(t, Request{Params: p})
			words := slices.Clone(base.f.Words())
			set := base.f.SetBits()
			_, ins := panelOf(t, Request{Params: p, Insert: keys})
			for i, in := range ins {
				want := base.f.Positions(nil, []byte(keys[i]))
				if in.Key != keys[i] || !slices.Equal(in.Positions, want) || len(in.New) != len(want) {
					t.Fatalf("insert %d: key %q positions %v, want %q %v", i, in.Key, in.Positions, keys[i], want)
				}
				for r, j := range want {
					wantNew := !bitOn(words, j) && !slices.Contains(want[:r], j)
					if in.New[r] != wantNew {
						t.Errorf("seed %d: insert %q probe %d (bit %d): new %v, want %v", p.Seed, keys[i], r+1, j, in.New[r], wantNew)
					}
					if in.New[r] {
						set++
					}
					words[j>>6] |= 1 << (j & 63)
				}
			}
			pn, _ := panelOf(t, Request{Params: p, Insert: keys})
			if !slices.Equal(pn.f.Words(), words) || pn.f.SetBits() != set {
				t.Fatalf("seed %d: the typed keys set other bits than their positions (set %d, want %d)", p.Seed, pn.f.SetBits(), set)
			}
			if ins[2].Key != "apple" || slices.Contains(ins[2].New, true) {
				t.Errorf("apple again: %v new, want none", ins[2].New)
			}
		})
	}
}

// utf8Member finds the first generated member at or past index from that
// is valid UTF-8 text, so it can be typed.
func utf8Member(t *testing.T, p sim.Params, from uint64) (string, uint64) {
	t.Helper()
	for i := from; i < uint64(p.Items); i++ {
		if k := core.Key(nil, core.Members, i, p.Seed, p.KeyBytes); utf8.Valid(k) {
			return string(k), i
		}
	}
	t.Fatalf("seed %d: no generated member past %d is UTF-8", p.Seed, from)
	return "", 0
}

func TestTryVerdicts(t *testing.T) {
	t.Parallel()
	for _, v := range core.Variants {
		t.Run(v.Name(), func(t *testing.T) {
			t.Parallel()
			p := tryParams(func(p *sim.Params) { p.Variant, p.KeyBytes = v, 8 })
			gen, index := utf8Member(t, p, 100)
			req := Request{Params: p, Insert: []string{"apple", "pear"}, Query: []string{"pear", gen, "plum", "apple"}}
			res, err := Run(req, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Inserts) != 2 || len(res.Queries) != 4 {
				t.Fatalf("%d inserts, %d queries", len(res.Inserts), len(res.Queries))
			}
			want := []struct{ verdict, member string }{
				{VerdictMember, "typed"}, {VerdictMember, fmt.Sprintf("generated #%d", index)},
				{VerdictNo, ""}, {VerdictMember, "typed"},
			}
			for i, q := range res.Queries {
				if q.Key != req.Query[i] || q.Verdict != want[i].verdict || q.Member != want[i].member {
					t.Errorf("seed %d: query %q: %s %q, want %s %q", p.Seed, q.Key, q.Verdict, q.Member, want[i].verdict, want[i].member)
				}
				if v == core.RibbonVariant || v == core.RibbonWideVariant {
					if len(q.Probes) < 1 || len(q.Probes) > res.K {
						t.Errorf("query %q: %d rows, want 1 to %d", q.Key, len(q.Probes), res.K)
					}
				} else if len(q.Probes) != res.K && v != core.CuckooVariant {
					t.Errorf("query %q: %d probes, want %d", q.Key, len(q.Probes), res.K)
				}
			}
			if no := res.Queries[2]; v.Bloom() {
				first := slices.IndexFunc(no.Probes, func(p Probe) bool { return !p.Set }) + 1
				if first == 0 || no.FirstZero != first {
					t.Errorf("plum: first zero %d, want probe %d", no.FirstZero, first)
				}
			} else if v.Chain() {
				// A chain's no reads every link, each with a zero.
				for l := range res.Links {
					if !slices.ContainsFunc(no.Probes, func(p Probe) bool { return res.LinkAt(p.Position) == l && !p.Set }) {
						t.Errorf("plum: link %d of %d has no zero among its probes, yet the answer is no", l, len(res.Links))
					}
				}
				if no.FirstZero != 0 || no.Fingerprint != nil || len(res.Links) < 2 {
					t.Errorf("plum: first zero %d, fingerprint %v, %d links", no.FirstZero, no.Fingerprint, len(res.Links))
				}
			} else if no.FirstZero != 0 || no.Fingerprint == nil {
				t.Errorf("plum: first zero %d, fingerprint %v: a %s filter has no zero bits but fingerprints", no.FirstZero, no.Fingerprint, v)
			}
		})
	}
}

// An absent key meeting a zero says which probe: checked against the
// filter's own bits at shapes where the first zero comes at different
// probes.
func TestTryFirstZero(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		change func(p *sim.Params)
	}{
		{"default", nil},
		{"crowded", func(p *sim.Params) { p.BitsPerKey, p.Hashes = 4, 5 }},
		{"counting, crowded", func(p *sim.Params) { p.Variant, p.BitsPerKey, p.Hashes = core.CountingVariant, 4, 5 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := tryParams(tc.change)
			words := keys.CommonWords()[:keys.MaxTyped]
			res, err := Run(Request{Params: p, Query: words}, nil)
			if err != nil {
				t.Fatal(err)
			}
			pn, _ := panelOf(t, Request{Params: p})
			later := false
			for _, q := range res.Queries {
				pos := pn.f.Positions(nil, []byte(q.Key))
				first := slices.IndexFunc(pos, func(j uint64) bool { return !pn.f.IsSet(j) }) + 1
				if first == 0 {
					if q.Verdict != VerdictFalsePositive || q.FirstZero != 0 {
						t.Errorf("%q: %s, first zero %d, want a false positive", q.Key, q.Verdict, q.FirstZero)
					}
					continue
				}
				later = later || first > 1
				if q.Verdict != VerdictNo || q.FirstZero != first {
					t.Errorf("seed %d: %q: %s at probe %d, want no at probe %d", p.Seed, q.Key, q.Verdict, q.FirstZero, first)
				}
			}
			if !later && tc.change != nil {
				t.Errorf("no word met its first zero past probe 1: the test proves little")
			}
		})
	}
}

// A false positive at a crowded shape: the culprits are exactly the keys
// whose positions, recomputed by a filter of its own, include each probed
// position, and every probed position has one.
func TestTryCulprits(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		change  func(p *sim.Params)
		crowded bool // some position has more than MaxCulprits members to blame
		wide    bool // the query selects more than 64 positions
	}{
		{"standard 50 keys", func(p *sim.Params) { p.Items, p.BitsPerKey, p.Hashes = 50, 2, 2 }, false, false},
		{"more than 8 a bit", func(p *sim.Params) { p.Items, p.BitsPerKey, p.Hashes = 2000, 0.1, 1 }, true, false},
		{"standard 300 keys", func(p *sim.Params) { p.Items, p.BitsPerKey, p.Hashes, p.Seed = 300, 2, 3, 9 }, false, false},
		{"blocked", func(p *sim.Params) { p.Variant, p.Items, p.BitsPerKey, p.Hashes = core.BlockedVariant, 400, 2, 2 }, false, false},
		{"counting", func(p *sim.Params) { p.Variant, p.Items, p.BitsPerKey, p.Hashes = core.CountingVariant, 50, 2, 2 }, false, false},
		{"cuckoo", func(p *sim.Params) { p.Variant, p.FingerprintBits, p.BitsPerKey = core.CuckooVariant, 8, 9 }, false, false},
		{"fuse", func(p *sim.Params) { p.Variant = core.FuseVariant }, false, false},
		{"ribbon", func(p *sim.Params) { p.Variant = core.RibbonVariant }, true, false},
		// A Ribbon row is selected by about w/2 keys, more than are listed.
		// A query of w = 128 selecting more than 64 rows: the culprits past
		// the 64th are found too.
		{"ribbon-128", func(p *sim.Params) { p.Variant = core.RibbonWideVariant }, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := tryParams(tc.change)
			typed := []string{"apple", "pear", "plum", "kiwi", "lemon", "grape"}
			req := Request{Params: p, Insert: typed}
			q, _, err := FindFalsePositive(req, nil)
			if err != nil {
				t.Fatal(err)
			}
			if q.Verdict != VerdictFalsePositive || q.Member != "" {
				t.Fatalf("%q: %s %q", q.Key, q.Verdict, q.Member)
			}
			// Recompute: a filter of the same layout, filled the same way,
			// asked for every key's positions.
			pn, _ := panelOf(t, req)
			qfp, _ := pn.fingerprint([]byte(q.Key))
			blamed := func(key []byte, at uint64) bool {
				if pn.r.Variant.Slots() {
					if fp, _ := pn.f.(core.Fingerprinted).KeyFingerprint(key); fp != qfp {
						return false
					}
				}
				return slices.Contains(pn.f.Positions(nil, key), at)
			}
			var targets []uint64
			for _, pr := range q.Probes {
				if !pr.Set && p.Variant.Bloom() {
					t.Fatalf("%q answers maybe but probe at %d is zero", q.Key, pr.Position)
				}
				_, cuckoo := pn.f.(*core.Cuckoo)
				if !slices.Contains(targets, pr.Position) && (!cuckoo || *pr.Value == qfp) {
					targets = append(targets, pr.Position)
				}
			}
			more := slices.ContainsFunc(q.Culprits, func(c Culprit) bool { return c.More > 0 })
			if more != tc.crowded {
				t.Errorf("some position's culprits run past %d: %v, want %v", MaxCulprits, more, tc.crowded)
			}
			if len(q.Culprits) != len(targets) {
				t.Fatalf("%d culprit positions, want %d", len(q.Culprits), len(targets))
			}
			if tc.wide && len(targets) <= 64 {
				t.Fatalf("seed %d, %q: %d rows selected, want a query of more than 64 to test", p.Seed, q.Key, len(targets))
			}
			for i, c := range q.Culprits {
				if c.Position != targets[i] {
					t.Fatalf("culprit %d at %d, want %d", i, c.Position, targets[i])
				}
				var wantTyped []string
				for _, k := range typed {
					if blamed([]byte(k), c.Position) && !slices.Contains(wantTyped, k) {
						wantTyped = append(wantTyped, k)
					}
				}
				var wantGen []uint64
				for j := range uint64(p.Items) {
					if blamed(core.Key(nil, core.Members, j, p.Seed, p.KeyBytes), c.Position) {
						wantGen = append(wantGen, j)
					}
				}
				var gotGen []uint64
				for _, g := range c.Generated {
					gotGen = append(gotGen, g.Index)
					if k := core.Key(nil, core.Members, g.Index, p.Seed, p.KeyBytes); fmt.Sprintf("%x", k[:8]) != g.Hex {
						t.Errorf("member #%d hex %s, want %x", g.Index, g.Hex, k[:8])
					}
				}
				listed := wantGen[:min(len(wantGen), MaxCulprits)]
				if !slices.Equal(c.Typed, wantTyped) || !slices.Equal(gotGen, listed) || c.More != uint64(len(wantGen)-len(listed)) {
					t.Errorf("seed %d, %q at %d: culprits typed %v members %v +%d, want %v %v +%d", p.Seed, q.Key, c.Position,
						c.Typed, gotGen, c.More, wantTyped, listed, len(wantGen)-len(listed))
				}
				if len(wantTyped)+len(wantGen) == 0 && p.Variant != core.FuseVariant {
					t.Errorf("%q: nothing set position %d, yet it reads nonzero", q.Key, c.Position)
				}
			}
		})
	}
}

func TestFindFalsePositiveDefault(t *testing.T) {
	t.Parallel()
	req := Request{Params: sim.Defaults()}
	q, tried, err := FindFalsePositive(req, nil)
	if err != nil {
		t.Fatal(err)
	}
	words := keys.CommonWords()
	if tried < 1 || words[tried-1] != q.Key || q.Verdict != VerdictFalsePositive || len(q.Culprits) == 0 {
		t.Fatalf("%q after %d words: %s with %d culprit positions", q.Key, tried, q.Verdict, len(q.Culprits))
	}
	// None before it is one: checked by Try, twenty words at a time.
	for lo := 0; lo < tried-1; lo += 20 {
		res, err := Run(Request{Params: req.Params, Query: words[lo:min(lo+20, tried-1)]}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range res.Queries {
			if q.Verdict == VerdictFalsePositive {
				t.Errorf("%q is a false positive before %q", q.Key, words[tried-1])
			}
		}
	}
	for range 3 {
		again, n, err := FindFalsePositive(req, nil)
		if err != nil || again.Key != q.Key || n != tried || !slices.EqualFunc(again.Culprits, q.Culprits, func(a, b Culprit) bool {
			return a.Position == b.Position && slices.Equal(a.Generated, b.Generated)
		}) {
			t.Fatalf("again: %q after %d (%v), want %q after %d", again.Key, n, err, q.Key, tried)
		}
	}
	t.Logf("default shape: %q after %d words", q.Key, tried)
	// Typed words are members, never false positives, even where every
	// word answers maybe.
	crowded := Request{Params: tryParams(func(p *sim.Params) { p.Items, p.BitsPerKey, p.Hashes = 200, 0.5, 1 }), Insert: words[:10]}
	if q, n, err := FindFalsePositive(crowded, nil); err != nil || n != 11 || q.Key != words[10] || q.Verdict != VerdictFalsePositive {
		t.Errorf("crowded, the first ten words typed: %q (%s) after %d words, %v; want %q after 11", q.Key, q.Verdict, n, err, words[10])
	}
	// A 16-bit fuse filter (rate 2^-16) meets none: the error says how
	// many words were tried.
	fuse := Request{Params: tryParams(func(p *sim.Params) { p.Variant, p.FingerprintBits = core.FuseVariant, 16 })}
	if _, n, err := FindFalsePositive(fuse, nil); err == nil || n != len(words) || !strings.Contains(err.Error(), fmt.Sprint(len(words), " common words")) {
		t.Errorf("16-bit fuse: %v after %d words, want an error naming %d words", err, n, len(words))
	}
}

func TestTryBadKeys(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("ab", 128)
	many := make([]string, keys.MaxTyped+1)
	for i := range many {
		many[i] = fmt.Sprint("k", i)
	}
	for _, tc := range []struct {
		name          string
		insert, query []string
		want          string // "" for accepted
	}{
		{"empty insert", []string{"apple", ""}, nil, "insert key 2 is empty; a key is 1 to 256 bytes of UTF-8 text"},
		{"empty query", nil, []string{""}, "query key 1 is empty"},
		{"257 bytes", []string{long + "c"}, nil, `insert key 1 "abababababababababababab"... is 257 bytes`},
		{"256 bytes", []string{long}, []string{"√2"}, ""},
		{"not UTF-8", nil, []string{"pe\xffar"}, `query key 1 "pe\xffar" is not valid UTF-8`},
		{"too many inserts", many, nil, "33 keys to insert, at most 32"},
		{"too many queries", many[:1], many, "33 keys to query, at most 32"},
		{"32 and 32", many[:32], many[1:], ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := tryParams(func(p *sim.Params) { p.Items = 100 })
			_, err := Run(Request{Params: p, Insert: tc.insert, Query: tc.query}, nil)
			_, _, fpErr := FindFalsePositive(Request{Params: p, Insert: tc.insert, Query: tc.query}, nil)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("rejected: %v", err)
			case tc.want != "" && (err == nil || !strings.HasPrefix(core.Message(err), tc.want)):
				t.Fatalf("error %v, want %q", err, tc.want)
			case tc.want != "" && fpErr == nil:
				t.Fatalf("FindFalsePositive accepted it")
			}
		})
	}
	if _, err := Run(Request{Params: tryParams(func(p *sim.Params) { p.Items = 0 })}, nil); err == nil || !strings.Contains(err.Error(), "items") {
		t.Errorf("items 0: %v", err)
	}
}

// A Step's error stops each stage of the work: the inserts, the member
// scan of a query the length of generated keys, the culprit scan.
func TestTryStepCancels(t *testing.T) {
	t.Parallel()
	stop := errors.New("stop")
	p := tryParams(func(p *sim.Params) { p.Items, p.BitsPerKey, p.Hashes, p.KeyBytes = 3*sim.Chunk, 2, 2, 8 })
	fp, _, err := FindFalsePositive(Request{Params: p}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		req   Request
		calls int // the Step calls filling takes
	}{
		{"filling", Request{Params: p}, 0},
		{"member scan", Request{Params: p, Query: []string{"8 bytes!"}}, 3},
		{"culprit scan", Request{Params: p, Query: []string{fp.Key}}, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			calls := 0
			_, err := Run(tc.req, func(done, total int) error {
				calls++
				if calls > tc.calls {
					return stop
				}
				return nil
			})
			if !errors.Is(err, stop) || calls != tc.calls+1 {
				t.Fatalf("err %v after %d steps, want stop after %d", err, calls, tc.calls+1)
			}
		})
	}
	calls := 0
	if _, _, err := FindFalsePositive(Request{Params: p}, func(int, int) error { calls++; return stop }); !errors.Is(err, stop) || calls != 1 {
		t.Errorf("FindFalsePositive: %v after %d steps", err, calls)
	}
}

func TestTryBlockAndCounters(t *testing.T) {
	t.Parallel()
	keys := []string{"apple", "pear", "apple"}
	blocked, err := Run(Request{Params: tryParams(func(p *sim.Params) { p.Variant = core.BlockedVariant }), Insert: keys}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range blocked.Inserts {
		if in.Block == nil || in.Counters != nil || in.Lost != nil {
			t.Fatalf("%q: block %v, counters %v, lost %v", in.Key, in.Block, in.Counters, in.Lost)
		}
		for _, j := range in.Positions {
			if j/core.BlockSize != *in.Block {
				t.Errorf("%q: bit %d outside block %d", in.Key, j, *in.Block)
			}
		}
	}
	p := tryParams(func(p *sim.Params) { p.Variant = core.CountingVariant })
	counting, err := Run(Request{Params: p, Insert: keys}, nil)
	if err != nil {
		t.Fatal(err)
	}
	base, _ := panelOf(t, Request{Params: p})
	c := base.f.(core.Counters)
	counters := map[uint64]uint8{}
	for _, in := range counting.Inserts {
		if in.Block != nil || len(in.Counters) != len(in.Positions) {
			t.Fatalf("%q: block %v, %d counters", in.Key, in.Block, len(in.Counters))
		}
		// Counted by hand: each insert adds one a probe, up to 15.
		for _, j := range in.Positions {
			if _, ok := counters[j]; !ok {
				counters[j] = c.Counter(j)
			}
			counters[j] = min(counters[j]+1, core.CounterMax)
		}
		for r, j := range in.Positions {
			if in.Counters[r] != counters[j] {
				t.Errorf("%q probe %d: counter %d, want %d", in.Key, r+1, in.Counters[r], counters[j])
			}
		}
	}
}

// Under negative-index, a key whose step is negative writes past the
// array: Lost marks it, no such write is new, and the key, queried,
// answers no though it is a member.
func TestTryLostWrites(t *testing.T) {
	t.Parallel()
	p := tryParams(func(p *sim.Params) { p.Fault = core.NegativeIndex })
	words := keys.CommonWords()[:16]
	res, err := Run(Request{Params: p, Insert: words, Query: words}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pn, _ := panelOf(t, Request{Params: p})
	storage := 64 * uint64(len(pn.f.Words()))
	lost := 0
	for i, in := range res.Inserts {
		any := false
		for r, j := range in.Positions {
			if in.Lost[r] != (j >= storage) || in.Lost[r] && in.New[r] {
				t.Errorf("%q probe %d at %d: lost %v new %v (storage %d bits)", in.Key, r+1, j, in.Lost[r], in.New[r], storage)
			}
			any = any || in.Lost[r]
		}
		if q := res.Queries[i]; any {
			lost++
			if q.Verdict != VerdictFalseNegative || q.Member != "typed" {
				t.Errorf("%q lost a write yet answers %s", q.Key, q.Verdict)
			}
		} else if q.Verdict != VerdictMember {
			t.Errorf("%q: %s, want member", q.Key, q.Verdict)
		}
	}
	if lost == 0 || lost == len(words) {
		t.Errorf("seed %d: %d of %d keys lost a write: want some, not all", p.Seed, lost, len(words))
	}
	// Off by one: position m lands in the padding of the last word, which
	// the filter writes and reads: not lost, and on once written.
	p = tryParams(func(p *sim.Params) { p.Fault, p.Items, p.BitsPerKey = core.OffByOne, 10, 1 })
	res, err = Run(Request{Params: p, Insert: words, Query: words}, nil)
	if err != nil {
		t.Fatal(err)
	}
	padding := 0
	for i, in := range res.Inserts {
		for r, j := range in.Positions {
			if in.Lost[r] {
				t.Errorf("%q probe %d at %d: lost, but %d is inside storage", in.Key, r+1, j, j)
			}
			if j == res.M {
				padding++
			}
		}
		q := res.Queries[i]
		for r, pr := range q.Probes {
			if !pr.Set {
				t.Errorf("%q probe %d at %d: off, yet the key was inserted", q.Key, r+1, pr.Position)
			}
		}
		if q.Verdict != VerdictMember {
			t.Errorf("%q: %s, want member", q.Key, q.Verdict)
		}
	}
	if padding == 0 {
		t.Errorf("no typed key reached position m = %d: the padding goes untested", res.M)
	}
	clean, _ := Run(Request{Params: sim.Defaults(), Insert: words[:1]}, nil)
	if clean.Inserts[0].Lost != nil {
		t.Errorf("the real filter loses no write: lost %v", clean.Inserts[0].Lost)
	}
}

// At n = 10^6 one false positive's culprits scan every member once.
func BenchmarkTryCulprits1e6(b *testing.B) {
	p := tryParams(func(p *sim.Params) { p.Items = 1_000_000 })
	req := Request{Params: p}
	q, _, err := FindFalsePositive(req, nil)
	if err != nil {
		b.Fatal(err)
	}
	pn, _, err := newPanel(req, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		qfp, _ := pn.fingerprint([]byte(q.Key))
		if _, err := pn.culprits(qfp, q.Probes); err != nil {
			b.Fatal(err)
		}
	}
}

func benchmarkTry(b *testing.B, items int) {
	p := tryParams(func(p *sim.Params) { p.Items = items })
	req := Request{Params: p}
	q, _, err := FindFalsePositive(req, nil)
	if err != nil {
		b.Fatal(err)
	}
	req.Insert, req.Query = []string{"apple"}, []string{"plum", q.Key}
	b.ReportAllocs()
	for range b.N {
		if _, err := Run(req, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// From request to verdict: fill, insert a key, query an absent key and a
// false positive.
func BenchmarkTryDefault(b *testing.B) { benchmarkTry(b, 4000) }
func BenchmarkTry1e6(b *testing.B)     { benchmarkTry(b, 1_000_000) }

// TestScalableCulprits: a false positive's culprits are the keys of the
// link that said maybe, each a key that went into that link (by its turn)
// and maps to the position it is blamed for there.
func TestScalableCulprits(t *testing.T) {
	t.Parallel()
	p := sim.Defaults()
	p.Variant = core.ScalableVariant
	r, err := sim.Run(p)
	if err != nil {
		t.Fatal(err)
	}
	chain := r.Filter.(core.Linked)
	var query string
	for i := 0; query == ""; i++ {
		if maybe, _ := r.Filter.Contains([]byte(fmt.Sprint("word ", i))); maybe {
			query = fmt.Sprint("word ", i)
		}
	}
	res, err := Run(Request{Params: p, Query: []string{query}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	q := res.Queries[0]
	if q.Verdict != VerdictFalsePositive || len(q.Culprits) == 0 {
		t.Fatalf("%q: %s with %d culprits", query, q.Verdict, len(q.Culprits))
	}
	link := res.LinkAt(q.Culprits[0].Position)
	for _, c := range q.Culprits {
		if res.LinkAt(c.Position) != link || len(c.Generated) == 0 {
			t.Errorf("%q: position %d in link %d (the answer came from link %d), %d culprits", query, c.Position, res.LinkAt(c.Position), link, len(c.Generated))
		}
		for _, g := range c.Generated {
			key := core.Key(nil, core.Members, g.Index, p.Seed, p.KeyBytes)
			if chain.TurnLink(g.Index) != link || !slices.Contains(r.Filter.Positions(nil, key), c.Position) {
				t.Errorf("%q: member #%d blamed for %d went into link %d", query, g.Index, c.Position, chain.TurnLink(g.Index))
			}
		}
	}
}
