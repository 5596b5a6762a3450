package lab

import (
	"github.com/bloomlab/bloomlab/app/engine"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// startRun is a part's long work: it starts a run of runs, replacing the
// one in flight, does work on a goroutine of its own, and hands the
// answer to done on the page's goroutine, unless a newer run or a cancel
// replaced the run meanwhile: a late answer never lands on settings it
// was not made for. Nor does done see sim.ErrCancelled, which the engine
// returns only for a run no longer live.
func startRun[T any](ctx app.Context, runs *engine.Runs, work func(run engine.Run) (T, error), done func(ctx app.Context, v T, err error)) {
	run := runs.Start()
	ctx.Async(func() {
		v, err := work(run)
		ctx.Dispatch(func(ctx app.Context) {
			if run.Live() {
				done(ctx, v, err)
			}
		})
	})
}
