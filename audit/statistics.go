package audit

import (
	"fmt"
	"math"
	"strings"

	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"
)

// statisticsChecks is group 7, last on purpose: measured figures against
// theory. The false-positive rate is the number everyone looks at, and a
// filter that lost half its keys still reports a fine one, so it is judged
// only after the contract checks above. Seeds are fixed and the bounds are
// five or six sigma wide, far wider than the 99.9% the lab shows, so a pass
// is a property of the code, not of a lucky draw.
func statisticsChecks() []Check {
	var checks []Check
	for _, c := range []struct {
		name string
		s    shape
	}{
		{"fpr/bits-per-key-10-k-7", standard(0, 10, 7, rateN)},
		{"fpr/bits-per-key-2-k-1", standard(0, 2, 1, rateN)},
		{"fpr/bits-per-key-4.793-k-3", standard(0, 4.793, 3, rateN)},
		{"fpr/bits-per-key-9.585-k-7", standard(0, 9.585, 7, rateN)},
		{"fpr/overfill-2x", standard(0, 9.585/2, 7, rateN)},
		{"fpr-blocked/bits-per-key-10-k-6", standard(0, 10, 6, rateN).with(core.BlockedVariant)},
	} {
		whose := "the filter's"
		if !c.s.Variant.IsZero() {
			whose = "the lab's " + c.s.Variant.Name() + " filter's"
		}
		m, k := MustLab(c.s.Variant, "", "").dims(c.s)
		checks = append(checks, Check{ID: "statistics/" + c.name, Needs: c.s.needs(),
			Contract: fmt.Sprintf("%s measured rate at m = %d, k = %d, n = %d is within 10%% of its own theory",
				whose, m, k, c.s.Items),
			Run: func(t Target) Verdict { return rateMatches(c.s, false, t) }})
	}
	// The layouts that keep fingerprints, at the budget the lab's sliders
	// start at: their theory reads their fingerprint width and load.
	for _, v := range core.Variants {
		if v.Bloom() {
			continue
		}
		s := standard(0, 10, 0, rateN).with(v)
		checks = append(checks, Check{ID: "statistics/fpr-" + v.Name() + "/bits-per-key-10", Needs: s.needs(),
			Contract: fmt.Sprintf("the lab's %s filter's measured rate at n = %d is within 10%% of its own theory", v.Name(), s.Items),
			Run:      func(t Target) Verdict { return rateMatches(s, false, t) }})
	}
	// The fuse filter at 7 bits, the width nearest below 1%, whose cells
	// straddle words: its rate is 2^-7.
	s7 := standard(0, 10, 0, rateN).with(core.FuseVariant).width(7)
	checks = append(checks, Check{ID: "statistics/fpr-fuse/fingerprint-bits-7", Needs: s7.needs(),
		Contract: fmt.Sprintf("the lab's fuse filter's measured rate with 7-bit fingerprints at n = %d is within 10%% of 2^-7", s7.Items),
		Run:      func(t Target) Verdict { return rateMatches(s7, false, t) }})
	// The Ribbon filter's default is 7 bits, checked above; at 5 bits
	// its rows straddle words too, and its rate is 2^-5.
	r5 := standard(0, 10, 0, rateN).with(core.RibbonVariant).width(5)
	checks = append(checks, Check{ID: "statistics/fpr-ribbon/fingerprint-bits-5", Needs: r5.needs(),
		Contract: fmt.Sprintf("the lab's Ribbon filter's measured rate with 5-bit fingerprints at n = %d is within 10%% of 2^-5", r5.Items),
		Run:      func(t Target) Verdict { return rateMatches(r5, false, t) }})
	// Past the n a filter was built for, its rate is the design's m and
	// k at the keys it took: a filter that stops recording them, or
	// clears itself when it fills, is far below it.
	for _, over := range pastN {
		s := standard(10*pastNRate, 0, 7, pastNRate)
		checks = append(checks, Check{ID: fmt.Sprintf("statistics/fpr/past-n-%dx", over), Needs: []Need{NeedSet, NeedFixed},
			Contract: fmt.Sprintf("a filter of m = %d, k = 7 built for n = %d and given %d keys shows the rate of m and k at %d keys, within 10%%",
				s.M, s.Items, over*s.Items, over*s.Items),
			Run: func(t Target) Verdict { return rateAt(s, over, false, t) }})
	}
	checks = append(checks, Check{ID: "statistics/fpr/text-keys-bits-per-key-10-k-7",
		Contract: "with text keys key-N as members and miss-N as queries, the rate is within 10% of theory, as with random keys",
		Run:      func(t Target) Verdict { return rateMatches(standard(0, 10, 7, rateN), true, t) }})
	for _, c := range []struct {
		name string
		s    shape
	}{
		{"bits-per-key-10-k-7", standard(0, 10, 7, statN)},
		{"bits-per-key-10-k-1", standard(0, 10, 1, statN)},
		{"bits-per-key-20-k-14", standard(0, 20, 14, statN)},
		{"counting-bits-per-key-10-k-7", standard(0, 10, 7, statN).with(core.CountingVariant)},
	} {
		checks = append(checks, Check{ID: "statistics/set-bits/" + c.name,
			Needs:    append([]Need{NeedLab}, c.s.needsAs(NeedBloom)...),
			Contract: "set positions after n inserts are within six sigma of m(1 - (1 - 1/m)^(kn))",
			Run:      onLab(func(f *labSetup) Verdict { return setBitsMatch(c.s, f) })})
	}
	for _, c := range []struct {
		name string
		s    shape
	}{
		{"bits-per-key-9.585-k-7", standard(0, 9.585, 7, statN)},
		{"bits-per-key-14.378-k-10", standard(0, 14.378, 10, statN)},
		{"bits-per-key-20-k-14", standard(0, 20, 14, statN)},
	} {
		checks = append(checks, Check{ID: "statistics/probes/" + c.name, Needs: []Need{NeedLab, NeedBloom},
			Contract: "a negative query reads sum_{i<k} f^i positions on average, f the measured fill",
			Run:      onLab(func(f *labSetup) Verdict { return probesMatch(c.s, f) })})
	}
	for _, m := range []uint64{100, 200, 1000} {
		checks = append(checks, Check{ID: fmt.Sprintf("statistics/small-m/independent-m-%d", m),
			Contract: fmt.Sprintf("with independent hashes, %d filters of m = %d, k = 7 at 10 bits per key average the rate one filter expects (E[(S/m)^k])", smallFilters, m),
			Run:      func(t Target) Verdict { return smallMatches(m, t) }})
	}
	checks = append(checks,
		Check{ID: "statistics/counting-saturates",
			Contract: "40 inserts of the same keys leave their 4-bit counters at 15, never wrapped",
			Needs:    []Need{NeedLab, layoutNeed(core.CountingVariant)}, Run: onLab(countingSaturates)},
		Check{ID: "statistics/simulation-default-rate",
			Contract: "the default-shape simulation's rate and its Wilson interval agree with theory",
			Run:      onLab(simulationRate)},
	)
	for i := range checks {
		checks[i].Group = GroupStatistics
		if !strings.HasPrefix(checks[i].ID, "statistics/fpr") && checks[i].Needs == nil {
			checks[i].Needs = []Need{NeedLab}
		}
	}
	return checks
}

