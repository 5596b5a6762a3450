package lessons

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/lab"
	"github.com/bloomlab/bloomlab/app/lessons/lessonfile"
)

// labRow is a state of the lab and what the built-in lessons make of it:
// which steps' tasks are done there, and the answers their predictions
// read. A state is written as a lesson writes its show me (show:, ask:,
// attack:), then changed by with: "audited" (the audit badge's run of
// the fault finished), "running" (the lab's run has not), "large" (the
// reader's large type).
type labRow struct {
	name              string
	show, ask, attack string
	with              string
	// done lists the steps, "lesson.step", whose condition holds in the
	// state; every other step's does not.
	done string
	// answers lists "lesson.step=answer" for every prediction whose
	// answer is known in the state: a slider's value to 4 significant
	// digits, a choice's right option as #1 or #2 (numbered as a lesson's
	// answer: writes them); every other prediction's is unknown.
	answers string
}

// Keys the rows type.
const (
	threeTyped = "try=apple,pear,plum"
	smallFruit = "bits-per-key=5&hashes=3&items=20&try=apple,pear,plum,cherry,grape,lemon"
	sixPINs    = "try=4821,1234,0000,7777,2580,9051"
	threeIDs   = "try=user-7,user-4242,user-90001"
)

// labRows are states chosen on both sides of the lessons' conditions: each
// step's show-me state, and beside it the state one threshold away (a
// fill just under 90%, two duplicate passes, a precision under half), the
// lab before its run finished, a key panel that asked too few keys or the
// wrong ones, an attack of another kind.
var labRows = []labRow{
	{name: "the lab as it opens",
		answers: "2.1=92 3.1=50.17 4.1=#2 5.1=#1 6.2=0.7778 9.2=#1 10.2=3980"},
	{name: "the lab as it opens, running", with: "running",
		answers: "2.1=92"},
	{name: "the lab as it opens, large type", with: "large",
		answers: "2.1=92 3.1=50.17 4.1=#2 5.1=#1 6.2=0.7778 9.2=#1 10.2=3980"},
	{name: "the second filter open", show: "second=on", done: "9.1",
		answers: "2.1=92 3.1=50.17 4.1=#2 5.1=#1 6.2=0.7778 9.2=#1 10.2=3980"},
	{name: "the second filter, salts changed", show: "second=salt", done: "9.1 9.2",
		answers: "2.1=92 3.1=50.17 4.1=#2 5.1=#1 6.2=0.7778 9.2=#1 10.2=3980"},
	{name: "the second filter, a stale snapshot alone", show: "second=stale", done: "9.1",
		answers: "2.1=92 3.1=50.17 4.1=#2 5.1=#1 6.2=0.7778 9.2=#1 10.2=3980"},
	{name: "the second filter, stale and replicas", show: "second=stale,replicas", done: "9.1 9.3",
		answers: "2.1=92 3.1=50.17 4.1=#2 5.1=#1 6.2=0.7778 9.2=#1 10.2=3980"},
	{name: "two keys typed", show: "try=apple,pear",
		answers: "2.1=92 3.1=50.19 4.1=#2 5.1=#1 6.2=0.7778 9.2=#1 10.2=3982"},
	{name: "three keys typed", show: threeTyped, done: "1.1",
		answers: "2.1=92 3.1=50.2 4.1=#2 5.1=#1 6.2=0.7778 9.2=#1 10.2=3983"},
	{name: "three typed, two asked", show: threeTyped, ask: "apple, pear", done: "1.1",
		answers: "2.1=92 3.1=50.2 4.1=#2 5.1=#1 6.2=0.7778 9.2=#1 10.2=3983"},
	{name: "three typed and asked", show: threeTyped, ask: "apple, pear, plum", done: "1.1 1.2",
		answers: "2.1=92 3.1=50.2 4.1=#2 5.1=#1 6.2=0.7778 9.2=#1 10.2=3983"},
	{name: "three typed and asked, large type", show: threeTyped, ask: "apple, pear, plum", with: "large", done: "1.1 1.2",
		answers: "2.1=92 3.1=50.2 4.1=#2 5.1=#1 6.2=0.7778 9.2=#1 10.2=3983"},
	{name: "three asked, none typed", ask: "apple, pear, plum", done: "1.3",
		answers: "2.1=92 3.1=50.17 4.1=#2 5.1=#1 6.2=0.7778 9.2=#1 10.2=3980"},
	{name: "three typed, cherry asked", show: threeTyped, ask: "cherry", done: "1.1",
		answers: "1.3=#1 2.1=92 3.1=50.2 4.1=#2 5.1=#1 6.2=0.7778 9.2=#1 10.2=3983"},
	{name: "three typed, cherry and grape asked", show: threeTyped, ask: "cherry, grape", done: "1.1 1.3",
		answers: "1.3=#1 2.1=92 3.1=50.2 4.1=#2 5.1=#1 6.2=0.7778 9.2=#1 10.2=3983"},
	{name: "three typed, cherry and grape asked, running", show: threeTyped, ask: "cherry, grape", with: "running", done: "1.1 1.3",
		answers: "1.3=#1 2.1=92"},
	{name: "want asked", ask: "want", done: "2.1",
		answers: "2.1=92 3.1=50.17 4.1=#2 5.1=#1 6.2=0.7778 9.2=#1 10.2=3980"},
	{name: "small filter of fruit, in asked", show: smallFruit, ask: "in", done: "1.1 2.1 2.2",
		answers: "2.1=2 3.1=52 4.1=#1 5.1=#1 6.2=14.31 9.2=#1 10.2=24.47"},
	{name: "small filter of fruit, cherry asked", show: smallFruit, ask: "cherry", done: "1.1",
		answers: "1.3=#2 2.1=2 3.1=52 4.1=#1 5.1=#1 6.2=14.31 9.2=#1 10.2=24.47"},
	{name: "a blocked filter, m rounded up to whole blocks", show: "variant=blocked",
		answers: "2.1=8 3.1=49.98 4.1=#2 5.1=#1 6.2=0.9111 9.2=#1 10.2=4026"},
	{name: "2.5 bits per key", show: "bits-per-key=2.5", done: "3.1 6.2",
		answers: "2.1=2 3.1=93.69 4.1=#1 5.1=#1 6.2=63.6 9.2=#1 10.2=3947"},
	{name: "3 bits per key", show: "bits-per-key=3", done: "3.2 6.2",
		answers: "2.1=2 3.1=89.88 4.1=#1 5.1=#1 6.2=46.87 9.2=#1 10.2=3927"},
	{name: "3.5 bits per key", show: "bits-per-key=3.5", done: "3.2 6.2",
		answers: "2.1=4 3.1=85.86 4.1=#1 5.1=#2 6.2=34.11 9.2=#1 10.2=3912"},
	{name: "k = 8", show: "hashes=8",
		answers: "2.1=92 3.1=54.96 4.1=#2 5.1=#1 6.2=0.6889 9.2=#1 10.2=3988"},
	{name: "k = 9", show: "hashes=9", done: "3.2",
		answers: "2.1=82 3.1=59.27 4.1=#2 5.1=#1 6.2=0.8667 9.2=#1 10.2=3993"},
	{name: "k = 9 at 2.5 bits per key", show: "bits-per-key=2.5&hashes=9", done: "3.1 6.2",
		answers: "2.1=2 3.1=97.31 4.1=#1 5.1=#1 6.2=77.89 9.2=#1 10.2=4017"},
	{name: "k = 9, cuckoo", show: "hashes=9&variant=cuckoo",
		answers: "2.1=14 3.1=80 4.1=#1 5.1=#1 6.2=2.689 9.2=#2"},
	{name: "k = 9, counting", show: "hashes=9&variant=counting", done: "3.2",
		answers: "2.1=82 3.1=59.27 4.1=#2 5.1=#1 6.2=0.8667 9.2=#1 10.2=3993"},
	{name: "two duplicate passes", show: "duplicate-passes=2", done: "3.3",
		answers: "2.1=92 3.1=50.17 4.1=#2 5.1=#1 6.2=0.7778 9.2=#1 10.2=3980"},
	{name: "three duplicate passes", show: "duplicate-passes=3", done: "3.3",
		answers: "2.1=92 3.1=50.17 4.1=#2 5.1=#1 6.2=0.7778 9.2=#1 10.2=3980"},
	{name: "three duplicate passes, running", show: "duplicate-passes=3", with: "running",
		answers: "2.1=92"},
	{name: "three duplicate passes, clear-on-duplicate", show: "duplicate-passes=3&fault=clear-on-duplicate",
		answers: "2.1=383 3.1=36.29 4.1=#2 5.1=#2 6.2=0.08889 9.2=#1 10.2=2576"},
	{name: "6.2 bits per key, optimal k", show: "bits-per-key=6.2&optimal-k=on", done: "4.1",
		answers: "2.1=82 3.1=47.52 4.1=#1 5.1=#1 6.2=4.822 9.2=#1 10.2=3997"},
	{name: "6.2 bits per key, k = 5", show: "bits-per-key=6.2&hashes=5", done: "4.2",
		answers: "2.1=18 3.1=55.18 4.1=#1 5.1=#2 6.2=4.267 9.2=#1 10.2=3980"},
	{name: "6.2 bits per key, k-ceil", show: "bits-per-key=6.2&fault=k-ceil&optimal-k=on", done: "4.2 5.3",
		answers: "2.1=18 3.1=55.18 4.1=#1 5.1=#2 6.2=4.267 9.2=#1 10.2=3980"},
	{name: "short-range", show: "fault=short-range", done: "5.1",
		answers: "2.1=92 3.1=49.7 4.1=#2 5.1=#1 6.2=0.9333 9.2=#1 10.2=3926"},
	{name: "short-range, audited", show: "fault=short-range", with: "audited", done: "5.1 5.2",
		answers: "2.1=92 3.1=49.7 4.1=#2 5.1=#1 6.2=0.9333 9.2=#1 10.2=3926"},
	{name: "short-range, 20,000 keys", show: "fault=short-range&items=20000&queries=200000", done: "5.3 6.3",
		answers: "2.1=92 3.1=49.91 4.1=#2 5.1=#2 6.2=0.95 9.2=#1 10.2=1.975e+04"},
	{name: "8,000 keys at 4.8 bits, played to 4,000", show: "bits-per-key=4.8&items=8000&play-at=4000", done: "6.1",
		answers: "2.1=69 3.1=51.77 4.1=#2 5.1=#1 6.2=1.022 9.2=#1 10.2=4001"},
	{name: "8,000 keys at 4.8 bits, played to 3,000", show: "bits-per-key=4.8&items=8000&play-at=3000",
		answers: "2.1=348 3.1=42.02 4.1=#2 5.1=#1 6.2=0.2222 9.2=#1 10.2=2990"},
	{name: "8,000 keys at 4.8 bits", show: "bits-per-key=4.8&items=8000", done: "3.2 6.2",
		answers: "2.1=1 3.1=76.64 4.1=#1 5.1=#1 6.2=15.42 9.2=#1 10.2=7976"},
	{name: "8,000 keys at 9.6 bits", show: "bits-per-key=9.6&items=8000", done: "6.3",
		answers: "2.1=7 3.1=51.62 4.1=#2 5.1=#1 6.2=0.8667 9.2=#1 10.2=7967"},
	{name: "8,000 keys at 9.6 bits, played to 4,000", show: "bits-per-key=9.6&items=8000&play-at=4000",
		answers: "3.1=30.53 4.1=#2 5.1=#1 6.2=0 9.2=#1 10.2=3996"},
	{name: "forged", attack: "forge", done: "2.1 7.1",
		answers: "2.1=92 3.1=50.17 4.1=#2 5.1=#1 6.2=0.7778 9.2=#1 10.2=3980"},
	{name: "weak-hash, apple typed", show: "fault=weak-hash&try=apple", done: "5.3",
		answers: "2.1=4 3.1=44.76 4.1=#2 5.1=#2 6.2=5.178 9.2=#1 10.2=3392"},
	{name: "weak-hash, apple typed, forged", show: "fault=weak-hash&try=apple", attack: "forge", done: "2.1 2.2 5.3 7.2",
		answers: "2.1=4 3.1=44.76 4.1=#2 5.1=#2 6.2=5.178 9.2=#1 10.2=3392"},
	{name: "small filter, filled", show: "bits-per-key=5&hashes=3&items=20", attack: "fill 8", done: "1.1 7.3",
		answers: "2.1=3 3.1=68 4.1=#1 5.1=#2 6.2=31.29 7.3=24 9.2=#1 10.2=37.98"},
	{name: "six PINs, recovered", show: sixPINs, attack: "recover pins", done: "1.1 8.1",
		answers: "2.1=92 3.1=50.22 4.1=#2 5.1=#1 6.2=0.7778 8.1=84 9.2=#1 10.2=3987"},
	{name: "no PINs, recovered", attack: "recover pins",
		answers: "2.1=92 3.1=50.17 4.1=#2 5.1=#1 6.2=0.7778 8.1=77 9.2=#1 10.2=3980"},
	{name: "six PINs at 17 bits, recovered", show: "bits-per-key=17&" + sixPINs, attack: "recover pins", done: "1.1 8.1",
		answers: "3.1=33.66 4.1=#2 5.1=#1 6.2=0.04444 8.1=16 9.2=#1 10.2=3987"},
	{name: "six PINs at 18 bits, recovered", show: "bits-per-key=18&" + sixPINs, attack: "recover pins", done: "1.1 8.1 8.2",
		answers: "2.1=92 3.1=32.23 4.1=#2 5.1=#1 6.2=0.02222 8.1=10 9.2=#1 10.2=4002"},
	{name: "six PINs at 18 bits, ids recovered", show: "bits-per-key=18&" + sixPINs, attack: "recover ids", done: "1.1",
		answers: "2.1=92 3.1=32.23 4.1=#2 5.1=#1 6.2=0.02222 8.1=26 9.2=#1 10.2=4002"},
	{name: "three ids at 18 bits, recovered", show: "bits-per-key=18&" + threeIDs, attack: "recover ids", done: "1.1 8.3",
		answers: "2.1=92 3.1=32.22 4.1=#2 5.1=#1 6.2=0.02222 8.1=29 9.2=#1 10.2=4000"},
	{name: "2,000 keys", show: "items=2000", done: "10.1",
		answers: "2.1=92 3.1=50.03 4.1=#2 5.1=#1 6.2=0.8889 9.2=#1 10.2=1982"},
	{name: "2,000 keys, three passes", show: "items=2000&duplicate-passes=3", done: "3.3 10.1 10.2",
		answers: "2.1=92 3.1=50.03 4.1=#2 5.1=#1 6.2=0.8889 9.2=#1 10.2=1982"},
	{name: "2,000 keys at 1.5 bits", show: "items=2000&bits-per-key=1.5", done: "3.1 6.2 10.1 10.3",
		answers: "2.1=2 3.1=98.97 4.1=#1 5.1=#1 6.2=92.51 9.2=#1 10.2=1960"},
	{name: "2,000 keys at 2 bits", show: "items=2000&bits-per-key=2", done: "3.1 6.2 10.1",
		answers: "2.1=6 3.1=96.65 4.1=#1 5.1=#2 6.2=77.04 9.2=#1 10.2=1941"},
	{name: "2,000 keys at half a bit", show: "items=2000&bits-per-key=0.5", done: "3.1 6.2",
		answers: "2.1=1 3.1=100 4.1=#1 5.1=#1 6.2=100 9.2=#1"},
}

