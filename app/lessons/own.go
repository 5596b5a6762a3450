package lessons

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/bloomlab/bloomlab/app/lessons/lessonfile"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui"
	"github.com/bloomlab/bloomlab/app/ui/format"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// A teacher's lesson: a lesson file opened from a link (src=URL, fetched
// from the same site, or from any site that allows it) or from a file
// picked in or dropped on the page. It is read by the checker the built-in
// lessons pass (lessonfile), and shown as they are, instead of them, until
// the teacher's "Back to the lessons". Its steps done and its guesses are
// kept for the visit only: the browser's record is the built-in lessons'.

// IDSrc is the link key of a teacher's lesson: the lesson file's address.
const IDSrc = "src"

// Element IDs of a teacher's lesson.
const (
	IDLessonFile      = "lesson-file"
	IDLessonOwnClose  = "lesson-own-close"
	IDLessonOwnErrors = "lesson-own-errors"
	IDLessonOwnState  = "lesson-own-state"
)

// ownLesson is a teacher's lesson: the lesson, its file's name, and the
// link key it came from (src= or text=) with its value; key is "" for a
// file picked or dropped.
type ownLesson struct {
	lesson         lesson
	name, key, src string
}

// owning is the page's side of a teacher's lesson.
type owning struct {
	lesson *ownLesson
	// loading is the src= being fetched; failed the src= whose lesson
	// could not be opened, so that it is not fetched again at every move.
	loading, failed string
	// errs are what was wrong with the last lesson that could not be
	// opened, one a line as name:LINE: what.
	errs []string
	// progress are the steps of the teacher's lesson done in this visit.
	progress lessonProgress
}

// list is the lessons the page shows: the teacher's, or the built-in ones.
func (c *Page) list() []lesson {
	if o := c.own.lesson; o != nil {
		return []lesson{o.lesson}
	}
	return builtInLessons()
}

// stepsDone are the steps done of the lessons shown.
func (c *Page) stepsDone() lessonProgress {
	if c.own.lesson != nil {
		return c.own.progress
	}
	return c.progress
}

// openSrc follows the link's src=: fetches a lesson it names that is not
// the one shown, and goes back to the built-in lessons when a link without
// src= leaves a lesson that came from one.
func (c *Page) openSrc(ctx app.Context, q url.Values) {
	if !app.IsClient || c.openLinkText(ctx, q) {
		return
	}
	src, ok := settings.Lookup(q, IDSrc)
	o := c.own.lesson
	switch {
	case !ok:
		c.own.loading, c.own.failed, c.own.errs = "", "", nil
		if o != nil && o.key != "" {
			c.closeOwn(ctx)
		}
		return
	case o != nil && o.key == IDSrc && o.src == src, c.own.loading == src, c.own.failed == src:
		return
	}
	c.own.loading, c.own.errs = src, nil
	c.fetchLesson(ctx, src)
}

// fetchLesson fetches the lesson file at src, read against the page's
// address, with the browser's fetch (Go's HTTP client would add
// megabytes to the WebAssembly). A file its server says is over the
// format's bound is refused unread, and any other is read only up to it
// (readBody).
func (c *Page) fetchLesson(ctx app.Context, src string) {
	u, err := url.Parse(src)
	if err == nil {
		u = ctx.Page().URL().ResolveReference(u)
	}
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		c.fetched(ctx, src, nil, fmt.Errorf("%s: %s is not the address of a lesson file", IDSrc, settings.Quote(src)))
		return
	}
	notFetched := fmt.Errorf("%s: the lesson could not be fetched (the site may not allow it)", src)
	var onResponse, onFail app.Func
	done := func(text []byte, err error) {
		onResponse.Release()
		onFail.Release()
		ctx.Dispatch(func(ctx app.Context) { c.fetched(ctx, src, text, err) })
	}
	onFail = app.FuncOf(func(this app.Value, args []app.Value) any {
		done(nil, notFetched)
		return nil
	})
	onResponse = app.FuncOf(func(this app.Value, args []app.Value) any {
		r := args[0]
		body := r.Get("body")
		// A body refused is let go of, not left to the browser to fetch.
		refuse := func(err error) {
			if body.Truthy() {
				body.Call("cancel")
			}
			done(nil, err)
		}
		switch n, err := strconv.Atoi(r.Get("headers").Call("get", "content-length").String()); {
		case !r.Get("ok").Bool():
			refuse(fmt.Errorf("%s: the site answered %d %s", src, r.Get("status").Int(), r.Get("statusText").String()))
		case err == nil && n > lessonfile.MaxBytes:
			refuse(errTooLong(src, format.Int(uint64(n))))
		case !body.Truthy():
			done(nil, nil)
		default:
			readBody(body, func(text []byte, over, ok bool) {
				switch {
				case over:
					done(nil, errTooLong(src, "more than "+format.Int(uint64(lessonfile.MaxBytes))))
				case !ok:
					done(nil, notFetched)
				default:
					done(text, nil)
				}
			})
		}
		return nil
	})
	app.Window().Call("fetch", u.String()).Call("then", onResponse).Call("catch", onFail)
}

