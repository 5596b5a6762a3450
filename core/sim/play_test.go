package sim

import (
	"slices"
	"testing"

	"github.com/bloomlab/bloomlab/core"
)

// TestAtKeepsTheFilter: a player's stop is the designed filter with its
// first keys in: the same m, k and fingerprint width at every stop, the
// full stop is Run itself, and each stop's bits are those of
// inserting its keys one at a time.
func TestAtKeepsTheFilter(t *testing.T) {
	t.Parallel()
	for _, v := range core.Variants {
		if v.Static() {
			continue // built once from the whole set: no keys-so-far
		}
		p := Defaults()
		p.Variant, p.Items, p.Queries = v, 3000, 2000
		full, err := Run(p)
		if err != nil {
			t.Fatal(err)
		}
		if at, err := Run(p.At(p.Items)); err != nil || at.Digest != full.Digest {
			t.Errorf("%s: the last stop's digest %s (%v), want Run's %s", v, at.Digest, err, full.Digest)
		}
		f, err := p.Start()
		if err != nil {
			t.Fatal(err)
		}
		for i, at := range []int{1, 2, 10, 1234, 2999} {
			for j := []int{0, 1, 2, 10, 1234}[i]; j < at; j++ {
				f.Filter.Add(core.Key(nil, core.Members, uint64(j), p.Seed, p.KeyBytes))
			}
			r, err := Run(p.At(at))
			if err != nil {
				t.Fatal(err)
			}
			// A chain grows as keys come: its m and k at a stop are the
			// chain's after that many keys.
			wantM, wantK := full.M, full.K
			if v.Chain() {
				wantM, wantK = f.Filter.M(), f.Filter.K()
			}
			if r.M != wantM || r.K != wantK || r.N != uint64(at) || r.FingerprintBits != full.FingerprintBits {
				t.Errorf("%s at %d: m %d k %d n %d f %d, want m %d k %d n %d f %d", v, at, r.M, r.K, r.N, r.FingerprintBits, wantM, wantK, at, full.FingerprintBits)
			}
			if !slices.Equal(r.Filter.Words(), f.Filter.Words()) {
				t.Errorf("%s at %d: the stop's filter is not the first %d keys inserted one at a time", v, at, at)
			}
			if r.AbsentQueries != full.AbsentQueries {
				t.Errorf("%s at %d: %d absent queries, want %d", v, at, r.AbsentQueries, full.AbsentQueries)
			}
		}
	}
	p := Defaults()
	if got := p.At(0).Items; got != 1 {
		t.Errorf("At(0) holds %d keys, want 1", got)
	}
	if got := p.At(p.Items + 5).Items; got != p.Items {
		t.Errorf("At past the end holds %d keys, want %d", got, p.Items)
	}
}
