package experiment

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/try"
)

var adversarial = Experiment{
	Name: "adversarial",
	Summary: "an attacker who knows the hash key: a false positive forged in about 1/p offline tries and one query (at once from a member's twin under the weak hash), " +
		"and crafted keys that fill the array faster than random ones; with the key secret, no better than chance",
	Quick: Sizes{Items: 2_000, Queries: 5_000, Replicates: 40, Seed: 1},
	Full:  Sizes{Items: 10_000, Queries: 20_000, Replicates: 200, Seed: 1},
	run:   runAdversarial,
}

// forgeBits are the bits per key of the forge rows, each at the optimal k:
// theory rates from about 9% down to 0.007%.
var forgeBits = []uint64{5, 10, 15, 20}

// fillBits is the bits per key of the filter the fill rows craft keys
// against, at the optimal k (7).
const fillBits = 10

// fillLoads are the fill rows' keys as shares of the design load m ln 2 / k,
// the n at which random keys turn on half the bits.
var fillLoads = []float64{0.25, 0.5, 0.75, 1, 1.5}

// forgeResult is what one filter of a forge row showed. Each search stops
// at try.MaxForgeTries, and its Found says whether it met a maybe first.
type forgeResult struct {
	Known       int // candidates tried offline, with the key, to the first false positive
	KnownFound  bool
	Secret      int // random absent keys queried, without the key, to the first
	SecretFound bool
	Twin        int  // queries from a member's twin under the weak hash, then random keys, to the first
	TwinHit     bool // the twin itself answered maybe
	TwinFound   bool
}

// gaveUp counts the searches that stopped without a maybe.
func (x forgeResult) gaveUp() int {
	n := 0
	for _, found := range []bool{x.KnownFound, x.SecretFound, x.TwinFound} {
		if !found {
			n++
		}
	}
	return n
}

// fillResult is what one filter of the fill rows showed at each of
// fillLoads: the set bits and the honest absent queries answered maybe,
// after crafted keys and after as many random ones.
type fillResult struct {
	CraftedSet, CraftedFP []uint64
	RandomSet, RandomFP   []uint64
}

// forgeShape is a forge row's filter: m bits, k hashes for n keys, at theory
// rate p.
type forgeShape struct {
	m, n uint64
	k    int
	p    float64
}

func newForgeShape(bits, n uint64) forgeShape {
	m := bits * n
	k := core.OptimalK(m, n)
	return forgeShape{m, n, k, core.Rate(m, n, k)}
}

// planned is the units of progress a search is counted as: its expected
// tries, 1/p, within [1, try.MaxForgeTries].
func (sh forgeShape) planned() int {
	if sh.p <= 0 {
		return try.MaxForgeTries
	}
	return int(min(try.MaxForgeTries, max(1, math.Ceil(1/sh.p))))
}

// fillShape returns the fill rows' filter and the keys at each of fillLoads
// (at least one).
func fillShape(n uint64) (m uint64, k int, keys []int) {
	m = fillBits * n
	k = core.OptimalK(m, n)
	design := float64(m) * math.Ln2 / float64(k)
	for _, l := range fillLoads {
		keys = append(keys, max(1, int(math.Round(l*design))))
	}
	return m, k, keys
}

// fillFilters is how many filters of crafted keys, and as many of random
// ones, the fill rows take for reps forge filters a shape: one for every
// ten, rounded up. A crafted key weighs up to try.FillTries candidates, so
// a fill costs a hundred times a forge's filter, and its fill varies far
// less from filter to filter than a forge's tries do.
func fillFilters(reps int) int { return (reps + 9) / 10 }

