package experiment

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/bloomlab/bloomlab/core/keys"

	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/try"
)

var membershipInference = Experiment{
	Name: "membership-inference",
	Summary: "a filter is no anonymization: its bits, its hash key and a list of candidates (common words, every 4-digit PIN, a range of ids) give back every member on the list, " +
		"hidden only among p of the others; precision against M/(M + p(C - M)) at 10% to 0.01%",
	Quick: Sizes{Items: 2_000, Replicates: 10, Seed: 1},
	Full:  Sizes{Items: 10_000, Replicates: 200, Seed: 1},
	run:   runMembershipInference,
}

// inferTargets are the design rates of the membership-inference rows.
var inferTargets = []float64{0.1, 0.01, 0.001, 0.0001}

// inferLine are the rates the chart's theory line is drawn through, a
// few a decade as written: a grid made with math.Exp would differ in a last
// bit between native and wasm runs, and so would the tables' JSON.
var inferLine = []float64{5e-5, 7e-5, 1e-4, 2e-4, 3e-4, 5e-4, 7e-4, 1e-3, 2e-3, 3e-3, 5e-3, 7e-3,
	0.01, 0.02, 0.03, 0.05, 0.07, 0.1, 0.15, 0.2}

// inferMemberShare is the share of a filter's keys drawn from the
// candidate list; the others are generated keys, as a real filter holds
// keys no list names.
const inferMemberShare = 10

// inferList returns the candidates: the lists of try.CandidateLists one
// after another. No candidate is longer than 11 bytes, so none is one of
// the generated keys of keyBytes bytes a filter also holds.
func inferList() ([][]byte, error) {
	var out [][]byte
	for _, l := range try.CandidateLists {
		cands, err := try.Candidates(l)
		if err != nil {
			return nil, err
		}
		for _, c := range cands {
			if len(c) >= keyBytes {
				return nil, fmt.Errorf("experiment: candidate %q is as long as a generated key", c)
			}
			out = append(out, []byte(c))
		}
	}
	return out, nil
}

// inferMembers is how many of n keys are drawn from a list of c candidates:
// a tenth, at least one, at most the list.
func inferMembers(n, c int) int { return min(c, max(1, n/inferMemberShare)) }

// inferResult is what the attack found in one filter: the candidates that
// tested positive and the members among them.
type inferResult struct {
	Positives, Members int
}

// inferShape is a row's filter: m bits and k hashes for n keys at target p.
type inferShape struct {
	m uint64
	k int
}

func runMembershipInference(s Sizes, r *runner) (Table, error) {
	cands, err := inferList()
	if err != nil {
		return Table{}, err
	}
	n := uint64(s.Items)
	c := len(cands)
	members := inferMembers(s.Items, c)
	shapes := make([]inferShape, len(inferTargets))
	for i, p := range inferTargets {
		m, k, err := sized(n, p)
		if err != nil {
			return Table{}, err
		}
		shapes[i] = inferShape{m, k}
		r.plan(s.Replicates * (s.Items + c))
	}
	res, err := spread(r, len(shapes)*s.Replicates, func(i int) (inferResult, error) {
		sh := shapes[i/s.Replicates]
		seed := derive(s.Seed, saltInference, uint64(i/s.Replicates), uint64(i%s.Replicates))
		return inferOne(r, sh.m, sh.k, n, cands, members, seed)
	})
	if err != nil {
		return Table{}, err
	}
	return inferenceTable(s, shapes, cands, members, res), nil
}

// inferOne builds a filter of m bits and k hashes keyed by seed holding
// members candidates drawn from cands and n - members generated keys, then
// tests every candidate against it (try.Recover) and counts.
func inferOne(r *runner, m uint64, k int, n uint64, cands [][]byte, members int, seed uint64) (inferResult, error) {
	var out inferResult
	f, err := core.NewFilter(m, k, seed)
	if err != nil {
		return out, err
	}
	chosen := drawDistinct(members, len(cands), seed)
	mt := &meter{r: r}
	for i := range chosen { // in the map's order: a filter's bits do not depend on it
		f.Add(cands[i])
		if err := mt.add(1); err != nil {
			return out, err
		}
	}
	if err := mt.flush(); err != nil {
		return out, err
	}
	if err := insert(r, f, n-uint64(members), seed); err != nil {
		return out, err
	}
	found, err := try.Recover(f, cands, func() error { return mt.add(1) })
	if err != nil {
		return out, err
	}
	out.Positives = len(found)
	for _, i := range found {
		if chosen[i] {
			out.Members++
		}
	}
	return out, mt.flush()
}

// drawDistinct draws count distinct indices of [0, n) from seed by Floyd's
// algorithm (Bentley, Programming Pearls, column 12), each set as likely.
// The draw of each index is splitmix and a multiply-shift onto [0, j], the
// same on every platform.
func drawDistinct(count, n int, seed uint64) map[int]bool {
	out := make(map[int]bool, count)
	for j := n - count; j < n; j++ {
		hi, _ := bits.Mul64(splitmix(seed^splitmix(uint64(j))), uint64(j+1))
		t := int(hi)
		if out[t] {
			t = j
		}
		out[t] = true
	}
	return out
}

// inferPrecision is what theory expects of the share of positives that are
// members: M / (M + p (C - M)).
func inferPrecision(members, cands int, p float64) float64 {
	return float64(members) / (float64(members) + p*float64(cands-members))
}