// state builds the row's state with the core, as the page reaches it:
// its fields read by the lesson checker, the lab run, the key panel's
// answers or attack after it.
func (row labRow) state(t *testing.T) lab.State {
	t.Helper()
	src := "# States\n\nA state of the lab.\n\n## State\n\nThe state.\n\nshow: " + row.show + "\n"
	if row.ask != "" {
		src += "ask: " + row.ask + "\n"
	}
	if row.attack != "" {
		src += "attack: " + row.attack + "\n"
	}
	f, errs := lessonfile.Parse([]byte(src))
	if len(errs) > 0 {
		t.Fatalf("%s:\n%s", row.name, errs.Format("the row"))
	}
	step := fromFile(f).Steps[0]
	with := strings.Fields(row.with)
	step.Audited = slices.Contains(with, "audited")
	st := stepAt(t, step)
	if slices.Contains(with, "running") {
		st.Result = nil
	}
	if slices.Contains(with, "large") {
		st.Settings.Large = true
	}
	return st
}

// rowStates are the states of labRows, in order.
func rowStates(t *testing.T) []lab.State {
	t.Helper()
	out := make([]lab.State, len(labRows))
	for i, row := range labRows {
		out[i] = row.state(t)
	}
	return out
}

// numbered is a built-in step and its place, "lesson.step".
type numbered struct {
	at   string
	step lessonStep
}

