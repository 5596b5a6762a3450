package lessonfile

import (
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/core/try"
)

// good is a small lesson that passes: one step with a slider, one with a
// choice and an attack.
const good = `# Two steps

What the lesson is about,
over two lines.

## Step 1

Lower *bits per key* until the array is mostly ones.

show: bits-per-key=4
task: Lower bits per key until the fill passes 80%.
done: fill > 80% and fault = none

predict: What share of the bits will be ones?
slider: 0 to 100 by 1
start: 50
tolerance: 5
unit: %
answer: 100 * fill
why: Most of them.

## Step 2

Forge a key.

show: fault=weak-hash&try=apple
attack: forge
task: Forge the twin of apple.
done: algebraic and answered-false-positive(typed-culprit) >= 1

predict: Will the twin answer maybe?
choice: Yes
choice: No
answer: verdict("apple") = member
why: Yes: it reads the bits of apple.
veil: both
`

func TestParseGood(t *testing.T) {
	l, errs := Parse([]byte(good))
	if len(errs) > 0 {
		t.Fatalf("errors:\n%s", errs.Format("good.txt"))
	}
	if l.Title != "Two steps" || l.Intro != "What the lesson is about, over two lines." || len(l.Steps) != 2 {
		t.Fatalf("read %q, %q, %d steps", l.Title, l.Intro, len(l.Steps))
	}
	s, q := l.Steps[0], l.Steps[0].Question
	if s.Line != 6 || s.Show.Params.BitsPerKey != 4 || s.Task != "Lower bits per key until the fill passes 80%." || len(s.Done.Terms) != 2 || s.Done.Terms[0].Right.Number != 0.8 {
		t.Errorf("step 1: %+v", s)
	}
	if q == nil || q.Min != 0 || q.Step != 1 || q.Steps != 100 || q.Start != 50 || q.Tolerance != 5 || q.Unit != "%" || q.Points != "percentage points" || q.Value.Quantity != "fill" || q.Value.Factor != 100 || q.Veil != "readouts" {
		t.Errorf("step 1's question: %+v", q)
	}
	s, q = l.Steps[1], l.Steps[1].Question
	if s.Attack == nil || *s.Attack != (try.Attack{Kind: try.AttackForge}) || string(s.Show.Typed) != "apple" || s.Audited {
		t.Errorf("step 2: %+v", s)
	}
	if q == nil || len(q.Options) != 2 || q.Right.Terms[0].Left.Arg != "apple" || q.Right.Terms[0].Word != "member" || q.Veil != "both" {
		t.Errorf("step 2's question: %+v", q)
	}
}