// pastN are the multiples of its n that the checks past n give a filter,
// and pastNRate the n of the rate checks among them: at ten bits a key,
// large enough that the filter's own spread leaves room in the band.
var pastN = []int{2, 5, 10}

const pastNRate = 100000

// statN and statQueries size the statistical checks: 10,000 keys, 40,000
// absent queries, enough for a rate near 1% to be measured to about 5%.
const (
	statN       = 10000
	statQueries = 40000
)

// zRate is the normal quantile of the rate bounds: five sigma, a two-sided
// tail of 6e-7, wider than 99.9% because the filter's own fill varies too.
const zRate = 5

// queryAbsent runs statQueries absent queries and returns the false
// positives and the sum and sum of squares of positions read.
func queryAbsent(s shape, flt core.Membership) (fp, probes, probesSq uint64) {
	var key []byte
	for q := 0; q < statQueries; q++ {
		key = s.absent(key, q)
		ok, read := flt.Contains(key)
		if ok {
			fp++
		}
		probes += uint64(read)
		probesSq += uint64(read * read)
	}
	return fp, probes, probesSq
}

// The rate checks hold a filter to its own theory within 10%: a measured
// rate passes within 5% of theory, and each check queries enough absent
// keys that a filter true to its theory fails, and one 10% off passes,
// each with probability below 10^-6. The filters are large (rateN keys) so
// that their own spread around theory is small beside the band.
const (
	rateN       = 1000000
	rateBand    = 0.05
	zMillionth  = 4.8916 // two-sided normal tail of 10^-6
	rateMaxRuns = 8000000
)

