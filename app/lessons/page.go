package lessons

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/bloomlab/bloomlab/app/lab"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Link keys of a lesson's place: the lesson and its step, from 1.
const (
	IDLesson = "lesson"
	IDStep   = "step"
)

// Element IDs of the lesson panel.
const (
	IDLessonPanel = "lesson-panel"
	IDLessonBar   = "lesson-bar"
	IDLessonTask  = "lesson-task"
	IDLessonShow  = "lesson-show"
	IDLessonPrev  = "lesson-prev"
	IDLessonNext  = "lesson-next"
	IDLessonReset = "lesson-reset"
)

// progressKey is where the browser keeps the steps done (localStorage).
const progressKey = "bloomlab.lessons.v1"

// labPage is lab.Page under a name of its own: Page embeds the lab
// through it, so the embedded field is unexported. go-app, when a
// navigation lands on the page it shows, copies every exported field of a
// freshly made page onto the live one; an exported Page field would be
// the whole lab, reset at every move of a slider.
type labPage = lab.Page

// Page is the lab with a guided lesson on top: the lessons, the
// step's paragraph, its task with a live status, "show me", back and next.
// The place lives in the link (lesson= and step=) beside the lab's
// settings, so a teacher can put a class on one step; the steps done are
// kept in the browser.
type Page struct {
	labPage

	// lesson and step are the place shown, from 0; notices say what a
	// link asked for that does not exist.
	lesson, step int
	placed       bool
	notices      []string

	// done is whether the step's task holds now; progress the steps done
	// so far; unkept that the browser turned out to keep nothing.
	done     bool
	progress lessonProgress
	unkept   bool
	// quiet is the lab as the page opened it, or as it stood when the
	// progress was reset, until the learner changes it: a task done in
	// that state shows done but is not recorded, so that a shared link of
	// a finished step gives no one the step, and a reset stays reset.
	quiet *quietLab

	// ask is the step's question, if it has one (guess.go).
	ask asking

	// own is a teacher's lesson, shown instead of the built-in ones
	// (own.go), and write the view that writes one (write.go).
	own   owning
	write writing
}

// quietLab is the lab at a moment: its settings and how many answers the
// key panel had given.
type quietLab struct {
	settings settings.Lab
	answers  int
}

func New() *Page {
	c := &Page{progress: lessonProgress{}, ask: asking{choice: -1, kept: keptGuesses{}}}
	c.labPage.Init()
	c.OnChange(c.check)
	c.EmbedAs(c.embedStep)
	return c
}

// embedStep is what the lesson's Embed box embeds: the lab as the learner
// sees it, with the step's keys when the lab holds none of its own, and
// the key panel where the step works with keys, so the frame shows what
// the step is about.
func (c *Page) embedStep(s settings.Lab) (settings.Lab, settings.Embed) {
	step, e := c.shownStep(), settings.DefaultEmbed()
	if s.Typed == "" {
		s.Typed = step.Show.Typed
	}
	e.Panel = s.Typed != "" || len(step.Ask) > 0 || step.Attack != nil
	return s, e
}

// OnInit starts the live page where the prerendered one stands: the
// lesson and step of the link and the lab's first view, so the page's
// first render is the prerendered page's twin. OnNav does the rest.
func (c *Page) OnInit() {
	c.labPage.OnInit()
	if app.IsClient {
		q := app.Window().URL().Query()
		c.lesson, c.step, _ = lessonPlace(q, builtInLessons())
		c.ask.first, _ = guessMode(q)
		c.startGuess()
	}
}

// shownStep is the step shown.
func (c *Page) shownStep() lessonStep { return c.list()[c.lesson].Steps[c.step] }

func (c *Page) OnMount(ctx app.Context) {
	c.labPage.OnMount(ctx)
	c.progress, c.unkept = loadProgress(ctx)
	c.ask.kept = loadGuesses(ctx, c.ask.kept)
	c.startGuess()
	c.check(ctx)
}

