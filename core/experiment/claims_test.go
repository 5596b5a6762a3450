package experiment

import (
	"math"
	"math/bits"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/core"
)

// zFor returns the two-sided normal bound that any of tests statistics
// passes with probability at most alpha (Bonferroni), so that a whole table
// is held to 99.9% at alpha = 0.001.
func zFor(alpha float64, tests int) float64 {
	return math.Sqrt2 * math.Erfinv(1-alpha/float64(tests))
}

func run(t *testing.T, e Experiment, s Sizes) Table {
	t.Helper()
	tab, err := e.Run(s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// value returns the number in row i of the column keyed key.
func value(t *testing.T, tab Table, i int, key string) float64 {
	t.Helper()
	c := tab.Column(key)
	if c < 0 {
		t.Fatalf("%s has no column %q", tab.Name, key)
	}
	return tab.Rows[i][c].Value
}

// printed returns the column keyed key as the text table prints it.
func printed(t *testing.T, tab Table, key string) []string {
	t.Helper()
	c := tab.Column(key)
	if c < 0 {
		t.Fatalf("%s has no column %q", tab.Name, key)
	}
	var out []string
	for _, row := range tab.Rows {
		out = append(out, tab.Columns[c].Format(row[c]))
	}
	return out
}

// TestTheoryMatchesReferences: the theory columns equal the published
// figures to the digits they show. One query per row: only the theory is
// read here.
func TestTheoryMatchesReferences(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		e    Experiment
		s    Sizes
		key  string
		want string // "_" skips a row
	}{
		{"theory", theoryVsObserved, Sizes{Items: 500_000, Queries: 1}, "theory", "0.100713 0.050269 0.020092 0.010039 0.005017 0.001000 0.000100"},
		{"bits per key", theoryVsObserved, Sizes{Items: 500_000, Queries: 1}, "bitsPerKey", "4.793 6.235 8.142 9.585 11.028 14.378 19.170"},
		{"k", theoryVsObserved, Sizes{Items: 500_000, Queries: 1}, "k", "3 4 6 7 8 10 13"},
		{"rocksdb", rocksdb, Sizes{Items: 500_000, Queries: 1}, "theory", "0.8436%"},
		{"rounding", rounding, Sizes{Items: 500_000, Queries: 1}, "theory", "0.055708 0.050269 0.051029 0.055697"},
		{"rounding rule", rounding, Sizes{Items: 500_000, Queries: 1}, "rule", "_ round ceil _"},
		{"k-sweep", kSweep, Sizes{Items: 200_000, Queries: 1, Replicates: 1}, "theory",
			"_ _ _ _ _ 0.010143 0.010039 _ _ _ _ _ _ _ _ _ 0.000505 0.000470 0.000459 0.000466 0.000488"},
		{"blocked standard", blocked, Sizes{Items: 500_000, Queries: 1}, "standardTheory", "0.8436% _ _ _ _ _"},
		{"memory", memory, Sizes{Items: 1000}, "gibAtBillion", "1.12 _ _ _"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := printed(t, run(t, tc.e, tc.s), tc.key)
			want := strings.Fields(tc.want)
			if len(got) != len(want) {
				t.Fatalf("%d rows, want %d", len(got), len(want))
			}
			for i := range want {
				if want[i] != "_" && got[i] != want[i] {
					t.Errorf("row %d: %s, want %s", i, got[i], want[i])
				}
			}
		})
	}
	t.Run("overfill", func(t *testing.T) {
		t.Parallel()
		tab := run(t, overfill, Sizes{Items: 200_000, Queries: 1})
		if !strings.Contains(tab.Title, "m = 1,917,012 bits, k = 7") {
			t.Errorf("title %q lacks the design m = 1,917,012 and k = 7", tab.Title)
		}
		for i, want := range strings.Fields("0.01004 0.15745 0.83188 0.99530") {
			if got := fixed(value(t, tab, i, "theory"), 5); got != want {
				t.Errorf("row %d: theory %s, want %s", i, got, want)
			}
		}
	})
	t.Run("hashing", func(t *testing.T) {
		t.Parallel()
		if tab := run(t, hashing, Sizes{Items: 200_000, Queries: 1}); !strings.Contains(tab.Title, "m/n = 9.5851, k = 7") ||
			!strings.Contains(tab.Title, "theory = 0.010039") {
			t.Errorf("title %q lacks m/n = 9.5851, k = 7, theory = 0.010039", tab.Title)
		}
	})
	t.Run("blocked about 0.95%", func(t *testing.T) {
		t.Parallel()
		// RocksDB's wiki rounds its own math to 0.95%; the exact mixture is 0.966%.
		tab := run(t, blocked, Sizes{Items: 500_000, Queries: 1})
		if got := value(t, tab, 1, "theory"); got < 0.0094 || got > 0.0097 {
			t.Errorf("blocked theory %.4f%%, want about 0.95%%", 100*got)
		}
	})
	t.Run("probes about 2", func(t *testing.T) {
		t.Parallel()
		tab := run(t, probes, Sizes{Items: 500_000, Queries: 1})
		for i, want := range strings.Fields("2.055 2.003 2.014") {
			if got := fixed(value(t, tab, i, "byTheory"), 3); got != want {
				t.Errorf("row %d: sum f^i %s, want %s", i, got, want)
			}
		}
	})
}

