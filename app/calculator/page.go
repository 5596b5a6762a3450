package calculator

import (
	"math"
	"net/url"
	"strconv"
	"strings"

	"github.com/bloomlab/bloomlab/app/engine"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui"
	"github.com/bloomlab/bloomlab/app/ui/format"
	"github.com/bloomlab/bloomlab/core/plan"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Page sizes a real filter: two of n, p and m in, the third out,
// and around it k by round and by ceil, the information floor, the exact
// set, other structures, the overfill line and the cost model. Like the lab
// it keeps every field in the URL: typing recomputes, leaving a field (or
// Enter) records the link, and OnNav reads it back.
type Page struct {
	app.Compo

	form   settings.Calculator
	notice string
	res    settings.Solved
	large  bool // the projector mode, kept in the link
	// live is set once the page runs in the browser, so that a test (or a
	// script) can tell the prerendered page from the working one.
	live bool
	// from is where the tables came from (see solveTaking), for a test;
	// firstView the JSON of the tables the server writes into the first
	// view (see firstViewJSON).
	from, firstView string

	// The live page measures a form's tables on the lab's worker
	// (measureTables): runs replaces the measurement of a form a newer
	// one replaced; measuring is set until the current form's tables are
	// in, done of total the structures measured so far; measureErr says
	// why they could not be; tablesFor is the link of the form whose
	// tables the page holds.
	runs        engine.Runs
	measuring   bool
	done, total int
	measureErr  string
	tablesFor   string
}

// New makes the page. In the browser, when the page opened is the
// calculator, it readies the first render (see start): go-app calls New
// before it replaces the first view with the live page.
func New() *Page {
	c := &Page{form: settings.DefaultCalculator()}
	if app.IsClient {
		if el := app.Window().GetElementByID("calculator"); el.Truthy() {
			c.start(app.Window().URL().Query(), func() string {
				if v := el.Get("dataset").Get("tables"); v.Truthy() {
					return v.String()
				}
				return ""
			})
		}
	}
	return c
}

// start readies the live page's first render from the link's query q:
// it keeps the tables the first view carries (raw, see readFirstView),
// and shows q's form as OnNav will, its tables taken where they need no
// work (known: the default form's, a Go literal, and the first view's).
// So the first render is the answer, mounted in the page's parts between
// its pauses (ui.Yield), and OnNav, which go-app calls right after the
// mount, finds it shown and changes nothing.
func (c *Page) start(q url.Values, raw func() string) {
	readFirstView(raw)
	c.show(c.read(q))
}

// OnNav reads the form from the URL and solves it: a few milliseconds of
// formulas, so the prerendered page carries the answer too. The server
// measures the tables, unless they come with the program (the default
// form), and writes them into the first view; the live page takes them
// from there (see known) or has the lab's worker measure them (solve).
func (c *Page) OnNav(ctx app.Context) {
	ctx.Page().SetTitle("Calculator · Bloom Lab")
	f := c.read(ctx.Page().URL().Query())
	c.firstView = ""
	if !app.IsClient {
		c.form = f
		c.res, c.from = solveTaking(f)
		c.firstView = firstViewJSON(f, c.res)
		return
	}
	c.solve(ctx, f)
}

// read is the form of the link's query q; it keeps q's notice and
// projector mode.
func (c *Page) read(q url.Values) settings.Calculator {
	f, notice := settings.CalculatorFromQuery(q)
	c.notice, c.large = notice, settings.LargeType(q)
	return f
}

// solve shows the form f in the live page: its figures (SolveFigures,
// microseconds) at once, and its alternatives and tables as soon as they
// are there: at once if they are known (see known), else when the lab's
// worker has found and measured them (see measureTables).
func (c *Page) solve(ctx app.Context, f settings.Calculator) {
	if c.res.OK && (c.measuring || c.res.Measured != nil) && f.Query().Encode() == c.form.Query().Encode() {
		return // the form shown, as a link records it after it was typed
	}
	if c.show(f) {
		c.measureTables(ctx)
	}
}

// show shows the form f: its figures, and its alternatives and tables if
// they are known (see known); it reports whether they are still to be
// found and measured. Whatever was measured for the form shown before is
// cancelled.
func (c *Page) show(f settings.Calculator) bool {
	c.form = f
	c.res, c.from = known(f)
	c.measuring, c.measureErr, c.tablesFor = false, "", ""
	if c.from != "" || !c.res.OK {
		c.runs.Cancel()
		c.tablesFor = f.Query().Encode()
		return false
	}
	return true
}

// measureTables has the lab's worker find the current form's
// alternatives, shown as soon as they are in, and measure its tables from
// them, shown once they are in (in a browser without workers, both on the
// page's thread, the tables in slices); unless a newer form replaced this
// one by then: its work is cancelled, and whatever it sends back is
// dropped, never drawn.
func (c *Page) measureTables(ctx app.Context) {
	run := c.runs.Start()
	shape, form := c.res.Plan.Shape(), c.form.Query().Encode()
	c.measuring, c.done, c.total = true, 0, 0
	report := run.Reporter(ctx, func(done, total int) { c.done, c.total = done, total })
	found := func(alts []plan.Alternative) {
		ctx.Dispatch(func(ctx app.Context) {
			if run.Live() {
				c.res.Plan.Alternatives = alts
			}
		})
	}
	ctx.Async(func() {
		t, err := engine.MeasurePlan(true, shape, run, found, report)
		ctx.Dispatch(func(ctx app.Context) {
			switch {
			case !run.Live():
			case err != nil:
				c.measuring, c.measureErr = false, err.Error()
			default:
				c.measuring = false
				c.res, c.from, c.tablesFor = withTables(c.res, t), "measured", form
			}
		})
	})
}

func (c *Page) OnDismount() { c.runs.Cancel() }

func (c *Page) OnMount(ctx app.Context) {
	c.live = app.IsClient
	// What the reader typed or chose on the prerendered page, before the
	// page was live, is done again now (web/early.js).
	ctx.Defer(func(app.Context) {
		if live := app.Window().Get("bloomlabLive"); live.Truthy() {
			live.Invoke()
		}
	})
}

func (c *Page) onInput(id string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		f := c.form.Clone()
		f.Values[id] = e.Get("target").Get("value").String()
		c.solve(ctx, f)
	}
}

