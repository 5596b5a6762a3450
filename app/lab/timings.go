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

var Timings = &repaintTimings{FirstDraw: -1}

// drawn is called right after the bit array is painted. It takes the time
// at the next animation frame, when the browser is about to show it.
func (t *repaintTimings) drawn(t0 float64) {
	if t.FirstDraw >= 0 && t0 <= 0 {
		return
	}
	if t0 > 0 {
		t.Updates = append(t.Updates, now()-t0)
	}
	var cb app.Func
	cb = app.FuncOf(func(this app.Value, args []app.Value) any {
		now := app.Window().Get("performance").Call("now").Float()
		if t.FirstDraw < 0 {
			t.FirstDraw = now
		}
		if t0 > 0 {
			t.Repaints = append(t.Repaints, now-t0)
		}
		cb.Release()
		return nil
	})
	app.Window().Call("requestAnimationFrame", cb)
}