// shape is what a rate row measured and the filter it measured: fp false
// positives in queries, spread over filters filters of m bits, n keys and k
// hashes.
type shape struct {
	fp, queries uint64
	filters     int
	m, n        uint64
	k           int
}

// TestRatesWithinNoise: every measured rate lies within 99.9% bounds (for
// the whole table) of theory, the bounds counting the queries' noise and the
// filter's own (zScore).
func TestRatesWithinNoise(t *testing.T) {
	t.Parallel()
	const n, q = 20_000, 400_000
	standard := func(tab Table, i int) shape {
		return shape{uint64(value(t, tab, i, "fp")), q, 1, uint64(value(t, tab, i, "m")), n, int(value(t, tab, i, "k"))}
	}
	m5, _ := core.BitsFor(n, 0.05)
	m1, _ := core.BitsFor(n, 0.01)
	for _, tc := range []struct {
		e     Experiment
		s     Sizes
		shape func(tab Table, i int) shape
	}{
		{theoryVsObserved, Sizes{Items: n, Queries: q, Seed: 11}, standard},
		{rocksdb, Sizes{Items: n, Queries: q, Seed: 11}, standard},
		{grid, Sizes{Items: n, Queries: q, Seed: 11}, func(tab Table, i int) shape {
			return shape{uint64(value(t, tab, i, "fp")), q, 1, uint64(math.Round(value(t, tab, i, "bitsPerKey") * n)), n, int(value(t, tab, i, "k"))}
		}},
		{rounding, Sizes{Items: n, Queries: q, Seed: 11}, func(tab Table, i int) shape {
			return shape{uint64(value(t, tab, i, "fp")), q, 1, m5, n, int(value(t, tab, i, "k"))}
		}},
		{overfill, Sizes{Items: n, Queries: q, Seed: 11}, func(tab Table, i int) shape {
			return shape{uint64(value(t, tab, i, "fp")), q, 1, m1, uint64(value(t, tab, i, "n")), core.OptimalK(m1, n)}
		}},
		{kSweep, Sizes{Items: n, Queries: 60_000, Replicates: 4, Seed: 11}, func(tab Table, i int) shape {
			// 9.585 bits per key runs a third of the queries (sweep.thin).
			bpk, reps := value(t, tab, i, "bitsPerKey"), uint64(4)
			queries := reps * 20_000
			if bpk == 16 {
				queries = reps * 60_000
			}
			fp := uint64(math.Round(value(t, tab, i, "observed") * float64(queries)))
			return shape{fp, queries, int(reps), uint64(math.Round(bpk * n)), n, int(value(t, tab, i, "k"))}
		}},
	} {
		t.Run(tc.e.Name, func(t *testing.T) {
			t.Parallel()
			tab := run(t, tc.e, tc.s)
			bound := zFor(0.001, len(tab.Rows))
			for i := range tab.Rows {
				sh := tc.shape(tab, i)
				if z := zScore(sh.fp, sh.queries, sh.filters, sh.m, sh.n, sh.k); math.Abs(z) > bound {
					t.Errorf("seed %d row %d: %d false positives in %d queries (m %d, n %d, k %d): z = %.2f, bound %.2f",
						tc.s.Seed, i, sh.fp, sh.queries, sh.m, sh.n, sh.k, z, bound)
				}
			}
		})
	}
}

