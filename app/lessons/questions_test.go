package lessons

import (
	"fmt"
	"math"
	"net/url"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/internal/linktest"
	"github.com/bloomlab/bloomlab/app/lab"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"
	"github.com/bloomlab/bloomlab/core/system"
	"github.com/bloomlab/bloomlab/core/try"
)

// TestQuestions is the questions' contract: every lesson asks at least
// one; each is well formed; its answer is read from its step's show-me
// state, built by the core, and lies on its own slider or among its
// options; the sentence on why quotes that answer (a choice's starts with
// the right option) and the figures it gives; and the answer is not read
// from a lab that stands elsewhere or has not finished its run.
func TestQuestions(t *testing.T) {
	t.Parallel()
	pct := func(p float64, decimals int) string { return fmt.Sprintf("%.*f%%", decimals, p*100) }
	// figures are what each question's why says beside its answer, from
	// the step's show-me state, by its lesson and step.
	figures := map[[2]int]func(st lab.State) []string{
		{1, 3}: func(st lab.State) []string {
			for _, q := range st.Queries {
				if q.Key == "cherry" {
					return []string{[]string{"", "first", "second", "third"}[min(q.FirstZero, 3)] + " probe finds a zero"}
				}
			}
			return []string{"cherry answered"}
		},
		{2, 1}: func(st lab.State) []string {
			q, _, err := try.FindFalsePositive(try.Request{Params: st.Settings.Run()}, nil)
			if err != nil {
				return []string{err.Error()}
			}
			r := st.Result
			return []string{fmt.Sprintf("one absent word in %.0f", 1/r.TheoryFPR), "(" + pct(r.TheoryFPR, 2) + ")", fmt.Sprintf("%q, comes after", q.Key)}
		},
		{3, 1}: func(st lab.State) []string {
			r := st.Result
			load := float64(r.K) * float64(r.N) / float64(r.M)
			return []string{fmt.Sprintf("%s keys set %d bits each in only %s bits", fmtInt(r.N), r.K, fmtInt(r.M)),
				fmt.Sprintf("%.1f settings a bit", load), fmt.Sprintf("e^-%.1f ≈ %.0f%%", load, 100*math.Exp(-load))}
		},
		{4, 1}: func(st lab.State) []string {
			r := st.Result
			return []string{fmt.Sprintf("(m/n) ln 2 = %.2f", float64(r.M)/float64(r.N)*math.Ln2),
				pct(core.Rate(r.M, r.N, 4), 2) + " against " + pct(core.Rate(r.M, r.N, 5), 2) + " at k = 5"}
		},
		{7, 3}: func(st lab.State) []string {
			a := st.Attack
			return []string{fmt.Sprintf("all %d of every key", st.Result.K), fmt.Sprintf("best of %d keys", try.FillTries),
				fmt.Sprintf("with %s of the bits still zero", pct(1-a.FillBefore, 0))}
		},
		{8, 1}: func(st lab.State) []string {
			a := st.Attack
			return []string{fmt.Sprintf("the %d members", a.Members), fmt.Sprintf("%d of the %s others", a.Positive-a.Members, fmtInt(uint64(a.Candidates-a.Members))),
				fmt.Sprintf("near the %.0f that a %s rate", a.Expected, pct(st.Result.TheoryFPR, 2))}
		},
		{5, 1}: func(st lab.State) []string {
			r := st.Result
			return []string{"measured " + pct(r.EmpiricalFPR, 2), "theory's " + pct(r.TheoryFPR, 2), fmt.Sprintf("%s unused bits of %s", fmtInt(r.M/32), fmtInt(r.M))}
		},
		{9, 2}: func(st lab.State) []string {
			r, err := system.Build(system.Params{Lab: st.Settings.Run(), Stories: system.Stories{Salt: true}}, nil)
			if err != nil {
				return []string{err.Error()}
			}
			return []string{fmt.Sprintf("%s of %s read a zero", fmtInt(r.Salt.Lost), fmtInt(r.Salt.Members)), fmt.Sprintf("where seed %d put them", r.Salt.Seed)}
		},
		{10, 2}: func(st lab.State) []string {
			r := st.Result
			return []string{fmt.Sprintf("the lab reads %.0f keys", estimated(t, r)), fmt.Sprintf("About %s", fmtInt(r.N))}
		},
		{6, 2}: func(st lab.State) []string {
			r := st.Result
			return []string{"fill is now " + pct(r.Occupancy, 0), fmt.Sprintf("0.%.0f^%d ≈ %.0f%%", r.Occupancy*100, r.K, 100*math.Pow(math.Round(r.Occupancy*100)/100, float64(r.K))),
				fmt.Sprintf("all %d probes", r.K), fmt.Sprintf("%.0f times the design's %s", r.EmpiricalFPR/core.Rate(r.M, r.N/2, r.K), pct(core.Rate(r.M, r.N/2, r.K), 1))}
		},
	}
	asked := map[*question]bool{}
	for li, l := range builtInLessons() {
		n := 0
		for si, step := range l.Steps {
			q := step.Question
			if q == nil {
				continue
			}
			n++
			name := fmt.Sprintf("lesson %d step %d (%s)", li+1, si+1, q.Prompt)
			if asked[q] {
				t.Errorf("%s: asked twice", name)
			}
			asked[q] = true
			wellFormed(t, name, q)
			st := stepAt(t, step)
			a, ok := q.measure(step.Show, st)
			if !ok {
				t.Errorf("%s: no answer in its step's show-me state %s", name, step.Show.Query().Encode())
				continue
			}
			if q.numeric() {
				if a < q.value(0) || a > q.value(q.Steps) {
					t.Errorf("%s: answer %v off its slider, %v to %v", name, a, q.value(0), q.value(q.Steps))
				}
				if !strings.Contains(q.Why, q.showAnswer(a)) {
					t.Errorf("%s: why %q does not quote the answer as the lab shows it, %s", name, q.Why, q.showAnswer(a))
				}
			} else if !q.legal(a) || !strings.HasPrefix(q.Why, q.Options[int(a)]+":") {
				t.Errorf("%s: answer %v; why %q does not start with it", name, a, q.Why)
			}
			if want := figures[[2]int{li + 1, si + 1}]; want == nil {
				t.Errorf("%s: no figures checked", name)
			} else {
				for _, fig := range want(st) {
					if !strings.Contains(q.Why, fig) {
						t.Errorf("%s: why %q lacks %q", name, q.Why, fig)
					}
				}
			}
			// The answer is the lab's only where the lab stands at the
			// step's settings, its run done; large type does not matter.
			large := st
			large.Settings.Large = true
			if b, ok := q.measure(step.Show, large); !ok || b != a {
				t.Errorf("%s: large type changes the answer to %v (%v)", name, b, ok)
			}
			running := st
			running.Result = nil
			if _, ok := q.measure(step.Show, running); ok {
				t.Errorf("%s: answered before the lab's run finished", name)
			}
			elsewhere := step.Show
			elsewhere.Params.Items = 1000
			moved := labAt(t, elsewhere.Normalize(), step.Ask, false)
			if _, ok := q.measure(step.Show, moved); ok {
				t.Errorf("%s: answered from a lab at other settings", name)
			}
		}
		if n == 0 {
			t.Errorf("lesson %d %q asks no question", li+1, l.Title)
		}
	}
}

