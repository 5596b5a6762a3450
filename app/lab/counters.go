package lab

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/bloomlab/bloomlab/app/engine"
	"github.com/bloomlab/bloomlab/app/ui"
	"github.com/bloomlab/bloomlab/app/ui/format"
	"github.com/bloomlab/bloomlab/audit"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/plan"
	"github.com/bloomlab/bloomlab/core/sim"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// counter is one figure in the counters grid. Every layout has the same
// figures in the same order, those it lacks hidden: draw writes the values
// by id straight into the page, and a grid that changed its length under
// go-app would leave a value in the wrong place.
type counter struct {
	id, label, value, title string
	alarm, hidden           bool
}

// labCounters are the figures for layout v: the formulas' th before the
// first result, then r's. fingerprintBits is the width asked for, 0 for the
// layout's choice. Figures a layout lacks are hidden, and the Bloom ones
// are named for what they are in the others: slots or cells, not bits.
func labCounters(th theory, v core.Variant, fingerprintBits int, r *sim.Result) []counter {
	out := counterRows(th, v)
	if r == nil {
		out.theoryOnly(th, v)
	} else {
		out.measured(v, fingerprintBits, r)
	}
	return out
}

// counterList is the counters in the order shown, found by id.
type counterList []counter

func (out counterList) at(id string) *counter {
	for i := range out {
		if out[i].id == id {
			return &out[i]
		}
	}
	panic("lab: no counter " + id)
}

func (out counterList) set(id, value string) { out.at(id).value = value }

// counterRows are the counters of layout v, labelled, shown or hidden as
// the layout has them, each value a dash until a result fills it.
func counterRows(th theory, v core.Variant) counterList {
	unit := v.Unit()
	dash := "…"
	bloom, fingerprints := v.Bloom(), v.Fingerprints() != nil
	// A table of fingerprints filled key by key (cuckoo) has a load,
	// relocations and failed inserts; a layout built once from the whole
	// key set (fuse) has construction attempts.
	table := fingerprints && !v.Static()
	kLabel, probes := "k probes", "probes per absent query"
	setLabel := v.Terms().Nonzero
	exactLabel := "theory, exact m"
	if v.Chain() {
		kLabel = "k probes, all links"
	}
	if !v.UsesK() {
		probes = unit + "s read per absent query"
	}
	if reads := v.Terms().Reads; reads != "" {
		kLabel = reads
	}
	return counterList{
		{id: "out-m", label: "m " + unit + "s", value: dash},
		{id: "out-n", label: "n keys", value: format.Int(th.N)},
		{id: idEstimate, label: "n estimated, ± " + strconv.Itoa(EstimateSDs) + " SD", value: dash, hidden: !v.Estimates(), title: estimateTitle},
		{id: "out-k", label: kLabel, value: dash},
		{id: "out-bytes", label: "filter size", value: dash},
		{id: "memory-bits-per-key", label: "memory bits per key", value: dash, hidden: !fingerprints && !v.Chain(),
			title: "the filter's storage over n: what a key really costs"},
		{id: "fingerprint-bits-value", label: "fingerprint bits", value: dash, hidden: !fingerprints},
		{id: "out-set-bits", label: setLabel, value: dash},
		{id: "out-fill", label: "fill", value: dash, hidden: table},
		{id: "load", label: "load", value: dash, hidden: !table, title: "the share of slots in use, the stash included"},
		{id: "relocations", label: "relocations", value: dash, hidden: !table, title: "fingerprints moved to their other bucket to make room"},
		{id: "insert-failures", label: "insert failures", value: dash, hidden: !table, title: "inserts that found no room: the table is too full"},
		{id: "build-retries", label: "construction retries", value: dash, hidden: !v.Static(), title: "attempts that failed to build before one did: a fuse filter that did not peel, a Ribbon filter whose banding met a contradiction"},
		{id: "links", label: "links", value: dash, hidden: !v.Chain(), title: "filters in the chain, each holding twice the last's keys at half its rate"},
		{id: "rate-bound", label: "rate bound", value: dash, hidden: !v.Chain(), title: "p0/(1 - r): the chain's rate stays below it however far it grows"},
		{id: "out-fpr-theory", label: "theory rate", value: dash, title: theoryFormula(v)},
		{id: "out-fpr-exact", label: exactLabel, value: dash, hidden: !bloom, title: "(1 - (1 - 1/m)^(kn))^k"},
		{id: "out-fpr-empirical", label: "measured rate", value: dash},
		{id: "out-ci", label: "95%, queries alone", value: dash, title: "Wilson score interval: how well this filter's own rate is measured"},
		{id: "out-ci-whole", label: "95%, whole measurement", value: dash, title: "the queries and the filter's own draw: the interval to judge the theory by"},
		{id: "out-false-positives", label: "false positives", value: dash},
		{id: "out-false-negatives", label: "false negatives", value: dash},
		{id: "out-probes", label: probes, value: dash},
		{id: "out-memory", label: "exact set would need", value: dash},
	}
}

