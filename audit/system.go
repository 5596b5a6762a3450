package audit

import (
	"bytes"
	"errors"
	"fmt"
	"math"

	"github.com/bloomlab/bloomlab/core"
)

// systemChecks is group 9: a filter in a system is saved and loaded,
// merged and counted, and each must keep the members. The checks hold a
// target to the views it shows (Saver with its Load, Merger, Counter);
// a target without one has those checks skipped, with the reason.
//
// A saved filter must load to one that answers exactly as before, for
// every member and for 100,000 absent keys, over shapes where a format
// slips: a tiny m, an m that is not a multiple of 64 (a saver that drops
// the last partial word loses the members with a bit in it), the default
// shape and k = 64. A damaged file must be refused, or at the least load
// to a filter that still answers yes for every member, and loading it
// must take bounded memory (damage.go says how the audit damages a file
// whose format it does not know). A union of filters over disjoint keys
// answers yes for all of them; filters of another m, k or seed are
// refused, or the members a merge of them loses are counted. The count a
// filter estimates stays within its stated uncertainty across fills.
func systemChecks() []Check {
	var checks []Check
	for _, r := range roundTrips() {
		checks = append(checks, Check{ID: "save/round-trip/" + r.name, Needs: []Need{NeedSave},
			Contract: "saved and loaded, " + r.contract + " answers as before for every member and 100,000 absent keys",
			Run:      func(t Target) Verdict { return roundTrip(t, r.s) }})
	}
	for _, d := range damages {
		checks = append(checks, Check{ID: "save/damaged/" + d.name, Needs: []Need{NeedSave},
			Contract: "a default-shape file " + d.contract + " is refused or loads with every member, " + memoryContract,
			Run:      func(t Target) Verdict { return damaged(t, d) }})
	}
	checks = append(checks, Check{ID: "merge/disjoint", Needs: []Need{NeedMerge},
		Contract: "the union of two filters over 4,000 keys each, disjoint, answers yes for all 8,000, and no more often than the filter of all 8,000",
		Run:      mergeDisjoint})
	for _, o := range mergeOthers {
		checks = append(checks, Check{ID: "merge/other-" + o.name, Needs: o.needs,
			Contract: "a filter of " + o.contract + " is refused by Merge, which leaves the filter as it was, or the merge keeps every member of both",
			Run:      func(t Target) Verdict { return mergeOther(t, o) }})
	}
	for _, k := range []int{7, 16} {
		checks = append(checks, Check{ID: fmt.Sprintf("count/fills/k-%d", k), Needs: []Need{NeedCount, NeedSet, NeedFixed},
			Contract: fmt.Sprintf("the count estimated at fills of 10%% to 90%% (m = %d, k = %d) is within 5 SD + 1 of n, "+
				"the SD the target states or, where it states none, the lab's own for the same m, k and keys", countM, k),
			Run: func(t Target) Verdict { return countFills(t, k) }})
	}
	for i := range checks {
		checks[i].Group = GroupSystem
	}
	return checks
}

// roundTripShape is a shape a saved filter must come back from whole.
type roundTripShape struct {
	name, contract string
	s              shape
}

// roundTrips are the shapes of the round-trip checks, which Keep saves
// too: a file that loads today must load in every later version.
func roundTrips() []roundTripShape {
	return []roundTripShape{
		{"tiny-m", "a filter of m = 100 bits, k = 3, 10 keys,", standard(100, 0, 3, 10)},
		{"awkward-m", "a filter of m = 100,003 bits (not a multiple of 64), k = 7, 10,000 keys,", standard(100003, 0, 7, 10000)},
		{"default", "the default-shape filter (m = 40,000, k = 7, 4,000 keys)", standard(0, 10, 7, 4000)},
		{"k-64", "a filter of k = 64, 64 bits a key, 500 keys,", standard(0, 64, 64, 500)},
	}
}

// absentAsked is how many absent keys a round trip compares.
const absentAsked = 100000

// filledFile fills the filter of shape s and returns it with the file its
// Save wrote.
func (t Target) filledFile(s shape) (Filter, []byte, error) {
	flt, err := t.fill(s)
	if err != nil {
		return nil, nil, err
	}
	var b bytes.Buffer
	if err := flt.(Saver).Save(&b); err != nil {
		return nil, nil, fmt.Errorf("Save: %w (%s)", err, t.describe(s))
	}
	return flt, b.Bytes(), nil
}

