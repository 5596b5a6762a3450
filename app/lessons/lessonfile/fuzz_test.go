package lessonfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParse: any bytes give a lesson or errors, never a panic, and within
// the format's bounds: at most MaxErrors and the note that more follow,
// each on a line of the file and short; a lesson that passes has 1 to
// MaxSteps steps, each with its text, task and condition within bounds.
// The work is bounded by construction: a file over MaxBytes is refused
// before it is read, a line over MaxLine is not read, a condition stops
// at MaxTerms.
func FuzzParse(f *testing.F) {
	f.Add([]byte(good))
	f.Add([]byte(reading))
	files, _ := filepath.Glob("../text/*.txt")
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	for _, s := range []string{"", "# T", "# T\n\nI.\n\n## S\n\nT.\n\nshow: hashes=99&%\ndone: not fill > 1,0 and verdict(\"x\n", "## \n## \n", "\xff\x00#"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		l, errs := Parse(src)
		lines := strings.Count(string(src), "\n") + 1
		if (l == nil) == (len(errs) == 0) {
			t.Fatalf("lesson %v with %d errors", l != nil, len(errs))
		}
		if len(errs) > MaxErrors+1 {
			t.Fatalf("%d errors", len(errs))
		}
		for _, e := range errs {
			if e.Line < 0 || e.Line > lines || e.What == "" || len(e.What) > 1200 {
				t.Fatalf("error at line %d of %d: %q", e.Line, lines, e.What)
			}
		}
		if l == nil {
			return
		}
		if l.Title == "" || len(l.Title) > MaxTitle || len(l.Steps) == 0 || len(l.Steps) > MaxSteps {
			t.Fatalf("title %q, %d steps", l.Title, len(l.Steps))
		}
		for _, s := range l.Steps {
			if s.Text == "" || len(s.Text) > MaxLine || (s.Task == "") != (len(s.Done.Terms) == 0) || len(s.Done.Terms) > MaxTerms {
				t.Fatalf("step %+v", s)
			}
			if q := s.Question; q != nil && len(q.Options) > 0 {
				if len(q.Options) < MinChoices || len(q.Options) > MaxChoices || q.Answer < 0 || q.Answer > len(q.Options) || (q.Answer == 0 && (len(q.Options) != 2 || len(q.Right.Terms) == 0)) {
					t.Fatalf("choice %+v", q)
				}
				for _, o := range q.Options {
					if o == "" || len(o) > MaxChoice {
						t.Fatalf("choice %q", o)
					}
				}
			}
			if q := s.Question; q != nil && len(q.Options) == 0 && (q.Steps < 1 || q.Steps > MaxSliderPos || q.Step <= 0) {
				t.Fatalf("slider %+v", q)
			}
		}
	})
}
