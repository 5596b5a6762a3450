package lessons

import (
	"math"
	"strconv"

	"github.com/bloomlab/bloomlab/app/ui"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Element IDs of a step's question.
const (
	IDQuestion      = "lesson-question"
	IDGuessSlider   = "lesson-guess"
	IDGuessValue    = "lesson-guess-value"
	IDGuessCheck    = "lesson-check"
	IDGuessAnswer   = "lesson-answer"
	IDGuessMeasured = "lesson-answer-measured"
	IDGuessScore    = "lesson-answer-score"
	// IDGuessChoice is the prefix of a choice's radio buttons, numbered
	// from 1.
	IDGuessChoice = "lesson-choice-"
)

// guessesKey is where the browser keeps the guesses, beside the progress.
const guessesKey = "bloomlab.lessons.guesses.v1"

// keptGuess is a committed guess at a step's question: the guess (a
// slider's value or an option's index), and once the lab measured it the
// answer and whether the guess was close.
type keptGuess struct {
	Guess    float64 `json:"guess"`
	Answer   float64 `json:"answer"`
	Measured bool    `json:"measured"`
	Close    bool    `json:"close"`
}

// keptGuesses are the committed guesses, by stepKey.
type keptGuesses map[string]keptGuess

// asking is the page's side of the step's question: what the link asks,
// the guess being set, and the guesses kept.
type asking struct {
	// first is set by a teacher's link (guess=first); misread that the
	// link's guess key was not understood.
	first, misread bool
	// pos is the slider's position, choice the option chosen (-1 none);
	// nudge asks for a choice when none was made.
	pos, choice int
	nudge       string
	kept        keptGuesses
}

// question is the shown step's question, nil for none.
func (c *Page) question() *question { return c.shownStep().Question }

// committed is the shown step's kept guess, if the learner committed one
// and it is one its question can give.
func (c *Page) committed() (keptGuess, bool) {
	q := c.question()
	if q == nil {
		return keptGuess{}, false
	}
	g, ok := c.ask.kept[stepKey(c.lesson, c.step)]
	return g, ok && q.legal(g.Guess) && (!g.Measured || !math.IsNaN(g.Answer))
}

// veiled is what of the lab the page hides: under a teacher's link, the
// question's giveaway until its guess is in.
func (c *Page) veiled() veil {
	q := c.question()
	if q == nil || !c.ask.first {
		return ""
	}
	if _, ok := c.committed(); ok {
		return ""
	}
	return q.Veil
}

// startGuess sets the controls for the step: at the kept guess, or at
// the question's start.
func (c *Page) startGuess() {
	c.ask.pos, c.ask.choice, c.ask.nudge = 0, -1, ""
	q := c.question()
	if q == nil {
		return
	}
	c.ask.pos = q.position(q.Start)
	if g, ok := c.committed(); ok {
		if q.numeric() {
			c.ask.pos = q.position(g.Guess)
		} else {
			c.ask.choice = int(g.Guess)
		}
	}
}

// measureGuess scores the committed guess once the lab stands in the
// step's show-me state with its answer, and keeps it.
func (c *Page) measureGuess(ctx app.Context) {
	q := c.question()
	g, ok := c.committed()
	if !ok || g.Measured {
		return
	}
	a, ok := q.measure(c.shownStep().Show, c.State())
	if !ok {
		return
	}
	g.Answer, g.Measured, g.Close = a, true, q.score(g.Guess, a).Close
	c.keepGuess(ctx, g)
}

// keepGuess records g for the shown step, in the page and the browser.
func (c *Page) keepGuess(ctx app.Context, g keptGuess) {
	if c.own.lesson != nil {
		c.ask.kept[stepKey(c.lesson, c.step)] = g
		return
	}
	c.ask.kept = loadGuesses(ctx, c.ask.kept)
	c.ask.kept[stepKey(c.lesson, c.step)] = g
	saveGuesses(ctx, c.ask.kept)
}

func (c *Page) onGuessInput(ctx app.Context, e app.Event) {
	q := c.question()
	if q == nil {
		return
	}
	if i, err := strconv.Atoi(ctx.JSSrc().Get("value").String()); err == nil {
		c.ask.pos = min(max(i, 0), q.Steps)
	}
}

func (c *Page) onChoice(i int) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		if q := c.question(); q != nil && i >= 0 && i < len(q.Options) {
			c.ask.choice, c.ask.nudge = i, ""
		}
	}
}

// onCheck commits the guess and has the lab answer: at once if it stands
// in the step's show-me state, else after "show me" put it there. A
// committed guess's button asks again instead.
func (c *Page) onCheck(ctx app.Context, e app.Event) {
	q := c.question()
	if q == nil {
		return
	}
	if _, ok := c.committed(); ok {
		c.ask.kept = loadGuesses(ctx, c.ask.kept)
		delete(c.ask.kept, stepKey(c.lesson, c.step))
		saveGuesses(ctx, c.ask.kept)
		c.startGuess()
		return
	}
	guess := q.value(c.ask.pos)
	if !q.numeric() {
		if c.ask.choice < 0 {
			c.ask.nudge = "Choose one of the answers first."
			return
		}
		guess = float64(c.ask.choice)
	}
	c.ask.nudge = ""
	c.keepGuess(ctx, keptGuess{Guess: guess})
	c.measureGuess(ctx)
	if g, _ := c.committed(); !g.Measured {
		c.onShow(ctx, e)
	}
}

