package about

import (
	"math"
	"net/url"
	"sync"

	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui"
	"github.com/bloomlab/bloomlab/app/ui/format"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Page explains the filter for the teacher and the newcomer: how bits
// say no, the formula and its optimum, why a zero is proof, where the
// guarantee breaks in practice, and what to settle before shipping one. Each
// point links into the lab with settings that show it. Formulas are MathML,
// which the browser draws itself, so the page needs no network.
type Page struct {
	app.Compo
	large bool // the projector mode, from the link
}

func New() *Page { return &Page{} }

func (p *Page) OnNav(ctx app.Context) {
	ctx.Page().SetTitle("About · Bloom Lab")
	p.large = settings.LargeType(ctx.Page().URL().Query())
}

// labLink returns a link to the lab with the default settings changed by
// edit, so every link carries every control and opens exactly that lab.
func labLink(edit func(p *sim.Params, s *settings.Lab)) string {
	s := settings.DefaultLab()
	edit(&s.Params, &s)
	return ui.Href(ui.RouteLab) + "?" + s.Normalize().Query().Encode()
}

// presetLink links to one of the lab's classic cases.
func presetLink(id string) string {
	for _, p := range settings.Presets() {
		if p.ID == id {
			return ui.Href(ui.RouteLab) + "?" + p.Settings.Query().Encode()
		}
	}
	panic("about: no preset " + id)
}

// tryLink is one "see it in the lab" link.
type tryLink struct {
	ID, Href, Text, Shows string
}

// links is aboutLinks made once: it depends on nothing but the site's
// prefix, and the sections, each rendered on its own, all read it.
var links = sync.OnceValue(aboutLinks)

// aboutLinks are the about page's links into the lab, by section.
func aboutLinks() map[string][]tryLink {
	calc := func(q url.Values) string { return ui.Href(ui.RouteCalculator) + "?" + q.Encode() }
	return map[string][]tryLink{
		"bits": {
			{ID: "try-default", Href: labLink(func(p *sim.Params, s *settings.Lab) {}),
				Text: "4,000 keys in 40,000 bits, k = 7", Shows: "the array ends about half set; the measured rate sits near the formula's 0.82%"},
		},
		"formula": {
			{ID: "try-optimum", Href: labLink(func(p *sim.Params, s *settings.Lab) { s.OptimalK = true }),
				Text: "10 bits per key with the optimal k", Shows: "the chart of rate against k, with its flat bottom at (m/n) ln 2 = 6.93"},
			{ID: "try-too-many", Href: presetLink("too-many-hashes"),
				Text: "the same memory with k = 20", Shows: "too many writes: most bits set, and the rate several times worse"},
			{ID: "try-ceil", Href: labLink(func(p *sim.Params, s *settings.Lab) { p.BitsPerKey = 6.2; p.Hashes = 5 }),
				Text: "6.2 bits per key with k = 5, ceil's choice", Shows: "against k = 4 (move the k slider one step left): ceil hashes more for a worse rate"},
			{ID: "try-calculator", Href: calc(url.Values{settings.CalcFind: {"m"}, settings.CalcN: {"100000000"}, settings.CalcP: {"0.05"}}),
				Text: "the calculator at 10⁸ keys and 5%", Shows: "k by round (4, 0.050269) beside k by ceil (5, 0.051029)"},
		},
		"proof": {
			{ID: "try-present", Href: labLink(func(p *sim.Params, s *settings.Lab) { p.PresentShare = 50 }),
				Text: "half the queries for inserted keys", Shows: "every one of them found: false negatives stay at 0"},
			{ID: "try-clear", Href: labLink(func(p *sim.Params, s *settings.Lab) { p.Fault = core.ClearOnDuplicate; p.DuplicatePasses = 2 }),
				Text: "a filter that clears bits on a repeated insert", Shows: "false negatives in red: a bit that goes back to zero breaks the proof"},
			{ID: "try-negative", Href: labLink(func(p *sim.Params, s *settings.Lab) { p.Fault = core.NegativeIndex }),
				Text: "a signed index", Shows: "writes below zero are lost, members go missing, and the rate looks better than theory"},
			{ID: "try-audit", Href: ui.Href(ui.RouteAudit) + "?fault=" + string(core.NegativeIndex),
				Text: "the audit of that filter", Shows: "which checks catch it, and the rate it would have reported"},
		},
		"leaks": {
			{ID: "try-weak-hash", Href: labLink(func(p *sim.Params, s *settings.Lab) { p.Fault = core.WeakHash }),
				Text: "a weak hash, 31h + c", Shows: "a rate that drifts away from the formula on structured keys; the audit's uniformity check fails"},
			{ID: "try-overfill", Href: presetLink("overfilled"),
				Text: "a filter sized for 4,000 keys holding 8,000", Shows: "the rate jumps from 1% to about 16%"},
			{ID: "try-overfill-calc", Href: calc(url.Values{settings.CalcFind: {"m"}, settings.CalcN: {"200000"}, settings.CalcP: {"0.01"}}),
				Text: "the calculator's overfill line", Shows: "1.5x, 2x and 5x the design n: 5.8%, 15.7% and 83%"},
			{ID: "try-wrap", Href: labLink(func(p *sim.Params, s *settings.Lab) {
				p.Variant, p.Fault, p.DuplicatePasses = core.CountingVariant, core.WrapCounters, 4
			}),
				Text: "counting filter counters that wrap", Shows: "a 4-bit counter bumped 16 times is back at 0, and inserted keys go missing"},
		},
	}
}

// Formulas, as MathML the browser lays out itself.
const (
	mathZero   = `<math display="block"><mrow><msup><mrow><mo>(</mo><mn>1</mn><mo>−</mo><mfrac><mn>1</mn><mi>m</mi></mfrac><mo>)</mo></mrow><mrow><mi>k</mi><mi>n</mi></mrow></msup><mo>≈</mo><msup><mi>e</mi><mrow><mo>−</mo><mi>k</mi><mi>n</mi><mo>/</mo><mi>m</mi></mrow></msup></mrow></math>`
	mathRate   = `<math display="block"><mrow><mi>p</mi><mo>≈</mo><msup><mrow><mo>(</mo><mn>1</mn><mo>−</mo><msup><mi>e</mi><mrow><mo>−</mo><mi>k</mi><mi>n</mi><mo>/</mo><mi>m</mi></mrow></msup><mo>)</mo></mrow><mi>k</mi></msup></mrow></math>`
	mathLog    = `<math display="block"><mrow><mi>ln</mi><mspace width="0.17em"/><mi>p</mi><mo>=</mo><mo>−</mo><mfrac><mi>m</mi><mi>n</mi></mfrac><mspace width="0.2em"/><mi>ln</mi><mspace width="0.17em"/><mi>q</mi><mspace width="0.2em"/><mi>ln</mi><mo>(</mo><mn>1</mn><mo>−</mo><mi>q</mi><mo>)</mo><mo>,</mo><mspace width="1em"/><mi>q</mi><mo>=</mo><msup><mi>e</mi><mrow><mo>−</mo><mi>k</mi><mi>n</mi><mo>/</mo><mi>m</mi></mrow></msup></mrow></math>`
	mathOpt    = `<math display="block"><mrow><msup><mi>k</mi><mo>*</mo></msup><mo>=</mo><mfrac><mi>m</mi><mi>n</mi></mfrac><mspace width="0.17em"/><mi>ln</mi><mspace width="0.17em"/><mn>2</mn><mo>,</mo><mspace width="1em"/><mi>p</mi><mo>=</mo><msup><mn>2</mn><mrow><mo>−</mo><msup><mi>k</mi><mo>*</mo></msup></mrow></msup><mo>≈</mo><msup><mn>0.6185</mn><mrow><mi>m</mi><mo>/</mo><mi>n</mi></mrow></msup></mrow></math>`
	mathBits   = `<math display="block"><mrow><mi>m</mi><mo>=</mo><mfrac><mrow><mo>−</mo><mi>n</mi><mspace width="0.17em"/><mi>ln</mi><mspace width="0.17em"/><mi>p</mi></mrow><msup><mrow><mo>(</mo><mi>ln</mi><mspace width="0.17em"/><mn>2</mn><mo>)</mo></mrow><mn>2</mn></msup></mfrac></mrow></math>`
	mathPerKey = `<math display="block"><mrow><mfrac><mi>m</mi><mi>n</mi></mfrac><mo>=</mo><mfrac><mrow><msub><mi>log</mi><mn>2</mn></msub><mo>(</mo><mn>1</mn><mo>/</mo><mi>p</mi><mo>)</mo></mrow><mrow><mi>ln</mi><mspace width="0.17em"/><mn>2</mn></mrow></mfrac><mo>≈</mo><mn>1.44</mn><mspace width="0.2em"/><msub><mi>log</mi><mn>2</mn></msub><mo>(</mo><mn>1</mn><mo>/</mo><mi>p</mi><mo>)</mo></mrow></math>`
)

// formula is a display formula with a plain-text twin for readers and for
// copying.
func formula(id, mathML, plain string) app.UI {
	return app.Div().ID(id).Class("formula").Body(
		app.Raw(mathML),
		app.Code().Class("formula-plain").Text(plain),
	)
}

// kChartSVG draws the rate against k at 6, 10 and 16 bits per key, from the
// formula with real-valued k, and marks each optimum (m/n) ln 2.
func kChartSVG() string {
	c := ui.Chart{
		Title:  "False-positive rate against k",
		XLabel: "k, hashes per key",
		YLabel: "rate (log scale)",
		XMin:   1, XMax: 20,
		YMin: 1e-4, YMax: 1,
		LogY: true,
	}
	for _, b := range []struct {
		bpk   float64
		class string
		dash  string
	}{{6, "bpk6", ui.Dashed}, {10, "bpk10", ""}, {16, "bpk16", ui.Dashed}} {
		s := ui.Series{Name: format.Plain(b.bpk) + " bits per key", Class: b.class, Line: true, Dash: b.dash}
		for k := 1.0; k <= 20.0001; k += 0.25 {
			s.Points = append(s.Points, ui.Point{X: k, Y: math.Pow(-math.Expm1(-k/b.bpk), k)})
		}
		c.Series = append(c.Series, s)
	}
	c.Marks = []ui.Mark{{X: 10 * math.Ln2, Label: "optimum k = 6.93", Class: "optimum"}}
	return c.SVG()
}

// kChart is kChartSVG drawn once: it depends on nothing, and the page is
// drawn twice as it starts (a tenth of a second each at a slow laptop's
// pace), and again at each visit.
var kChart = sync.OnceValue(kChartSVG)

// Render puts a pause (ui.Yield) before each section, and each section
// renders once, as it mounts (ui.Still): built in one go, the page held a
// slow laptop for two thirds of a second after its first paint, and the
// sections depend on nothing the page changes.
func (p *Page) Render() app.UI {
	toc := make([]app.UI, len(aboutSections))
	sections := make([]app.UI, 0, 2*len(aboutSections))
	for i, s := range aboutSections {
		toc[i] = tocItem(s.id, s.title)
		sections = append(sections, &ui.Yield{}, ui.Still(func() app.UI {
			return app.Section().ID(s.id).Body(append([]app.UI{app.H2().Text(s.title)}, s.body(links()[s.id])...)...)
		}))
	}
	return ui.NewShell().Route(ui.RouteAbout).LargeType(p.large).Body(
		app.Article().ID("about").Class("about prose").Body(append([]app.UI{
			app.H1().Text("About Bloom Lab"),
			app.P().Class("lede").Text("Bloom Lab is a Bloom filter you can watch, measure and audit, in the browser and on the command line. This page explains the idea in a few minutes of reading; every point ends with links into the lab set up to show it."),
			app.Nav().Class("toc").Aria("label", "On this page").Body(app.Ol().Body(toc...)),
		}, sections...)...),
	)
}

// aboutSection is one section of the page: its ID (its anchor and its key
// in aboutLinks), its title (its heading and its entry in the contents),
// and what follows the heading, given the section's links into the lab.
type aboutSection struct {
	id, title string
	body      func(links []tryLink) []app.UI
}

// aboutSections are the page's sections in the order a reader meets them.
var aboutSections = []aboutSection{
	{"bits", "Answering no with bits", bitsSection},
	{"formula", "The formula and the best k", formulaSection},
	{"proof", "Why a zero is proof and a one a guess", proofSection},
	{"leaks", "Where the guarantee breaks in practice", leaksSection},
	{"questions", "Before you ship one", questionsSection},
	{"sources", "Sources", sourcesSection},
}

// bitsSection is how a filter answers no, and what it is for.
func bitsSection(links []tryLink) []app.UI {
	return []app.UI{
		app.P().Text("A Bloom filter is an array of m bits that starts all zero, and k hash functions that each map a key to one position in the array."),
		app.Ul().Body(
			app.Li().Body(app.Strong().Text("To add a key, "), app.Text("hash it k times and turn on the k bits it lands on. Nothing else is stored: not the key, not a count, not which key set which bit.")),
			app.Li().Body(app.Strong().Text("To ask about a key, "), app.Text("hash it the same k ways and read those k bits. If any of them is zero, the answer is no. If all of them are one, the answer is maybe.")),
		),
		app.P().Text("That is the whole structure. Its size depends on how many keys it holds and how often it may say maybe to a stranger, never on how long the keys are: about 9.6 bits per key buys a 1% error rate, whether the keys are 8-byte ids or 2-kilobyte URLs."),
		app.P().Text("So it sits in front of something slow. A database, a disk, a remote cache or a crawler asks the filter first and skips the expensive lookup whenever the answer is no. It earns its place where most questions are about keys that are not there."),
		tryList(links),
	}
}

// formulaSection derives the rate and the best k, with the chart of the rate against k.
func formulaSection(links []tryLink) []app.UI {
	return []app.UI{
		app.P().Text("Treat every hash as a fair, independent draw of a position. One write misses a given bit with probability 1 − 1/m, and after n keys of k writes each the bit is still zero with probability"),
		formula("formula-zero", mathZero, "(1 - 1/m)^(kn) ≈ e^(-kn/m)"),
		app.P().Text("A key that was never added is a false positive only if all k of its positions happen to be set, so"),
		formula("formula-rate", mathRate, "p ≈ (1 - e^(-kn/m))^k"),
		app.P().Text("k pulls two ways. Each extra probe gives a query one more chance to meet a zero; each extra write per key leaves fewer zeros to meet. To find the balance, write q for the share of bits still zero and take logarithms:"),
		formula("formula-log", mathLog, "ln p = -(m/n) ln q ln(1 - q),  q = e^(-kn/m)"),
		app.P().Text("The expression is symmetric in q and 1 − q, and it is smallest where they are equal: half the bits set, half still zero. Solving q = 1/2 for k gives the optimum and the rate there:"),
		formula("formula-opt", mathOpt, "k* = (m/n) ln 2,  p = 2^(-k*) ≈ 0.6185^(m/n)"),
		app.P().Text("Turned around, it sizes a filter. Each halving of the rate costs 1/ln 2 ≈ 1.44 bits per key, against a floor of log₂(1/p) that no membership structure can beat:"),
		formula("formula-bits", mathBits, "m = -n ln p / (ln 2)^2"),
		formula("formula-per-key", mathPerKey, "m/n = log2(1/p) / ln 2 ≈ 1.44 log2(1/p)"),
		app.P().Text("For 10⁸ keys at 1% that is 958,505,838 bits (114.26 MiB), 9.585 bits per key, with k = 7."),
		// The chart is drawn after a pause of its own: the page's costliest
		// part, it was 165 of its section's 197 ms in a profile at 4x.
		&ui.Yield{},
		ui.Still(func() app.UI {
			return app.Figure().ID("about-chart").Class("chart-box about-chart").Body(
				app.Raw(kChart()),
				app.FigCaption().Text("The dotted line is the optimum (m/n) ln 2 = 6.93 at 10 bits per key. The bottom of each curve is flat: a k one or two either side of the optimum barely moves the rate, so k is mostly a choice about CPU, not accuracy. Drawn from the formula with k as a real number."),
			)
		}),
		app.P().Text("k has to be a whole number, and the right way to get one is to round. At a 5% target the optimum is 4.32: rounding gives k = 4 and a rate of 0.050269, while the ceiling gives 5 and 0.051029, one more hash per key for a slightly worse filter."),
		tryList(links),
	}
}

// proofSection is why a no is a proof and a maybe is not.
func proofSection(links []tryLink) []app.UI {
	return []app.UI{
		app.P().Text("Bits only ever go from zero to one. When a key was added, every one of its k positions was turned on, and nothing turns them off again. So if a query finds a zero at one of those positions, that key's insert cannot have happened: the no is a proof, and it can be acted on without checking anything else."),
		app.P().Text("A one proves much less. It says some key wrote there, not which. When all k bits of a stranger were set by other keys, the filter cannot tell the difference, and says maybe. The maybe must be confirmed against the real data, or its cost accepted."),
		app.P().Text("The proof belongs to a correct implementation, not to the idea. Anything that clears a bit (deleting by clearing, a counter that wraps past its top) or writes somewhere other than where it later reads (a signed index, an off-by-one reduction) turns the no into a lie. Worse, such a filter can report an excellent false-positive rate while it quietly loses keys, which is why the lab's audit checks for false negatives first and the rate last."),
		tryList(links),
	}
}

// leaksSection is where real systems lose the guarantee.
func leaksSection(links []tryLink) []app.UI {
	return []app.UI{
		app.Dl().Class("leaks").Body(
			app.Dt().Text("The hash"),
			app.Dd().Text("The formula assumes positions that look random. A weak hash on structured keys (ids in sequence, URLs with a shared prefix) lands them in clusters, and the measured rate stops tracking the formula: sometimes better on the test data, then worse on the real data. Use a well-mixed, seeded hash (the lab uses SipHash), test its index uniformity, and be wary of any rate that beats the formula."),
			app.Dt().Text("The inserted count"),
			app.Dd().Text("The design n is a promise the filter cannot enforce. Past it the bits keep filling and the rate climbs fast: a filter sized for 1% holds 1.5 times its keys at about 5.8%, twice its keys at 16%, five times at 83%. Track how many keys went in, and watch the share of set bits: about half is the design point."),
			app.Dt().Text("Stale snapshots"),
			app.Dd().Text("The filter only knows the inserts it has seen. A copy built from an old snapshot, a replica that lags, a batch of writes that arrives late, or a reader using another hash seed than the writer will all answer no for keys that exist. The structure has no false negatives; the system around it can. Ship the hash and seed as part of the filter's format, and decide how stale a copy may be."),
			app.Dt().Text("It is not anonymization"),
			app.Dd().Text("A filter cannot list its keys, but anyone holding it can test candidates offline as fast as they can hash. Where the keys are guessable (phone numbers, e-mail addresses, small id ranges), that recovers who is in the set. A filter built from private data is private data."),
		),
		tryList(links),
	}
}

// questionsSection is what to settle before shipping a filter.
func questionsSection(_ []tryLink) []app.UI {
	return []app.UI{
		app.P().Text("Answers to settle first, in roughly the order they bite:"),
		app.Ol().Class("questions").Body(
			app.Li().Text("What does a maybe trigger downstream, and what does one wrong maybe cost: a wasted read, a slower page, a wrong decision? The calculator's cost model turns that into a rate you can afford."),
			app.Li().Text("Are most queries for keys that are absent? If not, the filter adds a step to most lookups and saves little."),
			app.Li().Text("How many keys will it hold at its largest, what happens when it passes that, and who rebuilds it?"),
			app.Li().Text("Do keys ever leave the set? A plain filter cannot forget; a counting or cuckoo filter can, or the filter can be rebuilt on a schedule."),
			app.Li().Text("Which hash, which seed, which layout: is that versioned with the bytes, so every reader agrees with the writer?"),
			app.Li().Text("How far behind the source of truth may a copy be, and is a false no during that window acceptable?"),
			app.Li().Text("How will you watch it in production: the keys inserted, the share of bits set, and the maybes that the real lookup turned into misses?"),
			app.Li().Text("Could the key space be guessed, and who may hold a copy of the filter?"),
		),
		app.P().Body(
			app.A().ID("about-calculator").Href(ui.Href(ui.RouteCalculator)).Text("Size it in the calculator"),
			app.Text(", then "),
			app.A().ID("about-audit").Href(ui.Href(ui.RouteAudit)).Text("audit the contract"),
			app.Text(" and "),
			app.A().ID("about-experiments").Href(ui.Href(ui.RouteExperiments)).Text("reproduce the classic measurements"),
			app.Text("."),
		),
	}
}

// sourcesSection cites the papers behind the page.
func sourcesSection(_ []tryLink) []app.UI {
	return []app.UI{
		app.Ul().Class("sources").Body(
			app.Li().Text("Burton H. Bloom, Space/Time Trade-offs in Hash Coding with Allowable Errors, Communications of the ACM, 1970."),
			app.Li().Text("Andrei Broder and Michael Mitzenmacher, Network Applications of Bloom Filters: A Survey, Internet Mathematics, 2004: the formulas and the optimum k."),
			app.Li().Text("Adam Kirsch and Michael Mitzenmacher, Less Hashing, Same Performance: Building a Better Bloom Filter, 2006: k positions from two hashes."),
			app.Li().Text("Larry Carter, Robert Floyd, John Gill, George Markowsky and Mark Wegman, Exact and Approximate Membership Testers, 1978: the log₂(1/p) floor."),
			app.Li().Text("Li Fan, Pei Cao, Jussara Almeida and Andrei Broder, Summary Cache, 2000: counting filters."),
			app.Li().Text("Felix Putze, Peter Sanders and Johannes Singler, Cache-, Hash- and Space-Efficient Bloom Filters, 2007: blocked filters."),
			app.Li().Text("Bin Fan, David Andersen, Michael Kaminsky and Michael Mitzenmacher, Cuckoo Filter: Practically Better Than Bloom, 2014."),
			app.Li().Text("Thomas Mueller Graf and Daniel Lemire, Xor Filters, 2020, and Binary Fuse Filters, 2022."),
			app.Li().Text("Jean-Philippe Aumasson and Daniel J. Bernstein, SipHash: a Fast Short-Input PRF, 2012: the lab's hash."),
		),
	}
}

func tocItem(id, text string) app.UI {
	return app.Li().Body(app.A().Href("#" + id).Text(text))
}

// tryList renders a section's links into the lab.
func tryList(links []tryLink) app.UI {
	return app.Div().Class("try").Body(
		app.P().Class("try-title").Text("See it in the lab"),
		app.Ul().Body(app.Range(links).Slice(func(i int) app.UI {
			l := links[i]
			return app.Li().Body(
				app.A().ID(l.ID).Href(l.Href).Text(l.Text),
				app.Text(": "+l.Shows+"."),
			)
		})),
	)
}