// rateQueries is how many absent queries judge a rate p to rateBand with
// two-sided tail 10^-6, given the variance of the filter's own rate.
func rateQueries(p, variance float64) (int, error) {
	room := rateBand*rateBand - zMillionth*zMillionth*variance/(p*p)
	if p <= 0 || p >= 1 || room <= 0 {
		return 0, fmt.Errorf("a rate of %.6g cannot be judged to 5%% here (the filter's own spread is %.3g)", p, math.Sqrt(variance))
	}
	q := math.Ceil(zMillionth * zMillionth * (1 - p) / p / room)
	if q > rateMaxRuns {
		return 0, fmt.Errorf("a rate of %.6g needs %.0f queries to judge to 5%%, more than %d", p, q, rateMaxRuns)
	}
	return int(q), nil
}

// Each statistical check says what its pass means: the smallest departure
// from theory that it fails with probability at least 1 - 10^-6, a
// one-sided zOneSided beyond its bound (normal approximations, with the
// spread at the departed value where it grows with it).
const surely = " with probability at least 1 - 10^-6"

// least is the smallest x in [lo, hi] for which ok holds, ok false below
// it and true above; NaN when ok fails even at hi.
func least(lo, hi float64, ok func(float64) bool) float64 {
	if !ok(hi) {
		return math.NaN()
	}
	for range 64 {
		if mid := (lo + hi) / 2; ok(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// rateCatches is the smallest rise and fall of a true rate, relative to
// theory p, that the band fails on q queries, the filter's own rate having
// the given variance at p (which scales with the rate squared). A rise is
// NaN when no rate up to 1 is high enough.
func rateCatches(p, variance float64, q int) (up, down float64) {
	sd := func(r float64) float64 { return math.Sqrt(r*(1-r)/float64(q) + variance*(r/p)*(r/p)) }
	up = least(rateBand, min(10, 1/p-1), func(d float64) bool {
		r := p * (1 + d)
		return r-zOneSided*sd(r) >= p*(1+rateBand)
	})
	down = least(rateBand, 1, func(d float64) bool {
		r := p * (1 - d)
		return r+zOneSided*sd(r) <= p*(1-rateBand)
	})
	return up, down
}

// shifts says what a rate check's pass rules out, from rateCatches.
func shifts(up, down float64) string {
	if math.IsNaN(up) {
		return fmt.Sprintf("fails a true rate %.1f%% below theory%s, and none above it (a rate is at most 1)", 100*down, surely)
	}
	return fmt.Sprintf("fails a true rate %.1f%% above or %.1f%% below theory%s", 100*up, 100*down, surely)
}

// rateVariance is the variance of one filter's rate around theory: the
// lab's own for its layouts, and for any other target the larger of a
// standard and a blocked filter's, since its layout is not known.
func (t Target) rateVariance(s shape, m uint64, k int) float64 {
	n := uint64(s.Items)
	if v := t.variant(s); !v.IsZero() {
		return core.RateVariance(v, m, n, k)
	}
	return max(core.RateVariance(core.Standard, m, n, k), core.RateVariance(core.BlockedVariant, m, n, k))
}

// rateMatches fills the shape (with text keys when text) and measures its
// rate on as many absent queries as rateQueries asks, against the target's
// theory for the shape, or the lab's for a layout of the lab's.
func rateMatches(s shape, text bool, t Target) Verdict { return rateAt(s, 1, text, t) }

// rateAt is rateMatches for a filter built for the shape's n keys that
// takes over times as many: the theory is the design's m and k at the n
// inserted. A filter that stops recording keys past its n, or clears
// itself when it fills, shows a rate far below that.
func rateAt(s shape, over int, text bool, t Target) Verdict {
	m, k := t.dims(s)
	filled := s
	filled.M, filled.BitsPerKey, filled.Hashes, filled.Items = m, 0, k, over*s.Items
	want := t.rate(filled)
	if v := t.variant(s); !s.Variant.IsZero() {
		want = MustLab(v, "", "").rate(filled)
	}
	queries, err := rateQueries(want, t.rateVariance(filled, m, k))
	if err != nil {
		return fail("%v (%s)", err, t.describe(s))
	}
	flt, err := t.build(s)
	if err != nil {
		return fail("%v", err)
	}
	var key []byte
	member, absent := s.key, s.absent
	if text {
		member = func(dst []byte, i int) []byte { return core.TextKey(dst, core.Members, uint64(i)) }
		absent = func(dst []byte, i int) []byte { return core.TextKey(dst, core.Absent, uint64(i)) }
	}
	for i := 0; i < filled.Items; i++ {
		if err := t.paused(i); err != nil {
			return stopped(err)
		}
		key = member(key, i)
		flt.Add(key)
	}
	count := func(absent func([]byte, int) []byte) (int, error) { return t.count(flt, queries, absent) }
	fp, err := count(absent)
	if err != nil {
		return stopped(err)
	}
	got := float64(fp) / float64(queries)
	ratio := got / want
	up, down := rateCatches(want, t.rateVariance(filled, m, k), queries)
	detail := fmt.Sprintf("measured %.6f (%d of %d), theory %.6f, ratio %.4f, allowed [%.2f, %.2f]; %s",
		got, fp, queries, want, ratio, 1-rateBand, 1+rateBand, shifts(up, down))
	if text {
		random, err := count(s.absent)
		if err != nil {
			return stopped(err)
		}
		detail += fmt.Sprintf("; random keys measured %.6f (%d of %d)", float64(random)/float64(queries), random, queries)
	}
	if over > 1 {
		detail += fmt.Sprintf(", after %d keys", filled.Items)
	}
	return verdict(math.Abs(ratio-1) <= rateBand, "%s (%s)", detail, t.describe(s))
}

// setBitsMatch compares the set positions with their expectation. Empty
// positions are negatively associated, so m q (1 - q) bounds the variance.
func setBitsMatch(s shape, f *labSetup) Verdict {
	flt, err := s.fill(f)
	if err != nil {
		return fail("%v", err)
	}
	m := flt.M()
	want := core.ExpectedSetBits(m, uint64(s.Items), flt.K())
	q := want / float64(m)
	sd := math.Sqrt(float64(m) * q * (1 - q))
	slack := 6*sd + 1
	got := flt.SetBits()
	return verdict(math.Abs(float64(got)-want) <= slack, "%d set against %.1f expected, allowed %.1f either way; fails %.0f set positions more or fewer%s (%s)",
		got, want, slack, slack+zOneSided*sd, surely, s.describe(f))
}

// probesMatch compares the mean positions read per absent query with
// sum_{i<k} f^i at the filter's measured fill; the bound is five standard
// errors of the mean, from the sample's own variance.
func probesMatch(s shape, f *labSetup) Verdict {
	flt, err := s.fill(f)
	if err != nil {
		return fail("%v", err)
	}
	_, probes, probesSq := queryAbsent(s, flt)
	mean := float64(probes) / statQueries
	variance := math.Max(0, float64(probesSq)/statQueries-mean*mean)
	fill := float64(flt.Popcount()) / float64(flt.M())
	want := core.ExpectedProbes(flt.K(), fill)
	se := math.Sqrt(variance / statQueries)
	slack := zRate*se + 1e-9
	return verdict(math.Abs(mean-want) <= slack, "%.4f positions read per negative, expected %.4f at fill %.4f, allowed %.4f either way; fails a mean %.4f off%s (%s)",
		mean, want, fill, slack, slack+zOneSided*se, surely, s.describe(f))
}

// countingSaturates inserts 10 keys 40 times into 1000 counters: every
// counter a key touches is hit at least 40 times and must stop at 15.
func countingSaturates(f *labSetup) Verdict {
	s := standard(1000, 0, 3, 10).with(core.CountingVariant).passes(40)
	flt, err := s.fill(f)
	if err != nil {
		return fail("%v", err)
	}
	c := flt.(counter)
	var key []byte
	var pos []uint64
	low, lowAt, lowVal := 0, uint64(0), uint8(0)
	for i := 0; i < s.Items; i++ {
		key = s.key(key, i)
		pos = flt.Positions(pos, key)
		for _, j := range pos {
			if j >= flt.M() {
				return fail("member %d maps to counter %d, outside [0, %d)", i, j, flt.M())
			}
			if v := c.Counter(j); v != core.CounterMax {
				if low == 0 {
					lowAt, lowVal = j, v
				}
				low++
			}
		}
	}
	top, over := c.MaxCounter(), c.Overflows()
	if low > 0 {
		return fail("%d member counters below 15 after 40 inserts, counter %d holds %d; max counter %d, %d overflows (%s)",
			low, lowAt, lowVal, top, over, s.describe(f))
	}
	return verdict(top == core.CounterMax && over > 0, "every member counter at %d, max counter %d, %d increments absorbed (%s)",
		core.CounterMax, top, over, s.describe(f))
}

func simulationRate(f *labSetup) Verdict {
	p := defaults(f)
	r, err := sim.Run(p)
	if err != nil {
		return fail("%v", err)
	}
	lo, hi := core.Wilson(r.FalsePositives, r.AbsentQueries, zRate)
	inside := r.QueryCILow <= r.EmpiricalFPR && r.EmpiricalFPR <= r.QueryCIHigh
	theory, q := r.TheoryFPRVariant, float64(r.AbsentQueries)
	// The theory fails when the Wilson bound, five sigma from the
	// measured rate, passes it: a true rate (5 + zOneSided) sigma away.
	sigma := func(x float64) float64 { return (zRate + zOneSided) * math.Sqrt(x*(1-x)/q) }
	up := least(0, min(10, 1/theory-1), func(d float64) bool { return theory*(1+d)-sigma(theory*(1+d)) >= theory })
	down := least(0, 1, func(d float64) bool { return theory*(1-d)+sigma(theory*(1-d)) <= theory })
	return verdict(inside && lo <= r.TheoryFPRVariant && r.TheoryFPRVariant <= hi,
		"measured %.6f (%d of %d), 95%% interval [%.6f, %.6f], 5-sigma [%.6f, %.6f], theory %.6f; %s (%s, m = %d, k = %d)",
		r.EmpiricalFPR, r.FalsePositives, r.AbsentQueries, r.QueryCILow, r.QueryCIHigh, lo, hi, r.TheoryFPRVariant, shifts(up, down), r.Variant, r.M, r.K)
}

// smallFilters and smallQueries size the small-m checks: the rate of a
// small filter varies from filter to filter, so they average many.
const (
	smallFilters = 100
	smallQueries = 4000
)

// smallMatches builds smallFilters standard filters of m bits with m/10
// keys each, with independent hashes, the scheme whose positions the
// formula assumes (a fault that breaks double hashing runs its own
// filter), and compares their mean rate with what one such filter expects,
// core.FilterSpread: at m = 200 that is 1.03 times the formula, and double
// hashing measures 1.28 times it. The bound counts the queries' noise and
// the filters' own spread.
func smallMatches(m uint64, t Target) Verdict {
	f := t.lab
	const k = 7
	n := m / 10
	hashing := core.IndependentHashing
	if core.Standard.HashedBy(f.Fault, hashing) != nil {
		hashing = core.DoubleHashing
	}
	v := core.Standard.Effective(f.Fault)
	total := 0.0
	var key []byte
	for i := uint64(0); i < smallFilters; i++ {
		if err := t.yield(); err != nil {
			return stopped(err)
		}
		seed := 1000 + i
		flt, err := core.NewHashed(v, f.Fault, hashing, m, k, seed)
		if err != nil {
			return fail("%v", err)
		}
		for j := uint64(0); j < n; j++ {
			key = core.Key(key, core.Members, j, seed, 16)
			flt.Add(key)
		}
		fp := 0
		for q := uint64(0); q < smallQueries; q++ {
			key = core.Key(key, core.Absent, q, seed, 16)
			if ok, _ := flt.Contains(key); ok {
				fp++
			}
		}
		total += float64(fp) / smallQueries
	}
	mean := total / smallFilters
	expect, spread := core.FilterSpread(m, n, k)
	sd := math.Sqrt((expect*(1-expect)/smallQueries + spread) / smallFilters)
	return verdict(math.Abs(mean-expect) <= zRate*sd,
		"mean of %d filters %.6g, one filter expects %.6g (the formula %.6g), 5-sigma half width %.3g; fails a mean %.1f%% off%s (%s hashing, %s, m = %d, n = %d, k = %d)",
		smallFilters, mean, expect, core.RateExact(m, n, k), zRate*sd, 100*(zRate+zOneSided)*sd/expect, surely, hashing, v, m, n, k)
}
