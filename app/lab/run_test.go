package lab

import (
	"slices"
	"testing"

	"github.com/bloomlab/bloomlab/app/engine"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// runHost is a component whose context the test starts runs on: natively,
// go-app hands a component its context in OnPreRender.
type runHost struct {
	app.Compo
	ctx app.Context
}

func (h *runHost) OnPreRender(ctx app.Context) { h.ctx = ctx }
func (h *runHost) Render() app.UI              { return app.Div() }

// TestStartRunDropsReplacedAnswers: a run's answer reaches done only
// while the run is the current one. Each run is started before the test
// consumes any answer, so a replaced run has finished its work, and only
// its hand-over is left, when the next one starts.
func TestStartRunDropsReplacedAnswers(t *testing.T) {
	for _, tc := range []struct {
		name   string
		starts []string
		cancel bool
		want   []string
	}{
		{"one run", []string{"a"}, false, []string{"a"}},
		{"replaced", []string{"a", "b"}, false, []string{"b"}},
		{"cancelled", []string{"a"}, true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := app.NewTestEngine()
			h := &runHost{}
			if err := e.Load(h); err != nil {
				t.Fatal(err)
			}
			e.ConsumeAll()
			var runs engine.Runs
			var got []string
			for _, v := range tc.starts {
				startRun(h.ctx, &runs, func(engine.Run) (string, error) { return v, nil },
					func(_ app.Context, v string, err error) { got = append(got, v) })
			}
			if tc.cancel {
				runs.Cancel()
			}
			e.ConsumeAll()
			if !slices.Equal(got, tc.want) {
				t.Errorf("done saw %q, want %q", got, tc.want)
			}
		})
	}
}
