package lessons

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/bloomlab/bloomlab/app/internal/linktest"
	"github.com/bloomlab/bloomlab/app/lab"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui/format"
	"github.com/bloomlab/bloomlab/audit"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"
	"github.com/bloomlab/bloomlab/core/try"
)

// audited runs the lab badge's audit of each fault once and shares it: a
// whole audit takes seconds, more under the race detector.
var audited = struct {
	sync.Mutex
	runs map[core.Fault]func() (audit.Report, error)
}{runs: map[core.Fault]func() (audit.Report, error){}}

func auditOf(t *testing.T, f core.Fault) *audit.Report {
	t.Helper()
	audited.Lock()
	run, ok := audited.runs[f]
	if !ok {
		run = sync.OnceValues(func() (audit.Report, error) {
			target, err := audit.Lab(core.Variant{}, f, "")
			if err != nil {
				return audit.Report{}, err
			}
			return audit.Run(target, nil)
		})
		audited.runs[f] = run
	}
	audited.Unlock()
	rep, err := run()
	if err != nil {
		t.Fatalf("audit of %s: %v", f, err)
	}
	return &rep
}

// labAt builds the state the lab reaches in settings s once its run has
// finished, after the key panel answered ask and, when withAudit, the
// audit badge's run of s's fault has finished: the lab's own steps, done
// by the core.
func labAt(t *testing.T, s settings.Lab, ask []string, withAudit bool) lab.State {
	t.Helper()
	r, err := sim.RunTyped(s.Run(), s.Typed.List(), nil)
	if err != nil {
		t.Fatalf("run of %v: %v", s.Query(), err)
	}
	st := lab.State{Settings: s, Result: &r}
	if len(ask) > 0 {
		res, err := try.Run(try.Request{Params: s.Run(), Insert: s.Typed.List(), Query: ask}, nil)
		if err != nil {
			t.Fatalf("key panel on %v: %v", s.Query(), err)
		}
		st.Queries = res.Queries
	}
	if withAudit {
		st.Audit = auditOf(t, s.Params.Fault)
	}
	return st
}

// stepAt is the state step's "show me" reaches: labAt, then the key
// panel's attack if the step has one. A fill's keys join the typed keys
// and the lab runs again, as on the page.
func stepAt(t *testing.T, step lessonStep) lab.State {
	t.Helper()
	st := labAt(t, step.Show, step.Ask, step.Audited)
	if step.Attack == nil {
		return st
	}
	res, err := try.Run(try.Request{Params: st.Settings.Run(), Insert: st.Settings.Typed.List(), Attack: step.Attack}, nil)
	if err != nil {
		t.Fatalf("attack %+v on %v: %v", *step.Attack, st.Settings.Query(), err)
	}
	on := st.Settings
	if step.Attack.Kind == try.AttackFill {
		filled := step.Show
		filled.Typed = settings.JoinTyped(append(filled.Typed.List(), res.Attack.Keys...))
		st = labAt(t, filled, nil, step.Audited)
	}
	st.Queries = append(st.Queries, res.Queries...)
	st.Attack, st.AttackOn = res.Attack, on
	return st
}

// TestLessonsAreWellFormed checks the lessons as data: enough of them,
// short, every text written, every "show me" a legal lab whose link gives
// it back exactly, every key one the key panel takes.
func TestLessonsAreWellFormed(t *testing.T) {
	t.Parallel()
	if len(builtInLessons()) < 6 {
		t.Errorf("%d lessons, want at least 6", len(builtInLessons()))
	}
	for li, l := range builtInLessons() {
		if l.Title == "" || l.Intro == "" {
			t.Errorf("lesson %d: title %q, intro %q", li+1, l.Title, l.Intro)
		}
		if n := len(l.Steps); n < 2 || n > 4 {
			t.Errorf("lesson %d %q: %d steps, want 2 to 4", li+1, l.Title, n)
		}
		for si, step := range l.Steps {
			name := fmt.Sprintf("lesson %d step %d", li+1, si+1)
			if step.Text == "" || step.Task == "" || !strings.HasSuffix(step.Task, ".") || step.Done == nil {
				t.Errorf("%s: text %q, task %q, predicate set %v", name, step.Text, step.Task, step.Done != nil)
			}
			if err := step.Show.Run().Validate(); err != nil {
				t.Errorf("%s: show me is not a legal lab: %v", name, err)
			}
			back, notices := settings.LabFromQuery(url.Values(step.Show.Query()))
			if back != step.Show || len(notices) > 0 {
				t.Errorf("%s: show me's link %s gives %+v (notices %q), want %+v", name, step.Show.Query().Encode(), back, notices, step.Show)
			}
			if step.Show.Large {
				t.Errorf("%s: show me switches large type on; the page keeps the reader's", name)
			}
			if err := (try.Request{Params: step.Show.Run(), Insert: step.Show.Typed.List(), Query: step.Ask, Attack: step.Attack}).Validate(); err != nil {
				t.Errorf("%s: the key panel cannot ask %q or attack: %v", name, step.Ask, err)
			}
			if step.Attack != nil && len(step.Ask) > 0 {
				t.Errorf("%s: asks keys and attacks; the panel does one or the other", name)
			}
		}
	}
}

