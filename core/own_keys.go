package core

import "fmt"

// OwnKeysResult is what SimulateKeys measured, beside what the key lists
// held.
type OwnKeysResult struct {
	Result
	// Duplicates dropped from each list, so that none counts twice.
	MemberDuplicates int `json:"memberDuplicates"`
	AbsentDuplicates int `json:"absentDuplicates"`
	// AbsentMembers counts keys of the absent list that are members: they
	// are not absent, so they are left out of the false-positive rate.
	AbsentMembers int `json:"absentMembers"`
}

// SimulateKeys is Simulate on keys a user brought: it builds the filter the
// params describe from the distinct members, inserts them DuplicatePasses
// times, queries every member (any miss is a false negative) and every
// distinct absent key that is not a member (any hit is a false positive).
// The lists may come from ReadKeys or straight from a caller; duplicates are
// dropped here either way and counted in the result.
//
// Of the params it reads BitsPerKey (or M), Hashes, DuplicatePasses, Seed,
// Variant and Fault; n and the queries come from the lists, so Items,
// Queries, PresentShare and KeyBytes are ignored. step may be nil.
func SimulateKeys(p Params, members, absent [][]byte, step Step) (OwnKeysResult, error) {
	var out OwnKeysResult
	// Sorting out a million keys takes a while in a browser, so step is
	// called from the first key on. Until the lists are sorted out, total
	// counts every key once more per pass: an estimate, made exact below.
	done := 0
	total := (len(members)+len(absent))*2 + len(members)*min(max(p.DuplicatePasses, 1), MaxPasses)
	tick := func() error {
		done++
		if step != nil && done%chunk == 0 {
			return step(done, total)
		}
		return nil
	}
	memberSet := make(map[string]struct{}, len(members))
	var keys [][]byte
	for _, k := range members {
		if err := tick(); err != nil {
			return out, err
		}
		if _, dup := memberSet[string(k)]; dup {
			out.MemberDuplicates++
			continue
		}
		memberSet[string(k)] = struct{}{}
		keys = append(keys, k)
	}
	absentSet := make(map[string]struct{}, len(absent))
	var queries [][]byte
	for _, k := range absent {
		if err := tick(); err != nil {
			return out, err
		}
		if _, dup := absentSet[string(k)]; dup {
			out.AbsentDuplicates++
			continue
		}
		absentSet[string(k)] = struct{}{}
		if _, member := memberSet[string(k)]; member {
			out.AbsentMembers++
			continue
		}
		queries = append(queries, k)
	}
	if len(keys) == 0 {
		return out, fmt.Errorf("core: no member keys to insert")
	}
	if len(keys) > MaxItems {
		return out, fmt.Errorf("core: %d member keys, at most %d allowed", len(keys), MaxItems)
	}
	if len(queries) > MaxQueries {
		return out, fmt.Errorf("core: %d absent keys, at most %d allowed", len(queries), MaxQueries)
	}
	q := p
	q.Items, q.Queries, q.PresentShare, q.KeyBytes = len(keys), len(queries), 0, MinKeyBytes
	if err := q.Validate(); err != nil {
		return out, err
	}
	variant, _ := ParseVariant(string(q.Variant))
	fault, _ := ParseFault(string(q.Fault))
	m, k := q.Shape()
	f, err := New(variant, fault, m, k, q.Seed)
	if err != nil {
		return out, err
	}
	m = f.M()
	n := uint64(len(keys))
	total = done + len(keys)*(q.DuplicatePasses+1) + len(queries)

	r := Result{Variant: variant.Effective(fault), Fault: fault, M: m, N: n, K: k,
		PresentQueries: n, AbsentQueries: uint64(len(queries)), Filter: f}
	stored := func(list [][]byte) keyAt { return func(_ []byte, i uint64) []byte { return list[i] } }
	probes, err := r.measure(q.DuplicatePasses, tick, stored(keys), stored(keys), stored(queries))
	if err != nil {
		return out, err
	}

	// Keys differ in length: one table, each key's own heap bytes.
	r.ExactSetBytes = MapTableBytes(uint64(len(keys)))
	for _, key := range keys {
		r.ExactSetBytes += KeyHeapBytes(len(key))
	}
	r.finish(probes)
	out.Result = r
	return out, nil
}
