package experiment

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/bloomlab/bloomlab/core"
)

// keyBytes is the length of generated keys, the lab's default.
const keyBytes = 16

// chunkQueries is how many absent queries one task runs; a row's queries are
// split into chunks so that a single row still keeps every worker busy.
const chunkQueries = 1 << 18

// derive returns a seed for one part of an experiment: the run's seed mixed
// with labels (experiment, row, replicate) by SplitMix64, so every row has
// its own keys and hash key and no two rows share them.
func derive(seed uint64, labels ...uint64) uint64 {
	x := splitmix(seed)
	for _, l := range labels {
		x = splitmix(x ^ splitmix(l^0xa4093822299f31d0))
	}
	return x
}

// splitmix is SplitMix64's finalizer (Steele, Lea and Flood, 2014).
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// rateSpec is one measured filter: its layout and shape, the n member keys
// inserted and the absent keys queried, all drawn from seed.
type rateSpec struct {
	variant core.Variant
	m       uint64
	k       int
	n       uint64
	queries uint64
	seed    uint64
}

// rateResult is what querying one filter found. All counts are integers,
// summed over chunks, so the order the chunks ran in cannot show; the times
// are set only when the caller asks, natively (Options.Native).
type rateResult struct {
	m        uint64 // the filter's real m (a blocked filter rounds up to whole blocks)
	setBits  uint64
	queries  uint64
	fp       uint64
	probes   uint64 // bits read by all absent queries
	probesSq uint64 // sum of squared probe counts, for the interval of the mean

	filter    core.Membership // the filled filter, for what a table reads off it
	insertDur time.Duration   // in the filter's inserts (and the Seal of a static one)
	queryDur  time.Duration   // in the filter's answers to the absent queries
}

func (x rateResult) rate() float64 { return float64(x.fp) / float64(x.queries) }

func (x rateResult) ci() (lo, hi float64) { return core.Wilson(x.fp, x.queries, core.Z95) }

func (x rateResult) fill() float64 { return float64(x.setBits) / float64(x.m) }

// meanProbes returns the mean bits read per absent query (a false positive
// reads all k) and the half width of its 95% normal interval.
func (x rateResult) meanProbes() (mean, half float64) {
	q := float64(x.queries)
	if q == 0 {
		return 0, 0
	}
	mean = float64(x.probes) / q
	variance := max(0, float64(x.probesSq)/q-mean*mean)
	return mean, core.Z95 * math.Sqrt(variance/q)
}

// filterJob is one filter to measure: how to build it empty, and the n
// member keys inserted and the absent keys queried, all drawn from seed.
type filterJob struct {
	build   func() (core.Membership, error)
	n       uint64
	queries uint64
	seed    uint64
}

// measureRates measures the Bloom filters of specs (see measureFilters).
func measureRates(r *runner, specs []rateSpec) ([]rateResult, error) {
	jobs := make([]filterJob, len(specs))
	for i, s := range specs {
		jobs[i] = filterJob{
			build: func() (core.Membership, error) { return core.New(s.variant, core.NoFault, s.m, s.k, s.seed) },
			n:     s.n, queries: s.queries, seed: s.seed,
		}
	}
	return measureFilters(r, jobs, false)
}

// measureFilters builds and fills every filter (one task each, sealing a
// static one once its keys are in), then queries them in chunks (one task
// each), and returns what each filter showed. When timed it also times the
// filters' own calls, batch by batch, leaving out the keys' generation.
func measureFilters(r *runner, jobs []filterJob, timed bool) ([]rateResult, error) {
	type chunk struct {
		job    int
		lo, hi uint64
	}
	var chunks []chunk
	for i, j := range jobs {
		r.plan(int(j.n + j.queries))
		for lo := uint64(0); lo < j.queries; lo += chunkQueries {
			chunks = append(chunks, chunk{i, lo, min(lo+chunkQueries, j.queries)})
		}
	}
	out := make([]rateResult, len(jobs))
	err := r.each(len(jobs), func(i int) error {
		j := jobs[i]
		f, err := j.build()
		if err != nil {
			return err
		}
		o := &out[i]
		o.filter, o.queries = f, j.queries
		clock := clockIf(timed, &o.insertDur)
		if err := insertTimed(r, f, 0, j.n, j.seed, clock); err != nil {
			return err
		}
		// Sealed here, once: a static filter sealed lazily by its first
		// query would be sealed by several query chunks at once.
		if s, ok := f.(core.Sealer); ok {
			start := now(clock)
			err := s.Seal()
			since(clock, start)
			if err != nil {
				return fmt.Errorf("experiment: %w", err)
			}
		}
		o.m, o.setBits = f.M(), f.SetBits()
		return nil
	})
	if err != nil {
		return nil, err
	}
	found, err := spread(r, len(chunks), func(i int) (chunkCounts, error) {
		c := chunks[i]
		var spent time.Duration
		x, err := queryTimed(r, out[c.job].filter, jobs[c.job].seed, c.lo, c.hi, clockIf(timed, &spent))
		return chunkCounts{x.fp, x.probes, x.probesSq, spent}, err
	})
	if err != nil {
		return nil, err
	}
	for i, c := range chunks {
		o := &out[c.job]
		o.fp += found[i].FP
		o.probes += found[i].Probes
		o.probesSq += found[i].ProbesSq
		o.queryDur += found[i].Spent
	}
	return out, nil
}

// chunkCounts is what one chunk of absent queries found, the result a
// sharded run hands on (see spread).
type chunkCounts struct {
	FP, Probes, ProbesSq uint64
	Spent                time.Duration
}