func TestKSweepCountsEveryReplicate(t *testing.T) {
	t.Parallel()
	tab := run(t, kSweep, Sizes{Items: 5000, Queries: 30_000, Replicates: 7, Seed: 5})
	won := map[float64]int{}
	for i := range tab.Rows {
		won[value(t, tab, i, "bitsPerKey")] += int(value(t, tab, i, "won"))
	}
	for bpk, w := range won {
		if w != 7 {
			t.Errorf("%.3f bits per key: %d wins for 7 replicates", bpk, w)
		}
	}
	if len(won) != 2 || len(tab.Rows) != 16+5 {
		t.Errorf("%d sizings, %d rows; want 2 and 21", len(won), len(tab.Rows))
	}
}

// TestSweepMatchesFilter: the sweep's shared-hash shortcut answers exactly
// as core.Filter.Contains does.
func TestSweepMatchesFilter(t *testing.T) {
	t.Parallel()
	const n, q, seed = 3000, 50_000, 99
	sw := sweep{m: 9 * n, ks: span(1, 12), thin: 1}
	got, err := sweepOnce(&runner{}, sw, n, q, seed)
	if err != nil {
		t.Fatal(err)
	}
	for j, k := range sw.ks {
		f, _ := core.NewFilter(sw.m, k, seed)
		if err := insert(&runner{}, f, n, seed); err != nil {
			t.Fatal(err)
		}
		x, err := queryAbsent(&runner{}, f, seed, 0, q)
		if err != nil {
			t.Fatal(err)
		}
		if x.fp != got[j] {
			t.Errorf("k = %d: sweep found %d false positives, the filter %d", k, got[j], x.fp)
		}
	}
}

// TestSchemesMatchTheZoo: the hashing table's lab scheme is core.Filter and
// its weak scheme is the zoo's weak-hash fault, bit for bit.
func TestSchemesMatchTheZoo(t *testing.T) {
	t.Parallel()
	const n, seed = 5000, 8
	m, k, _ := sized(n, 0.01)
	labBits, _, err := buildScheme(&runner{}, newLab(m, k, seed), m, k, n)
	if err != nil {
		t.Fatal(err)
	}
	weakBits, _, err := buildScheme(&runner{}, newWeak(m, k, seed), m, k, n)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := core.NewFilter(m, k, seed)
	w, _ := core.NewBroken(core.WeakHash, m, k, seed)
	for i := uint64(0); i < n; i++ {
		key := core.TextKey(nil, core.Members, i)
		f.Add(key)
		w.Add(key)
	}
	for _, c := range []struct {
		name      string
		got, want []uint64
	}{{"lab", labBits, f.Words()}, {"weak", weakBits, w.Words()}} {
		if len(c.got) != len(c.want) {
			t.Fatalf("%s: %d words, want %d", c.name, len(c.got), len(c.want))
		}
		for i := range c.got {
			if c.got[i] != c.want[i] {
				t.Fatalf("%s: word %d differs", c.name, i)
			}
		}
	}
}