// TestLessonTasks is the lessons' contract: every step's "show me" state
// satisfies its own task, and the state the step starts from does not,
// so that no task is done before the learner does it. A step starts from
// the previous step's "show me" state (for the first step, the default
// lab); the page forgets the key panel's answers when a step begins, and
// the start is checked both with those answers and without.
//
// The audit counts for a state only where the step that made it reads it
// (Audited): on the page the audit of a fault switched on in one step may
// finish after the learner moved on, so the next step can find it done.
func TestLessonTasks(t *testing.T) {
	t.Parallel()
	for li, l := range builtInLessons() {
		t.Run(fmt.Sprintf("lesson-%d", li+1), func(t *testing.T) {
			t.Parallel()
			checkTasks(t, l)
		})
	}
}

// checkTasks checks lesson l's steps as TestLessonTasks says.
func checkTasks(t *testing.T, l lesson) {
	t.Helper()
	start := labAt(t, settings.DefaultLab(), nil, false)
	for si, step := range l.Steps {
		name := fmt.Sprintf("step %d (%s)", si+1, step.Task)
		if step.reading() {
			start = stepAt(t, step)
			continue
		}
		cleared := start
		cleared.Queries = nil
		for _, from := range []lab.State{start, cleared} {
			if step.Done(from) {
				t.Errorf("%s: done already in the state it starts from (with the previous step's %d answers kept), before the learner did anything", name, len(from.Queries))
			}
		}
		shown := stepAt(t, step)
		if shown.Shown() == nil {
			t.Fatalf("%s: show me's own run does not match its settings", name)
		}
		if !step.Done(shown) {
			t.Errorf("%s: not done in its own show-me state %s with answers %v", name, step.Show.Query().Encode(), verdicts(shown.Queries))
		}
		if step.Audited {
			before := shown
			before.Audit = nil
			if step.Done(before) {
				t.Errorf("%s reads the audit, but is done before the audit finished", name)
			}
		}
		start = shown
	}
}

func verdicts(qs []try.Query) []string {
	var out []string
	for _, q := range qs {
		out = append(out, q.Key+": "+q.Verdict)
	}
	return out
}

// TestLessonShownIgnoresStaleRuns: a run that ended before the last slider
// move describes another filter, and no predicate may read it.
func TestLessonShownIgnoresStaleRuns(t *testing.T) {
	t.Parallel()
	st := labAt(t, settings.DefaultLab(), nil, false)
	if st.Shown() == nil {
		t.Fatal("the default lab's own run is not shown")
	}
	for name, change := range map[string]func(s *settings.Lab){
		"k":         func(s *settings.Lab) { s.Params.Hashes = 9 },
		"bits":      func(s *settings.Lab) { s.Params.BitsPerKey = 2.5 },
		"items":     func(s *settings.Lab) { s.Params.Items = 8000 },
		"typed":     func(s *settings.Lab) { s.Typed = settings.JoinTyped([]string{"apple"}) },
		"fault":     func(s *settings.Lab) { *s, _ = s.WithFault(core.ShortRange) },
		"player":    func(s *settings.Lab) { s.PlayAt = 2000 },
		"no result": func(s *settings.Lab) {},
		"layout":    func(s *settings.Lab) { *s, _ = s.WithVariant(core.BlockedVariant) },
	} {
		stale := st
		change(&stale.Settings)
		if name == "no result" {
			stale.Result = nil
		}
		if stale.Shown() != nil {
			t.Errorf("%s changed: the old run still counts as shown", name)
		}
	}
}