// runAdversarial runs the forges, Replicates filters a shape, then the
// fills.
func runAdversarial(s Sizes, r *runner) (Table, error) {
	n := uint64(s.Items)
	shapes := make([]forgeShape, len(forgeBits))
	for i, b := range forgeBits {
		shapes[i] = newForgeShape(b, n)
		r.plan(s.Replicates * (2*s.Items + 2*shapes[i].planned() + 1))
	}
	fm, fk, fkeys := fillShape(n)
	last := fkeys[len(fkeys)-1]
	r.plan(fillFilters(s.Replicates) * (last*try.FillTries + last + 2*len(fkeys)*s.Queries))

	forges, err := spread(r, len(shapes)*s.Replicates, func(i int) (forgeResult, error) {
		return forgeOne(r, shapes[i/s.Replicates], derive(s.Seed, saltAdversarial, uint64(i/s.Replicates), uint64(i%s.Replicates)), i%s.Replicates)
	})
	if err != nil {
		return Table{}, err
	}
	fills, err := spread(r, fillFilters(s.Replicates), func(rep int) (fillResult, error) {
		return fillOne(r, fm, fk, fkeys, uint64(s.Queries), derive(s.Seed, saltAdversarial, uint64(len(shapes)), uint64(rep)))
	})
	if err != nil {
		return Table{}, err
	}
	return adversarialTable(s, shapes, forges, fm, fk, fkeys, fills), nil
}

// meter gathers the units of work done in small steps and reports them a
// tick at a time.
type meter struct {
	r *runner
	n int
}

func (mt *meter) add(units int) error {
	mt.n += units
	if mt.n < tick {
		return nil
	}
	units, mt.n = mt.n, 0
	return mt.r.report(units)
}

func (mt *meter) flush() error {
	units := mt.n
	mt.n = 0
	return mt.r.report(units)
}

// search counts a search of unknown length as the units planned for it:
// its steps as they come, up to the plan, and the rest when it ends. A
// search that runs past its plan still looks for a cancel every tick.
type search struct {
	mt          *meter
	plan, steps int
}

func (sr *search) step() error {
	sr.steps++
	if sr.steps <= sr.plan {
		return sr.mt.add(1)
	}
	if sr.steps%tick == 0 {
		return sr.mt.r.report(0)
	}
	return nil
}

func (sr *search) end() error { return sr.mt.add(sr.plan - min(sr.steps, sr.plan)) }

// forgeOne builds a filter of sh keyed by seed and forges a false positive
// of it three ways: offline with the key (try.Forge, then one query),
// online without it (random absent keys), and, under the weak hash, from
// the twin of member rep mod n.
func forgeOne(r *runner, sh forgeShape, seed uint64, rep int) (forgeResult, error) {
	var out forgeResult
	mt := &meter{r: r}
	f, err := core.NewFilter(sh.m, sh.k, seed)
	if err != nil {
		return out, err
	}
	if err := insert(r, f, sh.n, seed); err != nil {
		return out, err
	}
	// The members are 16 random bytes and the candidates short and
	// printable (try.ForgeKey), so no candidate is a member.
	known := &search{mt: mt, plan: sh.planned()}
	key, tries, err := try.Forge(f, try.MaxForgeTries, nil, known.step)
	if err != nil {
		return out, err
	}
	if err := known.end(); err != nil {
		return out, err
	}
	out.Known, out.KnownFound = tries, key != ""
	secret := &search{mt: mt, plan: sh.planned()}
	q, found, err := firstMaybe(f, seed, try.MaxForgeTries, secret.step)
	if err != nil {
		return out, err
	}
	if err := secret.end(); err != nil {
		return out, err
	}
	out.Secret, out.SecretFound = q, found

	// The weak hash, with the lab's kind of text keys, whose twins exist.
	w, err := core.NewBroken(core.WeakHash, sh.m, sh.k, seed)
	if err != nil {
		return out, err
	}
	var kb []byte
	for i := range sh.n {
		kb = core.TextKey(kb, core.Members, i)
		w.Add(kb)
		if err := mt.add(1); err != nil {
			return out, err
		}
	}
	twin, ok := try.WeakTwin(string(core.TextKey(nil, core.Members, uint64(rep)%sh.n)))
	if ok {
		out.TwinHit, _ = w.Contains([]byte(twin))
	}
	out.Twin, out.TwinFound = 1, out.TwinHit
	if !out.TwinHit {
		// No twin, or one that missed: the attacker falls back on chance.
		q, found, err := firstMaybe(w, seed, try.MaxForgeTries, (&search{mt: mt}).step)
		if err != nil {
			return out, err
		}
		out.Twin += q
		out.TwinFound = found
	}
	if err := mt.add(1); err != nil {
		return out, err
	}
	return out, mt.flush()
}

