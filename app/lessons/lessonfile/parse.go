package lessonfile

import (
	"fmt"
	"maps"
	"math"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/keys"
	"github.com/bloomlab/bloomlab/core/try"
)

// Bounds of a lesson file: what a class needs, with room, and no more, so
// that reading any file is quick.
const (
	MaxBytes     = 64 << 10 // the whole file
	MaxSteps     = 40
	MaxLine      = 2000 // bytes in one line, and in a text once its lines are joined
	MaxTitle     = 100  // bytes in the title
	MaxErrors    = 20   // errors reported before the checker stops
	MaxSliderPos = 100  // a slider's positions, as the page's range input has
	MinChoices   = 2
	MaxChoices   = 6
	MaxChoice    = 120 // bytes in one choice
)

// Veils: what of the lab a teacher's guess=first link hides until the
// learner guessed.
var Veils = []string{"readouts", "answer", "both"}

// Lesson is a lesson read from its file.
type Lesson struct {
	Title, Intro string
	Steps        []Step
}

// Step is one step of a lesson. Line is where its "## " heading stands.
// A step without a task (Task "", Done without terms) is a reading step:
// the learner reads it, and it is done once seen.
type Step struct {
	Line       int
	Text, Task string
	// Show is the lab "show me" sets, Ask the keys the key panel then
	// queries, Attack the attack it then runs (nil: none).
	Show   settings.Lab
	Ask    []string
	Attack *try.Attack
	// Done is the task's condition; Audited says it reads the audit, so
	// "show me" completes it only once the audit has finished.
	Done    Condition
	Audited bool
	// Question is the step's prediction, nil for none.
	Question *Question
}

// Question is a step's prediction: a slider when Options is empty, else
// a choice between the Options.
type Question struct {
	Prompt string
	// A slider's guess is Min + i·Step for i from 0 to Steps; it starts
	// at Start, and a guess within Tolerance of the answer is close. Unit
	// follows a value (" words", "%"), Points names a distance.
	Min, Step, Start, Tolerance float64
	Steps                       int
	Unit, Points                string
	// Value is a slider's answer.
	Value Expr
	// Options are a choice's. Answer is the right one's number, from 1;
	// 0 when a two-option choice's answer is the condition Right, the
	// first right when it holds, the second when it does not.
	Options []string
	Answer  int
	Right   Condition
	Why     string
	Veil    string
}

// Error is one thing wrong with a lesson, at its line (0: the file as a
// whole).
type Error struct {
	Line int
	What string
}

// Errors are a file's errors, in line order.
type Errors []Error

// Format writes the errors one a line, as name:LINE: what.
func (es Errors) Format(name string) string {
	var b strings.Builder
	for _, e := range es {
		if e.Line > 0 {
			fmt.Fprintf(&b, "%s:%d: %s\n", name, e.Line, e.What)
		} else {
			fmt.Fprintf(&b, "%s: %s\n", name, e.What)
		}
	}
	return b.String()
}

// stepFields are the fields of a step, in the order the README lists
// them; questionFields follow a predict: line.
var (
	stepFields     = []string{"show", "ask", "attack", "task", "done", "predict"}
	questionFields = []string{"slider", "start", "tolerance", "unit", "points", "choice", "answer", "why", "veil"}
)

// reader is the state of one read.
type reader struct {
	errs Errors
	full bool
}

func (r *reader) fail(line int, format string, args ...any) {
	if r.full {
		return
	}
	if len(r.errs) == MaxErrors {
		r.errs = append(r.errs, Error{line, "more errors follow; fix these first"})
		r.full = true
		return
	}
	r.errs = append(r.errs, Error{line, fmt.Sprintf(format, args...)})
}

// line is one line of the file, numbered from 1.
type line struct {
	n    int
	text string
}

