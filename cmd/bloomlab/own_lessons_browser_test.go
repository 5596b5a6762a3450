//go:build !js

package main

import (
	"context"
	"encoding/base64"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/bloomlab/bloomlab/app/lessons"
	"github.com/chromedp/chromedp"
)

// teacherLesson is a lesson a teacher wrote: two steps, the first with a
// choice to predict.
const teacherLesson = `# Fruit in a small filter

A lesson of a teacher's own.

## First

Query *cherry*: it was never inserted.

show: try=apple,pear,plum
ask: cherry
task: Query cherry and get a no.
done: answered-no >= 1

predict: Will "cherry" answer no or maybe?
choice: No
choice: Maybe
answer: verdict("cherry") = no
why: No: a zero proves it.
veil: answer

## Second

Lower bits per key to 4.

show: bits-per-key=4
task: Lower bits per key until the fill passes 80%.
done: fill > 80%
`

// teacherServer is the lab with a teacher's lesson files beside it, as a
// site would hold them, and the other files routes names.
func teacherServer(t *testing.T, routes map[string]http.Handler) string {
	t.Helper()
	lab, err := labServer(webDir(t), "")
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/", lab)
	for path, h := range routes {
		mux.Handle(path, h)
	}
	mux.HandleFunc("/teacher/fruit.txt", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(teacherLesson)) })
	mux.HandleFunc("/teacher/broken.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(strings.Replace(teacherLesson, "show: bits-per-key=4", "show: bits-per-key=4&hashes=99", 1)))
	})
	srv := httptest.NewUnstartedServer(mux)
	srv.Config.ConnContext = func(ctx context.Context, c net.Conn) context.Context { return context.WithValue(ctx, connKey{}, c) }
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestBrowserOwnLessonFromLink: a teacher's lesson opens from src=, shows
// as the built-in ones do (its text's markup as em, its step list, its
// place in the link), its task is checked and its prediction scored; a
// broken one shows its line and reason; "Back to the lessons" returns.
func TestBrowserOwnLessonFromLink(t *testing.T) {
	needBrowser(t)
	base := teacherServer(t, nil)
	ctx := btab(t, 1280, 900)
	bdo(t, ctx, chromedp.Navigate(lessonsURL(base, "src=/teacher/fruit.txt")), waitLab())
	bwaitText(t, ctx, "#lesson-title", func(s string) bool { return s == "Fruit in a small filter" })
	if got := btext(t, ctx, "#lesson-counter"); got != "Lesson 1 of 1 · step 1 of 2" {
		t.Errorf("counter %q", got)
	}
	if got := btext(t, ctx, "#lesson-text em"); got != "cherry" {
		t.Errorf("the text's emphasis is %q", got)
	}
	if href := beval[string](t, ctx, `document.querySelector("#lesson-step-2").href`); !strings.Contains(href, "src=%2Fteacher%2Ffruit.txt") {
		t.Errorf("step 2's link %s loses the lesson", href)
	}
	// Predict, then see: choose No, check, show me.
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#"+lessons.IDGuessChoice+"1")), chromedp.Click(chromedp.CSS("#"+lessons.IDGuessCheck)),
		chromedp.Click(chromedp.CSS("#"+lessons.IDLessonShow)))
	bwaitEval(t, ctx, `document.querySelector("#`+lessons.IDLessonTask+`").dataset.done`, func(s string) bool { return s == "true" })
	waitMeasured(t, ctx)
	if got := btext(t, ctx, "#"+lessons.IDGuessScore); got != "Right." {
		t.Errorf("the guess No scores %q", got)
	}
	// The next step, in the same lesson.
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#"+lessons.IDLessonNext)))
	bwaitText(t, ctx, "#lesson-counter", func(s string) bool { return s == "Lesson 1 of 1 · step 2 of 2" })
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#"+lessons.IDLessonShow)))
	bwaitEval(t, ctx, `document.querySelector("#`+lessons.IDLessonTask+`").dataset.done`, func(s string) bool { return s == "true" })
	// Back to the lessons.
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#"+lessons.IDLessonOwnClose)))
	bwaitText(t, ctx, "#lesson-title", func(s string) bool { return s == "A zero is proof" })
	if u := beval[string](t, ctx, `location.search`); strings.Contains(u, "src=") {
		t.Errorf("back to the lessons, the link still has %s", u)
	}

	// A broken lesson: its line and reason, and the lessons stay.
	bdo(t, ctx, chromedp.Navigate(lessonsURL(base, "src=/teacher/broken.txt")), waitLab())
	opened := func(s string) bool { return strings.HasPrefix(s, "This lesson could not be opened:") }
	got := bwaitText(t, ctx, "#lesson-own-notice", opened)
	if want := "/teacher/broken.txt:25: show: hashes: 99 is above the maximum"; !strings.Contains(got, want) {
		t.Errorf("notice %q lacks %q", got, want)
	}
	if got := btext(t, ctx, "#lesson-title"); got != "A zero is proof" {
		t.Errorf("with a broken lesson the page shows %q", got)
	}
	// One that is not there.
	bdo(t, ctx, chromedp.Navigate(lessonsURL(base, "src=/teacher/none.txt")), waitLab())
	got = bwaitText(t, ctx, "#lesson-own-notice", opened)
	if want := "/teacher/none.txt: the site answered 404"; !strings.Contains(got, want) {
		t.Errorf("notice %q lacks %q", got, want)
	}
}