// firstMaybe queries absent keys 0, 1, ... of seed against f until one
// answers maybe or limit are queried, and returns the queries and whether
// one did. step is called after each query.
func firstMaybe(f core.Membership, seed uint64, limit int, step func() error) (int, bool, error) {
	var b keyBatch
	for q := 0; q < limit; {
		for _, key := range b.next(core.Absent, uint64(q), uint64(limit-q), seed) {
			q++
			maybe, _ := f.Contains(key)
			if err := step(); err != nil {
				return q, false, err
			}
			if maybe {
				return q, true, nil
			}
		}
	}
	return limit, false, nil
}

// fillOne crafts keys into one filter of m bits and k hashes keyed by seed
// and inserts random keys into another, and at each count of keys measures
// both filters' fill and queries absent keys of them.
func fillOne(r *runner, m uint64, k int, keys []int, queries, seed uint64) (fillResult, error) {
	var out fillResult
	crafted, err := core.NewFilter(m, k, seed)
	if err != nil {
		return out, err
	}
	random, err := core.NewFilter(m, k, seed)
	if err != nil {
		return out, err
	}
	mt := &meter{r: r}
	c := try.Crafter{Step: func() error { return mt.add(1) }}
	done, inserted := 0, 0
	for _, want := range keys {
		for ; done < want; done++ {
			first := c.Next
			key, _, err := c.Craft(crafted)
			if err != nil {
				return out, err
			}
			crafted.Add([]byte(key))
			if err := mt.add(try.FillTries - (c.Next - first)); err != nil {
				return out, err
			}
		}
		if err := mt.flush(); err != nil {
			return out, err
		}
		if err := insertTimed(r, random, uint64(inserted), uint64(want), seed, nil); err != nil {
			return out, err
		}
		inserted = want
		for i, f := range []*core.Filter{crafted, random} {
			x, err := queryAbsent(r, f, seed, 0, queries)
			if err != nil {
				return out, err
			}
			if i == 0 {
				out.CraftedSet, out.CraftedFP = append(out.CraftedSet, f.SetBits()), append(out.CraftedFP, x.fp)
			} else {
				out.RandomSet, out.RandomFP = append(out.RandomSet, f.SetBits()), append(out.RandomFP, x.fp)
			}
		}
	}
	return out, nil
}

// The adversarial table's columns.
var (
	colAttack  = Column{Key: "attack", Title: "attack", Kind: Text}
	colHash    = Column{Key: "hash", Title: "hash", Kind: Text}
	colMeasure = Column{Key: "measure", Title: "what is counted", Kind: Text}
	colKeys    = Column{Key: "keys", Title: "keys", Kind: Int}
	colBits    = Column{Key: "bitsPerKey", Title: "bits/key", Kind: Int}
	colAdvTh   = Column{Key: "theory", Title: "theory", Kind: Float, Decimals: 4}
	colAdvMean = Column{Key: "measured", Title: "measured", Kind: Float, Decimals: 4}
	colAdvCI   = Column{Key: "ci95", Title: "95% CI, filters", Kind: Interval, Decimals: 4}
	colRateTh  = Column{Key: "rateTheory", Title: "rate theory", Kind: Float, Decimals: 6}
	colRateObs = Column{Key: "rate", Title: "rate", Kind: Float, Decimals: 6}
	colRateCI  = Column{Key: "rateCI95", Title: "rate 95% CI", Kind: Interval, Decimals: 6}
	advColumns = []Column{colAttack, colHash, colBits, colK, colKeys, colMeasure, colAdvTh, colAdvMean, colAdvCI, colRatio, colRateTh, colRateObs, colRateCI}
)