// builtInSteps are the built-in lessons' steps, in order.
func builtInSteps() []numbered {
	var out []numbered
	for li, l := range builtInLessons() {
		for si, step := range l.Steps {
			out = append(out, numbered{fmt.Sprintf("%d.%d", li+1, si+1), step})
		}
	}
	return out
}

// readStep reads step in st as labRow writes it: whether its task is
// done, and its prediction's answer if it has one and it is known.
func readStep(step lessonStep, st lab.State) (done bool, answer string, known bool) {
	done = !step.reading() && step.Done(st)
	q := step.Question
	if q == nil {
		return done, "", false
	}
	a, ok := q.Answer(st)
	switch {
	case !ok:
		return done, "", false
	case q.numeric():
		return done, strconv.FormatFloat(a, 'g', 4, 64), true
	}
	return done, fmt.Sprintf("#%v", a+1), true
}

// TestLessonConditions is what the built-in lessons' conditions and
// predictions do, read from their files: in every state of labRows,
// exactly the steps the row lists are done, and exactly its answers are
// known, with its values. A threshold moved in a lesson's file moves a
// state across it here.
func TestLessonConditions(t *testing.T) {
	t.Parallel()
	held, answered, exists := map[string]int{}, map[string]bool{}, map[string]bool{}
	for _, s := range builtInSteps() {
		exists[s.at] = true
	}
	for i, st := range rowStates(t) {
		row := labRows[i]
		wantDone, wantAnswers := map[string]bool{}, map[string]string{}
		for _, at := range strings.Fields(row.done) {
			wantDone[at] = true
		}
		for _, a := range strings.Fields(row.answers) {
			at, v, _ := strings.Cut(a, "=")
			wantAnswers[at] = v
		}
		for _, at := range append(strings.Fields(row.done), slices.Collect(maps.Keys(wantAnswers))...) {
			if !exists[at] {
				t.Errorf("%s: the table names step %s, which no lesson has", row.name, at)
			}
		}
		for _, s := range builtInSteps() {
			done, answer, known := readStep(s.step, st)
			if done != wantDone[s.at] {
				t.Errorf("%s: step %s done %v, the table says %v", row.name, s.at, done, wantDone[s.at])
			}
			if want, ok := wantAnswers[s.at]; answer != want || known != ok {
				t.Errorf("%s: step %s answers %q (known %v), the table says %q (known %v)", row.name, s.at, answer, known, want, ok)
			}
			if done {
				held[s.at]++
			}
			answered[s.at] = answered[s.at] || known
		}
	}
	// Every task is done in some state and not in another, and every
	// prediction is answered somewhere: the table reads every step.
	for _, s := range builtInSteps() {
		if n := held[s.at]; !s.step.reading() && (n == 0 || n == len(labRows)) {
			t.Errorf("step %s: done in %d of the %d states; the table tells nothing of it", s.at, n, len(labRows))
		}
		if s.step.Question != nil && !answered[s.at] {
			t.Errorf("step %s: its prediction is answered in none of the states", s.at)
		}
	}
}