// commit records the form in the URL as a new history entry.
func (c *Page) commit(ctx app.Context, e app.Event) {
	u := *ctx.Page().URL()
	q := c.form.Query()
	if c.large {
		q.Set(settings.IDLarge, "on")
	}
	u.RawQuery = q.Encode()
	ctx.NavigateTo(&u)
}

// onFind switches the unknown. The figure just found moves into its field,
// so switching from "find m" to "find n" gives back the n it came from.
func (c *Page) onFind(u plan.Unknown) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		if u == c.form.Find {
			return
		}
		f := c.form.Clone()
		if c.res.OK {
			f.Values[string(f.Find)] = settings.SolvedText(c.res.Plan, string(f.Find))
		}
		f.Find = u
		c.notice = ""
		c.solve(ctx, f)
		c.commit(ctx, e)
	}
}

func (c *Page) Render() app.UI {
	state := "ready"
	switch {
	case !c.live:
		state = "static"
	case !c.res.OK:
		state = "error"
	}
	// data-measure says whether the tables shown are the form's own
	// ("done") or still being measured ("measuring"); data-measured is
	// the link of the form whose tables are shown (tablesFor), "" while
	// they are measured, for a test that watches which tables were ever
	// drawn.
	measure, measured := "done", c.tablesFor
	if c.measuring {
		measure = "measuring"
	}
	if c.measuring || !c.res.OK {
		measured = ""
	}
	return ui.NewShell().Route(ui.RouteCalculator).LargeType(c.large).Body(
		app.Div().ID("calculator").Class("calc").DataSet("state", state).DataSet("from", c.from).
			DataSet("measure", measure).DataSet("measured", measured).
			Attr("data-tables", c.firstView).Body(
			still(func() app.UI { return app.H1().Text("Calculator") }),
			still(func() app.UI {
				return app.P().Class("lede").Text("Size a real filter. Give two of n, p and m and the calculator finds the third, then sets out what the answer costs: the hashes, the memory against an exact set and against other filters, what happens when the set outgrows the filter, and what its false positives cost you.")
			}),
			// The page mounts in five tasks (ui.Yield): the form, the
			// plan's figures, the alternatives, the cheapest structures,
			// and the rest of the tables. The pauses mount with the page,
			// outside the tables, which come and go with the form.
			app.Div().Class("calc-grid").Body(
				c.renderForm(),
				&ui.Yield{},
				ui.Part(func() app.UI { return app.Div().Class("calc-out").Body(c.renderOutput()...) }),
			),
			&ui.Yield{},
			// Hidden while the form does not solve: empty, it kept its
			// margin.
			ui.Hidden(app.Div().Class("calc-tables"), !c.res.OK).Body(
				c.table(c.renderAlternatives),
				&ui.Yield{},
				c.table(c.renderCheapest),
				&ui.Yield{},
				c.table(c.renderOverfill),
				c.table(c.renderCost),
				c.table(c.renderLabLink),
			),
		),
	)
}

