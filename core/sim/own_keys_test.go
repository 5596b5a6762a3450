package sim

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/core"
)

func textKeys(ns core.Namespace, lo, hi int) [][]byte {
	var keys [][]byte
	for i := lo; i < hi; i++ {
		keys = append(keys, core.TextKey(nil, ns, uint64(i)))
	}
	return keys
}

func TestRunKeysCountsTheLists(t *testing.T) {
	t.Parallel()
	members := textKeys(core.Members, 0, 20_000)
	members = append(members, members[:300]...) // 300 duplicates
	absent := textKeys(core.Absent, 0, 200_000)
	absent = append(absent, absent[:50]...)        // 50 duplicates
	absent = append(absent, members[1000:1040]...) // 40 members in the absent list
	p := Defaults()
	r, err := RunKeys(p, members, absent, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.N != 20_000 || r.MemberDuplicates != 300 || r.AbsentDuplicates != 50 || r.AbsentMembers != 40 {
		t.Errorf("n %d, duplicates %d/%d, absent members %d; want 20000, 300/50, 40",
			r.N, r.MemberDuplicates, r.AbsentDuplicates, r.AbsentMembers)
	}
	if r.AbsentQueries != 200_000 || r.PresentQueries != 20_000 {
		t.Errorf("queries %d absent, %d present; want 200000 and 20000", r.AbsentQueries, r.PresentQueries)
	}
	if r.FalseNegatives != 0 {
		t.Errorf("%d false negatives", r.FalseNegatives)
	}
	if r.M != 200_000 || r.K != 7 || r.FilterBytes != 25_000 {
		t.Errorf("m %d k %d bytes %d; want 200000 7 25000", r.M, r.K, r.FilterBytes)
	}
	// The rate against theory, with both noises counted: the queries'
	// binomial one and the filter's fill, which moves its rate by k df/f.
	x := float64(r.K) * float64(r.N) / float64(r.M)
	e := math.Exp(-x)
	want := r.TheoryFPR * float64(r.AbsentQueries)
	sd := math.Sqrt(want*(1-r.TheoryFPR) + math.Pow(want*float64(r.K)/(1-e), 2)*e*(1-(1+x)*e)/float64(r.M))
	if z := (float64(r.FalsePositives) - want) / sd; math.Abs(z) > core.Z999 {
		t.Errorf("%d false positives, expected %.1f: z = %.2f", r.FalsePositives, want, z)
	}
	// "key-0" to "key-9999" fit the 8-byte class, "key-10000" on the 16-byte.
	if want := core.MapTableBytes(r.N) + 10_000*8 + 10_000*16; r.ExactSetBytes != want {
		t.Errorf("exact set %d bytes, want %d: one table and each key's heap bytes", r.ExactSetBytes, want)
	}
}

// RunKeys on the keys Run generates must build the same filter and
// find the same false positives: one filter, two ways in.
func TestRunKeysAgreesWithRun(t *testing.T) {
	t.Parallel()
	for _, v := range core.Variants {
		t.Run(v.Name(), func(t *testing.T) {
			p := Defaults()
			p.Variant, p.PresentShare, p.Seed = v, 0, 42
			want, err := Run(p)
			if err != nil {
				t.Fatal(err)
			}
			var members, absent [][]byte
			for i := 0; i < p.Items; i++ {
				members = append(members, core.Key(nil, core.Members, uint64(i), p.Seed, p.KeyBytes))
			}
			for i := 0; i < p.Queries; i++ {
				absent = append(absent, core.Key(nil, core.Absent, uint64(i), p.Seed, p.KeyBytes))
			}
			got, err := RunKeys(p, members, absent, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got.FalsePositives != want.FalsePositives || got.SetBits != want.SetBits ||
				!slices.Equal(got.Filter.Words(), want.Filter.Words()) || got.ProbesPerNegative != want.ProbesPerNegative {
				t.Errorf("fp %d set %d probes %.4f; Run fp %d set %d probes %.4f",
					got.FalsePositives, got.SetBits, got.ProbesPerNegative, want.FalsePositives, want.SetBits, want.ProbesPerNegative)
			}
			if !slices.Equal(got.FirstProbed, want.FirstProbed) || !slices.Equal(got.LastInserted, want.LastInserted) {
				t.Error("the highlighted positions differ from Run's")
			}
		})
	}
}

func TestRunKeysRefuses(t *testing.T) {
	t.Parallel()
	members, absent := textKeys(core.Members, 0, 100), textKeys(core.Absent, 0, 100)
	bad := Defaults()
	bad.BitsPerKey = 0
	for _, tc := range []struct {
		name            string
		p               Params
		members, absent [][]byte
		says            string
	}{
		{"no members", Defaults(), nil, absent, "no member keys"},
		{"bad params", bad, members, absent, "bits per key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := RunKeys(tc.p, tc.members, tc.absent, nil)
			if err == nil || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("error %v, want one saying %q", err, tc.says)
			}
		})
	}
	t.Run("no absent keys", func(t *testing.T) {
		r, err := RunKeys(Defaults(), members, nil, nil)
		if err != nil || r.AbsentQueries != 0 || r.QueryCILow != 0 || r.QueryCIHigh != 1 || r.WholeCILow != 0 || r.WholeCIHigh != 1 {
			t.Errorf("error %v, %d absent queries, interval [%v, %v]; want none and [0, 1]", err, r.AbsentQueries, r.QueryCILow, r.QueryCIHigh)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		stop := errors.New("stop")
		_, err := RunKeys(Defaults(), textKeys(core.Members, 0, 40_000), absent, func(done, total int) error { return stop })
		if !errors.Is(err, stop) {
			t.Errorf("error %v, want the step's", err)
		}
	})
}

// A duplicate in the input is a duplicate pass in disguise: the standard
// filter's bits must not move.
func TestRunKeysDuplicatesDoNotCountTwice(t *testing.T) {
	t.Parallel()
	members := textKeys(core.Members, 0, 5000)
	once, err := RunKeys(Defaults(), members, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	twice, err := RunKeys(Defaults(), append(members, members...), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if twice.N != once.N || twice.Digest != once.Digest || twice.MemberDuplicates != 5000 {
		t.Errorf("n %d digest %s duplicates %d; want n %d digest %s duplicates 5000",
			twice.N, twice.Digest, twice.MemberDuplicates, once.N, once.Digest)
	}
}

// Sorting out the lists is most of the work when they repeat themselves, and
// a browser must be able to yield (and cancel) through it: step is called
// while duplicates are dropped, done only grows, and it never passes total.
func TestRunKeysStepsWhileSortingLists(t *testing.T) {
	t.Parallel()
	one := []byte("the same key")
	members := make([][]byte, 3*Chunk)
	for i := range members {
		members[i] = one
	}
	var calls, last, lastTotal int
	r, err := RunKeys(Defaults(), members, members[:Chunk], func(done, total int) error {
		if done <= last || done > total {
			t.Errorf("step(%d, %d) after done %d", done, total, last)
		}
		calls, last, lastTotal = calls+1, done, total
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// 4 chunks of list keys, then an insert and a query of the one key.
	if calls != 4 || lastTotal < 4*Chunk || r.N != 1 || r.MemberDuplicates != 3*Chunk-1 || r.AbsentMembers != 1 {
		t.Errorf("%d step calls, last total %d, n %d, %d duplicates, %d absent members; want 4, at least %d, 1, %d, 1",
			calls, lastTotal, r.N, r.MemberDuplicates, r.AbsentMembers, 4*Chunk, 3*Chunk-1)
	}
}