// load is the target's Load of file, with a panic turned into an error: a
// loader that panics on a file takes down the program that read it.
func (t Target) load(file []byte) (flt Filter, err error) {
	defer func() {
		if e := recover(); e != nil {
			if _, ok := e.(Unavailable); ok {
				panic(e)
			}
			flt, err = nil, fmt.Errorf("%w: %v", errPanicked, e)
		}
	}()
	flt, err = t.Load(bytes.NewReader(file))
	if err == nil && flt == nil {
		err = errors.New("Load returned neither a filter nor an error")
	}
	return flt, err
}

// errPanicked marks a Load that panicked.
var errPanicked = errors.New("panicked")

// roundTrip fills the filter of shape s, saves it, loads the file and
// compares the answers of the two for every member and absentAsked absent
// keys.
func roundTrip(t Target, s shape) Verdict {
	flt, file, err := t.filledFile(s)
	if err != nil {
		return fail("%v", err)
	}
	back, err := t.load(file)
	if err != nil {
		return fail("the %d-byte file Save wrote does not load: %v (%s)", len(file), err, t.describe(s))
	}
	lost, err := t.missing(back, s, 0, s.Items)
	if err != nil {
		return errVerdict(err)
	}
	before, err := t.answerAll(flt, absentAsked, s.absent)
	if err != nil {
		return stopped(err)
	}
	moved := 0
	if err := t.ask(back, absentAsked, s.absent, func(i int, yes bool) {
		if yes != before[i] {
			moved++
		}
	}); err != nil {
		return stopped(err)
	}
	return verdict(lost == 0 && moved == 0,
		"after a %d-byte file, %d of %d members answer no and %d of %d absent keys answer otherwise (%s)",
		len(file), lost, s.Items, moved, absentAsked, t.describe(s))
}

// missing counts the members lo to hi of shape s that flt answers no to.
func (t Target) missing(flt Filter, s shape, lo, hi int) (int, error) {
	yes, err := t.count(flt, hi-lo, func(dst []byte, i int) []byte { return s.key(dst, lo+i) })
	if err != nil {
		return 0, stopError{err}
	}
	return hi - lo - yes, nil
}

// addRange adds the members lo to hi of shape s to flt.
func addRange(flt Filter, s shape, lo, hi int) {
	var key []byte
	for i := lo; i < hi; i++ {
		key = s.key(key, i)
		flt.Add(key)
	}
}

// mergeShape is the shape of the merge checks: m = 80,000 and k = 7 for
// the 8,000 keys of both filters together.
func mergeShape() shape { return standard(80000, 0, 7, 8000) }

// mergeDisjoint fills one filter with members 0 to 3,999 and another with
// members 4,000 to 7,999, merges the second into the first, and asks the
// union for all 8,000; its false positives on absentAsked absent keys are
// held to those of the filter of all 8,000 (a union that answers yes to
// everything keeps every member too): for a Bloom filter the two are the
// same bits, and any other may answer yes a little more often, at most
// 10% and 4 SD of the count more.
func mergeDisjoint(t Target) Verdict {
	s := mergeShape()
	half := s.Items / 2
	a, err := t.build(s)
	if err != nil {
		return fail("%v", err)
	}
	b, err := t.build(s)
	if err != nil {
		return fail("%v", err)
	}
	addRange(a, s, 0, half)
	addRange(b, s, half, s.Items)
	if err := a.(Merger).Merge(b); err != nil {
		return fail("Merge refused a filter of its own shape: %v (%s)", err, t.describe(s))
	}
	lost, err := t.missing(a, s, 0, s.Items)
	if err != nil {
		return errVerdict(err)
	}
	whole, err := t.fill(s)
	if err != nil {
		return fail("%v", err)
	}
	fp, err := t.count(a, absentAsked, s.absent)
	if err != nil {
		return stopped(err)
	}
	want, err := t.count(whole, absentAsked, s.absent)
	if err != nil {
		return stopped(err)
	}
	limit := 1.1*float64(want) + 4*math.Sqrt(float64(want)) + 10
	return verdict(lost == 0 && float64(fp) <= limit,
		"%d of %d members answer no after the merge; %d of %d absent keys answer yes, the filter of all %d keys %d (at most %.1f) (%s)",
		lost, s.Items, fp, absentAsked, s.Items, want, limit, t.describe(s))
}

// mergeOtherShape is a filter Merge must refuse or merge whole: built
// from mergeShape changed by other.
type mergeOtherShape struct {
	name, contract string
	needs          []Need
	other          func(shape) shape
}

