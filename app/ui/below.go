package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// DispatchBelow runs fn on the UI goroutine and updates the component of
// ctx, and those between it and above, but not above's component nor any
// above that. go-app's Dispatch updates every component from the source up
// to the page, and a page whose parts render afresh at each of its renders
// (Part) renders whole for one part's news: at 4x slowed CPU the lab took
// 50 to 300 ms a time. A nil above, or one not mounted (a zero Context),
// updates all of them, as Dispatch does.
//
// It works with go-app's count of updates each component has waiting for
// the next frame: Dispatch adds one to the source and to each component
// above it, PreventUpdate takes one from above's and from each above it,
// and the frame updates those left above zero. It takes back only what its
// own Dispatch gave, so another dispatch's update of the page before the
// same frame stands.
func DispatchBelow(ctx app.Context, above *app.Context, fn func(ctx app.Context)) {
	ctx.Dispatch(func(ctx app.Context) {
		fn(ctx)
		if above != nil && above.Src() != nil {
			above.PreventUpdate()
		}
	})
}