// OnNav reads the lesson's place and then the lab's settings from the
// link. A new place begins the step: the key panel's answers so far are
// forgotten, so the task is done by what the learner does in it.
func (c *Page) OnNav(ctx app.Context) {
	q := ctx.Page().URL().Query()
	c.openSrc(ctx, q)
	li, si, notices := lessonPlace(q, c.list())
	first, notice := guessMode(q)
	opened := !c.placed
	arrived := opened || li != c.lesson || si != c.step
	if arrived {
		c.lesson, c.step, c.placed = li, si, true
		c.ClearQueries()
		c.done, c.quiet = false, nil
		c.startGuess()
	}
	c.ask.first, c.ask.misread = first, notice != ""
	if notice != "" {
		notices = append(notices, notice)
	}
	c.notices = notices
	c.Keep(c.placeKeys(li, si))
	c.labPage.OnNav(ctx)
	if opened {
		c.hush()
	}
	if arrived && app.IsClient && c.shownStep().reading() {
		c.record(ctx)
	}
	ctx.Page().SetTitle(fmt.Sprintf("%s, step %d · Bloom Lab lessons", c.list()[li].Title, si+1))
	c.check(ctx)
}

// check re-reads the step's task on the lab as it stands, and records the
// step done the moment it is so by the learner's doing (see quiet). A
// step to read is recorded as the learner arrives at it (OnNav), not
// here: a reset while on it stays reset.
func (c *Page) check(ctx app.Context) {
	if !c.placed {
		return
	}
	st := c.State()
	if q := c.quiet; q != nil && (st.Settings != q.settings || len(st.Queries) != q.answers) {
		c.quiet = nil
	}
	c.done = c.shownStep().Done(st)
	if c.done && c.quiet == nil && !c.shownStep().reading() {
		c.record(ctx)
	}
	c.measureGuess(ctx)
}

// record records the shown step done, once.
func (c *Page) record(ctx app.Context) {
	switch {
	case c.stepsDone()[stepKey(c.lesson, c.step)]:
	case c.own.lesson != nil:
		c.own.progress[stepKey(c.lesson, c.step)] = true
	default:
		c.progress, c.unkept = markDone(ctx, c.lesson, c.step, c.progress)
	}
}

// hush starts a quiet spell: nothing is recorded done until the lab
// changes.
func (c *Page) hush() {
	c.quiet = &quietLab{settings: c.Settings(), answers: len(c.State().Queries)}
}

// place returns the page's address at lesson li, step si (from 0), with
// the lab's settings as they are.
func (c *Page) place(li, si int) string {
	q := c.Settings().Query()
	for k, vs := range c.placeKeys(li, si) {
		q[k] = vs
	}
	return ui.Href(ui.RouteLessons) + "?" + q.Encode()
}

// placeKeys are the link keys of the lesson's place: the lesson, the
// step, and a teacher's guess=first, which goes on from step to step.
func (c *Page) placeKeys(li, si int) url.Values {
	q := url.Values{IDLesson: {strconv.Itoa(li + 1)}, IDStep: {strconv.Itoa(si + 1)}}
	if c.ask.first {
		q.Set(IDGuess, guessFirst)
	}
	if o := c.own.lesson; o != nil && o.key != "" {
		q.Set(o.key, o.src)
	}
	return q
}

// neighbour is the place before (by -1) or after (by +1) the one shown,
// across lessons; ok is false past either end.
func (c *Page) neighbour(by int) (li, si int, ok bool) {
	list := c.list()
	li, si = c.lesson, c.step+by
	switch {
	case si < 0 && li > 0:
		li--
		si = len(list[li].Steps) - 1
	case si >= len(list[li].Steps) && li+1 < len(list):
		li, si = li+1, 0
	}
	return li, si, li >= 0 && li < len(list) && si >= 0 && si < len(list[li].Steps)
}

func (c *Page) onShow(ctx app.Context, e app.Event) {
	step := c.shownStep()
	c.ClearQueries()
	c.done, c.quiet = false, nil
	c.Show(ctx, step.Show, step.Ask, step.Attack)
}

