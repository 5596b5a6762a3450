package audit

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"
)

// goldenBits are the digests of the default-shape standard filter's words
// (m = 40000, k = 7, 4000 keys, seed 1) under each hashing scheme. They pin
// the bit layout itself, so a browser or Node run that computed one bit
// differently shows up here.
var goldenBits = map[core.Hashing]string{
	core.DoubleHashing:         "03d7b686dd3348af",
	core.EnhancedDoubleHashing: "5609f26a6a54ecb9",
	core.IndependentHashing:    "2fcc5be9eb16d6e7",
}

// determinismChecks is group 8: the lab is a pure function of its
// parameters. The same parameters give the same digest, a new seed gives a
// new filter, members and absent queries never share a key, and digests
// round floats so platforms agree.
func determinismChecks() []Check {
	var checks []Check
	for _, v := range core.Variants {
		checks = append(checks, Check{ID: "determinism/same-digest/" + v.Name(), Needs: []Need{NeedLab, layoutNeed(v)},
			Contract: "two " + v.Name() + " simulations of the same parameters give the same digest and storage",
			Run:      onLab(func(f *labSetup) Verdict { return sameDigest(v, f) })})
	}
	for _, v := range core.Variants {
		s := standard(0, 10, 7, 4000).with(v)
		checks = append(checks, Check{ID: "determinism/new-seed-moves-bits/" + v.Name(), Needs: []Need{NeedLab, layoutNeed(v)},
			Contract: "over the same members, seed 2 sets a different " + v.Name() + " filter from seed 1, about as different as chance",
			Run:      onLab(func(f *labSetup) Verdict { return newSeed(s, f) })})
	}
	checks = append(checks,
		Check{ID: "determinism/golden-bits", Contract: "the default-shape bit array has the same digest on every platform",
			Run: onLab(golden)},
		Check{ID: "determinism/simulation-matches-filter",
			Contract: "the simulation fills the very filter that inserting its keys directly gives",
			Run:      onLab(simulationMatches)},
		Check{ID: "determinism/steps-leave-result-unchanged",
			Contract: "a simulation run in steps gives the digest of one run straight through, and a step can cancel it",
			Run:      onLab(stepsUnchanged)},
		Check{ID: "determinism/namespaces-disjoint/binary",
			Contract: "20,000 member keys and 20,000 absent keys never coincide, under seeds 1 and 2^64-1",
			Run:      func(Target) Verdict { return namespaces(false) }},
		Check{ID: "determinism/namespaces-disjoint/text",
			Contract: "20,000 member text keys and 20,000 absent text keys never coincide",
			Run:      func(Target) Verdict { return namespaces(true) }},
		Check{ID: "determinism/seed-keys-distinct",
			Contract: "seeds 0 to 4095 derive 4096 distinct SipHash keys",
			Run:      seedKeys},
		Check{ID: "determinism/digest-rounds-floats",
			Contract: "digests fold floats at six decimals, so a last-bit difference between platforms cannot move them",
			Run:      digestRounds},
	)
	for i := range checks {
		checks[i].Group = GroupDeterminism
		if checks[i].Needs == nil {
			checks[i].Needs = []Need{NeedLab}
		}
	}
	checks = append([]Check{{ID: "determinism/same-build-same-answers", Group: GroupDeterminism,
		Contract: "two filters built alike from the same keys give the same answers, and the same storage where it shows",
		Run:      sameBuild}, {ID: "determinism/seed-moves-answers", Group: GroupDeterminism, Needs: []Need{NeedSeed},
		Contract: "over the same members, seed 2 builds a filter whose false positives are not seed 1's, about as different as chance",
		Run:      seedMoves}, {ID: "determinism/seed-high-bits", Group: GroupDeterminism, Needs: []Need{NeedSeed},
		Contract: "seeds that differ only in the highest bit the target takes (2^63 apart, and 2^32 apart) build filters as different as chance",
		Run:      seedHighBits}}, checks...)
	return checks
}

