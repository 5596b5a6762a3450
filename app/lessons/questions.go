package lessons

import (
	"fmt"
	"math"
	"net/url"

	"github.com/bloomlab/bloomlab/app/lab"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui/format"
	"github.com/bloomlab/bloomlab/core/try"
)

// Predict, then see. A step may ask a question before the lab answers it:
// a figure on a slider (the fill at these settings, the rate after a
// doubling) or one of a few answers (which k is better, will this key
// answer no). The learner commits a guess; the page then puts the lab in
// the step's "show me" state, reads the answer from the lab's own run
// there, and scores the guess against it. Committing first is the point:
// a guess made after seeing the counters teaches nothing, so a teacher's
// link (guess=first) veils the counters or the key panel's answer until
// the guess is in.
//
// Everything a question says is checked against the core in
// questions_test.go: its answer is read from its step's show-me state,
// the sentence on why quotes that answer, and a choice's sentence starts
// with the right option.

// IDGuess is the link key of a teacher's link: guess=first hides the
// lab's answer to the step's question until the learner guessed.
const (
	IDGuess    = "guess"
	guessFirst = "first"
)

// veil is what of the lab gives a question's answer away, and a
// teacher's link hides until the guess.
type veil string

const (
	// veilReadouts are the counters, the charts and the bit array's
	// caption: the answer to a question about a figure.
	veilReadouts veil = "readouts"
	// veilAnswer is the key panel's answer: the answer to a question
	// about a query.
	veilAnswer veil = "answer"
	// veilBoth are the readouts and the key panel's answer: the answer
	// to a question about an attack, which the panel tells and the
	// counters show.
	veilBoth veil = "both"
)

// question is a step's prediction: numeric when Options is empty, else a
// choice among Options.
type question struct {
	// Prompt asks, in one sentence.
	Prompt string

	// A numeric guess is Min + i·Step for a slider position i from 0 to
	// Steps (at most maxSteps); the slider starts at Start. Unit follows
	// a value ("%", " words"), Points names a distance ("percentage
	// points", "words"), and a guess within Tolerance of the answer is
	// close.
	Min, Step, Start, Tolerance float64
	Steps                       int
	Unit, Points                string

	// Options are a choice's answers, in the order shown.
	Options []string

	// Answer reads the answer from the lab's state in the step's show-me
	// settings: a numeric question's figure in Unit, or a choice's index
	// in Options; ok is false while the state does not hold it yet (its
	// run not finished, its key not yet answered).
	Answer func(st lab.State) (answer float64, ok bool)
	// Why says in one sentence why the answer is what it is, quoting it.
	Why string
	// Veil is what a teacher's link hides until the guess.
	Veil veil
}

// maxSteps bounds a slider's positions to the range input's default
// track, 0 to 100: go-app sets a new input's attributes in no fixed
// order, and a value set before a smaller max would be clamped.
const maxSteps = 100

// numeric reports a question answered on a slider.
func (q *question) numeric() bool { return len(q.Options) == 0 }

// value is the guess at slider position i, clamped to the track.
func (q *question) value(i int) float64 {
	return q.Min + float64(min(max(i, 0), q.Steps))*q.Step
}

// position is the slider position nearest guess v.
func (q *question) position(v float64) int {
	if math.IsNaN(v) {
		return 0
	}
	return int(math.Min(math.Max(math.Round((v-q.Min)/q.Step), 0), float64(q.Steps)))
}

// legal reports whether guess is one the question's control can give: a
// slider's value, or an option's index. A kept guess is read back only if
// it is.
func (q *question) legal(guess float64) bool {
	if math.IsNaN(guess) || math.IsInf(guess, 0) {
		return false
	}
	if !q.numeric() {
		return guess == math.Trunc(guess) && guess >= 0 && int(guess) < len(q.Options)
	}
	return math.Abs(q.value(q.position(guess))-guess) < 1e-9
}

// measure reads the answer from the lab's state st, if st is the lab in
// the step's show-me settings (large type aside) with its run finished.
func (q *question) measure(show settings.Lab, st lab.State) (float64, bool) {
	s := st.Settings
	s.Large = show.Large
	if a := st.Attack; a != nil && a.Kind == try.AttackFill {
		// A fill of the show-me filter types its keys in: the lab
		// stands at show with them.
		on := st.AttackOn
		on.Large = show.Large
		if on == show {
			show.Typed = settings.JoinTyped(append(show.Typed.List(), a.Keys...))
		}
	}
	if s != show || st.Shown() == nil {
		return 0, false
	}
	a, ok := q.Answer(st)
	if !ok || math.IsNaN(a) || math.IsInf(a, 0) {
		return 0, false
	}
	return a, true
}

// score is a guess against the answer: Close when a numeric guess lies
// within the tolerance or a choice is right; Off is guess - answer, in
// Unit (0 for a right choice, 1 for a wrong one).
type score struct {
	Close bool
	Off   float64
}

// score scores guess against answer.
func (q *question) score(guess, answer float64) score {
	if !q.numeric() {
		right := guess == answer
		return score{Close: right, Off: map[bool]float64{true: 0, false: 1}[right]}
	}
	off := guess - answer
	return score{Close: math.Abs(off) <= q.Tolerance, Off: off}
}

// decimals is how many decimals a numeric question's distances show.
func (q *question) decimals() int {
	if q.Step < 1 || q.Unit == "%" {
		return 1
	}
	return 0
}

// showGuess writes a guess as the page shows it: a slider's value with
// its unit, or the option chosen.
func (q *question) showGuess(v float64) string {
	if !q.numeric() {
		if i := int(v); q.legal(v) {
			return q.Options[i]
		}
		return "none"
	}
	return format.Plain(v) + q.Unit
}

// showAnswer writes the answer as the lab shows it: a percentage with the
// counters' three significant digits, a count whole, a choice's option.
func (q *question) showAnswer(a float64) string {
	switch {
	case !q.numeric():
		return q.showGuess(a)
	case q.Unit == "%":
		return format.Percent(a / 100)
	}
	return format.Float(a, 0) + q.Unit
}

// tolerance states how close counts as close.
func (q *question) tolerance() string {
	return "within " + format.Plain(q.Tolerance) + " " + q.Points + " counts as close"
}

// verdict says how the guess did: close or not, and how far off (the
// tolerance is stated beside the slider).
func (q *question) verdict(sc score) string {
	if !q.numeric() {
		if sc.Close {
			return "Right."
		}
		return "Not this time."
	}
	d := q.decimals()
	off := math.Abs(sc.Off)
	dir := "too high"
	if sc.Off < 0 {
		dir = "too low"
	}
	far := format.Float(off, d) + " " + q.Points + " " + dir
	if format.Float(off, d) == format.Float(0, d) {
		far = "spot on"
	}
	if sc.Close {
		return "Close: " + far + "."
	}
	return "Off: " + far + "."
}

// guessMode reads the teacher's key of a link: guess=first hides the
// lab's answer until the guess. Any other value is ignored with a notice
// saying what the key takes.
func guessMode(q url.Values) (first bool, notice string) {
	raw, ok := settings.Lookup(q, IDGuess)
	switch {
	case !ok:
		return false, ""
	case raw == guessFirst:
		return true, ""
	}
	return false, fmt.Sprintf("%s: %s is not a way to ask; %s=%s hides the lab's answer until the guess, so the answer is shown",
		IDGuess, settings.Quote(raw), IDGuess, guessFirst)
}