// TestParseErrors: a malformed lesson is refused with the line and what
// is wrong.
func TestParseErrors(t *testing.T) {
	step := func(fields string) string {
		return "# T\n\nIntro.\n\n## Step\n\nText.\n\n" + fields
	}
	ok := "show:\ntask: Do it.\ndone: shown\n"
	for _, tc := range []struct{ src, want string }{
		{"", "x.txt: the lesson is empty"},
		{"Title\n", "x.txt:1: a lesson starts with its title"},
		{"# T\n\nIntro.\n\n", "x.txt:3: the lesson has no step"},
		{"# T\n\n## Step\n\nText.\n\n" + ok, "x.txt:1: the intro is missing"},
		{"# T\n\nOne.\n\nTwo.\n\n## S\n\nText.\n\n" + ok, "x.txt:5: the intro is one paragraph"},
		{"# T\n\nIntro.\n\n### Step\n", "x.txt:5: \"### Step\": a step starts with ##"},
		{step("show: hashes=99\ntask: Do it.\ndone: shown\n"), "x.txt:9: show: hashes: 99 is above the maximum"},
		{step("show: hashs=3\ntask: Do it.\ndone: shown\n"), "x.txt:9: show: \"hashs\" is not a setting of the lab"},
		{step("show: large=on\ntask: Do it.\ndone: shown\n"), "x.txt:9: show: large=on: large type is the reader's"},
		{step("show: %zz\ntask: Do it.\ndone: shown\n"), "x.txt:9: show: \"%zz\" is not a link's query"},
		{step("task: Do it.\ndone: shown\n"), "x.txt:5: the step needs show:"},
		{step("show:\ndone: shown\n"), "x.txt:10: done: needs task: before it"},
		{step("show:\ntask: Do it.\n"), "x.txt:10: task: needs done: after it"},
		{step("show:\ntask: Do it.\ndone: fill > \n"), "x.txt:11: done: the condition ends where a quantity"},
		{step("show:\ntask: Do it.\ndone: fil > 0.5\n"), "x.txt:11: done: \"fil\" is not a quantity of the lab"},
		{step("show:\ntask: Do it.\ndone: fill > 0.5 or shown\n"), "x.txt:11: done: \"or\" after a test: tests are joined by and"},
		{step("show:\ntask: Do it.\ndone: fault = broken\n"), "x.txt:11: done: fault is one of none, negative-index"},
		{step("show:\ntask: Do it.\ndone: fault > 2\n"), "x.txt:11: done: fault is a name: compare it with = or !="},
		{step("show:\ntask: Do it.\ndone: not fill > 0.5\n"), "x.txt:11: done: not goes before a flag"},
		{step("show:\ntask: Do it.\ndone: 2 > 1\n"), "compares two numbers"},
		{step("show:\ntask: Do it.\ndone: n > 8,00\n"), "commas in a number go every three digits"},
		{step("show:\ntask: Do it.\ndone: theory-at(99) > 0\n"), "theory-at takes a number of hashes from 1 to 64"},
		{step("show:\ntask: Do it.\ndone: answered-no(typd) > 0\n"), "answered-no is narrowed by one of typed, zero, typed-culprit"},
		{step("show:\ntask: Do it.\ndone: verdict(cherry) = no\n"), "verdict names a key in double quotes"},
		{step("show:\ntask: Do it.\ndone: verdict(\"cherry) = no\n"), "a key in quotes is not closed"},
		{step("show:\ntask: Do it.\ndone: fill > 0.5 <b>\n"), "\"<\" after a test: tests are joined by and"},
		{step("show:\ntask: Do it.\ndone: fill > $5\n"), "x.txt:11: done: \"$5\" is not a word of a condition"},
		{step("show:\ntask: Do it.\ndone: shown\ndone: shown\n"), "x.txt:12: done: given twice (first at line 11)"},
		{step("show:\nask: a\nattack: forge\ntask: Do it.\ndone: shown\n"), "x.txt:11: attack: the step asks keys at line 10"},
		{step("show:\nattack: fill 99\ntask: Do it.\ndone: shown\n"), "x.txt:10: attack: \"fill 99\"; the attacks are"},
		{step("show:\nattack: recover names\ntask: Do it.\ndone: shown\n"), "attack: \"recover names\""},
		{step(ok + "Some more text.\n"), "x.txt:12: \"Some more text.\" is not a field"},
		{step(ok + "why: because\n"), "x.txt:12: why: belongs to a prediction"},
		{step(ok + "predict: How many?\nanswer: fill\nwhy: So.\n"), "x.txt:12: the prediction needs slider"},
		{step(ok + "predict: How many?\nslider: 0 to 100 by 3\nunit: %\ntolerance: 1\nanswer: fill\nwhy: So.\n"), "x.txt:13: slider: 0 to 100 by 3; the steps reach the end exactly"},
		{step(ok + "predict: How many?\nslider: 0 to 1000 by 1\nunit: %\ntolerance: 1\nanswer: fill\nwhy: So.\n"), "at most 100"},
		{step(ok + "predict: How many?\nslider: 0 to 100 by 1\ntolerance: 1\nanswer: fill\nwhy: So.\n"), "x.txt:13: slider: the prediction needs unit:"},
		{step(ok + "predict: How many?\nslider: 0 to 100 by 1\nunit: %\nanswer: fill\nwhy: So.\n"), "needs tolerance:"},
		{step(ok + "predict: How many?\nslider: 0 to 100 by 2\nstart: 3\nunit: %\ntolerance: 1\nanswer: fill\nwhy: So.\n"), "slider: start 3 is not one of the slider's values"},
		{step(ok + "predict: How many?\nslider: 0 to 100 by 1\nunit: %\ntolerance: 1\nanswer: fault\nwhy: So.\n"), "x.txt:16: answer: fault is not a number"},
		{step(ok + "predict: How many?\nslider: 0 to 100 by 1\nunit: %\ntolerance: 1\nanswer: 5\nwhy: So.\n"), "answer: an answer reads a quantity of the lab"},
		{step(ok + "predict: Which?\nchoice: A\nanswer: shown\nwhy: So.\n"), "x.txt:12: the prediction has one choice"},
		{step(ok + "predict: Which?\nchoice: A\nchoice: B\nchoice: C\nchoice: D\nchoice: E\nchoice: F\nchoice: G\nanswer: 1\nwhy: So.\n"), "x.txt:19: choice: a 7th choice; a prediction has 2 to 6"},
		{step(ok + "predict: Which?\nchoice: A\nchoice: B\nchoice: C\nanswer: shown\nwhy: So.\n"), "x.txt:16: answer: \"shown\"; with 3 choices, answer: is the right one's number, 1 to 3"},
		{step(ok + "predict: Which?\nchoice: A\nchoice: B\nchoice: C\nanswer: 4\nwhy: So.\n"), "x.txt:16: answer: 4; the right choice's number is 1 to 3"},
		{step(ok + "predict: Which?\nchoice: A\nchoice: B\nanswer: 0\nwhy: So.\n"), "x.txt:15: answer: 0; the right choice's number is 1 to 2"},
		{step(ok + "predict: Which?\nchoice: A\nchoice: " + strings.Repeat("b", MaxChoice+1) + "\nanswer: 1\nwhy: So.\n"), "x.txt:14: choice: is 121 bytes; a choice is at most 120"},
		{step(ok + "predict: Which?\nchoice: A\nchoice: B\nanswer: shown\n"), "x.txt:12: the prediction needs why:"},
		{step(ok + "predict: Which?\nchoice: A\nchoice: B\nanswer: shown\nwhy: A.\nveil: all\n"), "x.txt:17: veil: \"all\""},
		{step("show:\nask: " + strings.Repeat("k,", 40) + "k\ntask: Do it.\ndone: shown\n"), "x.txt:10: the key panel cannot do this at show:'s settings"},
		{"# T\n\nIntro.\n\n## S\n\nText \xff.\n", "x.txt:7: the line is not UTF-8 text"},
		{"# T\n\nIntro.\n\n## S\n\n" + strings.Repeat("x", MaxLine+1) + "\n", "x.txt:7: the line is 2,001 bytes; at most 2,000"},
		{"# " + strings.Repeat("T", MaxTitle+1) + "\n", "x.txt:1: the title is 101 bytes"},
		{"# T\n\nIntro.\n" + strings.Repeat("\n## S\n\nText.\n\n"+ok, MaxSteps+1), "x.txt:325: a 41st step: a lesson has at most 40"},
		{strings.Repeat("x", MaxBytes+1), "x.txt: the lesson is 65,537 bytes; a lesson is at most 65,536 (64 KiB)"},
	} {
		l, errs := Parse([]byte(tc.src))
		got := errs.Format("x.txt")
		if l != nil || len(errs) == 0 || !strings.Contains(got, tc.want) {
			t.Errorf("%q:\n got %q\nwant %q", clip(tc.src[min(len(tc.src), 30):]), got, tc.want)
		}
	}
}