func sameDigest(v core.Variant, f *labSetup) Verdict {
	p := sim.Defaults()
	p.Variant = v
	p = withFault(p, f)
	a, err := sim.Run(p)
	if err != nil {
		return fail("%v", err)
	}
	b, err := sim.Run(p)
	if err != nil {
		return fail("%v", err)
	}
	same, at := equalWords(a.Filter.Words(), b.Filter.Words())
	storage := "storage equal"
	if !same {
		storage = fmt.Sprintf("storage differs from word %d", at)
	}
	return verdict(a.Digest == b.Digest && same && a.Digest != "",
		"digests %s and %s, %s (%s, m = %d, k = %d)", a.Digest, b.Digest, storage, a.Variant, a.M, a.K)
}

// newSeed fills the filter keyed by seed 1 and the one keyed by seed 2
// with the same members, seed 1's, and compares them (seedApart): only
// the filter's own seed differs, so a layout that ignores it sets the very
// same positions.
func newSeed(s shape, f *labSetup) Verdict {
	a, err := s.seed(1).fill(f)
	if err != nil {
		return fail("%v", err)
	}
	b, err := s.seed(1).fillKeyed(f, 2)
	if err != nil {
		return fail("%v", err)
	}
	return seedApart(s, f, a, b)
}

// seedApart compares the set positions of a and b (the bits of storage
// for the layouts that keep fingerprints, whose cells are nearly all set).
// Two independent fillings at fill q differ in about 2q(1-q) of them; a
// seed that is ignored, or barely used, gives far fewer.
func seedApart(s shape, f *labSetup, a, b core.Membership) Verdict {
	m, ones, what := a.M(), a.Popcount(), "positions"
	x, y := nonzero(a), nonzero(b)
	if !s.under(f).Variant.Bloom() {
		x, y, what = a.Words(), b.Words(), "bits of storage"
		m, ones = 64*uint64(len(x)), bitset(x).count()
	}
	q := float64(ones) / float64(m)
	want := 2 * q * (1 - q) * float64(m)
	got := hamming(x, y)
	return verdict(float64(got) >= want/2, "%d of %d %s differ between seeds 1 and 2 over the same members, chance gives about %.1f (%s)",
		got, m, what, want, s.seed(2).describe(f))
}

// sameBuild builds the default shape twice from the same keys and compares
// every member's and 20,000 absent keys' answers, and storage where the
// filter shows it.
func sameBuild(t Target) Verdict {
	s := standard(0, 10, 7, 10000)
	a, err := t.fill(s)
	if err != nil {
		return fail("%v", err)
	}
	b, err := t.fill(s)
	if err != nil {
		return fail("%v", err)
	}
	differ, first := 0, ""
	compare := func(what string, n int, key func([]byte, int) []byte) error {
		ya, err := t.answerAll(a, n, key)
		if err != nil {
			return err
		}
		return t.ask(b, n, key, func(i int, yb bool) {
			if ya[i] != yb {
				if differ == 0 {
					first = fmt.Sprintf("%s %d", what, i)
				}
				differ++
			}
		})
	}
	const absent = 20000
	if err := compare("member", s.Items, s.key); err != nil {
		return stopped(err)
	}
	if err := compare("absent key", absent, s.absent); err != nil {
		return stopped(err)
	}
	if differ > 0 {
		return fail("%d of %d answers differ, the first for %s (%s)", differ, s.Items+absent, first, t.describe(s))
	}
	sa, stored := a.(Storer)
	if !stored {
		return pass("the same %d answers (%s)", s.Items+absent, t.describe(s))
	}
	if same, at := equalWords(sa.Words(), b.(Storer).Words()); !same {
		return fail("the same %d answers, but storage differs from word %d (%s)", s.Items+absent, at, t.describe(s))
	}
	return pass("the same %d answers and the same storage (%s)", s.Items+absent, t.describe(s))
}

// seedMoves builds the filters of seeds 1 and 2, fills both with the same
// members, seed 1's, and counts the absent keys, the same for both, that
// only one of them answers yes to: only the filter's own seed differs. Two
// independent filters at rate p disagree on about 2p(1 - p) of the keys; a
// filter that ignores its seed disagrees on none.
func seedMoves(t Target) Verdict {
	s := standard(0, 10, 7, 10000).seed(1)
	const queries = 200000
	differ, p, err := seedsDiffer(t, s, 2, queries)
	if err != nil {
		return errVerdict(err)
	}
	want := 2 * p * (1 - p) * queries
	return verdict(float64(differ) >= want/2 && p > 0,
		"%d of %d absent keys answered differently by the filters of seeds 1 and 2 over the same members, chance gives about %.1f (%s)",
		differ, queries, want, t.describe(s.seed(2)))
}

