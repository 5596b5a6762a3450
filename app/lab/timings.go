package lab

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// repaintTimings records, for the JavaScript face, when the first bit array
// was drawn and how long each move took to reach the screen.
type repaintTimings struct {
	FirstDraw float64   `json:"firstDrawMs"`
	Updates   []float64 `json:"updatesMs"`  // input event to canvas and counters written
	Repaints  []float64 `json:"repaintsMs"` // input event to the next animation frame
	Computes  []float64 `json:"computeMs"`  // the simulation alone
}

// now is the page's clock, performance.now(), in milliseconds.
func now() float64 { return app.Window().Get("performance").Call("now").Float() }

// keptTimings bounds each list of timings: a session of slider moves keeps
// its latest ones, not one entry a move for ever.
const keptTimings = 1000

// timings are the session's, read by the JavaScript face through Timings.
var timings = &repaintTimings{FirstDraw: -1}

// Timings returns the session's timings, for the JavaScript face.
func Timings() any { return timings }

// keep appends v to list, dropping the oldest past keptTimings.
func keep(list []float64, v float64) []float64 {
	if len(list) >= keptTimings {
		list = append(list[:0], list[len(list)-keptTimings+1:]...)
	}
	return append(list, v)
}

// drawn is called right after the bit array is painted. It takes the time
// at the next animation frame, when the browser is about to show it.
func (t *repaintTimings) drawn(t0 float64) {
	if t.FirstDraw >= 0 && t0 <= 0 {
		return
	}
	if t0 > 0 {
		t.Updates = keep(t.Updates, now()-t0)
	}
	var cb app.Func
	cb = app.FuncOf(func(this app.Value, args []app.Value) any {
		now := app.Window().Get("performance").Call("now").Float()
		if t.FirstDraw < 0 {
			t.FirstDraw = now
		}
		if t0 > 0 {
			t.Repaints = keep(t.Repaints, now-t0)
		}
		cb.Release()
		return nil
	})
	app.Window().Call("requestAnimationFrame", cb)
}