func (c *Page) renderForm() app.UI {
	return app.Section().Class("controls calc-form").Aria("label", "Inputs").Body(
		app.Div().Role("radiogroup").Class("find").Aria("labelledby", "find-legend").Body(
			still(func() app.UI { return app.P().ID("find-legend").Class("find-legend").Text("Find") }),
			app.Range(settings.FindLabels).Slice(func(i int) app.UI {
				fl := settings.FindLabels[i]
				id := "find-" + string(fl.Find)
				radio := app.Input().Type("radio").Name(settings.CalcFind).ID(id).Value(string(fl.Find)).OnChange(c.onFind(fl.Find))
				if fl.Find == c.form.Find {
					// Only ever true: the prerendered page would write
					// checked="false", which HTML reads as checked.
					radio = radio.Checked(true)
				}
				return app.Div().Class("control inline").Body(radio, app.Label().For(id).Text(fl.Label))
			}),
			app.If(c.notice != "", func() app.UI {
				return app.P().ID("find-notice").Class("field-error").Role("status").Text(c.notice)
			}),
		),
		app.Range(settings.SizeFields).Slice(func(i int) app.UI { return c.renderField(settings.SizeFields[i]) }),
		still(func() app.UI { return app.H2().Class("form-sub").Text("The exact set and the cost model") }),
		app.Range(settings.CostFields).Slice(func(i int) app.UI { return c.renderField(settings.CostFields[i]) }),
	)
}

func (c *Page) renderField(fl settings.CalcField) app.UI {
	solved := fl.ID == string(c.form.Find)
	msg := c.res.Errors[fl.ID]
	value := c.form.Values[fl.ID]
	read := c.res.Read[fl.ID]
	if solved {
		// A dash, not "": go-app drops an empty value on update, which would
		// leave the field showing what it held before.
		value = "—"
		if c.res.OK {
			value = settings.SolvedText(c.res.Plan, fl.ID)
			read = "found: " + c.foundText(fl.ID)
		}
	}
	describedBy := fl.ID + "-help"
	class := "control calc-field"
	input := ui.Value(app.Input().Type("text").ID(fl.ID), value).
		AutoComplete(false).Spellcheck(false).Attr("inputmode", "decimal")
	switch {
	case solved:
		class += " solved"
		input = input.ReadOnly(true)
	default:
		input = input.OnInput(c.onInput(fl.ID)).OnChange(c.commit)
	}
	if msg != "" {
		class += " invalid"
		describedBy = fl.ID + "-error " + describedBy
		input = input.Aria("invalid", "true")
	} else if read != "" {
		describedBy = fl.ID + "-read " + describedBy
	}
	return app.Div().Class(class).Body(
		app.Label().For(fl.ID).Body(
			app.Span().Text(fl.Label),
			app.If(solved, func() app.UI { return app.Span().Class("found-tag").Text("found") }),
		),
		input.Aria("describedby", describedBy),
		app.If(msg != "", func() app.UI {
			return app.P().ID(fl.ID + "-error").Class("field-error").Role("alert").Text("✗ " + msg)
		}).ElseIf(read != "", func() app.UI {
			return app.Small().ID(fl.ID + "-read").Class("read").Text(read)
		}),
		still(func() app.UI { return app.Small().ID(fl.ID + "-help").Text(fl.Help) }),
	)
}