// seedHighBits holds a seeded target to the bits of seed it takes: seeds
// that differ only in the highest of them (2^63 apart for a 64-bit seed),
// and for a seed of more than 32 bits only in bit 32, must build filters
// as different as seeds 1 and 2 do. A library that keeps 32 bits of a
// 64-bit seed builds the same filter for seeds 2^32 apart, and hands every
// user who picks seeds by time or by counter the same few filters.
func seedHighBits(t Target) Verdict {
	s := standard(0, 10, 7, 10000).seed(1)
	bits := t.seedBits()
	tops := []int{bits - 1}
	if bits > 33 {
		tops = append(tops, 32)
	}
	const queries = 100000
	ok := true
	var parts []string
	for _, b := range tops {
		other := uint64(1) ^ 1<<b
		differ, p, err := seedsDiffer(t, s, other, queries)
		if err != nil {
			return errVerdict(err)
		}
		want := 2 * p * (1 - p) * queries
		ok = ok && float64(differ) >= want/2 && want > 0
		parts = append(parts, fmt.Sprintf("seeds 1 and %d (bit %d): %d of %d answers differ, chance gives about %.1f", other, b, differ, queries, want))
	}
	width := fmt.Sprintf("%s is held to the whole 64-bit seed", t.Name)
	if bits < 64 {
		width = fmt.Sprintf("%s takes %d bits of seed, as it declared, and is sent no wider seed", t.Name, bits)
	}
	return verdict(ok, "%s; %s", strings.Join(parts, "; "), width)
}

// seedsDiffer fills the filter of shape s and the one keyed by other over
// the same members, and counts the absent keys they answer differently;
// p is the first filter's rate on them.
func seedsDiffer(t Target, s shape, other uint64, queries int) (differ int, p float64, err error) {
	a, err := t.fill(s)
	if err != nil {
		return 0, 0, err
	}
	b, err := t.fillKeyed(s, other)
	if err != nil {
		return 0, 0, err
	}
	absent := func(dst []byte, q int) []byte { return core.Key(dst, core.Absent, uint64(q), 3, s.KeyBytes) }
	ya, err := t.answerAll(a, queries, absent)
	if err != nil {
		return 0, 0, stopError{err}
	}
	yes := 0
	err = t.ask(b, queries, absent, func(q int, yb bool) {
		if ya[q] != yb {
			differ++
		}
		if ya[q] {
			yes++
		}
	})
	if err != nil {
		return 0, 0, stopError{err}
	}
	return differ, float64(yes) / float64(queries), nil
}

// stopError marks the error of a run stopped mid-check, which errVerdict
// turns into a stopped verdict rather than a failure.
type stopError struct{ err error }

func (e stopError) Error() string { return e.err.Error() }

// errVerdict is the verdict of a check that met err: stopped when the run
// was stopped, else failed with the error.
func errVerdict(err error) Verdict {
	if s, ok := err.(stopError); ok {
		return stopped(s.err)
	}
	return fail("%v", err)
}

// wordsDigest is the digest of a filter's storage alone.
func wordsDigest(words []uint64) string {
	var d core.Digester
	d.Words(words)
	return d.Sum()
}

func golden(f *labSetup) Verdict {
	s := standard(0, 10, 7, 4000).with(core.Standard)
	flt, err := s.fill(f)
	if err != nil {
		return fail("%v", err)
	}
	got, want := wordsDigest(flt.Words()), goldenBits[f.hashing(s.Variant)]
	return verdict(got == want, "bit array digest %s, pinned %s (%s)", got, want, s.describe(f))
}