// TestParseReadingAndChoices: a step without task: and done: is a
// reading step, and a choice has 2 to 6 options, its answer the right
// one's number (or, for two, a condition).
func TestParseReadingAndChoices(t *testing.T) {
	l, errs := Parse([]byte(reading))
	if len(errs) > 0 {
		t.Fatalf("errors:\n%s", errs.Format("x.txt"))
	}
	if s := l.Steps[0]; s.Task != "" || len(s.Done.Terms) != 0 || s.Show.Params.BitsPerKey != 6 || s.Question != nil {
		t.Errorf("reading step: %+v", s)
	}
	if q := l.Steps[1].Question; q == nil || len(q.Options) != 4 || q.Options[3] != "D" || q.Answer != 3 || l.Steps[1].Task != "" {
		t.Errorf("four choices: %+v", q)
	}
	if q := l.Steps[2].Question; q == nil || len(q.Options) != 2 || q.Answer != 2 || len(q.Right.Terms) != 0 {
		t.Errorf("two choices by number: %+v", q)
	}
}

// reading is a lesson with a step to read, one to read with a choice of
// four, and a choice of two answered by number.
const reading = "# T\n\nIntro.\n\n## Read\n\nJust read this.\n\nshow: bits-per-key=6\n\n" +
	"## Choose\n\nPick one.\n\nshow:\n\npredict: Which?\nchoice: A\nchoice: B\nchoice: C\nchoice: D\nanswer: 3\nwhy: C.\n\n" +
	"## Two\n\nPick.\n\nshow:\ntask: Do it.\ndone: shown\n\npredict: Which?\nchoice: A\nchoice: B\nanswer: 2\nwhy: B.\n"