func inferenceTable(s Sizes, shapes []inferShape, cands [][]byte, members int, res []inferResult) Table {
	n := uint64(s.Items)
	c := len(cands)
	reps := s.Replicates
	t := Table{
		Title: fmt.Sprintf("membership inference from the bits and the hash key: %s a filter, %s of them drawn from a list of %s candidates "+
			"(%d common words, every 4-digit PIN, user-1 to user-%d), the rest generated keys; %s a row; every candidate tested; "+
			"theory p = (1 - e^(-kn/m))^k, false positives p(C - M), precision M / (M + p(C - M))",
			counted(s.Items, "key"), group(members), group(c), len(keys.CommonWords()), c-len(keys.CommonWords())-10_000, counted(reps, "filter")),
		Columns: []Column{
			{Key: "target", Title: "target", Kind: Float, Decimals: 2, Percent: true},
			colBPK, colK,
			{Key: "theory", Title: "theory p", Kind: Float, Decimals: 6},
			{Key: "candidates", Title: "candidates", Kind: Int},
			{Key: "members", Title: "members", Kind: Int},
			{Key: "positives", Title: "positives", Kind: Float, Decimals: 1},
			{Key: "falsePositives", Title: "false pos", Kind: Float, Decimals: 1},
			{Key: "expectedFP", Title: "p(C-M)", Kind: Float, Decimals: 1},
			{Key: "precision", Title: "precision", Kind: Float, Decimals: 4},
			{Key: "precisionCI95", Title: "95% CI, filters", Kind: Interval, Decimals: 4},
			{Key: "precisionTheory", Title: "theory", Kind: Float, Decimals: 4},
			{Key: "recall", Title: "recall", Kind: Float, Decimals: 3},
		},
		Chart: &Chart{Title: "share of the positives that are members, against the filter's rate", X: "false-positive rate p", Y: "precision", LogX: true},
	}
	measured := Series{Name: "measured", Kind: Points}
	theory := Series{Name: "theory M / (M + p(C - M))", Kind: Line}
	for i, sh := range shapes {
		p := core.Rate(sh.m, n, sh.k)
		rows := res[i*reps : (i+1)*reps]
		var positives, fps, precision []float64
		found := 0
		for _, x := range rows {
			positives = append(positives, float64(x.Positives))
			fps = append(fps, float64(x.Positives-x.Members))
			precision = append(precision, float64(x.Members)/float64(max(1, x.Positives)))
			found += x.Members
		}
		pos, _ := meanAndHalf(positives)
		fp, _ := meanAndHalf(fps)
		mean, half := meanAndHalf(precision)
		ci := interval(max(0, mean-half), min(1, mean+half))
		if reps < 2 {
			ci = missing()
		}
		want := inferPrecision(members, c, p)
		t.Rows = append(t.Rows, []Cell{num(inferTargets[i]), num(float64(sh.m) / float64(n)), count(sh.k), num(p), count(c), count(members),
			num(pos), num(fp), num(p * float64(c-members)), num(mean), ci, num(want), num(float64(found) / float64(reps*members))})
		measured.Points = append(measured.Points, Point{X: p, Y: mean, Lo: ci.Value, Hi: ci.High})
	}
	for _, p := range inferLine {
		theory.Points = append(theory.Points, Point{X: p, Y: inferPrecision(members, c, p)})
	}
	t.Chart.Series = []Series{measured, theory}
	t.Notes = inferenceNotes(t, members, c)
	return t
}

// inferenceNotes reads the verdict off the table.
func inferenceNotes(t Table, members, c int) []string {
	at := func(row int, key string) Cell { return t.Rows[row][t.Column(key)] }
	recall := 1.0 // the least of the rows'
	var rows []string
	for i := range t.Rows {
		recall = min(recall, at(i, "recall").Value)
		ci := at(i, "precisionCI95")
		rng := ""
		if !ci.Missing {
			rng = " [" + pct(ci.Value) + ", " + pct(ci.High) + "]"
		}
		rows = append(rows, fmt.Sprintf("at %s, %s positives, precision %s%s against %s",
			pct(at(i, "theory").Value), fixed(at(i, "positives").Value, 1), pct(at(i, "precision").Value), rng, pct(at(i, "precisionTheory").Value)))
	}
	verdict := fmt.Sprintf("The attacker holds the filter's bits and its hash key (in the lab, the seed of the link) and tests every one of %s candidates. "+
		"Recall: %s of the members on the list tested positive", group(c), pct(recall))
	if recall == 1 {
		verdict += " in every filter, as a filter with no false negatives must"
	}
	verdict += fmt.Sprintf(". Among the positives, %s members: %s. Before the attack a candidate was a member with probability %s; "+
		"the filter gives every member back, hidden only among p(C - M) false positives, and at a low rate all but names them.",
		group(members), strings.Join(rows, "; "), pct(float64(members)/float64(c)))
	return []string{verdict,
		"What does protect members: a keyed hash whose key stays secret, so that no candidate can be tested against the bits; no access to the filter for anyone but its owner; " +
			"and a short retention, so that a leaked filter names only the members of its day. Hashing keys into a filter anonymizes nothing: whoever holds the bits and the key tests any guess.",
		"A secret key does not help once the attacker may query the filter: the filter tests each candidate for them with the key in hand, one query a candidate, and answers exactly as above.",
	}
}