func simulationMatches(f *labSetup) Verdict {
	p := defaults(f)
	r, err := sim.Run(p)
	if err != nil {
		return fail("%v", err)
	}
	s := standard(0, p.BitsPerKey, p.Hashes, p.Items).with(p.Variant)
	flt, err := s.fill(f)
	if err != nil {
		return fail("%v", err)
	}
	same, at := equalWords(r.Filter.Words(), flt.Words())
	if !same || r.SetBits != flt.SetBits() {
		return fail("simulation and direct inserts differ from word %d, %d against %d set (%s)",
			at, r.SetBits, flt.SetBits(), s.describe(f))
	}
	return pass("the same %d words, %d set (%s)", len(flt.Words()), flt.SetBits(), s.describe(f))
}

var errStop = errors.New("audit: stop")

func stepsUnchanged(f *labSetup) Verdict {
	p := defaults(f)
	p.Items = 20000
	whole, err := sim.Run(p)
	if err != nil {
		return fail("%v", err)
	}
	calls := 0
	stepped, err := sim.RunSteps(p, func(done, total int) error { calls++; return nil })
	if err != nil {
		return fail("%v", err)
	}
	_, stop := sim.RunSteps(p, func(done, total int) error { return errStop })
	ok := calls > 0 && stepped.Digest == whole.Digest && errors.Is(stop, errStop)
	return verdict(ok, "%d steps, digest %s against %s straight through; a stopping step returned %v",
		calls, stepped.Digest, whole.Digest, stop)
}

func namespaces(text bool) Verdict {
	const each = 20000
	seeds := []uint64{1, math.MaxUint64}
	if text {
		seeds = seeds[:1] // text keys do not depend on the seed
	}
	for _, seed := range seeds {
		seen := make(map[string]core.Namespace, 2*each)
		var key []byte
		for _, ns := range []core.Namespace{core.Members, core.Absent} {
			for i := uint64(0); i < each; i++ {
				if text {
					key = core.TextKey(key, ns, i)
				} else {
					key = core.Key(key, ns, i, seed, 16)
					if len(key) != 16 {
						return fail("key %d of namespace %d has %d bytes, want 16", i, ns, len(key))
					}
				}
				if prev, dup := seen[string(key)]; dup {
					return fail("key %d of namespace %d repeats a key of namespace %d under seed %d", i, ns, prev, seed)
				}
				seen[string(key)] = ns
			}
		}
	}
	return pass("%d distinct keys under %d seed(s)", 2*each*len(seeds), len(seeds))
}

func seedKeys(Target) Verdict {
	const seeds = 4096
	seen := make(map[[2]uint64]uint64, seeds)
	for s := uint64(0); s < seeds; s++ {
		k0, k1 := core.SipKey(s)
		if prev, dup := seen[[2]uint64{k0, k1}]; dup {
			return fail("seeds %d and %d derive the same key", prev, s)
		}
		if k0 == k1 {
			return fail("seed %d derives equal key halves %#x", s, k0)
		}
		seen[[2]uint64{k0, k1}] = s
	}
	return pass("%d seeds, %d distinct keys", seeds, len(seen))
}

func digestRounds(Target) Verdict {
	sum := func(add func(d *core.Digester)) string {
		var d core.Digester
		add(&d)
		return d.Sum()
	}
	x := 0.1 + 0.2
	near := sum(func(d *core.Digester) { d.Float(x) }) == sum(func(d *core.Digester) { d.Float(math.Nextafter(x, 1)) }) &&
		sum(func(d *core.Digester) { d.Float(x) }) == sum(func(d *core.Digester) { d.Float(0.3) })
	apart := sum(func(d *core.Digester) { d.Float(0.3) }) != sum(func(d *core.Digester) { d.Float(0.300001) })
	exact := sum(func(d *core.Digester) { d.Uint(1 << 62) }) != sum(func(d *core.Digester) { d.Uint(1<<62 + 1) })
	words := slices.Repeat([]uint64{0x0123456789abcdef}, 3)
	order := sum(func(d *core.Digester) { d.Words(words) }) != sum(func(d *core.Digester) { d.Words(words[:2]) })
	return verdict(near && apart && exact && order,
		"0.1+0.2, its next float and 0.3 fold alike: %t; 0.3 and 0.300001 differ: %t; integers exact: %t; lengths count: %t",
		near, apart, exact, order)
}