// clockIf returns d to add times to when timed, nil otherwise.
func clockIf(timed bool, d *time.Duration) *time.Duration {
	if timed {
		return d
	}
	return nil
}

// keyBatch is up to core.BatchKeys generated keys, their buffers reused
// from batch to batch, and the answers of a batched query.
type keyBatch struct {
	keys   [core.BatchKeys][]byte
	found  [core.BatchKeys]bool
	probes [core.BatchKeys]int
}

// next writes keys first, first+1, ... of namespace ns under seed, count of
// them but at most core.BatchKeys, and returns them.
func (b *keyBatch) next(ns core.Namespace, first, count, seed uint64) [][]byte {
	keys := b.keys[:min(count, core.BatchKeys)]
	core.Keys(keys, ns, first, seed, keyBytes)
	return keys
}

// insert adds member keys 0..n-1 of seed to f, in batches that end where a
// report is due.
func insert(r *runner, f core.Membership, n, seed uint64) error {
	return insertTimed(r, f, 0, n, seed, nil)
}

// insertTimed adds member keys lo..hi-1 of seed to f as insert does, and
// the time spent in f's inserts to clock, unless clock is nil.
func insertTimed(r *runner, f core.Membership, lo, hi, seed uint64, clock *time.Duration) error {
	var b keyBatch
	for i := lo; i < hi; {
		keys := b.next(core.Members, i, min(hi-i, tick-(i-lo)%tick), seed)
		start := now(clock)
		core.AddBatch(f, keys)
		since(clock, start)
		i += uint64(len(keys))
		if (i-lo)%tick == 0 {
			if err := r.report(tick); err != nil {
				return err
			}
		}
	}
	return r.report(int((hi - lo) % tick))
}

// queryAbsent queries absent keys lo..hi-1 of seed against f, in batches
// that end where a report is due.
func queryAbsent(r *runner, f core.Membership, seed, lo, hi uint64) (rateResult, error) {
	return queryTimed(r, f, seed, lo, hi, nil)
}

// queryTimed is queryAbsent that adds the time spent in f's answers to
// clock, unless clock is nil.
func queryTimed(r *runner, f core.Membership, seed, lo, hi uint64, clock *time.Duration) (rateResult, error) {
	var x rateResult
	var b keyBatch
	for q := lo; q < hi; {
		keys := b.next(core.Absent, q, min(hi-q, tick-(q-lo)%tick), seed)
		start := now(clock)
		core.ContainsBatch(f, keys, b.found[:], b.probes[:])
		since(clock, start)
		for j := range keys {
			if b.found[j] {
				x.fp++
			}
			read := uint64(b.probes[j])
			x.probes += read
			x.probesSq += read * read
		}
		q += uint64(len(keys))
		if (q-lo)%tick == 0 {
			if err := r.report(tick); err != nil {
				return x, err
			}
		}
	}
	return x, r.report(int((hi - lo) % tick))
}

// now reads the clock when there is a clock to add to. Two reads cost some
// 40 ns natively, a nanosecond or two a key over a batch of core.BatchKeys.
func now(clock *time.Duration) time.Time {
	if clock == nil {
		return time.Time{}
	}
	return time.Now()
}

// since adds the time from start to clock, unless clock is nil.
func since(clock *time.Duration, start time.Time) {
	if clock != nil {
		*clock += time.Since(start)
	}
}

// zScore returns how many standard deviations fp false positives in
// queries absent queries lie from what theory expects of a filter of m bits,
// n keys and k hashes. The deviation counts both sources of noise: the
// queries (binomial) and the filter itself, whose own rate varies from one
// filter to the next with its fill (core.RateVariance).
//
// The queries may be spread over several independent filters of the same
// shape (replicates), each taking an equal share.
func zScore(fp, queries uint64, filters int, m, n uint64, k int) float64 {
	p := core.Rate(m, n, k)
	want := p * float64(queries)
	each := float64(queries) / float64(filters)
	variance := want*(1-p) + float64(filters)*each*each*core.RateVariance(core.Standard, m, n, k)
	if variance <= 0 {
		return 0
	}
	return (float64(fp) - want) / math.Sqrt(variance)
}

// The columns most experiments share.
var (
	colTheory   = Column{Key: "theory", Title: "theory", Kind: Float, Decimals: 6}
	colObserved = Column{Key: "observed", Title: "observed", Kind: Float, Decimals: 6}
	colCI       = Column{Key: "ci95", Title: "95% CI", Kind: Interval, Decimals: 6}
	colRatio    = Column{Key: "ratio", Title: "ratio", Kind: Float, Decimals: 3}
	colFP       = Column{Key: "fp", Title: "false pos", Kind: Int}
	colK        = Column{Key: "k", Title: "k", Kind: Int}
	colBPK      = Column{Key: "bitsPerKey", Title: "bits/key", Kind: Float, Decimals: 3}
)

// rateCells are theory, observed, 95% CI and observed/theory.
func rateCells(theory float64, x rateResult) []Cell {
	lo, hi := x.ci()
	return []Cell{num(theory), num(x.rate()), interval(lo, hi), ratio(x.rate(), theory)}
}

// measured returns x as a chart point with its 95% interval.
func measured(at float64, x rateResult) Point {
	lo, hi := x.ci()
	return Point{X: at, Y: x.rate(), Lo: lo, Hi: hi}
}

// group writes n with thousands separators: 10000000 -> 10,000,000.
func group(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// fixed writes x at d decimals.
func fixed(x float64, d int) string { return strconv.FormatFloat(x, 'f', d, 64) }