func (c *Page) onMove(by int) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		if li, si, ok := c.neighbour(by); ok {
			ctx.Navigate(c.place(li, si))
		}
	}
}

func (c *Page) onReset(ctx app.Context, e app.Event) {
	if c.own.lesson != nil {
		c.own.progress, c.ask.kept = lessonProgress{}, keptGuesses{}
		c.startGuess()
		c.hush()
		return
	}
	c.progress, c.unkept = resetProgress(ctx)
	forgetGuesses(ctx)
	c.ask.kept = keptGuesses{}
	c.startGuess()
	c.hush()
}

// Render keeps the panel's elements in place from one render to the
// next (a part that comes and goes is hidden, or has a container of its
// own): go-app drops an answer dispatched on the context of an element it
// has since replaced, and "show me" asks the key panel on its button's.
// The lesson panel and the bar render as they mount (ui.Part), each after
// a pause, so their render is not all in the page's first task.
func (c *Page) Render() app.UI {
	return ui.NewShell().Route(ui.RouteLessons).LargeType(c.Settings().Large).Body(
		&ui.Yield{},
		ui.Part(c.renderLesson),
		&ui.Yield{},
		ui.Part(c.renderBar),
		c.Part(),
		c.renderTeach(),
	)
}

// renderLesson is the lesson panel: the lessons, then the step.
func (c *Page) renderLesson() app.UI {
	l, step := c.list()[c.lesson], c.shownStep()
	veiled := c.veiled()
	heading := "That lesson or step does not exist:"
	if c.ask.misread {
		heading = "Some of the link could not be followed:"
	}
	return app.Section().ID(IDLessonPanel).Class("lesson-panel").DataSet("veil", string(veiled)).Aria("labelledby", "lesson-title").
		OnDragOver(c.onDragOver).OnDrop(c.onDrop).Body(
		c.renderLessonList(),
		ui.Notices("lesson-notices", "lesson-notice", heading, c.notices),
		c.renderOwnNotices(),
		app.Div().Class("lesson-card").Body(
			app.Div().Class("lesson-head").Body(
				app.P().ID("lesson-counter").Class("lesson-counter").Text(
					"Lesson "+strconv.Itoa(c.lesson+1)+" of "+strconv.Itoa(len(c.list()))+" · step "+
						strconv.Itoa(c.step+1)+" of "+strconv.Itoa(len(l.Steps))),
				c.renderStepList(),
			),
			app.H1().ID("lesson-title").Text(l.Title),
			ui.Hidden(app.P().ID("lesson-intro").Class("lesson-intro"), c.step != 0).Body(richText(l.Intro)...),
			ui.Hidden(app.P().ID("lesson-text").Class("lesson-text"), veiled != "").Body(richText(step.Text)...),
			c.renderQuestion(),
		),
	)
}

// renderBar is the step's task, its state and the step's buttons, in a
// bar between the lesson and the lab that stays at the top of the window
// while the lab is scrolled (web/lessons.css): the task's work is done in
// the lab, a screen or more below the lesson on a phone, and the learner
// sees it done, and the way on, from there.
func (c *Page) renderBar() app.UI {
	status, statusText := c.taskStatus()
	label, task := "Your task: ", c.shownStep().Task
	if c.shownStep().reading() {
		label, task = "A step to read: ", "nothing to do in the lab."
	}
	return app.Section().ID(IDLessonBar).Class("lesson-bar").Aria("label", "The step's task").Body(
		ui.Hidden(app.Div().ID(IDLessonTask).Class("lesson-task"), c.veiled() != "").DataSet("done", status).Body(
			app.Span().Class("lesson-task-label").Text(label),
			app.Span().ID("lesson-task-text").Text(task),
			app.Span().ID("lesson-status").Class("lesson-status").Role("status").Aria("live", "polite").Text(statusText),
		),
		c.renderActions(),
	)
}