// foundText words the unknown for its field.
func (c *Page) foundText(id string) string {
	pl := c.res.Plan
	switch id {
	case settings.CalcM:
		return format.Int(pl.M) + " bits, " + plan.FormatSize(pl.M)
	case settings.CalcP:
		return calcRate(pl.P) + " (" + format.Percent(pl.P) + ") at k = " + strconv.Itoa(pl.KRound)
	}
	return format.Int(pl.N) + " keys"
}

// renderOutput is the solved plan in three sections (its figures, k
// rounded against ceiled, the floor), or why there is none.
func (c *Page) renderOutput() []app.UI {
	if !c.res.OK {
		text := "Fix the marked field to see the plan."
		if c.res.Err != "" {
			text = c.res.Err
		}
		return []app.UI{ui.Failure("calc-error", text)}
	}
	pl := c.res.Plan
	return []app.UI{renderPlanCounters(pl), renderKCompare(pl), renderFloor(pl)}
}

// renderPlanCounters is the plan's figures, one counter each: n, p, m,
// the memory, k, bits per key, the rate by the formula and at the exact
// m, and the fill.
func renderPlanCounters(pl plan.Plan) app.UI {
	pLabel := "target p"
	if pl.Find == plan.FindP {
		pLabel = "p at the optimal k"
	}
	counters := []figure{
		{id: "calc-out-n", label: "n keys", value: format.Int(pl.N)},
		{id: "calc-out-p", label: pLabel, value: calcRate(pl.P)},
		{id: "calc-out-m", label: "m bits", value: format.Int(pl.M)},
		{id: "calc-out-memory", label: "memory", value: plan.FormatSize(pl.M)},
		{id: "calc-out-k", label: "k hashes", value: strconv.Itoa(pl.K)},
		{id: "calc-out-bpk", label: "bits per key", value: format.Float(pl.BitsPerKey, 3)},
		{id: "calc-out-fpr", label: "rate at this k", value: calcRate(pl.Rate), title: "(1 - e^(-kn/m))^k"},
		{id: "calc-out-fpr-exact", label: "rate, exact m", value: calcRate(pl.RateExact), title: "(1 - (1 - 1/m)^(kn))^k"},
		{id: "calc-out-fill", label: "bits set at n", value: format.Percent(pl.Fill)},
	}
	return app.Section().Class("counters-box").Aria("label", "The plan").Body(
		app.Dl().Class("counters").Body(
			app.Range(counters).Slice(func(i int) app.UI {
				ct := counters[i]
				return app.Div().Class("counter").Title(ct.title).Body(
					app.Dt().Text(ct.label),
					app.Dd().ID(ct.id).Text(ct.value),
				)
			}),
		),
	)
}

// renderKCompare sets k rounded against k ceiled, with their rates and a
// verdict: ceil is the common mistake the lessons' "Round, not ceil"
// answers.
func renderKCompare(pl plan.Plan) app.UI {
	verdict := "the same k either way"
	switch {
	case pl.RateRound < pl.RateCeil:
		verdict = "ceil costs " + format.Percent(pl.RateCeil/pl.RateRound-1) + " more false positives and " +
			strconv.Itoa(pl.KCeil-pl.KRound) + " more hash per key"
	case pl.RateRound > pl.RateCeil:
		verdict = "here ceil happens to be lower"
	}
	return app.Section().Class("counters-box").Aria("labelledby", "k-compare-title").Body(
		still(func() app.UI { return app.H2().ID("k-compare-title").Class("box-title").Text("k: round, not ceil") }),
		app.Table().ID("k-compare").Class("plan-table compact").Body(
			app.Caption().Text("(m/n) ln 2 = "+format.Float(pl.KStar, 3)),
			app.THead().Body(app.Tr().Body(app.Th().Text("rule"), app.Th().Text("k"), app.Th().Text("rate"))),
			app.TBody().Body(
				app.Tr().ID("k-round").Body(
					app.Td().Text("round((m/n) ln 2)"),
					app.Td().Class("k").Text(strconv.Itoa(pl.KRound)),
					app.Td().Class("rate").Text(calcRate(pl.RateRound)),
				),
				app.Tr().ID("k-ceil").Body(
					app.Td().Text("ceil((m/n) ln 2)"),
					app.Td().Class("k").Text(strconv.Itoa(pl.KCeil)),
					app.Td().Class("rate").Text(calcRate(pl.RateCeil)),
				),
			),
		),
		app.P().ID("k-verdict").Class("muted small").Text(verdict+"."),
	)
}

