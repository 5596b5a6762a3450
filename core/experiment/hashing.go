package experiment

import (
	"fmt"

	"github.com/bloomlab/bloomlab/core"
)

var hashing = Experiment{
	Name:    "hashing",
	Summary: "k SipHash seeds, double hashing from two or one SipHash calls, and a weak 31*h + c hash: rate and chi-square",
	Quick:   Sizes{Items: 50_000, Queries: 500_000, Seed: 1},
	Full:    Sizes{Items: 200_000, Queries: 2_000_000, Seed: 1},
	run:     runHashing,
}

// buckets is how many equal ranges of [0, m) the chi-square test counts
// indices in: enough to see clustering, few enough that each expects
// hundreds of indices at the quick size.
const buckets = 1024

// indexer turns a key into k positions in [0, m): start hashes the key,
// index(i) returns its i-th position. One indexer serves one goroutine.
type indexer interface {
	start(key []byte)
	index(i int) uint64
}

// scheme is one way of hashing, with a constructor so each task gets its own
// indexer.
type scheme struct {
	name string
	make func(m uint64, k int, seed uint64) indexer
}

var schemes = []scheme{
	{"k independent SipHash seeds", newIndependent},
	{"double hashing, two SipHash calls", newTwoCalls},
	{"double hashing, one 128-bit SipHash (the lab's)", newLab},
	{"weak 31*h + c, double hashing", newWeak},
}

// independent hashes the key k times with k unrelated SipHash keys.
type independent struct {
	m      uint64
	k0, k1 []uint64
	key    []byte
}

func newIndependent(m uint64, k int, seed uint64) indexer {
	x := &independent{m: m}
	for i := 0; i < k; i++ {
		a, b := core.SipKey(derive(seed, uint64(i)))
		x.k0, x.k1 = append(x.k0, a), append(x.k1, b)
	}
	return x
}

func (x *independent) start(key []byte) { x.key = key }
func (x *independent) index(i int) uint64 {
	return core.Reduce(core.Sip64(x.k0[i], x.k1[i], x.key), x.m)
}

// twoCalls takes h1 and h2 from two 64-bit SipHash calls under unrelated keys.
type twoCalls struct {
	m              uint64
	a0, a1, b0, b1 uint64
	h1, h2         uint64
}

func newTwoCalls(m uint64, k int, seed uint64) indexer {
	x := &twoCalls{m: m}
	x.a0, x.a1 = core.SipKey(derive(seed, 0))
	x.b0, x.b1 = core.SipKey(derive(seed, 1))
	return x
}

func (x *twoCalls) start(key []byte) {
	x.h1, x.h2 = core.Sip64(x.a0, x.a1, key), core.Sip64(x.b0, x.b1, key)
}
func (x *twoCalls) index(i int) uint64 { return core.Probe(x.h1, x.h2, i, x.m) }

// lab is core.Filter's hashing: both bases from one SipHash-2-4-128 call.
type lab struct {
	m, k0, k1, h1, h2 uint64
}

func newLab(m uint64, k int, seed uint64) indexer {
	x := &lab{m: m}
	x.k0, x.k1 = core.SipKey(seed)
	return x
}

func (x *lab) start(key []byte)   { x.h1, x.h2 = core.Sip128(x.k0, x.k1, key) }
func (x *lab) index(i int) uint64 { return core.Probe(x.h1, x.h2, i, x.m) }

// weak is the weak-hash fault of the lab's zoo: 31*h + c reduced mod m.
type weak struct {
	m, k0, k1, h1, h2 uint64
}

func newWeak(m uint64, k int, seed uint64) indexer {
	x := &weak{m: m}
	x.k0, x.k1 = core.SipKey(seed)
	return x
}

func (x *weak) start(key []byte)   { x.h1, x.h2 = core.WeakHash.Hash128(x.k0, x.k1, key) }
func (x *weak) index(i int) uint64 { return core.WeakHash.Probe(x.h1, x.h2, i, x.m) }