func fmtInt(n uint64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// wellFormed checks a question as data.
func wellFormed(t *testing.T, name string, q *question) {
	t.Helper()
	if q.Prompt == "" || q.Why == "" || q.Answer == nil || !strings.HasSuffix(q.Prompt, "?") {
		t.Errorf("%s: prompt %q, why %q, answer set %v", name, q.Prompt, q.Why, q.Answer != nil)
	}
	if q.Veil != veilReadouts && q.Veil != veilAnswer && q.Veil != veilBoth {
		t.Errorf("%s: veils %q", name, q.Veil)
	}
	if !q.numeric() {
		if len(q.Options) < 2 || len(q.Options) > 4 {
			t.Errorf("%s: %d options, want 2 to 4", name, len(q.Options))
		}
		return
	}
	if q.Steps < 1 || q.Steps > maxSteps || q.Step <= 0 || q.Min < 0 {
		t.Errorf("%s: slider from %v by %v, %d steps; want 1 to %d steps", name, q.Min, q.Step, q.Steps, maxSteps)
	}
	if !q.legal(q.Start) || q.Tolerance <= 0 || q.Unit == "" || q.Points == "" {
		t.Errorf("%s: start %v (legal %v), tolerance %v, unit %q, points %q", name, q.Start, q.legal(q.Start), q.Tolerance, q.Unit, q.Points)
	}
}

// TestQuestionScore scores guesses: close within the tolerance, its edge
// included, and how far off in either direction; a choice right or wrong.
func TestQuestionScore(t *testing.T) {
	t.Parallel()
	fill := &question{Min: 0, Step: 1, Steps: 100, Tolerance: 5, Unit: "%", Points: "percentage points"}
	words := &question{Min: 5, Step: 5, Steps: 99, Tolerance: 40, Unit: " words", Points: "words"}
	pick := &question{Options: []string{"No", "Maybe"}}
	for _, tc := range []struct {
		q             *question
		guess, answer float64
		close         bool
		verdict       string
	}{
		{fill, 94, 93.9, true, "Close: 0.1 percentage points too high."},
		{fill, 90, 93.9, true, "Close: 3.9 percentage points too low"},
		{fill, 89, 94, true, "Close: 5.0 percentage points too low"},
		{fill, 88, 94, false, "Off: 6.0 percentage points too low."},
		{fill, 100, 93.9, false, "Off: 6.1 percentage points too high"},
		{fill, 50, 50, true, "Close: spot on"},
		{words, 120, 92, true, "Close: 28 words too high."},
		{words, 5, 92, false, "Off: 87 words too low"},
		{words, 132, 92, true, "Close: 40 words too high"},
		{words, 135, 92, false, "Off: 43 words too high"},
		{pick, 0, 0, true, "Right."},
		{pick, 1, 0, false, "Not this time."},
	} {
		sc := tc.q.score(tc.guess, tc.answer)
		if sc.Close != tc.close {
			t.Errorf("guess %v at answer %v: close %v, want %v", tc.guess, tc.answer, sc.Close, tc.close)
		}
		if got := tc.q.verdict(sc); !strings.HasPrefix(got, tc.verdict) {
			t.Errorf("guess %v at answer %v: %q, want it to start %q", tc.guess, tc.answer, got, tc.verdict)
		}
	}
}

// TestQuestionSlider maps slider positions to guesses and back, clamped
// to the track, and tells a guess its control can give from one it
// cannot: a kept guess is read back only if it is legal.
func TestQuestionSlider(t *testing.T) {
	t.Parallel()
	rate := &question{Min: 0, Step: 0.5, Steps: 80, Unit: "%"}
	for _, tc := range []struct {
		pos  int
		want float64
	}{{0, 0}, {1, 0.5}, {31, 15.5}, {80, 40}, {81, 40}, {-3, 0}} {
		if got := rate.value(tc.pos); got != tc.want {
			t.Errorf("position %d: %v, want %v", tc.pos, got, tc.want)
		}
	}
	for v, want := range map[float64]int{15.5: 31, 15.6: 31, -1: 0, 99: 80, math.NaN(): 0, math.Inf(1): 80} {
		if got := rate.position(v); got != want {
			t.Errorf("value %v: position %d, want %d", v, got, want)
		}
	}
	pick := &question{Options: []string{"k = 4", "k = 5"}}
	for _, tc := range []struct {
		q     *question
		guess float64
		legal bool
	}{
		{rate, 15.5, true}, {rate, 40, true}, {rate, 0, true},
		{rate, 15.6, false}, {rate, 40.5, false}, {rate, -0.5, false}, {rate, math.NaN(), false}, {rate, math.Inf(1), false},
		{pick, 0, true}, {pick, 1, true}, {pick, 2, false}, {pick, -1, false}, {pick, 0.5, false}, {pick, math.NaN(), false},
	} {
		if got := tc.q.legal(tc.guess); got != tc.legal {
			t.Errorf("guess %v (options %q): legal %v, want %v", tc.guess, tc.q.Options, got, tc.legal)
		}
	}
	if got := pick.showGuess(7); got != "none" {
		t.Errorf("an option that does not exist shows as %q", got)
	}
}

// TestGuessMode reads the teacher's key: guess=first veils, no key does
// not, and any other value is ignored with a notice saying what it takes.
func TestGuessMode(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 200)
	for _, tc := range []struct {
		query  string
		first  bool
		notice []string
	}{
		{"", false, nil},
		{linktest.Query(IDLesson, "3"), false, nil},
		{linktest.Query(IDGuess, "first"), true, nil},
		{linktest.Query(IDGuess, "+first+"), true, nil},
		{linktest.Query(IDGuess, "yes", IDGuess, "first"), true, nil},
		{linktest.Query(IDGuess, "first", IDGuess, "no"), false, []string{`guess: "no" is not a way to ask; guess=first hides the lab's answer until the guess, so the answer is shown`}},
		{linktest.Query(IDGuess, ""), false, []string{`guess: "" is not a way to ask`}},
		{linktest.Query(IDGuess, "FIRST"), false, []string{`"FIRST" is not a way to ask`}},
		{linktest.Query(IDGuess, "%22%3Cb%3E"), false, []string{`"\"<b>" is not a way to ask`}},
		{linktest.Query(IDGuess, long), false, []string{`"` + strings.Repeat("x", 24) + `..." is not`}},
	} {
		q, err := url.ParseQuery(tc.query)
		if err != nil {
			t.Fatal(err)
		}
		first, notice := guessMode(q)
		if first != tc.first {
			t.Errorf("%q: first %v, want %v", tc.query, first, tc.first)
		}
		if len(tc.notice) == 0 && notice != "" {
			t.Errorf("%q: notice %q", tc.query, notice)
		}
		for _, want := range tc.notice {
			if !strings.Contains(notice, want) {
				t.Errorf("%q: notice %q lacks %q", tc.query, notice, want)
			}
		}
		if len(notice) > 200 {
			t.Errorf("%q: a notice of %d bytes", tc.query, len(notice))
		}
	}
}

// estimated is the estimate of the keys in r's filter, as the counters
// show it.
func estimated(t *testing.T, r *sim.Result) float64 {
	t.Helper()
	e, err := core.EstimateKeys(r.Filter)
	if err != nil {
		t.Fatal(err)
	}
	return e.N
}
