package lessons

import (
	"fmt"

	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/bloomlab/bloomlab/app/lessons/lessonfile"
)

// TestReadingsCoverVocabulary: every word a lesson may write has its
// reading, and it reads a value of the word's kind; there is no reading
// the vocabulary does not list.
func TestReadingsCoverVocabulary(t *testing.T) {
	t.Parallel()
	states := rowStates(t)
	for _, q := range lessonfile.Vocabulary() {
		read, ok := readings()[q.Name]
		if !ok {
			t.Errorf("%s has no reading", q.Name)
			continue
		}
		arg := map[lessonfile.Arg]string{lessonfile.KeyArg: "cherry", lessonfile.KArg: "4"}[q.Arg]
		known := 0
		for _, st := range states {
			v, ok := read(st, arg)
			if !ok {
				continue
			}
			known++
			var kindOK bool
			switch q.Kind {
			case lessonfile.Number:
				_, kindOK = v.(float64)
			case lessonfile.Flag:
				_, kindOK = v.(bool)
			case lessonfile.Name:
				w, isName := v.(string)
				kindOK = isName && contains(q.Words, w)
			}
			if !kindOK {
				t.Errorf("%s reads %#v", q.Name, v)
				break
			}
		}
		if known == 0 {
			t.Errorf("%s is known in none of the lessons' states", q.Name)
		}
	}
	if len(readings()) != len(lessonfile.Vocabulary()) {
		t.Errorf("%d readings for %d words", len(readings()), len(lessonfile.Vocabulary()))
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestRichTextIsText: a lesson's markup gives em and code elements whose
// text is the text as written; what looks like HTML stays text.
func TestRichTextIsText(t *testing.T) {
	t.Parallel()
	nodes := richText("a *word*, `<script>alert(1)</script>` and <b>")
	var got []string
	for _, n := range nodes {
		switch e := n.(type) {
		case app.HTMLEm, app.HTMLCode:
			got = append(got, fmt.Sprintf("%T", e))
		}
	}
	if len(nodes) != 5 || len(got) != 2 {
		t.Errorf("%d nodes, styled %q", len(nodes), got)
	}
	for _, l := range builtInLessons() {
		for _, s := range l.Steps {
			if len(richText(s.Text)) != 1 {
				t.Errorf("%q has markup; the built-in lessons show as plain text", s.Text[:30])
			}
		}
	}
}