// taskStatus is the task's data-done value and the words that say
// whether the shown step is done: now, before (the lab has moved on
// since), or not yet (an audited step's audit still running). A step to
// read is done once seen, whatever the lab does.
func (c *Page) taskStatus() (done, text string) {
	seen := c.stepsDone()[stepKey(c.lesson, c.step)]
	switch {
	case c.shownStep().reading() && seen:
		return "true", "✓ Done."
	case c.shownStep().reading():
		return "false", "Read, then Next."
	case c.done:
		return "true", "✓ Done."
	case c.stepsDone()[stepKey(c.lesson, c.step)]:
		return "false", "Done before; the lab has moved on since."
	case c.shownStep().Audited && c.State().Audit == nil:
		return "false", "Not done yet: the audit reports when it finishes."
	}
	return "false", "Not done yet."
}

// renderLessonList is the list of lessons, the shown one current and
// each finished one ticked.
func (c *Page) renderLessonList() app.UI {
	return app.Nav().Class("lesson-list").Aria("label", "Lessons").Body(
		app.Ol().Body(app.Range(c.list()).Slice(func(i int) app.UI {
			a := app.A().ID("lesson-link-"+strconv.Itoa(i+1)).Href(c.place(i, 0)).Title(c.list()[i].Title).Body(
				app.Span().Class("lesson-num").Text(strconv.Itoa(i+1)),
				app.Span().Class("lesson-name").Text(" "+c.list()[i].Title),
			)
			if i == c.lesson {
				a = a.Aria("current", "true").Class("current")
			}
			if !c.stepsDone().lessonDone(c.list(), i) {
				return app.Li().Body(a)
			}
			return app.Li().Class("done").Body(a, app.Span().Class("lesson-done").Body(
				app.Text("✓"), app.Span().Class("visually-hidden").Text(" done"),
			))
		})),
		c.renderOwnState(),
	)
}

// renderStepList is the shown lesson's steps, the shown one current and
// each done one ticked.
func (c *Page) renderStepList() app.UI {
	return app.Ol().Class("lesson-steps").Aria("label", "Steps").Body(app.Range(c.list()[c.lesson].Steps).Slice(func(i int) app.UI {
		label, text := "Step "+strconv.Itoa(i+1), strconv.Itoa(i+1)
		done := c.stepsDone()[stepKey(c.lesson, i)]
		if done {
			label, text = label+", done", text+" ✓"
		}
		a := app.A().ID("lesson-step-"+strconv.Itoa(i+1)).Href(c.place(c.lesson, i)).Aria("label", label).Text(text)
		if i == c.step {
			a = a.Aria("current", "step").Class("current")
		}
		if done {
			a = a.DataSet("done", "true")
		}
		return app.Li().Body(a)
	}))
}

// renderActions is the step's buttons: show me, back and next (named for
// the lesson they cross into, if they do), and reset progress, with the
// note when this browser keeps none.
func (c *Page) renderActions() app.UI {
	prevLi, prevSi, hasPrev := c.neighbour(-1)
	nextLi, _, hasNext := c.neighbour(1)
	next := "Next step ▶"
	if hasNext && nextLi != c.lesson {
		next = "Next lesson ▶"
	}
	back := "◀ Back"
	if hasPrev && prevLi != c.lesson {
		back = "◀ Lesson " + strconv.Itoa(prevLi+1) + ", step " + strconv.Itoa(prevSi+1)
	}
	return app.Div().Class("lesson-actions").Body(
		app.Button().ID(IDLessonShow).Class("chip primary").Title("put the lab in this step's state").Text("Show me").OnClick(c.onShow),
		ui.Disabled(app.Button().ID(IDLessonPrev).Class("chip"), !hasPrev).Text(back).OnClick(c.onMove(-1)),
		ui.Disabled(app.Button().ID(IDLessonNext).Class("chip"), !hasNext).Text(next).OnClick(c.onMove(1)),
		app.Span().Class("lesson-spacer"),
		ui.Hidden(app.Small().ID("lesson-storage").Class("muted"), !c.unkept).Text("This browser keeps no progress here; the lessons work all the same."),
		app.Button().ID(IDLessonReset).Class("chip").Title("forget which steps are done, in this browser").
			Text("Reset progress").OnClick(c.onReset),
	)
}

