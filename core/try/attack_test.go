package try

import (
	"math"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"
)

// attackOf runs one attack through Try, failing the test on error.
func attackOf(t *testing.T, p sim.Params, insert []string, a Attack) Result {
	t.Helper()
	res, err := Run(Request{Params: p, Insert: insert, Attack: &a}, nil)
	if err != nil {
		t.Fatalf("%+v: %v", a, err)
	}
	if res.Attack == nil {
		t.Fatalf("%+v: no attack result", a)
	}
	return res
}

// TestForgeFindsAFalsePositiveOffline: the forged key is a false positive
// of the filter, found after about 1/p candidates, and the first
// candidate before it that answers maybe does not exist.
func TestForgeFindsAFalsePositiveOffline(t *testing.T) {
	t.Parallel()
	p := sim.Defaults()
	res := attackOf(t, p, nil, Attack{Kind: AttackForge})
	a := res.Attack
	if len(res.Queries) != 1 || res.Queries[0].Verdict != VerdictFalsePositive || len(res.Queries[0].Culprits) == 0 {
		t.Fatalf("forge's query: %+v", res.Queries)
	}
	if got, want := res.Queries[0].Key, ForgeKey(a.Tries-1); got != want {
		t.Fatalf("forged %q after %d tries, the candidate then is %q", got, a.Tries, want)
	}
	pn, _ := panelOf(t, Request{Params: p})
	for i := 0; i < a.Tries-1; i++ {
		if maybe, _ := pn.f.Contains([]byte(ForgeKey(i))); maybe {
			t.Fatalf("candidate %d answers maybe, before the forged %d", i, a.Tries)
		}
	}
	if want := 1 / core.Standard.Theory(pn.f, 4000).Rate; math.Abs(a.Expected-want) > 1e-9*want {
		t.Fatalf("expected tries %.3f, 1/p is %.3f", a.Expected, want)
	}
	// The tries before a first maybe are geometric with mean 1/p: at
	// seed 1 one draw, and the chance of one above 10/p is (1-p)^(10/p),
	// about e^-10.
	t.Logf("forged %q after %d tries, 1/p = %.1f", res.Queries[0].Key, a.Tries, a.Expected)
	if a.Tries < 1 || float64(a.Tries) > 10*a.Expected {
		t.Fatalf("%d tries, 1/p = %.0f", a.Tries, a.Expected)
	}
}

// TestForgeUnderTheWeakHashNeedsNoSearchAndNoKey: under the weak hash a
// member's twin collides with it whatever the seed, so it is a false
// positive of every filter holding the member.
func TestForgeUnderTheWeakHashNeedsNoSearchAndNoKey(t *testing.T) {
	t.Parallel()
	twin, ok := WeakTwin("apple")
	if !ok || twin == "apple" || len(twin) != 5 {
		t.Fatalf("twin of apple: %q, %t", twin, ok)
	}
	for _, seed := range []uint64{1, 2, 0xdeadbeef} {
		a1, a2 := core.WeakHash.Hash128(seed, seed*3, []byte("apple"))
		b1, b2 := core.WeakHash.Hash128(seed, seed*3, []byte(twin))
		if a1 != b1 || a2 != b2 {
			t.Fatalf("seed %d: apple and %q hash apart", seed, twin)
		}
		p := sim.Defaults()
		p.Fault, p.Seed = core.WeakHash, seed
		res := attackOf(t, p, []string{"apple"}, Attack{Kind: AttackForge})
		if a := res.Attack; !a.Algebraic || a.Tries != 1 || a.Twin != "apple" || res.Queries[0].Key != twin || res.Queries[0].Verdict != VerdictFalsePositive {
			t.Fatalf("seed %d: %+v %+v", seed, *a, res.Queries[0])
		}
	}
	// SipHash has no twins: the same change to a key moves its hash.
	if a1, _ := core.Sip128(1, 2, []byte("apple")); a1 == func() uint64 { h, _ := core.Sip128(1, 2, []byte(twin)); return h }() {
		t.Fatalf("SipHash maps apple and %q together", twin)
	}
}