// Parse reads and checks a lesson. Its errors name the line and what is
// wrong; a lesson with errors is not to be shown.
func Parse(src []byte) (*Lesson, Errors) {
	r := &reader{}
	if len(src) > MaxBytes {
		r.fail(0, "the lesson is %s bytes; a lesson is at most %s (64 KiB)", group(len(src)), group(MaxBytes))
		return nil, r.errs
	}
	var lines []line
	for i, t := range strings.Split(string(src), "\n") {
		t = strings.TrimRight(t, " \t\r")
		switch {
		case !utf8.ValidString(t):
			r.fail(i+1, "the line is not UTF-8 text")
			t = ""
		case len(t) > MaxLine:
			r.fail(i+1, "the line is %s bytes; at most %s", group(len(t)), group(MaxLine))
			t = ""
		}
		lines = append(lines, line{i + 1, t})
	}
	l := &Lesson{}
	// The title: the first line that is not blank.
	i := 0
	for i < len(lines) && lines[i].text == "" {
		i++
	}
	if i == len(lines) {
		r.fail(0, "the lesson is empty; it starts with its title: # Title")
		return nil, r.errs
	}
	if t, ok := strings.CutPrefix(lines[i].text, "# "); !ok {
		r.fail(lines[i].n, "a lesson starts with its title: # Title")
	} else if l.Title = strings.TrimSpace(t); l.Title == "" || len(l.Title) > MaxTitle {
		r.fail(lines[i].n, "the title is %d bytes; it is 1 to %d", len(l.Title), MaxTitle)
	}
	i++
	// The intro: the paragraph up to the first step.
	start := i
	for i < len(lines) && !strings.HasPrefix(lines[i].text, "#") {
		i++
	}
	intro, _ := paragraph(r, lines[start:i], "the intro")
	l.Intro = intro
	if l.Intro == "" {
		r.fail(lineAt(lines, start-1), "the intro is missing: a paragraph after the title says what the lesson is about")
	}
	// The steps.
	for i < len(lines) {
		h := lines[i]
		if !strings.HasPrefix(h.text, "## ") && h.text != "##" {
			r.fail(h.n, "%s: a step starts with ## (one title # at the top; no ### or deeper)", clip(h.text))
			i++
			continue
		}
		j := i + 1
		for j < len(lines) && !strings.HasPrefix(lines[j].text, "#") {
			j++
		}
		if len(l.Steps) == MaxSteps {
			r.fail(h.n, "a %dst step: a lesson has at most %d", MaxSteps+1, MaxSteps)
			break
		}
		l.Steps = append(l.Steps, readStep(r, h.n, lines[i+1:j]))
		i = j
	}
	if len(l.Steps) == 0 && len(r.errs) == 0 {
		last := len(lines) - 1
		for last > 0 && lines[last].text == "" {
			last--
		}
		r.fail(lines[last].n, "the lesson has no step; a step starts with ## Step")
	}
	sort.SliceStable(r.errs, func(a, b int) bool { return r.errs[a].Line < r.errs[b].Line })
	if len(r.errs) > 0 {
		return nil, r.errs
	}
	return l, nil
}

// lineAt is the number of lines[i], or of the last line.
func lineAt(lines []line, i int) int {
	if i >= len(lines) {
		i = len(lines) - 1
	}
	return lines[i].n
}

// paragraph joins lines into one paragraph; a second paragraph is an
// error naming what.
func paragraph(r *reader, lines []line, what string) (string, int) {
	var words []string
	first, ended := 0, false
	for _, ln := range lines {
		t := strings.TrimSpace(ln.text)
		switch {
		case t == "" && len(words) > 0:
			ended = true
		case t == "":
		case ended:
			r.fail(ln.n, "%s is one paragraph; a blank line ends it", what)
			return strings.Join(words, " "), first
		default:
			if first == 0 {
				first = ln.n
			}
			words = append(words, t)
		}
	}
	s := strings.Join(words, " ")
	if len(s) > MaxLine {
		r.fail(first, "%s is %s bytes; at most %s", what, group(len(s)), group(MaxLine))
	}
	return s, first
}

// field splits "name: value" where name is a field of the format.
func field(t string) (name, value string, ok bool) {
	name, value, ok = strings.Cut(t, ":")
	if !ok || !(contains(stepFields, name) || contains(questionFields, name)) {
		return "", "", false
	}
	return name, strings.TrimSpace(value), true
}

// readStep reads a step's lines after its heading at line h: its text,
// then its fields one a line, then the checks of the step as a whole.
func readStep(r *reader, h int, lines []line) Step {
	sr := &stepReader{r: r, s: Step{Line: h}, seen: map[string]int{}}
	i := sr.text(lines)
	for _, ln := range lines[i:] {
		if ln.text != "" {
			sr.field(ln)
		}
	}
	sr.check()
	return sr.s
}

// stepReader is the state of one step's read: the step and its question
// as their fields fill them in, and where each field stood, for the
// checks that need the whole step.
type stepReader struct {
	r    *reader
	s    Step
	q    *Question
	seen map[string]int // a field's line, by name
	// The lines of the fields the checks after the last one name, 0 where
	// the field was not read; answer is answer:'s value, read once the
	// question's other fields are known.
	showLine, askLine, attackLine, sliderLine, answerLine int
	answer                                                string
}