func TestHashingClaims(t *testing.T) {
	t.Parallel()
	const n, q = 20_000, 400_000
	tab := run(t, hashing, Sizes{Items: n, Queries: q, Seed: 11})
	m, k, _ := sized(n, 0.01)
	good := len(tab.Rows) - 1
	chiBound := core.ChiSquareBound(buckets-1, zFor(0.001, good)) / (buckets - 1)
	for i := 0; i < good; i++ {
		if c := value(t, tab, i, "chi2dof"); c > chiBound {
			t.Errorf("%s: chi2/dof %.2f above the 99.9%% bound %.2f", tab.Rows[i][0].Text, c, chiBound)
		}
		fp := uint64(value(t, tab, i, "fp"))
		if z := zScore(fp, q, 1, m, n, k); math.Abs(z) > zFor(0.001, good) {
			t.Errorf("%s: %d false positives, z = %.2f", tab.Rows[i][0].Text, fp, z)
		}
	}
	weak := tab.Rows[good][0].Text
	if c := value(t, tab, good, "chi2dof"); c < 5*chiBound {
		t.Errorf("%s: chi2/dof %.2f, not far above the uniform bound %.2f", weak, c, chiBound)
	}
	if r := value(t, tab, good, "ratio"); math.Abs(r-1) < 0.3 {
		t.Errorf("%s: observed/theory %.3f, not far from 1", weak, r)
	}
}

func TestProbesClaims(t *testing.T) {
	t.Parallel()
	tab := run(t, probes, Sizes{Items: 20_000, Queries: 400_000, Seed: 11})
	bound := zFor(0.001, len(tab.Rows))
	for i := range tab.Rows {
		mean, byFill := value(t, tab, i, "probes"), value(t, tab, i, "byFill")
		if math.Abs(mean/byFill-1) > 0.02 {
			t.Errorf("row %d: %.3f probes, sum f^i %.3f: more than 2%% apart", i, mean, byFill)
		}
		ci := tab.Rows[i][tab.Column("probesCI95")]
		se := (ci.High - ci.Value) / 2 / core.Z95
		if z := (mean - byFill) / se; math.Abs(z) > bound {
			t.Errorf("row %d: %.4f probes, sum f^i %.4f: z = %.2f", i, mean, byFill, z)
		}
		if mean < 1.9 || mean > 2.1 {
			t.Errorf("row %d: %.3f probes, want about 2", i, mean)
		}
	}
}

func TestCountingClaims(t *testing.T) {
	t.Parallel()
	const reps = 6
	tab := run(t, counting, Sizes{Items: 20_000, Replicates: reps, Seed: 11})
	once, three, six, hot := 0, 1, 2, 3
	for _, i := range []int{once, three, six} {
		if fn := value(t, tab, i, "falseNegatives"); fn != 0 {
			t.Errorf("%s: %v false negatives without any removal", tab.Rows[i][0].Text, fn)
		}
	}
	if v := value(t, tab, once, "saturated"); v != 0 || value(t, tab, once, "maxCounter") >= core.CounterMax {
		t.Errorf("each key once: %v saturated, max counter %v; want none and below 15", v, value(t, tab, once, "maxCounter"))
	}
	for _, i := range []int{three, six, hot} {
		if value(t, tab, i, "maxCounter") != core.CounterMax || value(t, tab, i, "trueMax") <= core.CounterMax || value(t, tab, i, "lost") == 0 {
			t.Errorf("%s: max %v, unbounded max %v, lost %v; want 15, above 15, some lost", tab.Rows[i][0].Text,
				value(t, tab, i, "maxCounter"), value(t, tab, i, "trueMax"), value(t, tab, i, "lost"))
		}
	}
	if value(t, tab, six, "lost") <= value(t, tab, three, "lost") {
		t.Error("six inserts lost no more increments than three")
	}
	// The rollback's false negatives: a sum of rare independent events, so
	// Poisson around the expectation.
	fn, want := value(t, tab, hot, "falseNegatives"), reps*value(t, tab, hot, "expectedFN")
	if fn == 0 || math.Abs(fn-want) > zFor(0.001, 1)*math.Sqrt(want)+1 {
		t.Errorf("hot key rollback: %v false negatives, expected %.1f", fn, want)
	}
}