func runHashing(s Sizes, r *runner) (Table, error) {
	n := uint64(s.Items)
	m, k, err := sized(n, 0.01)
	if err != nil {
		return Table{}, err
	}
	q := uint64(s.Queries)
	seeds := make([]uint64, len(schemes))
	bits := make([][]uint64, len(schemes))
	counts := make([][]uint64, len(schemes))
	for i := range schemes {
		seeds[i] = derive(s.Seed, saltHashing, uint64(i))
		r.plan(int(n + q))
	}
	err = r.each(len(schemes), func(i int) error {
		var err error
		bits[i], counts[i], err = buildScheme(r, schemes[i].make(m, k, seeds[i]), m, k, n)
		return err
	})
	if err != nil {
		return Table{}, err
	}
	type chunk struct {
		scheme int
		lo, hi uint64
	}
	var chunks []chunk
	for i := range schemes {
		for lo := uint64(0); lo < q; lo += chunkQueries {
			chunks = append(chunks, chunk{i, lo, min(lo+chunkQueries, q)})
		}
	}
	found, err := spread(r, len(chunks), func(i int) (uint64, error) {
		c := chunks[i]
		return queryScheme(r, schemes[c.scheme].make(m, k, seeds[c.scheme]), bits[c.scheme], k, c.lo, c.hi)
	})
	if err != nil {
		return Table{}, err
	}
	fp := make([]uint64, len(schemes))
	for i, c := range chunks {
		fp[c.scheme] += found[i]
	}

	theory := core.Rate(m, n, k)
	t := Table{
		Title: fmt.Sprintf("hashing schemes: m/n = %.4f, k = %d, n = %s text keys \"key-N\", %s absent queries \"miss-N\", theory = %.6f",
			float64(m)/float64(n), k, group(s.Items), group(s.Queries), theory),
		Columns: []Column{{Key: "scheme", Title: "scheme", Kind: Text}, colObserved, colCI, colRatio,
			{Key: "chi2dof", Title: "chi2/dof", Kind: Float, Decimals: 2}, colFP},
		Chart: &Chart{Title: "observed rate by hashing scheme", X: "scheme", Y: "false-positive rate",
			Series: []Series{{Name: "theory", Kind: Line}, {Name: "measured", Kind: Points}}},
	}
	for i, sc := range schemes {
		x := rateResult{queries: q, fp: fp[i]}
		stat, dof := core.ChiSquare(counts[i])
		cells := rateCells(theory, x)
		t.Rows = append(t.Rows, append([]Cell{txt(sc.name)}, cells[1:]...))
		t.Rows[i] = append(t.Rows[i], num(stat/float64(dof)), count(fp[i]))
		t.Chart.XLabels = append(t.Chart.XLabels, sc.name)
		t.Chart.Series[0].Points = append(t.Chart.Series[0].Points, Point{X: float64(i), Y: theory})
		t.Chart.Series[1].Points = append(t.Chart.Series[1].Points, measured(float64(i), x))
	}
	t.Notes = append(t.Notes,
		fmt.Sprintf("chi2/dof counts the n*k member indices in %d equal ranges of [0, m); a uniform hash gives about 1 (99.9%% bound %.2f).",
			buckets, core.ChiSquareBound(buckets-1, core.Z999)/float64(buckets-1)),
		"A weak hash's rate says more about the test keys than the filter: structured keys land on structured indices, so members and queries collide more or less than chance, and the next key format moves it again.")
	return t, nil
}

// buildScheme inserts the text keys "key-0".."key-(n-1)" into a bit array by
// scheme x, counting where the indices land.
func buildScheme(r *runner, x indexer, m uint64, k int, n uint64) ([]uint64, []uint64, error) {
	bits := make([]uint64, (m+63)/64)
	counts := make([]uint64, buckets)
	key := make([]byte, 0, 24)
	for i := uint64(0); i < n; i++ {
		key = core.TextKey(key, core.Members, i)
		x.start(key)
		for j := 0; j < k; j++ {
			p := x.index(j)
			bits[p>>6] |= 1 << (p & 63)
			counts[p*buckets/m]++
		}
		if (i+1)%tick == 0 {
			if err := r.report(tick); err != nil {
				return nil, nil, err
			}
		}
	}
	return bits, counts, r.report(int(n % tick))
}

// queryScheme queries "miss-lo".."miss-(hi-1)" and counts false positives.
func queryScheme(r *runner, x indexer, bits []uint64, k int, lo, hi uint64) (uint64, error) {
	fp := uint64(0)
	key := make([]byte, 0, 24)
	for q := lo; q < hi; q++ {
		key = core.TextKey(key, core.Absent, q)
		x.start(key)
		hit := true
		for j := 0; j < k && hit; j++ {
			p := x.index(j)
			hit = bits[p>>6]&(1<<(p&63)) != 0
		}
		if hit {
			fp++
		}
		if (q-lo+1)%tick == 0 {
			if err := r.report(tick); err != nil {
				return fp, err
			}
		}
	}
	return fp, r.report(int((hi - lo) % tick))
}