// endlessLesson is a lesson file without end and without a length: it is
// written chunk by chunk until the reader goes away, or up to its own cap,
// so that a page that reads it whole still ends (and fails the test).
type endlessLesson struct {
	written  atomic.Int64
	requests atomic.Int32
	// ended is closed when the first request's answer ends.
	ended chan struct{}
}

const (
	endlessCap = 64 << 20
	// endlessRead bounds what the server of an endless lesson may write
	// before the page lets go of it. The page reads the lesson's bound and
	// a chunk; the rest is what the buffers between the server and the
	// page hold when it lets go (the browser's pipes and the client
	// socket's, filled while the page is busy with its first run): 1.6 to
	// 5 MB here. They are bounded, not timed, and a page that reads the
	// lesson whole reaches endlessCap.
	endlessRead = endlessCap / 2
)

// connKey keys a request's connection in its context.
type connKey struct{}

func newEndlessLesson() *endlessLesson { return &endlessLesson{ended: make(chan struct{})} }

func (e *endlessLesson) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if e.requests.Add(1) == 1 {
		defer close(e.ended)
	}
	// The server's own socket buffer is small, so that what it counts as
	// written has gone to the browser's side.
	r.Context().Value(connKey{}).(*net.TCPConn).SetWriteBuffer(16 << 10)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	line := []byte("# An endless lesson\n\n")
	chunk := []byte(strings.Repeat("A line of a lesson that goes on, and on, and on, and on, and on.\n", 256))
	for e.written.Load() < endlessCap && r.Context().Err() == nil {
		n, err := w.Write(line)
		e.written.Add(int64(n))
		if err != nil {
			return
		}
		w.(http.Flusher).Flush()
		line = chunk
	}
}

// TestBrowserOwnLessonTooLong: a lesson over the format's bound is
// refused with its size when its server says it, and, when it does not,
// once the page has read past the bound: an endless lesson is let go of
// after a bounded part of it.
func TestBrowserOwnLessonTooLong(t *testing.T) {
	needBrowser(t)
	endless := newEndlessLesson()
	base := teacherServer(t, map[string]http.Handler{
		"/teacher/long.txt": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "70000")
			w.Write([]byte(strings.Repeat("x", 70000)))
		}),
		"/teacher/endless.txt": endless,
	})
	ctx := btab(t, 1280, 900)
	opened := func(s string) bool { return strings.HasPrefix(s, "This lesson could not be opened:") }
	for _, c := range []struct{ src, want string }{
		{"/teacher/long.txt", "/teacher/long.txt: the lesson is 70,000 bytes; a lesson is at most 65,536 (64 KiB)"},
		{"/teacher/endless.txt", "/teacher/endless.txt: the lesson is more than 65,536 bytes; a lesson is at most 65,536 (64 KiB)"},
	} {
		bdo(t, ctx, chromedp.Navigate(lessonsURL(base, "src="+c.src)), waitLab())
		if got := bwaitText(t, ctx, "#lesson-own-notice", opened); !strings.Contains(got, c.want) {
			t.Errorf("notice %q lacks %q", got, c.want)
		}
	}
	// The server's answer ends once the page has let go of it.
	select {
	case <-endless.ended:
	case <-ctx.Done():
		t.Fatal(ctx.Err())
	}
	n := endless.written.Load()
	t.Logf("the endless lesson's server wrote %d bytes", n)
	if n >= endlessRead {
		t.Errorf("the server of an endless lesson wrote %d bytes before the page let go of it, want under %d", n, endlessRead)
	}
	if r := endless.requests.Load(); r != 1 {
		t.Errorf("the endless lesson was asked for %d times, want 1", r)
	}
}