// theoryOnly fills what the Bloom formulas show before the first result.
func (out counterList) theoryOnly(th theory, v core.Variant) {
	if v.Bloom() {
		out.set("out-m", format.Int(th.M))
		out.set("out-k", strconv.Itoa(th.K))
		out.set("out-fpr-theory", format.Rate(th.Rate))
		out.set("out-fpr-exact", format.Rate(th.Exact))
	}
}

// measured fills the counters from result r.
func (out counterList) measured(v core.Variant, fingerprintBits int, r *sim.Result) {
	bloom := v.Bloom()
	set, at := out.set, out.at
	if bloom && r.TheoryFPRVariant != r.TheoryFPRExact {
		// The blocked filter's own theory, a Poisson mixture of blocks.
		at("out-fpr-exact").label = "theory, " + v.Name() + " layout"
		at("out-fpr-exact").title = "the " + v.Name() + " filter's own theory"
	}
	set("out-m", format.Int(r.M))
	set("out-n", format.Int(r.N))
	set("out-k", strconv.Itoa(r.K))
	set(idEstimate, estimateWords(estimateOf(r)))
	set("out-bytes", plan.FormatBytes(r.FilterBytes))
	set("memory-bits-per-key", format.Float(r.MemoryBitsPerKey, 2))
	fp := strconv.Itoa(r.FingerprintBits)
	if fingerprintBits == 0 {
		fp += " (auto)"
	}
	set("fingerprint-bits-value", fp)
	set("links", strconv.Itoa(r.Links))
	set("rate-bound", format.Rate(r.RateBound))
	if v.SetsBits() {
		set("out-set-bits", format.Int(r.SetBits)+" (expected "+format.Int(uint64(math.Round(r.ExpectedSetBits)))+")")
	} else {
		set("out-set-bits", format.Int(r.SetBits)+" of "+format.Int(r.M))
	}
	set("out-fill", format.Percent(r.Occupancy))
	set("load", format.Percent(r.Load))
	set("relocations", format.Int(r.Relocations))
	set("insert-failures", format.Int(r.InsertFailures))
	set("build-retries", format.Int(r.BuildRetries))
	at("insert-failures").alarm = r.InsertFailures > 0
	at("build-retries").alarm = r.BuildError != ""
	if bloom {
		set("out-fpr-theory", format.Rate(r.TheoryFPR))
		set("out-fpr-exact", format.Rate(r.TheoryFPRVariant))
	} else {
		set("out-fpr-theory", format.Rate(r.TheoryFPRVariant))
	}
	if r.AbsentQueries > 0 {
		set("out-fpr-empirical", format.Rate(r.EmpiricalFPR))
		set("out-ci", format.Rate(r.QueryCILow)+" to "+format.Rate(r.QueryCIHigh))
		set("out-ci-whole", format.Rate(r.WholeCILow)+" to "+format.Rate(r.WholeCIHigh))
		set("out-probes", format.Float(r.ProbesPerNegative, 3))
		if bloom {
			// The others' expected reads leave out a query's early stop.
			set("out-probes", format.Float(r.ProbesPerNegative, 3)+" (theory "+format.Float(r.ExpectedProbes, 3)+")")
		}
	} else {
		set("out-fpr-empirical", "no absent queries")
		set("out-ci", "none")
		set("out-ci-whole", "none")
		set("out-probes", "none")
	}
	set("out-false-positives", format.Int(r.FalsePositives)+" of "+format.Int(r.AbsentQueries))
	set("out-false-negatives", format.Int(r.FalseNegatives)+" of "+format.Int(r.PresentQueries))
	set("out-memory", plan.FormatBytes(r.ExactSetBytes)+" against "+plan.FormatBytes(r.FilterBytes))
	at("out-false-negatives").alarm = r.FalseNegatives > 0
}

