//go:build !js

package main

import (
	"context"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/engine"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui/format"
	"github.com/bloomlab/bloomlab/core/plan"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// waitCalc waits until the calculator runs in the browser (not just its
// prerendered copy) and shows a plan, or an error when state is "error".
func waitCalc(state string) chromedp.Action[chromedp.Void] {
	return chromedp.WaitVisible(chromedp.CSS(`#calculator[data-state="` + state + `"]`))
}

// waitCalcTables waits until the calculator shows the measured tables of
// the form it shows, not a measurement still under way.
func waitCalcTables() chromedp.Action[chromedp.Void] {
	return chromedp.WaitVisible(chromedp.CSS(`#calculator[data-measure="done"]`))
}

// typeInto replaces the text of the field id as a user would: focus,
// select all, type, then Enter, which commits the field to the URL.
func typeInto(t *testing.T, ctx context.Context, id, text string) {
	t.Helper()
	bdo(t, ctx,
		chromedp.Focus(chromedp.CSS("#"+id)),
		chromedp.KeyEvent("a", chromedp.KeyModifiers(chromedp.ModifierCtrl)),
		chromedp.KeyEvent(text),
		chromedp.KeyEvent(kb.Enter),
	)
}

func TestBrowserCalculator(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/calculator"), waitCalc("ready"))

	// The reference sizing opens by default: 10^8 keys at 1%.
	for sel, want := range map[string]string{
		"#calc-out-m": "958,505,838", "#calc-out-memory": "114.26 MiB", "#calc-out-k": "7", "#m-read": "found: 958,505,838 bits, 114.26 MiB",
	} {
		if got := btext(t, ctx, sel); got != want {
			t.Errorf("%s = %q, want %q", sel, got, want)
		}
	}

	// Fill n and p by keyboard: 500,000 keys at 5%.
	typeInto(t, ctx, settings.CalcN, "500,000")
	typeInto(t, ctx, settings.CalcP, "5%")
	bwaitText(t, ctx, "#calc-out-m", func(s string) bool { return s == "3,117,613" })
	for sel, want := range map[string]string{
		"#calc-out-memory": "380.57 KiB", "#calc-out-k": "4", "#calc-out-bpk": "6.235",
		"#k-round .k": "4", "#k-round .rate": "0.050269", "#k-ceil .k": "5", "#k-ceil .rate": "0.051029",
		"#p-read": "p = 0.05 (5%)", "#overfill-2 .rate": "0.27295",
	} {
		if got := btext(t, ctx, sel); got != want {
			t.Errorf("%s = %q, want %q", sel, got, want)
		}
	}
	// The alternatives follow the figures, found on the lab's worker.
	bwaitEval(t, ctx, `String(document.querySelectorAll("#alternatives tbody tr").length)`, func(s string) bool { return s == "10" })
	search := bwaitEval(t, ctx, `location.search`, func(s string) bool { return strings.Contains(s, params(settings.CalcP, "5%25")) })
	for _, want := range []string{params(settings.CalcFind, "m"), params(settings.CalcN, "500%2C000"), params(settings.CalcKeyBytes, "16"), params(settings.CalcAbsentQPS, "1000")} {
		if !strings.Contains(search, want) {
			t.Errorf("URL query %q lacks %q", search, want)
		}
	}

	// Switch to finding n: the m just found moves into its field, and n
	// comes back as the 500,000 it came from.
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#find-n")))
	bwaitEval(t, ctx, `location.search`, func(s string) bool { return strings.Contains(s, params(settings.CalcFind, "n")) })
	if got := beval[string](t, ctx, `document.getElementById("`+settings.CalcM+`").value`); got != "3117613" {
		t.Errorf("m field = %q, want the m just found", got)
	}
	if got := btext(t, ctx, "#calc-out-n"); got != "500,000" {
		t.Errorf("n found from p and m = %q, want 500,000", got)
	}

	// A size with a unit.
	typeInto(t, ctx, settings.CalcM, "1.5 MiB")
	bwaitText(t, ctx, "#calc-out-m", func(s string) bool { return s == "12,582,912" })
	bwaitEval(t, ctx, `location.search`, func(s string) bool { return strings.Contains(s, params(settings.CalcM, "1.5+MiB")) })

	// Back restores the previous field, forward the new one.
	bdo(t, ctx, chromedp.NavigateBack())
	bwaitText(t, ctx, "#calc-out-m", func(s string) bool { return s == "3,117,613" })
	bdo(t, ctx, chromedp.NavigateForward())
	bwaitText(t, ctx, "#calc-out-m", func(s string) bool { return s == "12,582,912" })
}

// TestBrowserCalculatorMeasured: the alternatives' measured column, built
// and queried in the page, shows what core/plan measures natively for the
// same plan: the same false positives in the same queries, the same rate,
// and a dash titled with the reason where the lab cannot build the row.
func TestBrowserCalculatorMeasured(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/calculator"), waitCalc("ready"))
	checkAltMeasured(t, ctx, plan.Input{Find: plan.FindM, N: 100_000_000, P: 0.01})

	// A change of p measures again: at 1 in 256 the 8-bit fuse filter is
	// the row's own and the lab builds it.
	typeInto(t, ctx, settings.CalcN, "500,000")
	typeInto(t, ctx, settings.CalcP, "1 in 256")
	bwaitText(t, ctx, "#calc-out-m", func(s string) bool { return s == "5,770,781" })
	bdo(t, ctx, waitCalcTables())
	checkAltMeasured(t, ctx, plan.Input{Find: plan.FindM, N: 500_000, P: 1.0 / 256})
	if got := beval[string](t, ctx, `document.querySelector("#alt-fuse-3 .measured").dataset.fp || ""`); got == "" {
		t.Error("the 3-wise fuse filter with 8-bit fingerprints was not measured")
	}
}

// checkAltMeasured compares every measured cell of the page with plan.Measure
// run natively for in.
func checkAltMeasured(t *testing.T, ctx context.Context, in plan.Input) {
	t.Helper()
	pl, err := plan.Solve(in)
	if err != nil {
		t.Fatal(err)
	}
	type cell struct {
		FP, Queries, Rate, Text, Title string
	}
	for _, m := range plan.Measure(pl) {
		sel := "#alt-" + m.ID + " td.measured"
		got := beval[cell](t, ctx, `(() => { const c = document.querySelector("`+sel+`");
  if (!c) return {};
  const r = c.querySelector(".rate");
  return {FP: c.dataset.fp || "", Queries: c.dataset.queries || "", Rate: r ? r.textContent : "", Text: c.textContent, Title: c.title};
})()`)
		if !m.Built {
			if got.Text != "—"+m.Why || got.Title != m.Why {
				t.Errorf("%s: cell %+v, want a dash and why, %q", m.ID, got, m.Why)
			}
			continue
		}
		if got.FP != strconv.FormatUint(m.FalsePositives, 10) || got.Queries != strconv.FormatUint(m.Queries, 10) {
			t.Errorf("%s: the page found %s false positives in %s queries, natively %d in %d", m.ID, got.FP, got.Queries, m.FalsePositives, m.Queries)
		}
		rate, err := strconv.ParseFloat(got.Rate, 64)
		if err != nil || math.Abs(rate-m.Rate) > 5e-7+1e-3*m.Rate {
			t.Errorf("%s: the page shows a rate of %q, natively %v", m.ID, got.Rate, m.Rate)
		}
	}
}

func TestBrowserCalculatorBadValues(t *testing.T) {
	needBrowser(t)
	base := labURL(t)
	ctx := btab(t, 1280, 900)
	tests := []struct {
		query, field, message string
	}{
		{params(settings.CalcN, "lots", settings.CalcP, "0.01"), settings.CalcN, "n must be a count of keys, such as 100000000, 100,000,000 or 1e8, got \"lots\""},
		{params(settings.CalcFind, "p", settings.CalcN, "4000", settings.CalcM, "5+Mb"), settings.CalcM, `m has unknown unit "Mb"; use bits, bytes, KiB, MiB, GiB or TiB`},
		{params(settings.CalcN, "1000", settings.CalcP, "150%25"), settings.CalcP, `p must be below 1 (100%), got "150%"`},
		{params(settings.CalcAbsentQPS, "-3"), settings.CalcAbsentQPS, `absent queries per second must be a number from 0 to 10^15, got "-3"`},
	}
	for _, tt := range tests {
		t.Run(tt.field, func(t *testing.T) {
			bdo(t, ctx, chromedp.Navigate(base+"/calculator?"+tt.query), waitCalc("error"))
			if got := btext(t, ctx, "#"+tt.field+"-error"); !strings.Contains(got, tt.message) {
				t.Errorf("#%s-error = %q, want %q", tt.field, got, tt.message)
			}
			if got := beval[string](t, ctx, `document.getElementById("`+tt.field+`").getAttribute("aria-invalid")`); got != "true" {
				t.Errorf("#%s aria-invalid = %q, want true", tt.field, got)
			}
			// The message sits next to its field, not somewhere else.
			if !beval[bool](t, ctx, `document.getElementById("`+tt.field+`").parentElement.contains(document.getElementById("`+tt.field+`-error"))`) {
				t.Errorf("#%s-error is not next to its field", tt.field)
			}
			if got := btext(t, ctx, "#calc-error"); got != "Fix the marked field to see the plan." {
				t.Errorf("#calc-error = %q", got)
			}
			if beval[bool](t, ctx, `!!document.getElementById("alternatives")`) {
				t.Error("a bad form still shows the plan")
			}
		})
	}

	// Fixing the field by keyboard brings the plan back.
	bdo(t, ctx, chromedp.Navigate(base+"/calculator?"+params(settings.CalcN, "lots", settings.CalcP, "0.01")), waitCalc("error"))
	// The page takes the keys as they come: after the first, "1", it is
	// ready with n = 1 (m = 10) before it has "1e8".
	typeInto(t, ctx, settings.CalcN, "1e8")
	bwaitText(t, ctx, "#calc-out-m", func(s string) bool { return s == "958,505,838" })
	bdo(t, ctx, waitCalc("ready"))
}

func TestBrowserAboutPage(t *testing.T) {
	needBrowser(t)
	base := labURL(t)
	ctx := btab(t, 1280, 900)
	bdo(t, ctx, chromedp.Navigate(base+"/about"), chromedp.WaitVisible(chromedp.CSS("#about-chart svg")))
	// The browser lays the formulas out itself: each is a MathML element
	// with real height, drawn without any script or network.
	n := beval[int](t, ctx, `[...document.querySelectorAll(".formula math")].filter(m => m instanceof MathMLElement && m.getBoundingClientRect().height > 18).length`)
	if n != 6 {
		t.Errorf("%d laid-out MathML formulas, want 6", n)
	}
	// A fraction is taller than a line of text: MathML, not a fallback.
	if h := beval[float64](t, ctx, `document.querySelector("#formula-bits math").getBoundingClientRect().height`); h < 30 {
		t.Errorf("the sizing formula is %v px tall: its fractions are not laid out", h)
	}
	// A link into the lab opens the lesson's settings. It is followed as a
	// fresh load of its address: the lesson is in the link itself.
	target := beval[string](t, ctx, `document.getElementById("try-overfill").href`)
	bdo(t, ctx, chromedp.Navigate(target), waitLab())
	if got := btext(t, ctx, "#out-n"); got != "8,000" {
		t.Errorf("the overfill link opened a lab with n = %q, want 8,000", got)
	}
}

// TestBrowserNarrowPages: at 360 px the calculator and the about page fit
// the width, with no sideways scrolling.
func TestBrowserNarrowPages(t *testing.T) {
	needBrowser(t)
	base := labURL(t)
	ctx := btab(t, 360, 740)
	for _, page := range []struct{ path, ready string }{
		{"/calculator?" + params(settings.CalcN, "100000000", settings.CalcP, "0.01"), `#calculator[data-state="ready"]`},
		{"/about", "#about-chart svg"},
	} {
		bdo(t, ctx, chromedp.Navigate(base+page.path), chromedp.WaitVisible(chromedp.CSS(page.ready)))
		if w := beval[int](t, ctx, `document.documentElement.scrollWidth`); w > 360 {
			t.Errorf("%s is %d px wide at a 360 px viewport", page.path, w)
		}
	}
	// Every formula fits its box: none is cut off behind a scroll bar.
	cut := beval[[]string](t, ctx, `[...document.querySelectorAll(".formula")].filter(f => f.scrollWidth > f.clientWidth + 1).map(f => f.id)`)
	if len(cut) > 0 {
		t.Errorf("formulas wider than a 360 px screen: %v", cut)
	}
}

// TestBrowserCalculatorCheapest: the cheapest structure for each need, as
// plan.Cheapest prices it natively, and again after p changes; growth
// past n is the scalable chain's, its row marked and saying why the
// others do not qualify.
func TestBrowserCalculatorCheapest(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/calculator?"+params(settings.CalcN, "1000000", settings.CalcP, "0.01")), waitCalc("ready"))
	check := func(p float64, want map[string]string) {
		t.Helper()
		for _, s := range plan.Cheapest(1_000_000, p) {
			row := "#cheapest-" + s.Name
			bpk := "-"
			if s.Reaches {
				bpk = strconv.FormatFloat(s.BitsPerKey(1_000_000), 'f', 3, 64)
			}
			if got := btext(t, ctx, row+` td[data-label="bits per key"]`); got != bpk {
				t.Errorf("p = %g, %s: %q bits per key, natively %s", p, s.Name, got, bpk)
			}
			best, ok := want[s.Name]
			if !ok {
				best = "-"
			}
			if got := btext(t, ctx, row+" td.best .needs"); got != best {
				t.Errorf("p = %g, %s: cheapest for %q, want %q", p, s.Name, got, best)
			}
		}
		// Growth past n: the scalable chain, marked, its memory shown,
		// and the row says why the others do not qualify.
		growth := plan.Needs[len(plan.Needs)-1]
		if got := btext(t, ctx, "#cheapest-scalable td.best small.why"); got != growth.Note {
			t.Errorf("p = %g: the scalable row's note %q, want %q", p, got, growth.Note)
		}
		if cls := beval[string](t, ctx, `document.querySelector("#cheapest-scalable").className`); cls != "best" {
			t.Errorf("p = %g: the scalable row's class %q, want it marked best", p, cls)
		}
		if got := btext(t, ctx, `#cheapest-scalable td[data-label="memory"]`); got == "-" || got == "" {
			t.Errorf("p = %g: the scalable chain's memory %q", p, got)
		}
	}
	grows := plan.Needs[3].Name
	// At 1% the semi-sorted cuckoo filter, a bit a slot under the plain
	// one's, is the cheapest that takes inserts and removes.
	check(0.01, map[string]string{"ribbon-128": plan.Needs[0].Name, "cuckoo-ss": plan.Needs[1].Name + "; " + plan.Needs[2].Name, "scalable": grows})
	typeInto(t, ctx, settings.CalcP, "0.00001")
	bwaitText(t, ctx, "#cheapest-cuckoo-ss td.best", func(s string) bool { return s == "-" })
	bdo(t, ctx, waitCalcTables())
	check(1e-5, map[string]string{"ribbon-128": plan.Needs[0].Name, "standard": plan.Needs[1].Name, "counting": plan.Needs[2].Name, "scalable": grows})
	shoot(t, ctx, "calculator-cheapest")
}

// drawnTables starts a log of the links whose tables the calculator
// draws, each as it is replaced (a MutationObserver's old values), so no
// tables drawn for a moment escape it; drawnSoFar reads it with the
// tables shown now.
const (
	drawnTables = `(() => {
  const el = document.getElementById("calculator");
  window.calcDrawn = [];
  new MutationObserver(rs => { for (const r of rs) window.calcDrawn.push(r.oldValue ?? ""); })
    .observe(el, {attributes: true, attributeFilter: ["data-measured"], attributeOldValue: true});
  return true;
})()`
	drawnSoFar = `[...window.calcDrawn, document.getElementById("calculator").dataset.measured].filter(v => v !== "")`
)

// TestBrowserCalculatorOnWorker: a typed form is answered at once with its
// figures while the lab's worker measures its tables, held mid-way there
// (bloomlab.hold); a form typed meanwhile is answered at once too, and
// replaces the measurement under way, whose tables are never drawn: the
// tables drawn are the default form's, then the last form's, and they are
// what core/plan measures natively. None of the work is on the page's
// thread.
func TestBrowserCalculatorOnWorker(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/calculator"), waitCalc("ready"), waitCalcTables())
	beval[bool](t, ctx, drawnTables)
	holdRuns(t, ctx, true)

	first := settings.DefaultCalculator()
	first.Values[settings.CalcN] = "500,000"
	firstPlan := first.Solve().Plan
	typeInto(t, ctx, settings.CalcN, "500,000")
	bwaitText(t, ctx, "#calc-out-m", func(s string) bool { return s == format.Int(firstPlan.M) })
	// The first form's measurement stands held, some of it done.
	bwaitEval(t, ctx, `String(document.getElementById("calc-progress")?.value > 0)`, func(s string) bool { return s == "true" })
	if got := beval[string](t, ctx, `document.getElementById("calculator").dataset.measure`); got != "measuring" {
		t.Fatalf("data-measure %q while the first form's tables are held mid-way, want measuring", got)
	}
	if n := beval[int](t, ctx, `document.querySelectorAll("#alternatives td.measured.pending").length`); n != len(firstPlan.Alternatives) {
		t.Errorf("%d measured cells wait for the worker, want every row's, %d", n, len(firstPlan.Alternatives))
	}

	second := first.Clone()
	second.Values[settings.CalcP] = "1 in 256"
	secondPlan := second.Solve().Plan
	typeInto(t, ctx, settings.CalcP, "1 in 256")
	// Answered while the first form's measurement is still held.
	bwaitText(t, ctx, "#calc-out-m", func(s string) bool { return s == format.Int(secondPlan.M) })
	if got := btext(t, ctx, "#k-round .k"); got != strconv.Itoa(secondPlan.KRound) {
		t.Errorf("the second form's k by round %q, want %d", got, secondPlan.KRound)
	}
	if got := beval[string](t, ctx, `document.getElementById("calculator").dataset.measure`); got != "measuring" {
		t.Fatalf("data-measure %q with the hold still on, want measuring", got)
	}

	holdRuns(t, ctx, false)
	bdo(t, ctx, waitCalcTables())
	checkAltMeasured(t, ctx, plan.Input{Find: plan.FindM, N: secondPlan.N, P: secondPlan.P})
	// Once the lab's worker has ended every request it was sent, the
	// replaced one has had every chance to come back.
	beval[bool](t, ctx, `bloomlab.settled()`)
	drawn := beval[[]string](t, ctx, drawnSoFar)
	want := []string{settings.DefaultCalculator().Query().Encode(), second.Query().Encode()}
	if strings.Join(drawn, "\n") != strings.Join(want, "\n") {
		t.Errorf("tables drawn for:\n%s\nwant the default form's, then the last form's:\n%s", strings.Join(drawn, "\n"), strings.Join(want, "\n"))
	}
	if got := pageWork(t, ctx); got != (engine.PageWork{}) {
		t.Errorf("the page's thread measured tables itself: %+v, want all of it on the lab's worker", got)
	}
}