// TestBrowserOwnLessonFromFile: a lesson file dropped on the lesson panel
// opens as from a link, without a src= in the link.
func TestBrowserOwnLessonFromFile(t *testing.T) {
	needBrowser(t)
	base := teacherServer(t, nil)
	ctx := btab(t, 360, 800)
	bdo(t, ctx, chromedp.Navigate(lessonsURL(base, "")), waitLab())
	beval[bool](t, ctx, `(() => {
		const dt = new DataTransfer();
		dt.items.add(new File([`+strconv.Quote(teacherLesson)+`], "fruit.txt", {type: "text/plain"}));
		document.querySelector("#`+lessons.IDLessonPanel+`").dispatchEvent(new DragEvent("drop", {dataTransfer: dt, bubbles: true, cancelable: true}));
		return true;
	})()`)
	bwaitText(t, ctx, "#lesson-title", func(s string) bool { return s == "Fruit in a small filter" })
	if got := btext(t, ctx, "#"+lessons.IDLessonOwnState); !strings.Contains(got, "from fruit.txt") {
		t.Errorf("the page says %q", got)
	}
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#"+lessons.IDLessonShow)))
	bwaitEval(t, ctx, `document.querySelector("#`+lessons.IDLessonTask+`").dataset.done`, func(s string) bool { return s == "true" })
	if over := beval[bool](t, ctx, `document.documentElement.scrollWidth > innerWidth`); over {
		t.Error("at 360 px the page is wider than the window")
	}
}

// TestBrowserWriteLesson: "Write a lesson" shows the template beside its
// preview; a mistake typed shows its line and reason; a lesson typed
// shows as read, and its link to share opens it, the text carried in the
// link.
func TestBrowserWriteLesson(t *testing.T) {
	needBrowser(t)
	base := teacherServer(t, nil)
	ctx := btab(t, 1280, 900)
	bdo(t, ctx, chromedp.Navigate(lessonsURL(base, "")), waitLab(), chromedp.Click(chromedp.CSS("#"+lessons.IDLessonWriteOpen)))
	preview := "#" + lessons.IDLessonWritePreview
	bwaitText(t, ctx, preview+" h2", func(s string) bool { return s == "Your lesson's title" })
	typeText := func(text string) {
		beval[bool](t, ctx, `(() => {
			const el = document.querySelector("#`+lessons.IDLessonWriteText+`");
			el.value = `+strconv.Quote(text)+`;
			el.dispatchEvent(new Event("input", {bubbles: true}));
			return true;
		})()`)
	}
	typeText(strings.Replace(teacherLesson, "show: bits-per-key=4", "show: bits-per-key=4&hashes=99", 1))
	got := bwaitText(t, ctx, preview, func(s string) bool { return strings.Contains(s, "Not a lesson yet") })
	if want := "line 25: show: hashes: 99 is above the maximum"; !strings.Contains(got, want) {
		t.Errorf("preview %q lacks %q", got, want)
	}
	typeText(teacherLesson)
	bwaitText(t, ctx, preview+" h2", func(s string) bool { return s == "Fruit in a small filter" })
	if got := btext(t, ctx, preview+" li em"); got != "cherry" {
		t.Errorf("the preview's emphasis is %q", got)
	}
	link := beval[string](t, ctx, `document.querySelector("#`+lessons.IDLessonWriteLink+`").href`)
	if !strings.Contains(link, "text=") {
		t.Fatalf("the link to share is %s", link)
	}
	other := btab(t, 360, 800)
	bdo(t, other, chromedp.Navigate(link), waitLab())
	bwaitText(t, other, "#lesson-title", func(s string) bool { return s == "Fruit in a small filter" })
	bdo(t, other, chromedp.Click(chromedp.CSS("#"+lessons.IDLessonNext)))
	bwaitText(t, other, "#lesson-counter", func(s string) bool { return s == "Lesson 1 of 1 · step 2 of 2" })
}