// renderFloor sets the filter's bits per key against the information
// floor log2(1/p), and its memory against an exact set of the same keys.
func renderFloor(pl plan.Plan) app.UI {
	floorW := 100 * pl.InfoFloor / pl.BitsPerKey
	return app.Section().Class("counters-box").Aria("labelledby", "floor-title").Body(
		still(func() app.UI {
			return app.H2().ID("floor-title").Class("box-title").Text("Bits per key against the floor")
		}),
		app.Div().Class("floor-bars").Aria("hidden", "true").Body(
			app.Div().Class("bar spent").Style("width", "100%").Text(format.Float(pl.BitsPerKey, 3)+" bits per key"),
			app.Div().Class("bar floor").Style("width", format.Float(floorW, 1)+"%").Text("floor "+format.Float(pl.InfoFloor, 3)),
		),
		app.P().ID("calc-floor").Text(
			"This filter spends "+format.Float(pl.BitsPerKey, 3)+" bits per key; no structure answering with rate p can go below log₂(1/p) = "+
				format.Float(pl.InfoFloor, 3)+". That is "+format.Float(pl.Overhead, 2)+" times the floor (a Bloom filter at its optimum spends 1/ln 2 ≈ 1.44 times)."),
		app.P().ID("calc-exact").Text(
			"Kept exactly, as a hash set of "+strconv.Itoa(pl.KeyBytes)+"-byte keys, the same "+format.Int(pl.N)+" keys take about "+
				plan.FormatBytes(pl.ExactSetBytes)+": "+ratio(float64(pl.ExactSetBytes), float64(pl.Bytes))+" this filter."),
	)
}

// calcRate writes a rate as the lab does from 0.001 up (six decimals), and
// below that with four significant digits, so that the small rates an
// engineer sizes for stay comparable: 0.0009766, 1.000e-12.
func calcRate(p float64) string {
	switch {
	case p >= 0.001 || p == 0:
		return format.Rate(p)
	case p >= 1e-6:
		return strconv.FormatFloat(p, 'f', 3-int(math.Floor(math.Log10(p))), 64)
	}
	return strconv.FormatFloat(p, 'e', 3, 64)
}

// ratio words a/b as "29.6 times" or "0.8 of".
func ratio(a, b float64) string {
	if b == 0 {
		return "far more than"
	}
	r := a / b
	if r >= 1 {
		return strconv.FormatFloat(r, 'f', 1, 64) + " times"
	}
	return strconv.FormatFloat(r, 'f', 2, 64) + " of"
}

