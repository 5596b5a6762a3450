package lessons

import (
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/bloomlab/bloomlab/app/lab"
	"github.com/bloomlab/bloomlab/app/settings"
)

// TestLessonFilesRoundTrip: the lesson files (text/) give the page the
// very lessons it showed when they were Go data (golden_data_test.go):
// every title, text, task, show-me lab, key asked, attack and question
// field equal.
func TestLessonFilesRoundTrip(t *testing.T) {
	t.Parallel()
	if len(builtInLessons()) != len(goldenLessons) {
		t.Fatalf("%d lesson files, want the %d lessons", len(builtInLessons()), len(goldenLessons))
	}
	for li, want := range goldenLessons {
		got := builtInLessons()[li]
		if got.Title != want.Title || got.Intro != want.Intro || len(got.Steps) != len(want.Steps) {
			t.Errorf("lesson %d: %q (%d steps), intro %q; want %q (%d steps), intro %q", li+1, got.Title, len(got.Steps), got.Intro, want.Title, len(want.Steps), want.Intro)
			continue
		}
		for si, w := range want.Steps {
			g := got.Steps[si]
			name := fmt.Sprintf("lesson %d step %d", li+1, si+1)
			if g.Text != w.Text || g.Task != w.Task {
				t.Errorf("%s: text %q task %q, want %q and %q", name, g.Text, g.Task, w.Text, w.Task)
			}
			if g.Show != w.Show || !reflect.DeepEqual(g.Ask, w.Ask) || !reflect.DeepEqual(g.Attack, w.Attack) || g.Audited != w.Audited {
				t.Errorf("%s: show %+v ask %q attack %+v audited %v; want %+v, %q, %+v, %v", name, g.Show, g.Ask, g.Attack, g.Audited, w.Show, w.Ask, w.Attack, w.Audited)
			}
			if (g.Question == nil) != (w.Question == nil) {
				t.Errorf("%s: question %v, want %v", name, g.Question != nil, w.Question != nil)
				continue
			}
			if w.Question == nil {
				continue
			}
			gq, wq := *g.Question, *w.Question
			gq.Answer, wq.Answer = nil, nil
			if !reflect.DeepEqual(gq, wq) {
				t.Errorf("%s: question\n%+v\nwant\n%+v", name, gq, wq)
			}
		}
	}
}

// goldenStates are states to read the conditions over: the lab as it
// opens, every step's show-me state, and each of those with its key
// panel's answers forgotten, its audit still running, its attack gone, its
// run not finished, and in large type.
func goldenStates(t *testing.T) []lab.State {
	t.Helper()
	states := []lab.State{labAt(t, settings.DefaultLab(), nil, false)}
	for _, l := range goldenLessons {
		for _, step := range l.Steps {
			st := stepAt(t, step)
			states = append(states, st)
			for _, change := range []func(s *lab.State){
				func(s *lab.State) { s.Queries = nil },
				func(s *lab.State) { s.Audit = nil },
				func(s *lab.State) { s.Attack = nil },
				func(s *lab.State) { s.Result = nil },
				func(s *lab.State) { s.Settings.Large = true },
			} {
				changed := st
				change(&changed)
				states = append(states, changed)
			}
		}
	}
	return states
}

// TestLessonFilesConditions: every step's condition, read from its file,
// gives the verdict the Go predicate it replaces gave, in every state of
// goldenStates (each step's over all of them, not only its own); and
// every question's answer is the same figure, known in the same states.
func TestLessonFilesConditions(t *testing.T) {
	t.Parallel()
	states := goldenStates(t)
	same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
	for li, l := range goldenLessons {
		for si, w := range l.Steps {
			g := builtInLessons()[li].Steps[si]
			held := 0
			for i, st := range states {
				want := w.Done(st)
				if got := g.Done(st); got != want {
					t.Errorf("lesson %d step %d: done %v in state %d (%s), the Go predicate %v", li+1, si+1, got, i, st.Settings.Query().Encode(), want)
				}
				if want {
					held++
				}
				if w.Question == nil || g.Question == nil {
					continue
				}
				wa, wok := w.Question.Answer(st)
				ga, gok := g.Question.Answer(st)
				if wok != gok || wok && !same(wa, ga) {
					t.Errorf("lesson %d step %d: answer %v (%v) in state %d, the Go answer %v (%v)", li+1, si+1, ga, gok, i, wa, wok)
				}
			}
			if held == 0 || held == len(states) {
				t.Errorf("lesson %d step %d: done in %d of %d states; the comparison tells nothing", li+1, si+1, held, len(states))
			}
		}
	}
}