// TestParseErrorsBounded: a file of nothing but mistakes gives at most
// MaxErrors and a last line saying more follow.
func TestParseErrorsBounded(t *testing.T) {
	src := "# T\n\nIntro.\n\n## S\n\nText.\n\nshow:\ntask: t.\ndone: shown\n" + strings.Repeat("nonsense: here\nwhy: x\n", 100)
	_, errs := Parse([]byte(src))
	if len(errs) != MaxErrors+1 || !strings.Contains(errs[MaxErrors].What, "more errors follow") {
		t.Errorf("%d errors, the last %q", len(errs), errs[len(errs)-1].What)
	}
}

// TestParseShowKeysInOrder: a show: line with several keys the lab does
// not know names them in the order of their names, the same on every
// read, so the checker's report does not change between two runs.
func TestParseShowKeysInOrder(t *testing.T) {
	t.Parallel()
	_, errs := Parse([]byte("# T\n\nIntro.\n\n## S\n\nText.\n\nshow: zeta=1&eta=2&beta=3&delta=4&alpha=5&gamma=6\n"))
	var named []string
	for _, e := range errs {
		if k, _, ok := strings.Cut(strings.TrimPrefix(e.What, "show: "), " is not a setting"); ok {
			named = append(named, k)
		}
	}
	if got := strings.Join(named, " "); got != `"alpha" "beta" "delta" "eta" "gamma" "zeta"` {
		t.Errorf("the unknown keys are named in the order %s", got)
	}
}

// TestVocabularyParses: every quantity can be written, in a condition and,
// for a number, as a slider's answer.
func TestVocabularyParses(t *testing.T) {
	for _, q := range Vocabulary() {
		w := q.Name
		switch q.Arg {
		case KeyArg:
			w += `("cherry")`
		case KArg:
			w += "(4)"
		case FilterArg:
			w += "(typed)"
		}
		cond := "2 * " + w + " >= 1"
		switch q.Kind {
		case Flag:
			cond = "not " + w
		case Name:
			cond = w + " != " + q.Words[len(q.Words)-1]
		}
		c, err := ParseCondition(cond + " and shown")
		if err != nil || len(c.Terms) != 2 || !c.Reads(q.Name) {
			t.Errorf("%s: %+v, %v", cond, c, err)
		}
		if q.Kind == Number {
			if e, err := ParseExpr(w); err != nil || e.Quantity != q.Name || e.Factor != 1 {
				t.Errorf("answer %s: %+v, %v", w, e, err)
			}
		}
		if q.Doc == "" {
			t.Errorf("%s has no doc", q.Name)
		}
	}
}

func TestNumbers(t *testing.T) {
	for s, want := range map[string]float64{"8,000": 8000, "1,000,000.5": 1000000.5, "90%": 0.9, "4%": 0.04, "1.1": 1.1, "0.5%": 0.005} {
		if v, err := number(s); err != nil || v != want {
			t.Errorf("%s: %v, %v, want %v", s, v, err, want)
		}
	}
	for _, s := range []string{"8,00", "80,00,0", "1e999", "1,0000"} {
		if v, err := number(s); err == nil {
			t.Errorf("%s: %v, want an error", s, v)
		}
	}
}

func TestInline(t *testing.T) {
	for src, want := range map[string][]Span{
		"plain":                    {{"", "plain"}},
		"a *word* and `code` here": {{"", "a "}, {"em", "word"}, {"", " and "}, {"code", "code"}, {"", " here"}},
		"2 * 3 * 4":                {{"", "2 * 3 * 4"}},
		"an *open mark":            {{"", "an *open mark"}},
		"<b>bold</b> `<script>`":   {{"", "<b>bold</b> "}, {"code", "<script>"}},
		"**":                       {{"", "**"}},
	} {
		got := Inline(src)
		if len(got) != len(want) {
			t.Errorf("%q: %q, want %q", src, got, want)
			continue
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%q: %q, want %q", src, got, want)
				break
			}
		}
	}
}

// TestTemplateParses: the template lesson new prints passes the checker.
func TestTemplateParses(t *testing.T) {
	l, errs := Parse([]byte(Template))
	if len(errs) > 0 || len(l.Steps) != 3 || l.Steps[0].Question == nil || l.Steps[1].Question == nil || l.Steps[2].Task != "" {
		t.Fatalf("errors:\n%s", errs.Format("template"))
	}
}