// amount writes a per-second or per-day figure: four significant digits,
// whole numbers with thousands separators from 1,000 up.
func amount(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "-"
	case math.Abs(v) >= 1000:
		s := format.Int(uint64(math.Round(math.Abs(v))))
		if v < 0 {
			s = "-" + s
		}
		return s
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// table is one of the plan's tables, rendered as it mounts (ui.Part),
// shown while the form solves.
func (c *Page) table(render func() app.UI) app.UI {
	return app.If(c.res.OK, func() app.UI { return ui.Part(render) })
}

// renderAlternatives is the same n and p in the other structures, each
// with its measured rate.
func (c *Page) renderAlternatives() app.UI {
	alts := c.res.Plan.Alternatives
	return app.Section().Class("table-box").Aria("labelledby", "alternatives-title").Body(
		still(func() app.UI { return app.H2().ID("alternatives-title").Text("The same n and p in other structures") }),
		still(func() app.UI {
			return app.P().Class("muted small").Text("The rate is each paper's formula, and for the blocked filter the exact mixture of its block fills. Fingerprint filters use whole fingerprint bits, so they reach the rate shown, which may be below p. " +
				"The measured column builds each structure the lab has at the same bits per key with " + format.Int(plan.MeasureKeys) + " keys (or n, if fewer) and asks " +
				format.Int(plan.MeasureQueries) + " absent keys: a quick check of the formula, with its 95% interval. A dash marks a structure the lab cannot build; its title says why.")
		}),
		app.Table().ID("alternatives").Class("plan-table").Body(
			still(func() app.UI {
				return app.THead().Body(app.Tr().Body(
					app.Th().Text("structure"), app.Th().Text("bits per key"), app.Th().Text("memory"),
					app.Th().Text("rate"), app.Th().Text("measured"), app.Th().Text("removal"), app.Th().Text("how, and the source"),
				))
			}),
			app.TBody().Body(app.Range(alts).Slice(func(i int) app.UI {
				a := alts[i]
				bpk, mem, rate := format.Float(a.BitsPerKey, 3), plan.FormatSize(a.Bits), calcRate(a.Rate)
				if a.Unreachable {
					bpk, mem, rate = "-", "-", "-"
				}
				removal := "no"
				switch {
				case a.Deletes:
					removal = "yes"
				case a.Static:
					removal = "no; built once"
				}
				class := ""
				if a.ID == "bloom" {
					class = "this"
				}
				return app.Tr().ID("alt-"+a.ID).Class(class).Body(
					app.Td().DataSet("label", "structure").Class("name").Text(a.Name),
					app.Td().DataSet("label", "bits per key").Class("num").Text(bpk),
					app.Td().DataSet("label", "memory").Class("num").Text(mem),
					app.Td().DataSet("label", "rate").Class("num").Text(rate),
					c.measuredCell(i),
					app.Td().DataSet("label", "removal").Text(removal),
					app.Td().DataSet("label", "source").Class("source").Body(
						app.Text(a.Note+". "), app.Cite().Text(a.Source),
					),
				)
			})),
		),
	)
}

// renderOverfill is the plan's filter as the set outgrows it.
func (c *Page) renderOverfill() app.UI {
	pl := c.res.Plan
	return app.Section().Class("table-box").Aria("labelledby", "overfill-title").Body(
		still(func() app.UI { return app.H2().ID("overfill-title").Text("Overfill: the same filter, more keys") }),
		still(func() app.UI {
			return app.P().Class("muted small").Text("The filter keeps its m and k; the set keeps growing. Watch the occupancy as the warning sign.")
		}),
		app.Table().ID("overfill").Class("plan-table").Body(
			still(func() app.UI {
				return app.THead().Body(app.Tr().Body(
					app.Th().Text("keys"), app.Th().Text("n"), app.Th().Text("rate"), app.Th().Text("bits set"), app.Th().Text("against design"),
				))
			}),
			app.TBody().Body(
				app.Tr().ID("overfill-1").Class("this").Body(
					app.Td().DataSet("label", "keys").Text("1x, as designed"),
					app.Td().DataSet("label", "n").Class("num").Text(format.Int(pl.N)),
					app.Td().DataSet("label", "rate").Class("num rate").Text(calcRate(pl.Rate)),
					app.Td().DataSet("label", "bits set").Class("num").Text(format.Percent(pl.Fill)),
					app.Td().DataSet("label", "against design").Class("num").Text("1x"),
				),
				app.Range(pl.Overfill).Slice(func(i int) app.UI {
					o := pl.Overfill[i]
					f := format.Plain(o.Factor)
					return app.Tr().ID("overfill-"+f).Body(
						app.Td().DataSet("label", "keys").Text(f+"x"),
						app.Td().DataSet("label", "n").Class("num").Text(format.Int(o.N)),
						app.Td().DataSet("label", "rate").Class("num rate").Text(calcRate(o.Rate)),
						app.Td().DataSet("label", "bits set").Class("num").Text(format.Percent(o.Fill)),
						app.Td().DataSet("label", "against design").Class("num").Text(format.Float(o.Rate/pl.Rate, 1)+"x the rate"),
					)
				}),
			),
		),
	)
}

// still renders a part of the page once, when it mounts (ui.Still): the
// headings, explanations and table heads, which no form changes, so that
// the page's renders after a form (OnNav's, right after the mount, among
// them) compare only what a form changes. A test counts its renders.
var still = ui.Still

// cheapestTitle is the cheapest table's heading, over its progress while
// it is measured and over the table once it is in.
func cheapestTitle() app.UI {
	return still(func() app.UI { return app.H2().ID("cheapest-title").Text("The cheapest structure for what you need") })
}

// renderCheapest is the lab's structures at the fewest bits that reach
// the plan's p, the figures the frontier experiment measures, each marked
// with the needs it is the cheapest for.
func (c *Page) renderCheapest() app.UI {
	if c.measuring || c.measureErr != "" {
		return app.Section().Class("table-box").Aria("labelledby", "cheapest-title").Body(
			cheapestTitle(),
			app.If(c.measureErr != "", func() app.UI {
				return app.P().ID("calc-measure-error").Class("notice error").Text("The measured columns could not be made: " + c.measureErr)
			}).Else(func() app.UI {
				return ui.Progress("calc-progress", "Measuring the structures: "+strconv.Itoa(c.done)+" of "+strconv.Itoa(max(c.total, c.done)),
					float64(c.done), float64(max(c.total, 1)), false)
			}),
		)
	}
	sized, n := c.res.Cheapest, c.res.Plan.N
	for_, notes := make([][]string, len(sized)), make([][]string, len(sized))
	for ni, i := range c.res.CheapestFor {
		if i >= 0 {
			for_[i] = append(for_[i], plan.Needs[ni].Name)
			if note := plan.Needs[ni].Note; note != "" {
				notes[i] = append(notes[i], note)
			}
		}
	}
	return app.Section().Class("table-box").Aria("labelledby", "cheapest-title").Body(
		cheapestTitle(),
		still(func() app.UI {
			return app.P().Class("muted small").Text("Each of the lab's structures at the fewest bits its own theory needs for this n and p (the frontier experiment builds and measures the same): " +
				"a set known in advance can go into a static filter, keys that arrive over time need inserts, keys that leave need removal, " +
				"and keys that keep coming past the planned n need a structure that grows. The scalable chain is set up as for keys not known in advance: it starts at n/8 keys, each link twice the last at half its rate, and its memory is every link it has grown to at n keys.")
		}),
		app.Table().ID("cheapest").Class("plan-table").Body(
			still(func() app.UI {
				return app.THead().Body(app.Tr().Body(
					app.Th().Text("structure"), app.Th().Text("settings"), app.Th().Text("bits per key"), app.Th().Text("memory"),
					app.Th().Text("rate"), app.Th().Text("cheapest for"),
				))
			}),
			app.TBody().Body(app.Range(sized).Slice(func(i int) app.UI {
				s := sized[i]
				settings, bpk, mem, rate := s.Settings, format.Float(s.BitsPerKey(n), 3), plan.FormatSize(s.Bits), calcRate(s.Rate)
				if !s.Reaches {
					settings, bpk, mem, rate = s.Why, "-", "-", "-"
				}
				best := "-"
				class := ""
				if len(for_[i]) > 0 {
					best, class = strings.Join(for_[i], "; "), "best"
				}
				return app.Tr().ID("cheapest-"+s.Name).Class(class).Body(
					app.Td().DataSet("label", "structure").Class("name").Text(s.Variant.Label()),
					app.Td().DataSet("label", "settings").Text(settings),
					app.Td().DataSet("label", "bits per key").Class("num").Text(bpk),
					app.Td().DataSet("label", "memory").Class("num").Text(mem),
					app.Td().DataSet("label", "rate").Class("num").Text(rate),
					app.Td().DataSet("label", "cheapest for").Class("best").Body(
						app.Span().Class("needs").Text(best),
						app.Range(notes[i]).Slice(func(j int) app.UI { return app.Small().Class("why").Text(notes[i][j]) }),
					),
				)
			})),
		),
	)
}

// measuredCell shows what building alternative i showed: the rate and its
// interval, with the counts behind them in the title and in data
// attributes; or a dash and, in small type (a title alone is out of reach
// on a touch screen), why the lab cannot build it.
func (c *Page) measuredCell(i int) app.UI {
	td := app.Td().DataSet("label", "measured")
	if i >= len(c.res.Measured) {
		if c.measuring {
			return td.Class("num measured pending").Aria("label", "being measured").Text("…")
		}
		return td.Class("num measured none").Text("—")
	}
	m := c.res.Measured[i]
	if !m.Built {
		return td.Class("num measured none").Title(m.Why).Aria("label", "not measured: "+m.Why).Body(
			app.Span().Text("—"), app.Br(), app.Small().Class("why").Text(m.Why))
	}
	title := format.Int(m.FalsePositives) + " false positives in " + format.Int(m.Queries) + " absent queries to a filter of " +
		format.Int(m.Keys) + " keys at " + format.Float(m.BitsPerKey, 3) + " bits per key; 95% Wilson interval; the lab's theory for this filter: " + calcRate(m.Theory)
	if m.InsertFailures > 0 {
		title += "; " + format.Int(m.InsertFailures) + " inserts failed, the table was full"
	}
	return td.Class("num measured").Title(title).
		DataSet("fp", m.FalsePositives).DataSet("queries", m.Queries).Body(
		app.Span().Class("rate").Text(calcRate(m.Rate)),
		app.Br(),
		app.Small().Class("ci").Text(calcRate(m.Low)+" – "+calcRate(m.High)),
	)
}

func (c *Page) renderCost() app.UI {
	pl := c.res.Plan
	r := pl.Cost
	verdict, class := "", "cost-verdict"
	switch {
	case r.AbsentQPS == 0:
		verdict = "With no absent queries the filter saves nothing and costs nothing: it only earns its place where lookups for missing keys are common."
	case r.Net >= 0:
		verdict = "✓ The filter pays: its \"no\" answers save more than its false positives cost, as long as the rate stays below " + calcRate(r.BreakEven) + "."
		class += " pass"
	default:
		verdict = "✗ The false positives cost more than the filter saves: at this price of a \"maybe\" the rate must fall below " + calcRate(r.BreakEven) + ", or the \"maybe\" must get cheaper."
		class += " fail"
	}
	rows := []struct{ id, label, value string }{
		{"cost-fp", "false positives per second", amount(r.FalsePositives)},
		{"cost-spent", "their cost per second", amount(r.Spent)},
		{"cost-saved", "saved by \"no\" per second", amount(r.SavedTotal)},
		{"cost-net", "net per second", amount(r.Net)},
		{"cost-net-day", "net per day", amount(r.Net * 86400)},
		{"cost-break-even", "break-even rate", calcRate(r.BreakEven)},
	}
	return app.Section().Class("table-box").Aria("labelledby", "cost-title").Body(
		still(func() app.UI { return app.H2().ID("cost-title").Text("What a false positive costs") }),
		still(func() app.UI {
			return app.P().Class("muted small").Text("Expected cost = p x the cost of a \"maybe\" on an absent key x absent queries per second, against what the filter's \"no\" answers save: (1 - p) x the cost of the lookup spared x the same queries. The unit is yours.")
		}),
		app.Dl().ID("cost").Class("counters").Body(
			app.Range(rows).Slice(func(i int) app.UI {
				return app.Div().Class("counter").Body(app.Dt().Text(rows[i].label), app.Dd().ID(rows[i].id).Text(rows[i].value))
			}),
		),
		app.P().ID("cost-verdict").Class(class).Text(verdict),
	)
}

// renderLabLink offers the plan's shape in the lab, when it fits the lab's
// sliders: the rate depends on bits per key and k, not on n itself.
func (c *Page) renderLabLink() app.UI {
	pl := c.res.Plan
	bpk := math.Round(pl.BitsPerKey*10) / 10
	bpkSlider := settings.SliderByID(settings.IDBitsPerKey)
	if bpk < bpkSlider.Min || bpk > bpkSlider.Max || pl.K > settings.MaxLabHashes {
		return app.P().Class("muted small").Text("This shape is outside the lab's sliders (" + format.Plain(bpkSlider.Min) + " to " + format.Plain(bpkSlider.Max) +
			" bits per key, k up to " + strconv.Itoa(settings.MaxLabHashes) + ").")
	}
	s := settings.DefaultLab()
	s.Params.BitsPerKey, s.Params.Hashes = bpk, pl.K
	s.Large = c.large
	return app.P().Class("lab-link").Body(
		app.A().ID("calc-lab-link").Href(ui.Href(ui.RouteLab)+"?"+s.Query().Encode()).
			Text("Watch this shape fill in the lab: "+format.Plain(bpk)+" bits per key, k = "+strconv.Itoa(pl.K)),
		app.Span().Class("muted").Text(" (the lab simulates 4,000 keys; the rate depends on bits per key and k, not on n)."),
	)
}

// figure is one figure of the plan: its element ID, its label, what it
// means on hover, and its value.
type figure struct{ id, label, title, value string }