// text reads the step's text, the lines before its first field, and
// returns the index of that field.
func (sr *stepReader) text(lines []line) int {
	i := 0
	for i < len(lines) {
		if _, _, ok := field(lines[i].text); ok {
			break
		}
		i++
	}
	sr.s.Text, _ = paragraph(sr.r, lines[:i], "the step's text")
	if sr.s.Text == "" {
		sr.r.fail(sr.s.Line, "the step has no text: a paragraph after ## says what the learner does and sees")
	}
	return i
}

// field reads one field's line: a field of the format, given once (but
// choice:), a question's only after predict:.
func (sr *stepReader) field(ln line) {
	r := sr.r
	name, value, ok := field(ln.text)
	if !ok {
		r.fail(ln.n, "%s is not a field; after the step's text come its fields (%s, and after predict: %s)",
			clip(ln.text), strings.Join(stepFields, ":, ")+":", strings.Join(questionFields, ":, ")+":")
		return
	}
	if at, dup := sr.seen[name]; dup && name != "choice" {
		r.fail(ln.n, "%s: given twice (first at line %d)", name, at)
		return
	}
	sr.seen[name] = ln.n
	if !contains(questionFields, name) {
		sr.stepField(ln.n, name, value)
		return
	}
	if sr.q == nil {
		r.fail(ln.n, "%s: belongs to a prediction, which starts with predict: and its question", name)
		return
	}
	sr.questionField(ln.n, name, value)
}

// stepField reads a field of the step (stepFields) at line n.
func (sr *stepReader) stepField(n int, name, value string) {
	r, s := sr.r, &sr.s
	switch name {
	case "show":
		sr.showLine = n
		s.Show = readShow(r, n, value)
	case "ask":
		sr.askLine = n
		s.Ask = keys.Split(value)
		if len(s.Ask) == 0 {
			r.fail(n, "ask: names keys, comma-separated: ask: cherry, grape")
		}
		for k := range s.Ask {
			s.Ask[k] = strings.TrimSpace(s.Ask[k])
		}
	case "attack":
		sr.attackLine = n
		s.Attack = readAttack(r, n, value)
	case "task":
		s.Task = value
		if value == "" {
			r.fail(n, "task: is empty; it says in a sentence what the learner does")
		}
	case "done":
		c, err := ParseCondition(value)
		if err != nil {
			r.fail(n, "done: %v", err)
		}
		s.Done, s.Audited = c, c.Reads("audit-failed")
	case "predict":
		sr.q = &Question{Prompt: value, Veil: Veils[0]}
		if value == "" {
			r.fail(n, "predict: is empty; it asks the question, in a sentence")
		}
	}
}

// questionField reads a field of the step's question (questionFields)
// at line n; answer: waits for check, when the question is complete.
func (sr *stepReader) questionField(n int, name, value string) {
	r, q := sr.r, sr.q
	switch name {
	case "slider":
		sr.sliderLine = n
		readSlider(r, n, value, q)
	case "start", "tolerance":
		v, err := number(value)
		if err != nil || strings.HasSuffix(value, "%") || v < 0 {
			r.fail(n, "%s: %s is not a number of the slider's unit (0 or more, no %%)", name, clip(value))
		}
		if name == "start" {
			q.Start = v
		} else {
			q.Tolerance = v
		}
	case "unit":
		q.Unit = value
		if value != "" && value[0] != '%' {
			q.Unit = " " + value
		}
	case "points":
		q.Points = value
	case "choice":
		if value == "" {
			r.fail(n, "choice: is empty")
		}
		if len(value) > MaxChoice {
			r.fail(n, "choice: is %s bytes; a choice is at most %d", group(len(value)), MaxChoice)
		}
		if len(q.Options) == MaxChoices {
			r.fail(n, "choice: a %dth choice; a prediction has %d to %d", MaxChoices+1, MinChoices, MaxChoices)
			return
		}
		q.Options = append(q.Options, value)
	case "answer":
		sr.answerLine, sr.answer = n, value
	case "why":
		q.Why = value
	case "veil":
		if !contains(Veils, value) {
			r.fail(n, "veil: %s; a guess=first link hides the readouts (counters, charts), the key panel's answer, or both", clip(value))
		}
		q.Veil = value
	}
}