// What the rows count.
const (
	measureKnown   = "offline tries to a false positive, seed known"
	measureOneShot = "queries to the filter, seed known"
	measureSecret  = "queries to a false positive, seed secret"
	measureTwin    = "queries from a member's twin, no search, any seed"
	measureCrafted = "fill after crafted keys"
	measureRandom  = "fill after random keys"
)

// adversarialTable is the forge rows, then the fill rows, the fill chart
// and the notes read off them.
func adversarialTable(s Sizes, shapes []forgeShape, forges []forgeResult, m uint64, k int, keys []int, fills []fillResult) Table {
	reps := s.Replicates
	t := Table{
		Title: fmt.Sprintf("an attacker who knows the hash key: %s a filter; forge rows, %s a row, at %d to %d bits per key, the theory 1/p tries at rate p = (1 - e^(-kn/m))^k; "+
			"fill rows, %s a row, at %d bits per key (m = %s, k = %d) from %.2f to %.2f times the design load m ln 2 / k, %s honest absent queries a filter, "+
			"theory min(1, kn/m) for crafted keys and 1 - (1 - 1/m)^(kn) for random ones, rate theory the fill to the k",
			counted(s.Items, "key"), counted(reps, "filter"), forgeBits[0], forgeBits[len(forgeBits)-1], counted(len(fills), "filter"), fillBits, group(int(m)), k, fillLoads[0], fillLoads[len(fillLoads)-1], group(s.Queries)),
		Columns: advColumns,
		Chart:   &Chart{Title: "fill against keys inserted: crafted keys against random ones", X: "keys inserted", Y: "fill (share of bits set)"},
	}
	forgeTable, twinHits, gaveUp := forgeRows(reps, shapes, forges)
	fillTable, crafted, random := fillRows(s, m, k, keys, fills)
	t.Rows = append(forgeTable, fillTable...)
	randomTheory, bound := fillLines(m, k, keys)
	t.Chart.Series = []Series{crafted, random, randomTheory, bound}
	t.Notes = adversarialNotes(s, shapes, t, keys, twinHits, gaveUp)
	return t
}

// advCell is a row's theory, mean, 95% interval and measured-to-theory
// ratio for the replicates xs; floor is the least a row's quantity can
// be: 1 for tries and queries, 0 for a fill.
func advCell(xs []float64, theory, floor float64) []Cell {
	mean, half := meanAndHalf(xs)
	ci := interval(max(floor, mean-half), mean+half)
	if len(xs) < 2 {
		ci = missing()
	}
	return []Cell{num(theory), num(mean), ci, ratio(mean, theory)}
}