// renderQuestion is the step's question: the prompt, a slider or the
// options, the button that commits, and the answer as a polite live
// region. It is always in the page, hidden on a step without one, and
// keeps its button in place, so that "show me" asked on its context is
// answered.
func (c *Page) renderQuestion() app.UI {
	q := c.question()
	if q == nil {
		q = &question{}
	}
	g, committed := c.committed()
	button := "Check my guess"
	if committed {
		button = "Guess again"
	}
	var control app.UI
	if q.numeric() {
		value := q.showGuess(q.value(c.ask.pos))
		control = app.Span().Class("lesson-guess").Body(
			app.Label().For(IDGuessSlider).Class("visually-hidden").Text("Your guess"),
			ui.Disabled(app.Input().Type("range").ID(IDGuessSlider).Min(0).Max(q.Steps).
				Value(c.ask.pos).Aria("valuetext", value).Aria("describedby", "lesson-question-prompt"), committed).
				OnInput(c.onGuessInput),
			app.Output().ID(IDGuessValue).For(IDGuessSlider).Text(value),
		)
	} else {
		control = app.Span().Class("lesson-choices").Role("radiogroup").Aria("labelledby", "lesson-question-prompt").Body(
			app.Range(q.Options).Slice(func(i int) app.UI {
				id := IDGuessChoice + strconv.Itoa(i+1)
				return app.Label().For(id).Class("lesson-choice").Body(
					ui.Disabled(ui.Checked(app.Input().Type("radio").Name("lesson-choice").ID(id).Value(i), c.ask.choice == i), committed).
						OnChange(c.onChoice(i)),
					app.Text(" "+q.Options[i]),
				)
			}),
		)
	}
	closeness := ""
	if committed && g.Measured {
		closeness = strconv.FormatBool(g.Close)
	}
	return ui.Hidden(app.Div().ID(IDQuestion).Class("lesson-question"), c.question() == nil).
		DataSet("close", closeness).DataSet("choice", c.ask.choice).Body(
		app.P().ID("lesson-question-prompt").Class("lesson-question-prompt").Body(
			app.Strong().Text("Predict: "), app.Text(q.Prompt),
		),
		app.Div().Class("lesson-guess-row").Body(
			control,
			app.Button().ID(IDGuessCheck).Class("chip primary").Text(button).OnClick(c.onCheck),
			ui.Hidden(app.Small().ID("lesson-tolerance").Class("muted"), !q.numeric()).Text("("+q.tolerance()+")"),
		),
		app.P().ID(IDGuessAnswer).Class("lesson-answer").Role("status").Aria("live", "polite").Body(
			c.renderAnswer(q, g, committed)...,
		),
	)
}

// renderAnswer is the answer region's content: a nudge, the guess waiting
// for the lab, or the guess beside the lab's answer with its score and
// why; under a teacher's link before the guess, what is hidden.
func (c *Page) renderAnswer(q *question, g keptGuess, committed bool) []app.UI {
	switch {
	case c.ask.nudge != "":
		return []app.UI{app.Text(c.ask.nudge)}
	case !committed && c.veiled() != "":
		return []app.UI{app.Text("Guess first: this step's text, its task and the lab's answer show once your guess is in.")}
	case !committed:
		return nil
	case !g.Measured:
		return []app.UI{app.Text("Your guess, " + q.showGuess(g.Guess) + ", is in; the lab answers at this step's settings, where Show me puts it.")}
	}
	return []app.UI{
		app.Span().ID("lesson-answer-guess").Text("Your guess: " + q.showGuess(g.Guess) + ". "),
		app.Span().Text("The lab's answer: "),
		app.Strong().ID(IDGuessMeasured).Text(q.showAnswer(g.Answer)),
		app.Text(". "),
		app.Span().ID(IDGuessScore).Class("lesson-score").Text(q.verdict(q.score(g.Guess, g.Answer))),
		app.Text(" "),
		app.Span().ID("lesson-answer-why").Text(q.Why),
	}
}

// loadGuesses reads the kept guesses from the browser's storage, keeping
// only those its steps' questions can give; had where it keeps nothing.
func loadGuesses(ctx app.Context, had keptGuesses) (kept keptGuesses) {
	defer func() {
		if recover() != nil {
			kept = had
		}
	}()
	if had == nil {
		had = keptGuesses{}
	}
	read := keptGuesses{}
	if err := ctx.LocalStorage().Get(guessesKey, &read); err != nil {
		return had
	}
	kept = keptGuesses{}
	for li, l := range builtInLessons() {
		for si, step := range l.Steps {
			k := stepKey(li, si)
			if g, ok := read[k]; ok && step.Question != nil && step.Question.legal(g.Guess) && !math.IsNaN(g.Answer) && !math.IsInf(g.Answer, 0) {
				kept[k] = g
			}
		}
	}
	return kept
}

// saveGuesses writes the kept guesses; a browser that keeps nothing
// keeps them for the visit.
func saveGuesses(ctx app.Context, kept keptGuesses) {
	defer func() { recover() }()
	ctx.LocalStorage().Set(guessesKey, kept)
}

// forgetGuesses clears the kept guesses, with the progress.
func forgetGuesses(ctx app.Context) {
	defer func() { recover() }()
	ctx.LocalStorage().Del(guessesKey)
}