// check checks the step once its fields are read:
// task: and done: go together, show: is there, the key panel can do
// what the step asks of it, and the question is whole.
func (sr *stepReader) check() {
	r, s, seen := sr.r, &sr.s, sr.seen
	switch {
	case seen["task"] > 0 && seen["done"] == 0:
		r.fail(seen["task"], "task: needs done: after it, the condition that says it is done (a step without either is one to read)")
	case seen["done"] > 0 && seen["task"] == 0:
		r.fail(seen["done"], "done: needs task: before it, what the learner does in a sentence (a step without either is one to read)")
	}
	if sr.showLine == 0 {
		r.fail(s.Line, "the step needs show: the lab's settings as a link's query, for its show me button (show: with nothing after it is the lab as it opens)")
	}
	if sr.askLine > 0 && sr.attackLine > 0 {
		r.fail(sr.attackLine, "attack: the step asks keys at line %d; the key panel does one or the other", sr.askLine)
	}
	if sr.showLine > 0 {
		req := try.Request{Params: s.Show.Run(), Insert: s.Show.Typed.List(), Query: s.Ask, Attack: s.Attack}
		if err := req.Validate(); err != nil {
			r.fail(max(sr.askLine, sr.attackLine, sr.showLine), "the key panel cannot do this at show:'s settings: %v", err)
		}
	}
	if q := sr.q; q != nil {
		s.Question = q
		if seen["start"] == 0 {
			q.Start = q.Min
		}
		readAnswer(r, seen["predict"], q, sr.sliderLine, sr.answerLine, sr.answer, seen["why"] > 0)
	}
}

// readShow reads show:'s query as the lab reads a link, with every notice
// an error.
func readShow(r *reader, n int, value string) settings.Lab {
	q, err := url.ParseQuery(value)
	if err != nil {
		r.fail(n, "show: %s is not a link's query (key=value&key=value): %v", clip(value), err)
		return settings.DefaultLab()
	}
	known := knownKeys()
	// In the order of their names: a map's would change the report
	// between two reads of the same file.
	for _, k := range slices.Sorted(maps.Keys(q)) {
		if !known[k] {
			r.fail(n, "show: %s is not a setting of the lab; they are %s", clip(k), knownList())
		}
	}
	s, notices := settings.LabFromQuery(q)
	for _, msg := range notices {
		r.fail(n, "show: %s", msg)
	}
	if s.Large {
		r.fail(n, "show: large=on: large type is the reader's to choose, a lesson keeps it")
	}
	return s
}

// knownKeys are the link keys of the lab's settings.
func knownKeys() map[string]bool {
	out := map[string]bool{}
	for k := range settings.DefaultLab().Query() {
		out[k] = true
	}
	for _, k := range []string{settings.IDLarge, settings.IDOverlap, settings.IDSecond, settings.IDFile, settings.IDTry, settings.IDPlayAt, settings.IDHashing, settings.IDFingerprintBits} {
		out[k] = true
	}
	return out
}