// TestLessonFigures pins the figures the texts quote to the runs of their
// "show me" states, so a change in the core that moves one shows up here
// and not in front of a class.
func TestLessonFigures(t *testing.T) {
	t.Parallel()
	spelled := []string{"no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}
	pct := func(p float64, decimals int) string { return fmt.Sprintf("%.*f%%", decimals, p*100) }
	figures := map[[2]int]func(prev, st lab.State) []string{
		{1, 3}: func(_, st lab.State) []string {
			var out []string
			for _, q := range st.Queries {
				if q.FirstZero != 2 {
					out = append(out, fmt.Sprintf("%s stops at probe %d", q.Key, q.FirstZero))
				}
			}
			return append(out, "stop at their second probe")
		},
		{2, 1}: func(_, st lab.State) []string {
			q, tried, err := try.FindFalsePositive(try.Request{Params: st.Settings.Run()}, nil)
			if err != nil {
				return []string{err.Error()}
			}
			return []string{fmt.Sprintf("queries %q, the first", q.Key), fmt.Sprintf("the %d before it", tried-1), pct(st.Result.TheoryFPR, 2)}
		},
		{2, 2}: func(_, st lab.State) []string {
			q := st.Queries[0]
			var alone, shared []string
			for _, c := range q.Culprits {
				switch {
				case len(c.Typed) == 1 && len(c.Generated) == 0:
					alone = append(alone, fmt.Sprintf("set by %q alone", c.Typed[0]))
				case len(c.Typed) == 2:
					shared = append(shared, fmt.Sprintf("by %q, %q and %s generated keys", c.Typed[0], c.Typed[1], spelled[len(c.Generated)]))
				}
			}
			r := st.Result
			return append(append(alone, shared...), fmt.Sprintf("%d bits, k = %d", r.M, r.K), fmt.Sprintf("%d generated keys", r.N-r.Typed))
		},
		{3, 1}: func(_, st lab.State) []string {
			return []string{pct(st.Result.Occupancy, 0) + " ones", pct(st.Result.EmpiricalFPR, 0) + " of absent keys"}
		},
		{3, 2}: func(_, st lab.State) []string {
			r := st.Result
			best := core.OptimalK(r.M, r.N)
			return []string{fmt.Sprintf("k = %d gives %s against %s", r.K, pct(r.TheoryFPR, 3), pct(core.Rate(r.M, r.N, best), 3)),
				fmt.Sprintf("k = %d costs only %.0f%% more", best+1, (core.Rate(r.M, r.N, best+1)/core.Rate(r.M, r.N, best)-1)*100)}
		},
		{3, 3}: func(_, st lab.State) []string {
			plain := st.Settings
			plain.Params.DuplicatePasses = 1
			once := labAt(t, plain, nil, false)
			if once.Result.Digest != st.Result.Digest {
				return []string{"the digest of one pass " + once.Result.Digest}
			}
			return []string{"(" + format.Int(st.Result.SetBits) + " at k = 7)"}
		},
		{4, 1}: func(_, st lab.State) []string { return []string{"theory says " + pct(st.Result.TheoryFPR, 2)} },
		{4, 2}: func(prev, st lab.State) []string {
			return []string{"climbs to " + pct(st.Result.TheoryFPR, 2), pct(st.Result.EmpiricalFPR, 2) + " against " + pct(prev.Result.EmpiricalFPR, 2)}
		},
		{5, 1}: func(_, st lab.State) []string { return []string{"measured rate is " + pct(st.Result.EmpiricalFPR, 2)} },
		// The figures of two failed checks, read from their details; not
		// how many fail of how many, which grows with every check.
		{5, 2}: func(_, st lab.State) []string {
			chi := auditFigure(t, st.Audit, "hashing/uniform/binary-keys-m-1009", `\(([0-9.]+) per dof\)`)
			ratio := auditFigure(t, st.Audit, "statistics/fpr/bits-per-key-10-k-7", `ratio ([0-9.]+),`)
			return []string{fmt.Sprintf("chi-square %.1f per degree of freedom", chi), fmt.Sprintf("the rate is %.0f%% above theory", (ratio-1)*100)}
		},
		{5, 3}: func(_, st lab.State) []string {
			r := st.Result
			return []string{"measured rate is " + pct(r.EmpiricalFPR, 2), pct(r.WholeCILow, 2) + " to " + pct(r.WholeCIHigh, 2)}
		},
		{6, 1}: func(_, st lab.State) []string {
			return []string{"(" + pct(st.Result.Occupancy, 0) + ")", "rate is " + pct(st.Result.TheoryFPR, 1)}
		},
		{6, 2}: func(prev, st lab.State) []string {
			return []string{"from " + pct(prev.Result.Occupancy, 0) + " to " + pct(st.Result.Occupancy, 0),
				"from " + pct(prev.Result.TheoryFPR, 1) + " to " + pct(st.Result.TheoryFPR, 1) + " in theory, " + pct(st.Result.EmpiricalFPR, 1) + " measured"}
		},
		{6, 3}: func(_, st lab.State) []string { return []string{"falls back to " + pct(st.Result.TheoryFPR, 1)} },
		{7, 1}: func(_, st lab.State) []string {
			_, tried, _ := try.FindFalsePositive(try.Request{Params: st.Settings.Run()}, nil)
			a := st.Attack
			return []string{fmt.Sprintf("%.0f at the default shape (the panel's common words took %d)", a.Expected, tried),
				fmt.Sprintf("%q is the %dth made-up key", st.Queries[len(st.Queries)-1].Key, a.Tries)}
		},
		{7, 2}: func(_, st lab.State) []string {
			return []string{fmt.Sprintf("%q and %q", st.Attack.Twin, st.Queries[len(st.Queries)-1].Key)}
		},
		{7, 3}: func(_, st lab.State) []string {
			a := st.Attack
			before := labAt(t, builtInLessons()[6].Steps[2].Show, nil, false)
			turned := 0
			for _, n := range a.New {
				turned += n
			}
			return []string{fmt.Sprintf("(%s full)", pct(a.FillBefore, 0)), fmt.Sprintf("%d crafted keys turn on %d bits", len(a.Keys), turned),
				fmt.Sprintf("%s full", pct(a.FillAfter, 0)), fmt.Sprintf("about %.0f", a.RandomNew),
				fmt.Sprintf("from %s to %s", pct(before.Result.EmpiricalFPR, 0), pct(st.Result.EmpiricalFPR, 0)), fmt.Sprintf("says %s", pct(st.Result.TheoryFPR, 0))}
		},
		{8, 1}: func(_, st lab.State) []string {
			a := st.Attack
			return []string{fmt.Sprintf("%d test positive: all six members and %d others", a.Positive, a.Positive-a.Members),
				fmt.Sprintf("(at %s, about %.0f are expected)", pct(st.Result.TheoryFPR, 2), a.Expected), pct(a.Precision(), 0) + " of the positives"}
		},
		{8, 2}: func(_, st lab.State) []string {
			a := st.Attack
			at20 := builtInLessons()[7].Steps[1]
			at20.Show.Params.BitsPerKey = 20
			twenty := stepAt(t, at20).Attack
			return []string{fmt.Sprintf("%d PINs test positive, the six members among them, %s", a.Positive, pct(a.Precision(), 0)),
				fmt.Sprintf("at 20, %d of which %d", twenty.Positive, twenty.Members)}
		},
		{8, 3}: func(_, st lab.State) []string {
			a := st.Attack
			return []string{fmt.Sprintf("%d test positive at 18 bits per key, the three members", a.Positive)}
		},
	}
	for at, want := range figures {
		l := builtInLessons()[at[0]-1]
		step := l.Steps[at[1]-1]
		prev := labAt(t, settings.DefaultLab(), nil, false)
		if at[1] > 1 {
			before := l.Steps[at[1]-2]
			before.Audited = false
			prev = stepAt(t, before)
		}
		st := stepAt(t, step)
		for _, fig := range want(prev, st) {
			if !strings.Contains(step.Text, fig) {
				t.Errorf("lesson %d step %d: its text lacks %q", at[0], at[1], fig)
			}
		}
	}
}

// auditFigure is the number that pattern's first group matches in the
// detail of check id, which must have failed in r.
func auditFigure(t *testing.T, r *audit.Report, id, pattern string) float64 {
	t.Helper()
	for _, o := range r.Checks {
		if o.ID != id {
			continue
		}
		m := regexp.MustCompile(pattern).FindStringSubmatch(o.Detail)
		if o.Pass || o.Skipped || m == nil {
			t.Fatalf("%s: pass %v, skipped %v, want a failure whose detail matches %s: %s", id, o.Pass, o.Skipped, pattern, o.Detail)
		}
		x, err := strconv.ParseFloat(m[1], 64)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	t.Fatalf("the audit has no check %s", id)
	return 0
}

// TestLessonPlace reads the place a link asks for: a lesson or step that
// does not exist gives the nearest that does and a notice naming both.
func TestLessonPlace(t *testing.T) {
	t.Parallel()
	last := len(builtInLessons()) - 1
	for _, tc := range []struct {
		query   string
		li, si  int
		notices []string
	}{
		{"", 0, 0, nil},
		{linktest.Query(IDLesson, "3", IDStep, "2"), 2, 1, nil},
		{linktest.Query(IDLesson, "+3", IDStep, " 2 "), 2, 1, nil},
		{linktest.Query(IDLesson, "99"), last, 0, []string{fmt.Sprintf("lesson: there is no lesson 99; the lessons are 1 to %d, so lesson %d, “%s”, is shown", last+1, last+1, builtInLessons()[last].Title)}},
		{linktest.Query(IDLesson, "0"), 0, 0, []string{"lesson: there is no lesson 0; the lessons are 1 to"}},
		{linktest.Query(IDLesson, "-2"), 0, 0, []string{"there is no lesson -2"}},
		{linktest.Query(IDLesson, "99999999999999999999"), last, 0, []string{"there is no lesson 99999999999999999999"}},
		{linktest.Query(IDLesson, "-99999999999999999999"), 0, 0, []string{"there is no lesson -99999999999999999999"}},
		{linktest.Query(IDLesson, "abc"), 0, 0, []string{`lesson: "abc" is not a lesson number; the lessons are 1 to`, "so lesson 1, “A zero is proof”, is shown"}},
		{linktest.Query(IDLesson, ""), 0, 0, []string{`"" is not a lesson number`}},
		{linktest.Query(IDLesson, "3", IDStep, "0"), 2, 0, []string{"step: there is no step 0; lesson 3 has steps 1 to 3, so step 1 is shown"}},
		{linktest.Query(IDLesson, "3", IDStep, "9"), 2, 2, []string{"step: there is no step 9; lesson 3 has steps 1 to 3, so step 3 is shown"}},
		{linktest.Query(IDLesson, "2", IDStep, "x"), 1, 0, []string{`step: "x" is not a step number; lesson 2 has steps 1 to 2, so step 1 is shown`}},
		{linktest.Query(IDLesson, "99", IDStep, "99"), last, len(builtInLessons()[last].Steps) - 1, []string{"there is no lesson 99", "there is no step 99"}},
		{linktest.Query(IDLesson, "1", IDLesson, "4"), 3, 0, nil},
	} {
		q, err := url.ParseQuery(tc.query)
		if err != nil {
			t.Fatal(err)
		}
		li, si, notices := lessonPlace(q, builtInLessons())
		if li != tc.li || si != tc.si {
			t.Errorf("%q: lesson %d step %d (from 0), want %d and %d", tc.query, li, si, tc.li, tc.si)
		}
		all := strings.Join(notices, "\n")
		if len(tc.notices) == 0 && len(notices) > 0 {
			t.Errorf("%q: notices %q for a place that exists", tc.query, notices)
		}
		for _, want := range tc.notices {
			if !strings.Contains(all, want) {
				t.Errorf("%q: notices %q lack %q", tc.query, notices, want)
			}
		}
	}
}

// TestLessonNeighbours walks every step with Next and back with Back:
// in order, across lessons, stopping at both ends.
func TestLessonNeighbours(t *testing.T) {
	t.Parallel()
	c := &Page{}
	walked := []string{stepKey(0, 0)}
	for {
		li, si, ok := c.neighbour(1)
		if !ok {
			break
		}
		c.lesson, c.step = li, si
		walked = append(walked, stepKey(li, si))
	}
	var want []string
	for li, l := range builtInLessons() {
		for si := range l.Steps {
			want = append(want, stepKey(li, si))
		}
	}
	if strings.Join(walked, " ") != strings.Join(want, " ") {
		t.Errorf("Next walks %v, want %v", walked, want)
	}
	for i := len(want) - 1; i > 0; i-- {
		li, si, ok := c.neighbour(-1)
		if !ok || stepKey(li, si) != want[i-1] {
			t.Fatalf("Back from %s gives %s (%v), want %s", want[i], stepKey(li, si), ok, want[i-1])
		}
		c.lesson, c.step = li, si
	}
	if _, _, ok := c.neighbour(-1); ok {
		t.Error("Back from the first step goes somewhere")
	}
}

// ungrouped finds a count of four or more digits written without thousands
// separators (not the digits after a decimal point, a power's exponent or
// a year).
var ungrouped = regexp.MustCompile(`(^|[^\d.,^#\w-])(\d{4,})\b`)

// TestLessonNumbersGrouped: every count a lesson writes has its thousands
// separators, as the lab beside it does.
func TestLessonNumbersGrouped(t *testing.T) {
	for li, l := range builtInLessons() {
		texts := []string{l.Title, l.Intro}
		for _, s := range l.Steps {
			texts = append(texts, s.Text, s.Task)
			if q := s.Question; q != nil {
				texts = append(texts, q.Prompt, q.Why)
				texts = append(texts, q.Options...)
			}
		}
		for _, text := range texts {
			for _, m := range ungrouped.FindAllStringSubmatch(text, -1) {
				if y, _ := strconv.Atoi(m[2]); y >= 1900 && y < 2100 {
					continue
				}
				t.Errorf("lesson %d writes %s without separators: %q", li+1, m[2], text)
			}
		}
	}
}