// warnings are the sentences under the counters that say what went wrong
// in a run: inserts a full table refused, a construction that failed, and
// keys the filter lost. Each has its element id.
func warnings(r *sim.Result) []counter {
	if r == nil {
		return nil
	}
	var out []counter
	if r.InsertFailures > 0 {
		room := "More bits per key make room."
		if widths := r.Variant.Fingerprints(); len(widths) > 0 && r.FingerprintBits > slices.Min(widths) {
			room = "More bits per key, or narrower fingerprints, make room."
		}
		out = append(out, counter{id: "insert-failure-warning", value: "⚠ " + format.Plural(int(r.InsertFailures), "insert") +
			" failed: the table is too full (load " + format.Percent(r.Load) + "). Apart from one fingerprint kept in the stash, those keys are not in the filter, " +
			"and a query for one of them is a false negative. " + room})
	}
	if r.ChainLimit != "" {
		out = append(out, counter{id: "chain-limit-warning", value: "⚠ The chain stopped growing: " + r.ChainLimit + ". " +
			format.Plural(int(r.PastCapacity), "key") + " went into its last link past its capacity, so its rate climbs past the bound."})
	}
	if r.BuildError != "" {
		out = append(out, counter{id: "build-error", value: "⚠ The filter could not be built: " + r.BuildError +
			". A filter that did not build answers yes to every key, so its measured rate is 1."})
	}
	if r.FalseNegatives > 0 {
		why := "A correct Bloom filter can never do this; the " + string(r.Fault) + " fault broke it."
		switch {
		case r.Fault == core.NoFault && r.InsertFailures > 0:
			why = "They are the inserts that failed above."
		case r.Fault == core.NoFault:
			why = "A correct filter of this layout can never do this."
		}
		out = append(out, counter{id: "false-negative-warning", value: "⚠ " + format.Int(r.FalseNegatives) +
			" false negatives: keys that were inserted, and that this filter now says were never added. " + why})
	}
	return out
}

// counterBox is the counters grid with the note on the rate, the warnings
// and the audit badge under it.
type counterBox struct {
	// note is rateNote of the result noteFor, kept between renders.
	note    string
	noteFor *sim.Result
	// inPart is set when the lab is a part of another page, its title an
	// h2: the counters' heading is then an h3.
	inPart bool
	// ctx is the counters' part's, mounted: the badge's news leaves it.
	ctx app.Context
}

// idCountersTitle is the counters' heading.
const idCountersTitle = "counters-title"

// heading is the counters' heading, a level under the lab's title.
func (cb *counterBox) heading() app.UI {
	return ui.PartHeading(cb.inPart, idCountersTitle, "counters-title", "Counters: measured beside the theory")
}

// render shows the counters cs of result r (nil before the first) and
// the badge.
func (cb *counterBox) render(cs []counter, r *sim.Result, badge app.UI) app.UI {
	if cb.noteFor != r {
		// The note sums a small filter's fill distribution: once a result.
		cb.note, cb.noteFor = rateNote(r), r
	}
	note := cb.note
	return app.Section().Class("counters-box").Aria("labelledby", idCountersTitle).Body(
		cb.heading(),
		counterGrid(cs),
		app.If(note != "", func() app.UI {
			// The small-m measurement is about the layouts that take a
			// hashing scheme: the others' notes stand alone.
			return app.P().ID("fpr-note").Class("note").Body(
				app.Text(note+" "),
				app.If(r.Variant.Hashings(), func() app.UI {
					return app.A().ID("fpr-note-link").Href(ui.Href(ui.RouteExperiments) + "?experiment=small-m").Text("See the small-m measurement.")
				}),
			)
		}),
		warningLines(r),
		badge,
	)
}