// readBody reads a response's body as the browser receives it, chunk by
// chunk, and cancels it at the first byte over lessonfile.MaxBytes, so
// that a server that sends no length (or a small compressed one) is read
// no further than a lesson can be. then gets the text, decoded as the
// browser decodes a text (Response.text), or over for a body over the
// bound, or !ok when the read failed.
func readBody(body app.Value, then func(text []byte, over, ok bool)) {
	reader := body.Call("getReader")
	parts := app.Window().Get("Array").New()
	size := 0
	var onChunk, onText, onFail app.Func
	finish := func(text []byte, over, ok bool) {
		onChunk.Release()
		onText.Release()
		onFail.Release()
		then(text, over, ok)
	}
	onFail = app.FuncOf(func(this app.Value, args []app.Value) any {
		finish(nil, false, false)
		return nil
	})
	onText = app.FuncOf(func(this app.Value, args []app.Value) any {
		finish([]byte(args[0].String()), false, true)
		return nil
	})
	onChunk = app.FuncOf(func(this app.Value, args []app.Value) any {
		res := args[0]
		if res.Get("done").Bool() {
			app.Window().Get("Blob").New(parts).Call("text").Call("then", onText, onFail)
			return nil
		}
		chunk := res.Get("value")
		if size += chunk.Get("byteLength").Int(); size > lessonfile.MaxBytes {
			reader.Call("cancel")
			finish(nil, true, true)
			return nil
		}
		parts.Call("push", chunk)
		reader.Call("read").Call("then", onChunk, onFail)
		return nil
	})
	reader.Call("read").Call("then", onChunk, onFail)
}

// errTooLong refuses the lesson name of size bytes (or what is known of
// them), over the format's bound.
func errTooLong(name, size string) error {
	return fmt.Errorf("%s: the lesson is %s bytes; a lesson is at most %s (64 KiB)", name, size, format.Int(uint64(lessonfile.MaxBytes)))
}

// fetched opens what a fetch of src brought, if src is still the one
// asked for.
func (c *Page) fetched(ctx app.Context, src string, text []byte, err error) {
	if c.own.loading != src {
		return
	}
	c.own.loading = ""
	if err != nil {
		c.own.failed, c.own.errs = src, []string{err.Error()}
		return
	}
	c.openFrom(ctx, src, IDSrc, src, text)
}

// openText shows the lesson in a file's text, named name.
func (c *Page) openText(ctx app.Context, name string, text []byte) {
	c.openFrom(ctx, name, "", "", text)
}

// openFrom shows the lesson in text, named name, from link key key's
// value src ("" for a file), at its first step; a lesson with errors is
// not shown, its errors are.
func (c *Page) openFrom(ctx app.Context, name, key, src string, text []byte) {
	l, errs := lessonfile.Parse(text)
	if len(errs) > 0 {
		c.own.errs = strings.Split(strings.TrimSpace(errs.Format(name)), "\n")
		if src != "" {
			c.own.failed = src
		}
		return
	}
	c.own.lesson = &ownLesson{lesson: fromFile(l), name: name, key: key, src: src}
	c.own.errs, c.own.progress, c.ask.kept = nil, lessonProgress{}, keptGuesses{}
	c.placed = false
	ctx.Navigate(c.place(0, 0))
}