// TestBlockedClaims: each blocked filter's measured rate against its own
// exact rate (binomial: the rate the built filter has, from its blocks'
// fills), and that rate against the theory over filters (the spread of the
// blocks' rates).
func TestBlockedClaims(t *testing.T) {
	t.Parallel()
	s := Sizes{Items: 50_000, Queries: 1_000_000, Seed: 11}
	tab := run(t, blocked, s)
	specs := blockedSpecs(s)
	bound := zFor(0.001, len(specs))
	for i, sp := range specs {
		if sp.variant != core.BlockedVariant {
			continue
		}
		f, _ := core.NewBlocked(sp.m, sp.k, sp.seed)
		if err := insert(&runner{}, f, sp.n, sp.seed); err != nil {
			t.Fatal(err)
		}
		words, per := f.Words(), core.BlockSize/64
		blocks := len(words) / per
		sum, sq := 0.0, 0.0
		for b := 0; b < blocks; b++ {
			pop := 0
			for _, w := range words[b*per : (b+1)*per] {
				pop += bits.OnesCount64(w)
			}
			r := math.Pow(float64(pop)/core.BlockSize, float64(sp.k))
			sum += r
			sq += r * r
		}
		own := sum / float64(blocks)
		spread := (sq/float64(blocks) - own*own) / float64(blocks)
		observed := value(t, tab, i, "observed")
		if z := (observed - own) / math.Sqrt(own*(1-own)/float64(s.Queries)); math.Abs(z) > bound {
			t.Errorf("row %d: observed %.6f, the built filter's rate %.6f: z = %.2f", i, observed, own, z)
		}
		theory := value(t, tab, i, "theory")
		if z := (own - theory) / math.Sqrt(spread); math.Abs(z) > bound {
			t.Errorf("row %d: the built filter's rate %.6f, theory %.6f: z = %.2f", i, own, theory, z)
		}
		if standard := value(t, tab, i, "standardTheory"); theory <= standard {
			t.Errorf("row %d: blocked theory %.6f not above the standard %.6f", i, theory, standard)
		}
	}
}

func TestMemoryEstimate(t *testing.T) {
	t.Parallel()
	const n = 50_000
	tab := run(t, memory, Sizes{Items: n})
	m1, _ := core.BitsFor(n, 0.01)
	m2, _ := core.BitsFor(n, 0.001)
	for i, want := range []uint64{(m1 + 7) / 8, (m2 + 7) / 8, core.ExactSetBytes(n, keyBytes), core.ExactSetBytes(n, uuidBytes)} {
		if got := uint64(value(t, tab, i, "bytes")); got != want {
			t.Errorf("row %d: %d bytes, want %d", i, got, want)
		}
	}
	if src := tab.Rows[2][tab.Column("source")].Text; src != "estimate" {
		t.Errorf("source %q, want estimate", src)
	}
}

// TestMemoryMeasured reads the process's heap, so it runs alone (not in
// parallel with the other tests).
func TestMemoryMeasured(t *testing.T) {
	const n = 100_000
	tab, err := memory.Run(Sizes{Items: n}, Options{Native: true})
	if err != nil {
		t.Fatal(err)
	}
	for i, key := range []int{keyBytes, uuidBytes} {
		row := 2 + i
		perKey := value(t, tab, row, "bytesPerKey")
		// At least the key and its string header; far below a kilobyte.
		if perKey < float64(key+16) || perKey > 1000 {
			t.Errorf("%s: %.1f bytes per key", tab.Rows[row][0].Text, perKey)
		}
		if src := tab.Rows[row][tab.Column("source")].Text; src != "measured" {
			t.Errorf("source %q, want measured", src)
		}
	}
}
