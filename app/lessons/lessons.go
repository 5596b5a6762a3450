package lessons

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"sync"

	"github.com/bloomlab/bloomlab/app/lab"
	"github.com/bloomlab/bloomlab/app/lessons/lessonfile"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/core/try"
)

// Guided lessons are text files (text/*.txt, the format in lessonfile and
// the README): each step is a paragraph, the lab state its "show me"
// button sets, and its task as a condition over the lab's state
// (lab.State). The page re-checks the condition whenever the state may
// have changed, so a task completes by itself as the learner works.
//
// A condition reads only the state (eval.go) and is honest: it holds when
// the task is really done, not when the learner merely visited the right
// slider. lessons_test.go builds every step's "show me" state from the
// core and checks that it satisfies its own condition, and that the state
// the step starts from (the previous step's, or the default lab for a
// first step) does not; conditions_test.go reads every condition and
// answer over a table of states on both sides of their thresholds.
//
// Figures in the texts are those of the step's "show me" state, seed 1:
// the default shape is m = 40,000 bits, n = 4000 keys, k = 7, theory
// 0.8194%.

// lesson is a short sequence of steps about one idea.
type lesson struct {
	Title, Intro string
	Steps        []lessonStep
}

// lessonStep is one step of a lesson.
type lessonStep struct {
	// Text is the step's paragraph; Task says in one sentence what the
	// learner does.
	Text, Task string
	// Show is the lab "show me" sets, and Ask the keys the key panel then
	// queries in order (nil for none).
	Show settings.Lab
	Ask  []string
	// Attack is an attack the key panel then runs (nil for none); a step
	// asks keys or attacks, not both.
	Attack *try.Attack
	// Audited says that Done reads the audit of Show's fault, so "show
	// me" completes the task only once that audit has finished.
	Audited bool
	// Done is the task's predicate; a reading step's (Task "") always
	// holds: it has nothing to do, and is recorded done once seen.
	Done func(st lab.State) bool
	// Question, if set, asks the learner to predict before the lab
	// answers (questions.go).
	Question *question
}

// builtIn are the site's lessons, one file each, in the order of their
// names' numbers.
//
//go:embed text/*.txt
var builtIn embed.FS

// builtInLessons are the guided lessons, in the order /lessons lists them;
// a link names one by its place from 1. They are read at their first use,
// not as the program starts: every page's start would pay for it.
var builtInLessons = sync.OnceValue(func() []lesson { return mustRead(builtIn) })

// mustRead reads the built-in lessons; one that does not pass the checker
// stops the program where the tests run it.
func mustRead(files fs.FS) []lesson {
	names, err := fs.Glob(files, "text/*.txt")
	if err != nil || len(names) == 0 {
		panic(fmt.Sprintf("lessons: no lesson files: %v", err))
	}
	sort.Strings(names)
	var out []lesson
	for _, name := range names {
		src, err := fs.ReadFile(files, name)
		if err != nil {
			panic(err)
		}
		l, errs := lessonfile.Parse(src)
		if len(errs) > 0 {
			panic("lessons: " + errs.Format(name))
		}
		out = append(out, fromFile(l))
	}
	return out
}

// fromFile is a lesson as the page shows it: its conditions and answers
// read over the lab's state.
func fromFile(l *lessonfile.Lesson) lesson {
	out := lesson{Title: l.Title, Intro: l.Intro}
	for _, s := range l.Steps {
		done := s.Done
		step := lessonStep{
			Text: s.Text, Task: s.Task, Show: s.Show, Ask: s.Ask, Attack: s.Attack, Audited: s.Audited,
			Done: func(st lab.State) bool { return holds(done, st) },
		}
		if q := s.Question; q != nil {
			step.Question = fromQuestion(q)
		}
		out.Steps = append(out.Steps, step)
	}
	return out
}

// reading reports that the step has no task: the learner reads it.
func (s lessonStep) reading() bool { return s.Task == "" }

// fromQuestion is a file's prediction as the page asks it: a slider's
// answer its quantity's value, a choice's the option its answer numbers,
// or the first option (0) where its condition holds and the second (1)
// where it does not.
func fromQuestion(q *lessonfile.Question) *question {
	out := &question{
		Prompt: q.Prompt, Min: q.Min, Step: q.Step, Start: q.Start, Tolerance: q.Tolerance, Steps: q.Steps,
		Unit: q.Unit, Points: q.Points, Options: q.Options, Why: q.Why, Veil: veil(q.Veil),
	}
	if a := q.Answer; a > 0 {
		out.Answer = func(lab.State) (float64, bool) { return float64(a - 1), true }
		return out
	}
	if len(q.Options) > 0 {
		right := q.Right
		out.Answer = func(st lab.State) (float64, bool) {
			h, known := evaluate(right, st)
			if h {
				return 0, known
			}
			return 1, known
		}
		return out
	}
	v := q.Value
	out.Answer = func(st lab.State) (float64, bool) { return value(v, st) }
	return out
}