// closeOwn goes back to the built-in lessons, with the guesses the browser
// keeps for them.
func (c *Page) closeOwn(ctx app.Context) {
	c.own = owning{}
	c.ask.kept = loadGuesses(ctx, keptGuesses{})
	c.lesson, c.step, c.placed = 0, 0, false
}

func (c *Page) onCloseOwn(ctx app.Context, e app.Event) {
	c.closeOwn(ctx)
	ctx.Navigate(c.place(0, 0))
}

func (c *Page) onDragOver(ctx app.Context, e app.Event) { e.PreventDefault() }

// onDrop opens the first file dropped on the lesson panel.
func (c *Page) onDrop(ctx app.Context, e app.Event) {
	e.PreventDefault()
	if files := e.Get("dataTransfer").Get("files"); files.Truthy() && files.Length() > 0 {
		c.readFile(ctx, files.Index(0))
	}
}

// onPick opens the file picked.
func (c *Page) onPick(ctx app.Context, e app.Event) {
	input := ctx.JSSrc()
	if files := input.Get("files"); files.Truthy() && files.Length() > 0 {
		c.readFile(ctx, files.Index(0))
	}
	input.Set("value", "")
}

// readFile reads a browser File, refusing one over the format's bound
// before reading it.
func (c *Page) readFile(ctx app.Context, file app.Value) {
	name := file.Get("name").String()
	if size := file.Get("size").Int(); size > lessonfile.MaxBytes {
		c.own.errs = []string{errTooLong(name, format.Int(uint64(size))).Error()}
		return
	}
	var then app.Func
	then = app.FuncOf(func(this app.Value, args []app.Value) any {
		text := args[0].String()
		then.Release()
		ctx.Dispatch(func(ctx app.Context) { c.openText(ctx, name, []byte(text)) })
		return nil
	})
	file.Call("text").Call("then", then)
}

// renderOwnNotices says what is wrong with a lesson that could not be
// opened, and that one is on its way.
func (c *Page) renderOwnNotices() app.UI {
	notices := c.own.errs
	heading := "This lesson could not be opened:"
	if c.own.loading != "" {
		heading, notices = "Opening a lesson:", []string{c.own.loading}
	}
	return ui.Notices(IDLessonOwnErrors, "lesson-own-notice", heading, notices)
}

// renderOwnState says, under the list of lessons, that the lesson shown
// is a teacher's, with the way back to the built-in lessons.
func (c *Page) renderOwnState() app.UI {
	name := ""
	if o := c.own.lesson; o != nil {
		name = o.name
	}
	return ui.Hidden(app.P().ID(IDLessonOwnState).Class("lesson-own muted"), name == "").Body(
		app.Text("A lesson of your own, from "+name+". "),
		app.Button().ID(IDLessonOwnClose).Class("chip").Text("Back to the lessons").OnClick(c.onCloseOwn),
	)
}

// renderTeach is the way to a teacher's lesson, under the lab, out of
// the lesson's way: a file to pick (or drop on the lesson), or one to
// write.
func (c *Page) renderTeach() app.UI {
	return app.Section().ID("lesson-teach").Class("lesson-teach").Aria("label", "A lesson of your own").Body(
		c.renderOpen(),
		c.renderWrite(),
	)
}

// renderOpen is the line that opens a teacher's lesson.
func (c *Page) renderOpen() app.UI {
	return app.P().ID("lesson-own-open").Class("lesson-own muted").Body(
		app.Text("Teach your own: "),
		app.Input().ID(IDLessonFile).Type("file").Accept(".txt,text/plain").Class("visually-hidden").OnChange(c.onPick),
		app.Label().For(IDLessonFile).Class("lesson-own-pick").Text("open a lesson file"),
		app.Text(" (or drop one on the lesson), or "),
		app.Button().ID(IDLessonWriteOpen).Class("chip").Aria("expanded", c.write.on).Aria("controls", IDLessonWrite).
			Text("Write a lesson").OnClick(c.onWriteToggle),
	)
}
