package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Progress is the one progress bar of the lab's pages: a native <progress>
// (its role and value are the browser's own, for assistive technology and
// for tests) with its label, done of total. The label has the ID id +
// "-label"; stopped marks a run that ended before its end.
func Progress(id, label string, done, total float64, stopped bool) app.UI {
	class := "bar"
	if stopped {
		class += " stopped"
	}
	return app.Div().Class("progress").Body(
		app.Label().ID(id+"-label").For(id).Text(label),
		app.Progress().ID(id).Class(class).Max(total).Value(done),
	)
}