// readingLesson is a teacher's lesson of two steps to read (no task:),
// the second with a choice of four.
const readingLesson = `# Reading first

Two steps to read.

## Read

Fewer bits per key make a *fuller* array.

show: bits-per-key=6

## Choose

Which answer can a Bloom filter never give wrongly?

show:

predict: Which answer is always true?
choice: Maybe
choice: Member
choice: No
choice: False positive
answer: 3
why: No: a zero among a key's bits proves it was never inserted.
`

// TestBrowserOwnLessonReading: a step without a task shows none, is done
// once seen, and its Show me still sets its settings; a choice of four
// shows its four options, and the right one scores; a lesson of steps
// seen is done.
func TestBrowserOwnLessonReading(t *testing.T) {
	needBrowser(t)
	base := labURL(t)
	ctx := btab(t, 1280, 900)
	text := base64.RawURLEncoding.EncodeToString([]byte(readingLesson))
	bdo(t, ctx, chromedp.Navigate(lessonsURL(base, lessons.IDText+"="+text)), waitLab())
	bwaitText(t, ctx, "#lesson-title", func(s string) bool { return s == "Reading first" })
	task := `document.querySelector("#` + lessons.IDLessonTask + `").dataset.done`
	bwaitEval(t, ctx, task, func(s string) bool { return s == "true" })
	if got := btext(t, ctx, "#"+lessons.IDLessonTask); !strings.Contains(got, "A step to read") || strings.Contains(got, "Your task") {
		t.Errorf("a step to read's bar says %q", got)
	}
	if done := beval[string](t, ctx, `document.querySelector("#lesson-step-1").dataset.done || ""`); done != "true" {
		t.Errorf("step 1, seen, is not ticked (%q)", done)
	}
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#"+lessons.IDLessonShow)))
	bwaitEval(t, ctx, `location.search`, func(s string) bool { return strings.Contains(s, "bits-per-key=6") })

	// The choice of four.
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#"+lessons.IDLessonNext)))
	bwaitText(t, ctx, "#lesson-counter", func(s string) bool { return s == "Lesson 1 of 1 · step 2 of 2" })
	options := beval[[]string](t, ctx, `[...document.querySelectorAll(".lesson-choice")].map(l => l.textContent.trim())`)
	if strings.Join(options, "|") != "Maybe|Member|No|False positive" {
		t.Errorf("the options are %q", options)
	}
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#"+lessons.IDGuessChoice+"3")), chromedp.Click(chromedp.CSS("#"+lessons.IDGuessCheck)),
		chromedp.Click(chromedp.CSS("#"+lessons.IDLessonShow)))
	waitMeasured(t, ctx)
	if got := btext(t, ctx, "#"+lessons.IDGuessScore); got != "Right." {
		t.Errorf("the guess No scores %q", got)
	}
	if got := btext(t, ctx, "#"+lessons.IDGuessMeasured); !strings.Contains(got, "No") {
		t.Errorf("the answer shows as %q", got)
	}
	bwaitEval(t, ctx, `document.querySelector("#lesson-link-1").parentElement.className`, func(s string) bool { return s == "done" })
	// A reset stays reset on the step read until the learner comes to it
	// again.
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#"+lessons.IDLessonReset)))
	bwaitText(t, ctx, "#lesson-status", func(s string) bool { return s == "Read, then Next." })
	if done := beval[string](t, ctx, `document.querySelector("#lesson-step-2").dataset.done || ""`); done != "" {
		t.Errorf("after a reset step 2 is ticked (%q)", done)
	}
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#"+lessons.IDLessonPrev)))
	bwaitEval(t, ctx, `document.querySelector("#lesson-step-1").dataset.done || ""`, func(s string) bool { return s == "true" })
}