// counterGrid is the counters cs as a grid of figures.
func counterGrid(cs []counter) app.UI {
	return app.Dl().Class("counters").Body(
		app.Range(cs).Slice(func(i int) app.UI {
			ct := cs[i]
			class := "counter"
			if ct.alarm {
				class += " alarm"
			}
			div := app.Div().Class(class).Title(ct.title)
			if ct.hidden {
				// Only ever true: HTML reads hidden="false" as hidden.
				div = div.Hidden(true)
			}
			return div.Body(
				app.Dt().Text(ct.label),
				app.Dd().ID(ct.id).Text(ct.value),
			)
		}),
	)
}

// warningLines are the warnings of result r (nil before the first), each
// an alert of its own.
func warningLines(r *sim.Result) app.UI {
	warns := warnings(r)
	return app.Range(warns).Slice(func(i int) app.UI {
		return app.P().ID(warns[i].id).Class("alarm-text").Role("alert").Text(warns[i].value)
	})
}

// writeCounters writes the counters' values straight into the page, so a
// move shows within the frame of its input event; go-app's next update
// writes the same text.
func writeCounters(cs []counter) {
	doc := app.Window().Get("document")
	for _, ct := range cs {
		if el := doc.Call("getElementById", ct.id); el.Truthy() {
			el.Set("textContent", ct.value)
		}
	}
}

// badgeRoom is the badge's longest text, whose box the badge keeps
// (web/lab.css): a tally with every count as wide as the number of checks.
var badgeRoom = sync.OnceValue(func() string {
	n := strings.Repeat("0", len(strconv.Itoa(len(audit.Checks()))))
	return "✗ " + n + "/" + n + " checks passed, " + n + " skipped"
})

// auditBadge is the badge of the audit of the lab's filter with fault
// Fault, on a page that shows layout Shown. In the browser it reads the
// session's audit book and hears it itself, and updates alone as the
// checks come in: neither the counters around it nor the lab render
// again for them (Page.OnMount). The server's badge says the audit has
// not run.
type auditBadge struct {
	app.Compo
	Fault core.Fault
	Shown core.Variant

	// above is the context of the part the badge is in, which the news
	// leaves alone (ui.DispatchBelow); run is the audit shown.
	above *app.Context
	run   engine.AuditRun
	stop  func()
}

func (b *auditBadge) OnInit() { b.read() }

func (b *auditBadge) OnUpdate(app.Context) { b.read() }

func (b *auditBadge) read() {
	if app.IsClient {
		b.run = engine.Audits().Get(b.Fault)
	}
}

func (b *auditBadge) OnMount(ctx app.Context) {
	b.stop = engine.Audits().Listen(func() {
		ui.DispatchBelow(ctx, b.above, func(app.Context) { b.read() })
	})
}

func (b *auditBadge) OnDismount() {
	if b.stop != nil {
		b.stop()
	}
}

func (b *auditBadge) Render() app.UI { return renderAuditBadge(b.Fault, b.run, b.Shown) }

// renderAuditBadge is the badge of audit a, the lab's filter with fault
// f, for a page that shows layout shown.
func renderAuditBadge(f core.Fault, a engine.AuditRun, shown core.Variant) app.UI {
	text, class := "audit not run yet", "badge"
	switch {
	case a.Finished():
		text = a.Report.Tally()
		if a.Report.AllPassed() {
			class += " pass"
			text = "✓ " + text
		} else {
			class += " fail"
			text = "✗ " + text
		}
	case a.Running:
		text = "auditing: " + strconv.Itoa(a.Done) + "/" + strconv.Itoa(a.Total) + " checks"
	case a.Err != "":
		text, class = "audit failed to run", "badge fail"
	}
	target := ui.Href(ui.RouteAudit)
	if f != core.NoFault {
		target += "?fault=" + string(f)
	}
	// The badge's audit is the lab's own filter with the fault: say so
	// when the page shows another layout.
	audited := core.Standard.Effective(f)
	return app.P().Class("badge-row").Body(
		app.A().ID("audit-badge").Class(class).Href(target).Title("the filter's contract, checked in this browser").
			Attr("data-room", badgeRoom()).Body(app.Span().Text(text)),
		app.If(f != core.NoFault, func() app.UI {
			return app.Span().Class("muted").Text(" with the " + string(f) + " fault switched on")
		}),
		app.If(shown != audited, func() app.UI {
			return app.Span().ID("audit-badge-note").Class("muted").Text(" (of the " + audited.Name() + " filter, not the " + shown.Name() + " one shown here)")
		}),
	)
}
