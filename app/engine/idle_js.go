//go:build js

package engine

import (
	"syscall/js"
	"time"
)

// idleSpan is the stretch of nothing to do, in ms, that counts as the page
// being idle: a browser gives an idle callback at most 50 ms, and a page
// with a timer due or a frame to draw gets less.
const idleSpan = 40

// idleLimit is how long waitIdle waits before it gives up waiting: a page
// that is never idle still gets its background work.
const idleLimit = 10 * time.Second

// quietSpan is how long no yielding run may have paused for the page to
// count as idle: the pauses of a run come every few milliseconds, and the
// lab's chart sweeps follow one another within a frame or two.
const quietSpan = 300 * time.Millisecond

// waitIdle returns once no run on the page's thread has paused for
// quietSpan and the browser reports idleSpan ms with nothing to do, or
// after idleLimit. A browser without idle callbacks skips the second.
func waitIdle() {
	deadline := time.Now().Add(idleLimit)
	for time.Now().Before(deadline) {
		if since := time.Since(time.Unix(0, paused.Load())); since < quietSpan {
			time.Sleep(quietSpan - since)
			continue
		}
		idleCallback(time.Until(deadline))
		if time.Since(time.Unix(0, paused.Load())) >= quietSpan {
			return
		}
	}
}

// idleCallback returns at the browser's next idle span of idleSpan ms, or
// after limit.
func idleCallback(limit time.Duration) {
	ric := js.Global().Get("requestIdleCallback")
	if !ric.Truthy() {
		return
	}
	idle := make(chan struct{})
	var ask func()
	cb := js.FuncOf(func(_ js.Value, args []js.Value) any {
		d := args[0]
		if d.Get("didTimeout").Bool() || d.Call("timeRemaining").Float() >= idleSpan {
			close(idle)
		} else {
			ask()
		}
		return nil
	})
	ask = func() {
		ric.Invoke(cb, map[string]any{"timeout": max(limit.Milliseconds(), 1)})
	}
	ask()
	<-idle
	cb.Release()
}
