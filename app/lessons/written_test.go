package lessons

import (
	"os"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/lessons/lessonfile"
)

// readme is the README's example lesson: the block fenced as ```lesson.
func readme(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(src), "\n```lesson\n")
	example, _, closed := strings.Cut(after, "\n```\n")
	if !ok || !closed {
		t.Fatal("the README has no example lesson fenced as ```lesson")
	}
	return example + "\n"
}

// TestWrittenLessons: the lessons a teacher starts from, the template
// bloomlab lesson new prints and the README's example, pass the checker,
// do their tasks in their show-me states and not before (as
// TestLessonTasks checks the built-in ones), and answer their questions
// there.
func TestWrittenLessons(t *testing.T) {
	t.Parallel()
	for name, src := range map[string]string{"template": lessonfile.Template, "README": readme(t)} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f, errs := lessonfile.Parse([]byte(src))
			if len(errs) > 0 {
				t.Fatalf("errors:\n%s", errs.Format(name))
			}
			l := fromFile(f)
			checkTasks(t, l)
			for si, step := range l.Steps {
				q := step.Question
				if q == nil {
					continue
				}
				a, ok := q.measure(step.Show, stepAt(t, step))
				if !ok || !q.legal(q.value(q.position(a))) {
					t.Errorf("step %d: no answer in its show-me state (%v, %v)", si+1, a, ok)
				}
				if q.numeric() && (a < q.value(0) || a > q.value(q.Steps)) {
					t.Errorf("step %d: answer %v off its slider", si+1, a)
				}
			}
		})
	}
}

// TestReadmeListsVocabulary: the README's table names every quantity a
// condition may read.
func TestReadmeListsVocabulary(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range lessonfile.Vocabulary() {
		if !strings.Contains(string(src), "| `"+q.Name) && !strings.Contains(string(src), ", `"+q.Name+"`") && !strings.Contains(string(src), ", `"+q.Name+"(") {
			t.Errorf("the README's table of quantities lacks %s", q.Name)
		}
	}
}