// forgeRows is the four forge rows of each shape (seed known, its one
// query, seed secret, a member's twin under the weak hash), and the
// counts the notes need: the filters whose twin was a false positive and
// the searches that gave up.
func forgeRows(reps int, shapes []forgeShape, forges []forgeResult) (rows [][]Cell, twinHits, gaveUp int) {
	noRate := []Cell{missing(), missing(), missing()}
	for si, sh := range shapes {
		var known, oneShot, secret, twin []float64
		var knownSum, secretSum uint64
		knownFound, secretFound := uint64(0), uint64(0)
		for _, x := range forges[si*reps : (si+1)*reps] {
			known, secret, twin = append(known, float64(x.Known)), append(secret, float64(x.Secret)), append(twin, float64(x.Twin))
			knownSum += uint64(x.Known)
			secretSum += uint64(x.Secret)
			gaveUp += x.gaveUp()
			if x.TwinHit {
				twinHits++
			}
			// With the key, the filter sees the one key the search found.
			if x.KnownFound {
				knownFound++
				oneShot = append(oneShot, 1)
			} else {
				oneShot = append(oneShot, 0)
			}
			if x.SecretFound {
				secretFound++
			}
		}
		head := func(hash string) []Cell {
			return []Cell{txt("forge"), txt(hash), count(forgeBits[si]), count(sh.k), missing()}
		}
		rate := func(found, tries uint64) []Cell {
			lo, hi := core.Wilson(found, tries, core.Z95)
			return []Cell{num(sh.p), num(float64(found) / float64(tries)), interval(lo, hi)}
		}
		rows = append(rows,
			slices.Concat(head("siphash"), []Cell{txt(measureKnown)}, advCell(known, 1/sh.p, 1), rate(knownFound, knownSum)),
			slices.Concat(head("siphash"), []Cell{txt(measureOneShot)}, advCell(oneShot, 1, 0), noRate),
			slices.Concat(head("siphash"), []Cell{txt(measureSecret)}, advCell(secret, 1/sh.p, 1), rate(secretFound, secretSum)),
			slices.Concat(head(string(core.WeakHash)), []Cell{txt(measureTwin)}, advCell(twin, 1, 1), noRate))
	}
	return rows, twinHits, gaveUp
}

// fillRows is the two fill rows of each count of keys (crafted, random)
// and the chart's measured points for each.
func fillRows(s Sizes, m uint64, k int, keys []int, fills []fillResult) (rows [][]Cell, crafted, random Series) {
	crafted = Series{Name: "crafted keys", Kind: Points}
	random = Series{Name: "random keys", Kind: Points}
	mf := float64(m)
	queries := uint64(len(fills)) * uint64(s.Queries)
	for j, c := range keys {
		n := uint64(c)
		var cf, rf []float64
		var cfp, rfp uint64
		for _, x := range fills {
			cf, rf = append(cf, float64(x.CraftedSet[j])/mf), append(rf, float64(x.RandomSet[j])/mf)
			cfp += x.CraftedFP[j]
			rfp += x.RandomFP[j]
		}
		head := func(who string) []Cell {
			return []Cell{txt("fill"), txt("siphash"), count(fillBits), count(k), count(c), txt(fmt.Sprintf("%s, %.2f x design", who, fillLoads[j]))}
		}
		top := min(1, float64(k)*float64(n)/mf)
		th := core.Fill(m, n, k)
		cc, rc := advCell(cf, top, 0), advCell(rf, th, 0)
		clo, chi := core.Wilson(cfp, queries, core.Z95)
		rlo, rhi := core.Wilson(rfp, queries, core.Z95)
		rows = append(rows,
			slices.Concat(head(measureCrafted), cc, []Cell{num(math.Pow(top, float64(k))), num(float64(cfp) / float64(queries)), interval(clo, chi)}),
			slices.Concat(head(measureRandom), rc, []Cell{num(core.RateExact(m, n, k)), num(float64(rfp) / float64(queries)), interval(rlo, rhi)}))
		crafted.Points = append(crafted.Points, Point{X: float64(c), Y: cc[1].Value, Lo: cc[2].Value, Hi: cc[2].High})
		random.Points = append(random.Points, Point{X: float64(c), Y: rc[1].Value, Lo: rc[2].Value, Hi: rc[2].High})
	}
	return rows, crafted, random
}

// fillLines is the chart's two theory lines for the fill rows: random
// keys' 1 - e^(-kn/m), drawn through 30 steps to the last keys, and
// crafted keys' bound min(1, kn/m), with its corner at n = m/k.
func fillLines(m uint64, k int, keys []int) (randomTheory, bound Series) {
	randomTheory = Series{Name: "random keys' theory 1 - e^(-kn/m)", Kind: Line}
	bound = Series{Name: "crafted keys' bound min(1, kn/m)", Kind: Line}
	mf := float64(m)
	end := float64(keys[len(keys)-1])
	for i := 0; i <= 30; i++ {
		x := end * float64(i) / 30
		randomTheory.Points = append(randomTheory.Points, Point{X: x, Y: -math.Expm1(-float64(k) * x / mf)})
	}
	bound.Points = append(bound.Points, Point{X: 0, Y: 0})
	if corner := mf / float64(k); corner < end {
		bound.Points = append(bound.Points, Point{X: corner, Y: 1})
	}
	bound.Points = append(bound.Points, Point{X: end, Y: min(1, float64(k)*end/mf)})
	return randomTheory, bound
}

