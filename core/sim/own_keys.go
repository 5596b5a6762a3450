package sim

import (
	"fmt"

	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/keys"
)

// DefaultKeyLimits allow as many keys as a simulation inserts, 256 MiB of
// input and 4 KiB a key.
var DefaultKeyLimits = keys.Limits{MaxKeys: core.MaxItems, MaxBytes: 256 << 20, MaxLineBytes: 4 << 10}

// KeysResult is what RunKeys measured, beside what the key lists
// held.
type KeysResult struct {
	Result
	// Duplicates dropped from each list, so that none counts twice.
	MemberDuplicates int `json:"memberDuplicates"`
	AbsentDuplicates int `json:"absentDuplicates"`
	// AbsentMembers counts keys of the absent list that are members: they
	// are not absent, so they are left out of the false-positive rate.
	AbsentMembers int `json:"absentMembers"`
}

// RunKeys is Run on keys a user brought: it builds the filter the
// params describe from the distinct members, inserts them DuplicatePasses
// times, queries every member (any miss is a false negative) and every
// distinct absent key that is not a member (any hit is a false positive).
// Duplicates are dropped here and counted in the result; the keys are not
// copied. Lists read by keys.Read go to RunKeyLists instead, which
// spends no memory on dropping duplicates again.
//
// Of the params it reads BitsPerKey (or M), Hashes, DuplicatePasses, Seed,
// Variant and Fault; n and the queries come from the lists, so Items,
// Queries, PresentShare and KeyBytes are ignored. step may be nil.
func RunKeys(p Params, members, absent [][]byte, step Step) (KeysResult, error) {
	var out KeysResult
	pr := newListProgress(step, len(members), len(absent), p.DuplicatePasses)
	// The sets find keys through pointers to the lists: a slice or a
	// keys.List turned into an interface at each call would be copied to the
	// heap each time.
	var kept, seenAbsent, queries keys.Bytes
	memberSet := keys.NewSet(len(members))
	for _, k := range members {
		if err := pr.Tick(); err != nil {
			return out, err
		}
		h := memberSet.Hash(k)
		slot, dup := memberSet.Find(&kept, k, h)
		if dup {
			out.MemberDuplicates++
			continue
		}
		kept = append(kept, k)
		memberSet.Put(slot, len(kept)-1, h)
	}
	absentSet := keys.NewSet(len(absent))
	for _, k := range absent {
		if err := pr.Tick(); err != nil {
			return out, err
		}
		h := absentSet.Hash(k)
		slot, dup := absentSet.Find(&seenAbsent, k, h)
		if dup {
			out.AbsentDuplicates++
			continue
		}
		seenAbsent = append(seenAbsent, k)
		absentSet.Put(slot, len(seenAbsent)-1, h)
		if _, member := memberSet.Find(&kept, k, memberSet.Hash(k)); member {
			out.AbsentMembers++
			continue
		}
		queries = append(queries, k)
	}
	return out.simulate(p, kept, queries, pr)
}

// RunKeyLists is RunKeys on lists ReadKeys read, which hold each
// key once already: only a set of the members is built, to leave out of the
// rate the absent keys that are members, and only when there are absent
// keys. The result counts the lists' duplicates.
func RunKeyLists(p Params, members, absent keys.List, step Step) (KeysResult, error) {
	out := KeysResult{MemberDuplicates: members.Duplicates, AbsentDuplicates: absent.Duplicates}
	pr := newListProgress(step, members.Len(), absent.Len(), p.DuplicatePasses)
	if absent.Len() == 0 {
		return out.simulate(p, members, absent, pr)
	}
	set, mem := keys.NewSet(members.Len()), &members
	for i := range members.Len() {
		if err := pr.Tick(); err != nil {
			return out, err
		}
		k := members.Key(i)
		h := set.Hash(k)
		slot, _ := set.Find(mem, k, h)
		set.Put(slot, i, h)
	}
	// One bit an absent key for the few that are members, rather than an
	// index for each of the many that are not.
	isMember := make([]uint64, (absent.Len()+63)/64)
	for i := range absent.Len() {
		if err := pr.Tick(); err != nil {
			return out, err
		}
		k := absent.Key(i)
		if _, member := set.Find(mem, k, set.Hash(k)); member {
			isMember[i/64] |= 1 << (i % 64)
			out.AbsentMembers++
		}
	}
	if out.AbsentMembers == 0 {
		return out.simulate(p, members, absent, pr)
	}
	queries := keySubset{list: absent, index: make([]uint32, 0, absent.Len()-out.AbsentMembers)}
	for i := range absent.Len() {
		if isMember[i/64]&(1<<(i%64)) == 0 {
			queries.index = append(queries.index, uint32(i))
		}
	}
	return out.simulate(p, members, queries, pr)
}

// keySubset is some keys of a list, by index.
type keySubset struct {
	list  keys.Source
	index []uint32
}

func (s keySubset) Len() int         { return len(s.index) }
func (s keySubset) Key(i int) []byte { return s.list.Key(int(s.index[i])) }

// newListProgress counts the work on own keys for a Step: each list key
// once while the lists are sorted out, then each member once a pass and once
// as a query, and each absent query once. Until the lists are sorted out
// the total is an estimate, made exact once they are.
func newListProgress(step Step, members, absent, passes int) *Pace {
	return &Pace{Step: step, Total: (members+absent)*2 + members*min(max(passes, 1), core.MaxPasses)}
}

// simulate builds the filter from keys, which are distinct, and measures it
// on queries, which are distinct and hold no member, into out.
func (out KeysResult) simulate(p Params, members, queries keys.Source, pr *Pace) (KeysResult, error) {
	if members.Len() == 0 {
		return out, fmt.Errorf("sim: no member keys to insert")
	}
	if members.Len() > core.MaxItems {
		return out, fmt.Errorf("sim: %d member keys, at most %d allowed", members.Len(), core.MaxItems)
	}
	if queries.Len() > core.MaxQueries {
		return out, fmt.Errorf("sim: %d absent keys, at most %d allowed", queries.Len(), core.MaxQueries)
	}
	q := p
	q.Items, q.Queries, q.PresentShare, q.KeyBytes = members.Len(), queries.Len(), 0, core.MinKeyBytes
	r, err := q.Start()
	if err != nil {
		return out, err
	}
	n := r.N
	pr.Total = pr.Done + members.Len()*(q.DuplicatePasses+1) + queries.Len()
	r.PresentQueries, r.AbsentQueries = n, uint64(queries.Len())
	stored := func(list keys.Source) keysAt {
		return func(dst [][]byte, first uint64) {
			for j := range dst {
				dst[j] = list.Key(int(first) + j)
			}
		}
	}
	probes, err := r.measure(q.DuplicatePasses, nil, pr, stored(members), stored(members), stored(queries))
	if err != nil {
		return out, err
	}

	// Keys differ in length: one table, each key's own heap bytes.
	r.ExactSetBytes = core.MapTableBytes(n)
	for i := range members.Len() {
		r.ExactSetBytes += core.KeyHeapBytes(len(members.Key(i)))
	}
	r.finish(probes)
	out.Result = r
	return out, nil
}
