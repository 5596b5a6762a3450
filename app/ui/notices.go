package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Notices is the one way a page says what it changed in a link: a polite
// live region (id) that holds, when there are notices, a status box
// (noticeID) with heading and a list of them. It is always in the page, so
// a screen reader hears a notice that appears later.
func Notices(id, noticeID, heading string, notices []string) app.UI {
	return app.Div().ID(id).Aria("live", "polite").Body(
		app.If(len(notices) > 0, func() app.UI {
			return app.Div().ID(noticeID).Class("notice").Role("status").Body(
				app.Strong().Text(heading),
				app.Ul().Body(app.Range(notices).Slice(func(i int) app.UI { return app.Li().Text(notices[i]) })),
			)
		}),
	)
}

// Failure is the one way a page says a run or a read failed: an alert, so
// it is announced at once.
func Failure(id, text string) app.UI {
	return app.Div().ID(id).Class("notice error").Role("alert").Text(text)
}