// lessonPlace reads the place a link asks for, lesson and step from 1
// (missing: the first), and returns it from 0. A lesson or step that does
// not exist gives the nearest that does, and a notice naming what was
// asked and what is shown.
func lessonPlace(q url.Values, lessons []lesson) (li, si int, notices []string) {
	li, problem := placeIndex(q, IDLesson, len(lessons))
	if problem != "" {
		notices = append(notices, fmt.Sprintf("%s: %s; the lessons are 1 to %d, so lesson %d, “%s”, is shown",
			IDLesson, problem, len(lessons), li+1, lessons[li].Title))
	}
	steps := len(lessons[li].Steps)
	si, problem = placeIndex(q, IDStep, steps)
	if problem != "" {
		notices = append(notices, fmt.Sprintf("%s: %s; lesson %d has steps 1 to %d, so step %d is shown",
			IDStep, problem, li+1, steps, si+1))
	}
	return li, si, notices
}

// placeIndex reads key's number from 1 to n and returns it from 0: the
// nearest legal one for a number out of range, the first for a value that
// is no number, and then a problem that says what was wrong.
func placeIndex(q url.Values, key string, n int) (i int, problem string) {
	raw, ok := settings.Lookup(q, key)
	if !ok {
		return 0, ""
	}
	v, err := strconv.Atoi(raw)
	switch {
	case err != nil && !settings.IsRange(err):
		return 0, fmt.Sprintf("%s is not a %s number", settings.Quote(raw), key)
	case err != nil && strings.HasPrefix(raw, "-"), err == nil && v < 1:
		return 0, "there is no " + key + " " + raw
	case err != nil, v > n:
		return n - 1, "there is no " + key + " " + raw
	}
	return v - 1, ""
}

// lessonProgress is the steps a learner has done, by stepKey.
type lessonProgress map[string]bool

// stepKey names step si of lesson li (from 0) as "lesson.step" from 1.
func stepKey(li, si int) string { return strconv.Itoa(li+1) + "." + strconv.Itoa(si+1) }

// lessonDone reports whether every step of lesson li of lessons is done.
func (p lessonProgress) lessonDone(lessons []lesson, li int) bool {
	for si := range lessons[li].Steps {
		if !p[stepKey(li, si)] {
			return false
		}
	}
	return true
}

// loadProgress reads the steps done from the browser's storage; unkept
// is true where the browser keeps nothing (storage switched off, or
// blocked: reading it throws). A value this page did not write is
// forgotten.
func loadProgress(ctx app.Context) (p lessonProgress, unkept bool) {
	defer func() {
		if recover() != nil {
			p, unkept = lessonProgress{}, true
		}
	}()
	p = lessonProgress{}
	if err := ctx.LocalStorage().Get(progressKey, &p); err != nil {
		return lessonProgress{}, false
	}
	return p, false
}

// markDone records step si of lesson li done, on what the storage holds
// now (another tab may have done steps meanwhile), and returns the
// progress. Where the browser keeps nothing the step counts as done for
// this visit.
func markDone(ctx app.Context, li, si int, had lessonProgress) (lessonProgress, bool) {
	p, unkept := loadProgress(ctx)
	if unkept {
		p = had
	}
	p[stepKey(li, si)] = true
	if !unkept {
		unkept = !saveProgress(ctx, p)
	}
	return p, unkept
}

// saveProgress writes p; false when the browser refused.
func saveProgress(ctx app.Context, p lessonProgress) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return ctx.LocalStorage().Set(progressKey, p) == nil
}

// resetProgress forgets every step done.
func resetProgress(ctx app.Context) (p lessonProgress, unkept bool) {
	defer func() {
		if recover() != nil {
			p, unkept = lessonProgress{}, true
		}
	}()
	ctx.LocalStorage().Del(progressKey)
	return lessonProgress{}, false
}