// TestFillTurnsOnMoreThanRandomKeys: crafted keys turn on k bits each
// while they can, the keys inserted again as typed keys give the same
// filter, and random keys would have turned on fewer.
func TestFillTurnsOnMoreThanRandomKeys(t *testing.T) {
	t.Parallel()
	p := sim.Defaults()
	p.Items, p.BitsPerKey, p.Hashes = 20, 5, 3 // 100 bits, 3 hashes, 20 keys
	res := attackOf(t, p, []string{"apple"}, Attack{Kind: AttackFill, Keys: 20})
	a := res.Attack
	if len(a.Keys) != 20 || len(a.New) != 20 {
		t.Fatalf("fill: %+v", *a)
	}
	total := 0
	for i, n := range a.New {
		if n < 0 || n > 3 {
			t.Fatalf("key %d turned on %d bits, k = 3", i, n)
		}
		total += n
	}
	if a.New[0] != 3 {
		t.Fatalf("the first crafted key turned on %d of 3 bits, at fill %.2f", a.New[0], a.FillBefore)
	}
	if float64(total) <= a.RandomNew+5 {
		t.Fatalf("crafted keys turned on %d bits, random ones %.1f", total, a.RandomNew)
	}
	if got := int(math.Round((a.FillAfter - a.FillBefore) * 100)); got != total {
		t.Fatalf("fill went from %.2f to %.2f, the keys turned on %d bits", a.FillBefore, a.FillAfter, total)
	}
	again, err := sim.RunTyped(p, append([]string{"apple"}, a.Keys...), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := float64(again.SetBits) / float64(again.M); math.Abs(got-a.FillAfter) > 1e-12 {
		t.Fatalf("the crafted keys typed in give fill %.3f, the fill said %.3f", got, a.FillAfter)
	}
	if _, err := Run(Request{Params: tryParams(func(p *sim.Params) { p.Variant = core.CuckooVariant }),
		Attack: &Attack{Kind: AttackFill, Keys: 1}}, nil); err == nil || !strings.Contains(err.Error(), "Bloom layouts") {
		t.Fatalf("fill of a cuckoo filter: %v", err)
	}
}

// TestRecoverFindsEveryMemberOnTheList: every typed PIN tests positive,
// and the other PINs that do are about p of the rest.
func TestRecoverFindsEveryMemberOnTheList(t *testing.T) {
	t.Parallel()
	pins := []string{"4821", "1234", "0000", "7777", "2580", "9051"}
	p := sim.Defaults()
	res := attackOf(t, p, append(pins, "apple"), Attack{Kind: AttackRecover, List: ListPINs})
	a := res.Attack
	if a.Candidates != 10_000 || a.Members != len(pins) {
		t.Fatalf("recover: %+v", *a)
	}
	for i, key := range a.Found[:len(pins)] {
		if !a.Member[i] {
			t.Fatalf("found %q listed as a member, or the members not first: %+v", key, *a)
		}
	}
	// The false positives are binomial(10,000 - 6, p) at this seed: a
	// 6-sigma band of its mean.
	pr := a.Expected / float64(a.Candidates-a.Members)
	mean, sd := a.Expected, math.Sqrt(a.Expected*(1-pr))
	if fp := float64(a.Positive - a.Members); math.Abs(fp-mean) > 6*sd {
		t.Fatalf("%.0f false positives among PINs, expected %.1f ± %.1f", fp, mean, sd)
	}
	if a.Precision() <= 0 || a.Precision() >= 1 {
		t.Fatalf("precision %.3f", a.Precision())
	}
}

// TestAttackRequestsAreChecked: every malformed attack is refused with a
// message that names it.
func TestAttackRequestsAreChecked(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a    Attack
		want string
	}{
		{Attack{Kind: "guess"}, "no attack"},
		{Attack{Kind: AttackFill}, "1 to 32"},
		{Attack{Kind: AttackFill, Keys: 33}, "got 33"},
		{Attack{Kind: AttackFill, Keys: 1, List: ListPINs}, "no list"},
		{Attack{Kind: AttackForge, Keys: 2}, "no keys"},
		{Attack{Kind: AttackRecover, List: "phone numbers"}, "no candidate list"},
		{Attack{Kind: AttackRecover, List: ListIDs, Keys: 1}, "no keys"},
	} {
		_, err := Run(Request{Params: sim.Defaults(), Attack: &tc.a}, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.a, err, tc.want)
		}
	}
	// A fill makes room for the typed keys only.
	typed := make([]string, 30)
	for i := range typed {
		typed[i] = ForgeKey(i)
	}
	if _, err := Run(Request{Params: sim.Defaults(), Insert: typed, Attack: &Attack{Kind: AttackFill, Keys: 3}}, nil); err == nil {
		t.Error("a fill of 3 beside 30 typed keys was taken")
	}
}

// TestAttackPrimitives: Forge passes over members, Recover finds every
// member on the list, and a Crafter's keys each turn on all k positions
// of an empty filter.
func TestAttackPrimitives(t *testing.T) {
	t.Parallel()
	const seed = 3
	f, _ := core.NewFilter(400, 5, seed) // 50 keys: fill 0.46, rate about 2%
	members := map[string]bool{}
	for i := range 50 {
		f.Add([]byte(ForgeKey(i)))
		members[ForgeKey(i)] = true
	}
	key, tries, err := Forge(f, 100_000, func(kb []byte) bool { return members[string(kb)] }, nil)
	if err != nil || key == "" || tries <= 50 {
		t.Fatalf("seed %d: forged %q after %d tries (%v); the first 50 candidates are members", seed, key, tries, err)
	}
	if maybe, _ := f.Contains([]byte(key)); !maybe || ForgeKey(tries-1) != key {
		t.Fatalf("seed %d: forged %q, the filter says %t, candidate %d is %q", seed, key, maybe, tries-1, ForgeKey(tries-1))
	}
	var cands [][]byte
	for i := range 200 {
		cands = append(cands, []byte(ForgeKey(i)))
	}
	found, err := Recover(f, cands, nil)
	if err != nil || len(found) < 50 {
		t.Fatalf("seed %d: recovered %v (%v)", seed, found, err)
	}
	for i := range 50 {
		if found[i] != i {
			t.Fatalf("seed %d: member %d not recovered: %v", seed, i, found[:50])
		}
	}
	e, _ := core.NewFilter(10_000, 5, seed)
	c := Crafter{}
	for i := range 20 {
		key, fresh, err := c.Craft(e)
		if err != nil || fresh != 5 {
			t.Fatalf("seed %d: crafted key %d, %q, turns on %d of 5 (%v)", seed, i, key, fresh, err)
		}
		e.Add([]byte(key))
	}
	if e.SetBits() != 100 {
		t.Fatalf("seed %d: 20 crafted keys turned on %d bits, want 100", seed, e.SetBits())
	}
}