var mergeOthers = []mergeOtherShape{
	{"m", "another m (120,000 bits against 80,000)", []Need{NeedMerge},
		func(s shape) shape { s.M = 120000; return s }},
	{"k", "another k (8 against 7)", []Need{NeedMerge},
		func(s shape) shape { s.Hashes = 8; return s }},
	{"seed", "another seed (2 against 1)", []Need{NeedMerge, NeedSeed},
		func(s shape) shape { return s.seed(2) }},
}

// mergeOther fills a filter of mergeShape with members 0 to 3,999 and one
// of the other shape with members 4,000 to 7,999 (the same keys: only the
// filter differs), and merges the second into the first. A refusal must
// leave the first answering yes for its members; a merge must answer yes
// for all 8,000, and a merge of filters that put a key in different places
// seldom does.
func mergeOther(t Target, o mergeOtherShape) Verdict {
	s := mergeShape()
	half := s.Items / 2
	a, err := t.build(s)
	if err != nil {
		return fail("%v", err)
	}
	b, err := t.build(o.other(s))
	if err != nil {
		return fail("%v", err)
	}
	addRange(a, s, 0, half)
	addRange(b, s, half, s.Items)
	theirs := t.describe(o.other(s))
	if err := a.(Merger).Merge(b); err != nil {
		lost, err2 := t.missing(a, s, 0, half)
		if err2 != nil {
			return errVerdict(err2)
		}
		return verdict(lost == 0, "refused: %v; afterwards %d of its %d members answer no (%s; the other %s)",
			err, lost, half, t.describe(s), theirs)
	}
	own, err := t.missing(a, s, 0, half)
	if err != nil {
		return errVerdict(err)
	}
	other, err := t.missing(a, s, half, s.Items)
	if err != nil {
		return errVerdict(err)
	}
	return verdict(own+other == 0, "merged: %d of its own %d members and %d of the other's %d answer no (%s; the other %s)",
		own, half, other, s.Items-half, t.describe(s), theirs)
}

// countM is the m of the count checks.
const countM = 100000

// countFills fills filters of m = countM and k hashes to 10%, 30%, 50%,
// 70% and 90% of their bits and holds each count to 5 SD + 1 of n: the
// SD the target states, or where it states none (0) the lab's own for
// the same shape and keys, so a count is never held to an SD it did not
// earn. Past 5 SD a true estimate falls six times in ten million. The
// higher fills put more keys in m than a filter of bounded capacity (the
// cuckoo filter's table) holds, so the checks need a set's semantics;
// and they read a fill of m bits under k hashes, which a chain that grows
// links (the scalable filter) does not have, so they need a fixed shape.
func countFills(t Target, k int) Verdict {
	worst, detail := 0.0, ""
	ok := true
	for _, fill := range []float64{0.1, 0.3, 0.5, 0.7, 0.9} {
		// The keys that set a share fill of m bits on average:
		// 1 - e^(-kn/m) = fill.
		n := int(math.Round(-float64(countM) / float64(k) * math.Log(1-fill)))
		s := standard(countM, 0, k, n)
		flt, err := t.fill(s)
		if err != nil {
			return fail("%v", err)
		}
		est, sd := flt.(Counter).Count()
		stated := "stated"
		if !(sd > 0) {
			sd, stated = labSD(s), "the lab's"
		}
		off := math.Abs(est - float64(n))
		within := off <= 5*sd+1
		ok = ok && within
		if z := off / sd; !within || z >= worst || detail == "" {
			worst = z
			detail = fmt.Sprintf("at fill %.0f%% the count is %.1f for %d keys, %.2f SD off (%s SD %.1f) (%s)",
				100*fill, est, n, z, stated, sd, t.describe(s))
		}
	}
	return verdict(ok, "the worst of 5 fills: %s", detail)
}

// labSD is the SD core.EstimateKeys states for the lab's standard filter
// of shape s holding its keys: the delta method's, a little over a
// hundred keys at m = 100,000 and half full.
func labSD(s shape) float64 {
	m, k := s.M, s.Hashes
	flt, err := core.NewFilter(m, k, s.Seed)
	if err != nil {
		return 0
	}
	s.insert(flt, 1)
	e, err := core.EstimateKeys(flt)
	if err != nil {
		return 0
	}
	return e.SD
}

// memoryContract is the bound loading a damaged file is held to.
const memoryContract = "and loading takes at most 16 times the file's bytes and 1 MiB (runtime.MemStats.TotalAlloc in this process)"
