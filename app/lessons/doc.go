// Package lessons is the lessons page: the lab with a guided lesson on
// top. A lesson is a few steps about one idea; a step is a paragraph, a
// task the learner does in the lab, a "show me" state that does it for
// them, and, for some, a question to answer before the lab shows the
// answer (predict, then see). The place lives in the link (lesson= and
// step=) beside the lab's settings, so a teacher can put a class on one
// step; the steps done are kept in the browser.
//
// The lessons are text files (text/*.txt), in the format lessonfile
// reads and checks (the README documents it): a task is a condition over
// the lab's state (lab.State) in a small vocabulary, read here (eval.go);
// it reads the state, runs nothing, and holds only when the task is
// really done. The tests build every
// step's "show me" state from core and check that it satisfies its own
// task and that the state the step starts from does not; the figures a
// text or a question quotes are pinned to the runs of their states.
//
// The page embeds lab.Page and uses it only through the lab's small API
// for a guide (Show, State, Settings, Keep, OnChange, ClearQueries). It
// imports lab, settings, ui, ui/format and core, and no other page and not
// the engine: every run is the lab's.
//
// Where the next thing goes: a new step is a "## " section of its
// lesson's file, a new lesson a file of its own in text/ (its number
// gives its place), each with the figures of its "show me" state at seed
// 1; a question is a predict: block on the step; a new word of the
// vocabulary is a Quantity in lessonfile/vocab.go and its reading in
// eval.go; what the page around the lab shows is page.go and, for the
// guesses, guess.go; a teacher's lesson (src=, a file, text=) is own.go,
// and the view that writes one write.go.
package lessons
