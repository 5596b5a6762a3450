package lessons

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/bloomlab/bloomlab/app/lessons/lessonfile"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// "Write a lesson": a teacher writes a lesson in the page, the text beside
// its preview as the checker reads it at every keystroke, then opens it
// as the lesson or shares it as a link that carries the text (text=, the
// file in base64url, so a lesson of a few steps makes a link of a few
// kilobytes).

// IDText is the link key of a lesson carried in the link itself.
const IDText = "text"

// Element IDs of the writing view.
const (
	IDLessonWrite        = "lesson-write"
	IDLessonWriteOpen    = "lesson-write-open"
	IDLessonWriteText    = "lesson-write-text"
	IDLessonWritePreview = "lesson-write-preview"
	IDLessonWriteTry     = "lesson-write-try"
	IDLessonWriteLink    = "lesson-write-link"
)

// writing is the page's side of the writing view.
type writing struct {
	on   bool
	text string
	// lesson is text read, nil while it has errors.
	lesson *lessonfile.Lesson
	errs   lessonfile.Errors
}

// read checks the text as the page would open it.
func (w *writing) read(text string) {
	if len(text) > lessonfile.MaxBytes+1 {
		text = text[:lessonfile.MaxBytes+1]
	}
	w.text = text
	w.lesson, w.errs = lessonfile.Parse([]byte(text))
}

// encodeText is a lesson's text as text= carries it.
func encodeText(text string) string { return base64.RawURLEncoding.EncodeToString([]byte(text)) }

// decodeText reads text=, refusing more than a lesson's bound.
func decodeText(raw string) ([]byte, error) {
	if base64.RawURLEncoding.DecodedLen(len(raw)) > lessonfile.MaxBytes {
		return nil, fmt.Errorf("%s: the lesson in the link is over 64 KiB", IDText)
	}
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(raw, "="))
	if err != nil {
		return nil, fmt.Errorf("%s: the link's lesson is cut or changed (%v); ask for the link again", IDText, err)
	}
	return b, nil
}

// openLinkText opens the lesson a link carries in text=, once.
func (c *Page) openLinkText(ctx app.Context, q url.Values) bool {
	raw, ok := settings.Lookup(q, IDText)
	if !ok {
		return false
	}
	if o := c.own.lesson; (o != nil && o.key == IDText && o.src == raw) || c.own.failed == raw {
		return true
	}
	text, err := decodeText(raw)
	if err != nil {
		c.own.failed, c.own.errs = raw, []string{err.Error()}
		return true
	}
	c.openFrom(ctx, "the link", IDText, raw, text)
	return true
}

func (c *Page) onWriteToggle(ctx app.Context, e app.Event) {
	c.write.on = !c.write.on
	if c.write.on && c.write.text == "" {
		c.write.read(lessonfile.Template)
	}
}

func (c *Page) onWriteInput(ctx app.Context, e app.Event) {
	c.write.read(ctx.JSSrc().Get("value").String())
}

func (c *Page) onWriteTry(ctx app.Context, e app.Event) {
	if c.write.lesson != nil {
		c.write.on = false
		c.openText(ctx, "your text", []byte(c.write.text))
	}
}

// shareLink is the address that opens the written lesson.
func (c *Page) shareLink() string {
	q := url.Values{IDText: {encodeText(c.write.text)}}
	return ui.Href(ui.RouteLessons) + "?" + q.Encode()
}

// renderWrite is the writing view: the text, and beside it the lesson as
// the page reads it, or what is wrong with it, line by line.
func (c *Page) renderWrite() app.UI {
	w := &c.write
	return ui.Hidden(app.Div().ID(IDLessonWrite).Class("lesson-write"), !w.on).Body(
		app.Div().Class("lesson-write-edit").Body(
			app.Label().For(IDLessonWriteText).Text("Your lesson, as text"),
			app.Textarea().ID(IDLessonWriteText).Spellcheck(false).MaxLength(lessonfile.MaxBytes).Rows(18).
				Text(w.text).OnInput(c.onWriteInput),
		),
		app.Div().ID(IDLessonWritePreview).Class("lesson-write-preview").Aria("live", "polite").Body(c.renderPreview()),
	)
}

// renderPreview is the lesson read from the text, or its errors.
func (c *Page) renderPreview() app.UI {
	w := &c.write
	if w.lesson == nil {
		return app.Div().Class("notice").Body(
			app.Strong().Text("Not a lesson yet:"),
			app.Ul().Body(app.Range(w.errs).Slice(func(i int) app.UI {
				e := w.errs[i]
				return app.Li().Text("line " + strconv.Itoa(e.Line) + ": " + e.What)
			})),
		)
	}
	l := w.lesson
	return app.Div().Body(
		app.H2().Class("lesson-write-title").Text(l.Title),
		app.P().Class("lesson-intro").Body(richText(l.Intro)...),
		app.Ol().Class("lesson-write-steps").Body(app.Range(l.Steps).Slice(func(i int) app.UI {
			s := l.Steps[i]
			task := app.P().Body(app.Strong().Text("Task: "), app.Text(s.Task))
			if s.Task == "" {
				task = app.P().Body(app.Strong().Text("A step to read."))
			}
			return app.Li().Body(
				app.P().Body(richText(s.Text)...),
				task,
				app.If(s.Question != nil, func() app.UI {
					return app.P().Body(app.Strong().Text("Predict: "), app.Text(s.Question.Prompt))
				}),
			)
		})),
		app.P().Class("lesson-write-actions").Body(
			app.Button().ID(IDLessonWriteTry).Class("chip primary").Text("Open it as the lesson").OnClick(c.onWriteTry),
			app.A().ID(IDLessonWriteLink).Class("chip").Href(c.shareLink()).Text("Link to share"),
		),
	)
}