// adversarialNotes reads the verdict off the table.
func adversarialNotes(s Sizes, shapes []forgeShape, t Table, keys []int, twinHits, gaveUp int) []string {
	at := func(row int, key string) Cell { return t.Rows[row][t.Column(key)] }
	ci := func(c Cell) string { return "[" + fixed(c.Value, 1) + ", " + fixed(c.High, 1) + "]" }
	var forge []string
	for si := range shapes {
		r := 4 * si
		forge = append(forge, fmt.Sprintf("%d bits per key (1/p = %s): %s tries offline %s and one query with the key, %s queries %s without it",
			forgeBits[si], fixed(at(r, "theory").Value, 1), fixed(at(r, "measured").Value, 1), ci(at(r, "ci95")),
			fixed(at(r+2, "measured").Value, 1), ci(at(r+2, "ci95"))))
	}
	notes := []string{
		"Forge. " + strings.Join(forge, "; ") + ". Seed known or secret, a false positive costs about 1/p tries; the key moves them offline, " +
			"where the filter's owner cannot see, count or rate-limit them, and the filter then receives a single query it answers maybe.",
		fmt.Sprintf("Under the weak hash a member's twin (two neighbouring bytes (a, b) made (a+1, b-31), the same 31*h + c weight) was a false positive of %d of %d filters: "+
			"one query, no search, and no key needed, since the twin collides under every seed.", twinHits, len(shapes)*s.Replicates),
	}
	first := 4 * len(shapes)
	design, lastRow := -1, first+2*(len(keys)-1)
	for j, l := range fillLoads {
		if l == 1 {
			design = first + 2*j
		}
	}
	pctOf := func(row int, key string) string { return pct(at(row, key).Value) }
	if design >= 0 {
		notes = append(notes, fmt.Sprintf("Fill. At the design load (%s keys) crafted keys turned on %s of the bits (bound %s) against random keys' %s (theory %s), "+
			"so honest queries met a false-positive rate of %s against %s, %.0f times as many; at %.2f times the design load crafted keys filled %s, random ones %s. "+
			"Each crafted key is the best of %d candidates weighed offline with the key.",
			group(keys[indexOf(fillLoads, 1)]), pctOf(design, "measured"), pctOf(design, "theory"), pctOf(design+1, "measured"), pctOf(design+1, "theory"),
			pctOf(design, "rate"), pctOf(design+1, "rate"), safeRatio(at(design, "rate").Value, at(design+1, "rate").Value),
			fillLoads[len(fillLoads)-1], pctOf(lastRow, "measured"), pctOf(lastRow+1, "measured"), try.FillTries))
	}
	notes = append(notes, "With the seed secret the attacker cannot compute a key's positions: a crafted key is then a random key (the random rows), "+
		"and a forge is a query a try (the seed-secret rows), no better than chance. The lab's seed is in every link, so its filters are open to both attacks.")
	if gaveUp > 0 {
		notes = append(notes, fmt.Sprintf("%d searches stopped at %s tries without a false positive; they count as that many tries, so their rows' means are low.", gaveUp, group(try.MaxForgeTries)))
	}
	return notes
}

// counted writes n things: counted(1, "filter") is "1 filter",
// counted(2000, "key") "2,000 keys".
func counted(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return group(n) + " " + thing + "s"
}

// indexOf returns the index of x in xs, or -1.
func indexOf(xs []float64, x float64) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}

// safeRatio is a/b, or 0 when b is 0.
func safeRatio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}