func knownList() string {
	var out []string
	for k := range knownKeys() {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

// ShowQuery writes settings as show: writes them: the keys that differ
// from the lab as it opens, commas left as they are.
func ShowQuery(s settings.Lab) string {
	def, q := settings.DefaultLab().Query(), s.Query()
	for k, v := range q {
		if dv, ok := def[k]; ok && len(dv) == len(v) && dv[0] == v[0] {
			delete(q, k)
		}
	}
	return strings.ReplaceAll(q.Encode(), "%2C", ",")
}

// readAttack reads attack: forge, fill N, or recover LIST.
func readAttack(r *reader, n int, value string) *try.Attack {
	f := strings.Fields(value)
	bad := func() *try.Attack {
		r.fail(n, "attack: %s; the attacks are forge, fill N (crafted keys, 1 to %d) and recover LIST (%s)",
			clip(value), keys.MaxTyped, strings.Join(try.CandidateLists, ", "))
		return nil
	}
	switch {
	case len(f) == 1 && f[0] == try.AttackForge:
		return &try.Attack{Kind: try.AttackForge}
	case len(f) == 2 && f[0] == try.AttackFill:
		k, err := strconv.Atoi(f[1])
		if err != nil || k < 1 || k > keys.MaxTyped {
			return bad()
		}
		return &try.Attack{Kind: try.AttackFill, Keys: k}
	case len(f) == 2 && f[0] == try.AttackRecover && contains(try.CandidateLists, f[1]):
		return &try.Attack{Kind: try.AttackRecover, List: f[1]}
	}
	return bad()
}

// readSlider reads slider: MIN to MAX by STEP.
func readSlider(r *reader, n int, value string, q *Question) {
	f := strings.Fields(value)
	if len(f) != 5 || f[1] != "to" || f[3] != "by" {
		r.fail(n, "slider: %s; write slider: MIN to MAX by STEP (0 to 100 by 1)", clip(value))
		return
	}
	var v [3]float64
	for i, s := range []string{f[0], f[2], f[4]} {
		x, err := number(s)
		if err != nil || strings.HasSuffix(s, "%") {
			r.fail(n, "slider: %s is not a number (no %%: the unit says it)", clip(s))
			return
		}
		v[i] = x
	}
	lo, hi, step := v[0], v[1], v[2]
	steps := math.Round((hi - lo) / step)
	switch {
	case step <= 0 || hi <= lo:
		r.fail(n, "slider: from %s to %s by %s; the slider goes up, by more than 0", f[0], f[2], f[4])
	case steps > MaxSliderPos || math.Abs(lo+steps*step-hi) > 1e-9*math.Max(1, math.Abs(hi)):
		r.fail(n, "slider: %s to %s by %s; the steps reach the end exactly, and are at most %d", f[0], f[2], f[4], MaxSliderPos)
	default:
		q.Min, q.Step, q.Steps = lo, step, int(steps)
	}
}

// readAnswer checks a question once its fields are read.
func readAnswer(r *reader, n int, q *Question, sliderLine, answerLine int, answer string, why bool) {
	if !why {
		r.fail(n, "the prediction needs why: the sentence that says why the answer is what it is")
	}
	if answerLine == 0 {
		r.fail(n, "the prediction needs answer: (a slider's quantity, or the right choice's number)")
	}
	switch {
	case sliderLine > 0 && len(q.Options) > 0:
		r.fail(sliderLine, "slider: the prediction has choices too; it is one or the other")
	case sliderLine == 0 && len(q.Options) == 0:
		r.fail(n, "the prediction needs slider: MIN to MAX by STEP, or %d to %d choice: lines", MinChoices, MaxChoices)
	case len(q.Options) > 0 && len(q.Options) < MinChoices:
		r.fail(n, "the prediction has one choice: it needs %d to %d", MinChoices, MaxChoices)
	case len(q.Options) > 0:
		if answerLine > 0 {
			readChoiceAnswer(r, answerLine, q, answer)
		}
	default:
		if q.Unit == "" {
			r.fail(sliderLine, "slider: the prediction needs unit: (%%, words, bits)")
		}
		if q.Points == "" {
			q.Points = strings.TrimSpace(q.Unit)
			if q.Unit == "%" {
				q.Points = "percentage points"
			}
		}
		if q.Tolerance <= 0 {
			r.fail(sliderLine, "slider: the prediction needs tolerance: how far off a guess may be and count as close, more than 0")
		}
		if pos := (q.Start - q.Min) / q.Step; q.Steps > 0 && (q.Start < q.Min || pos > float64(q.Steps) || math.Abs(pos-math.Round(pos)) > 1e-9) {
			r.fail(sliderLine, "slider: start %s is not one of the slider's values", strconv.FormatFloat(q.Start, 'g', -1, 64))
		}
		if answerLine > 0 {
			e, err := ParseExpr(answer)
			if err != nil {
				r.fail(answerLine, "answer: %v", err)
			}
			q.Value = e
		}
	}
}

// readChoiceAnswer reads a choice's answer: the right option's number,
// or, for two options, the condition under which the first is right.
func readChoiceAnswer(r *reader, n int, q *Question, answer string) {
	if i, err := strconv.Atoi(answer); err == nil {
		if i < 1 || i > len(q.Options) {
			r.fail(n, "answer: %d; the right choice's number is 1 to %d", i, len(q.Options))
		}
		q.Answer = i
		return
	}
	if len(q.Options) != MinChoices {
		r.fail(n, "answer: %s; with %d choices, answer: is the right one's number, 1 to %d", clip(answer), len(q.Options), len(q.Options))
		return
	}
	c, err := ParseCondition(answer)
	if err != nil {
		r.fail(n, "answer: %v (or the right choice's number, 1 or 2)", err)
	}
	q.Right = c
}

// group writes n with thousands separators, as every page writes figures.
func group(n int) string { return core.FormatCount(uint64(n)) }
