// Package lessonfile reads and checks a lesson written as a text file:
// the format the built-in lessons are written in (app/lessons/text/) and
// a teacher's own lesson is, documented in the README ("A lesson of your
// own"). Parse gives the lesson or its errors, each at its line; the
// vocabulary of its conditions is vocab.go, and what each word reads of
// the lab's state is app/lessons (eval.go), so that this package has no
// go-app in it and serves the page and bloomlab lesson check alike.
//
// Every input is bounded (MaxBytes, MaxSteps, MaxLine, MaxTerms,
// MaxErrors), and FuzzParse holds it to that.
package lessonfile
