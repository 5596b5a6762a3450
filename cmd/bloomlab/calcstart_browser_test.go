//go:build !js

package main

import (
	"testing"

	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui/format"

	"github.com/chromedp/chromedp"
)

// calcFigures is the calculator's answer as a reader sees it: the plan's
// counters, the k comparison, the floor, and every table's text.
const calcFigures = `[...document.querySelectorAll("#calculator .counters-box, #calculator .calc-tables")].map(e => e.innerText).join("\n")`

// TestBrowserCalculatorFirstView: the calculator's live page shows the very
// answer its first view (the server's) showed, figure for figure, and does
// not measure the tables again as it starts: the default form's come with
// the program, and another link's the live page takes over from the
// first view (data-from says which).
func TestBrowserCalculatorFirstView(t *testing.T) {
	needBrowser(t)
	for _, c := range []struct{ query, from string }{
		{"", "program"},
		{"?" + params(settings.CalcN, "4000") + "&" + params(settings.CalcP, "0.01"), "first view"},
	} {
		t.Run(c.from, func(t *testing.T) {
			hl := holdLab(t)
			ctx := btab(t, 1280, 900)
			bdo(t, ctx, chromedp.Navigate(hl.URL+"/calculator"+c.query), waitCalc("static"))
			first := beval[string](t, ctx, calcFigures)
			hl.Release()
			bdo(t, ctx, waitCalc("ready"))
			if live := beval[string](t, ctx, calcFigures); live != first {
				t.Errorf("the live page's answer differs from its first view's:\n%s\nfirst view:\n%s", live, first)
			}
			if n := beval[int](t, ctx, `document.querySelectorAll("#alternatives td.measured[data-fp]").length`); n == 0 {
				t.Error("the live page shows no measured rate")
			}
			if from := beval[string](t, ctx, `document.getElementById("calculator").dataset.from`); from != c.from {
				t.Errorf("the live page's tables came from %q, want %q", from, c.from)
			}
		})
	}
}

// TestBrowserCalculatorEarlyTyping: what a reader types into the
// calculator while it starts is kept, and the live page answers it.
func TestBrowserCalculatorEarlyTyping(t *testing.T) {
	needBrowser(t)
	hl := holdLab(t)
	ctx := btab(t, 1280, 900)
	bdo(t, ctx, chromedp.Navigate(hl.URL+"/calculator"), waitCalc("static"),
		chromedp.Focus(chromedp.CSS("#"+settings.CalcN)),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("`+settings.CalcN+`").select()`),
		chromedp.KeyEvent("500,000"))
	bwaitEval(t, ctx, `document.getElementById("`+settings.CalcN+`").closest(".control").querySelector(".early-note")?.textContent ?? ""`,
		func(s string) bool { return s != "" })
	f := settings.DefaultCalculator()
	f.Values[settings.CalcN] = "500,000"
	r := f.Solve()
	if !r.OK {
		t.Fatal(r.Err, r.Errors)
	}
	want := format.Int(r.Plan.M)
	hl.Release()
	bdo(t, ctx, waitCalc("ready"))
	bwaitText(t, ctx, "#calc-out-m", func(s string) bool { return s == want })
	if got := beval[string](t, ctx, `document.getElementById("`+settings.CalcN+`").value`); got != "500,000" {
		t.Errorf("n's field holds %q after the start, want the 500,000 typed", got)
	}
}
