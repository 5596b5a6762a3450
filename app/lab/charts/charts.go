package charts

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/bloomlab/bloomlab/app/engine"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui"
	"github.com/bloomlab/bloomlab/app/ui/format"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The charts' measured points come from smaller runs of the same shape: the
// rate depends on bits per key and k, not on n, so a sample of n keeps the
// charts quick for any slider position. The lab says so in the legend.
const (
	sampleItems   = 5_000
	sampleQueries = 10_000
)

// sampleParams returns p scaled down for a chart point: at most sampleItems
// keys and sampleQueries queries, all of them absent (the rate is what the
// charts measure).
func sampleParams(p sim.Params) (sim.Params, bool) {
	s := p
	s.Items = min(p.Items, sampleItems)
	s.Queries = min(max(p.Queries, 2000), sampleQueries)
	s.PresentShare = 0
	return s, s.Items != p.Items
}

// kRange is the k axis of the rate-against-k chart: 1 to past twice the
// optimum, at least 12, at most the lab's limit.
func kRange(m, n uint64, k int) int {
	opt := float64(m) / float64(max(n, 1)) * math.Ln2
	return min(settings.MaxLabHashes, max(12, int(math.Ceil(2*opt))+1, k+2))
}

// bpkRange is the bits-per-key axis: to past the current value, at least 20,
// at most core.MaxBitsPerKey, where the slider ends.
func bpkRange(bpk float64) float64 {
	return math.Min(core.MaxBitsPerKey, math.Max(20, math.Ceil(bpk*1.25/4)*4))
}

// measureK runs the sample simulation, with the typed keys, at each k from
// 1 to kmax and returns the measured rates; step lets the browser yield
// and cancel.
func measureK(p sim.Params, typed []string, kmax int, step sim.Step) ([]ui.Point, error) {
	s, _ := sampleParams(p)
	var pts []ui.Point
	for k := 1; k <= kmax; k++ {
		s.Hashes = k
		r, err := sim.RunTyped(s, typed, step)
		if err != nil {
			return nil, err
		}
		pts = append(pts, ui.Point{X: float64(k), Y: r.EmpiricalFPR})
		if step != nil {
			if err := step(k, kmax); err != nil {
				return nil, err
			}
		}
	}
	return pts, nil
}

// bpkSamples are the bits-per-key values measured on the second chart.
func bpkSamples(xmax float64) []float64 {
	var xs []float64
	stepX := math.Max(1, math.Round(xmax/10))
	for x := stepX; x <= xmax; x += stepX {
		xs = append(xs, x)
	}
	return xs
}

// measureBPK runs the sample simulation, with the typed keys, at each
// bits-per-key sample with the current k.
func measureBPK(p sim.Params, typed []string, xs []float64, step sim.Step) ([]ui.Point, error) {
	s, _ := sampleParams(p)
	var pts []ui.Point
	for i, x := range xs {
		s.BitsPerKey = x
		r, err := sim.RunTyped(s, typed, step)
		if err != nil {
			return nil, err
		}
		pts = append(pts, ui.Point{X: x, Y: r.EmpiricalFPR})
		if step != nil {
			if err := step(i+1, len(xs)); err != nil {
				return nil, err
			}
		}
	}
	return pts, nil
}

// rateFloor is the lowest rate a chart shows: a decade under the smallest
// theory value plotted, but no lower than 10^-7.
func rateFloor(vals ...float64) float64 {
	lo := 1.0
	for _, v := range vals {
		if v > 0 && v < lo {
			lo = v
		}
	}
	return math.Max(1e-7, math.Pow(10, math.Floor(math.Log10(lo))-0.0))
}

// kChart is the rate-against-k chart for the filter r: the theory curve for
// its m and n, the optimum (m/n) ln 2, the sampled measurements, and this
// run's own measured point. At a stop of the player its axes, theory and
// optimum are those of the filter with every key in (play.Of of them), so
// they hold still while the player runs; the stop adds its own theory and
// its measured point.
func kChart(r sim.Result, measured []ui.Point, sampled bool, width float64, play Play) ui.Chart {
	rate := func(k int, n uint64) float64 { return core.Rate(r.M, n, k) }
	return kChartOf(r, r.M, play.n(r), r.K, "theory (1 - e^(-kn/m))^k", rate, measured, sampled, width, play)
}

// chainKChart is the chart against k of a scalable chain designed by p:
// k is its first link's, m/n the first link's bits per key, and the
// theory the chain's own for n keys given, at each first-link k.
func chainKChart(r sim.Result, p sim.Params, measured []ui.Point, sampled bool, width float64, play Play) ui.Chart {
	m, k := p.Shape()
	if play.stop() {
		q := p
		q.Items = play.Of
		m, k = q.Shape()
	}
	rate := func(k int, n uint64) float64 {
		f, err := r.Variant.Build(core.Spec{M: m, K: k, N: n, Seed: 1})
		if err != nil {
			return 1
		}
		return r.Variant.Theory(f, n).Rate
	}
	c := kChartOf(r, m, play.n(r), k, "theory, the chain of links", rate, measured, sampled, width, play)
	c.XLabel = "the first link's hash probes k"
	return c
}

// kChartOf is the chart against k of a filter of m bits and n keys at k,
// with the theory rate(k, n) named theoryName; at a stop of the player,
// the stop's theory and point join it.
func kChartOf(r sim.Result, m, n uint64, k int, theoryName string, rate func(int, uint64) float64, measured []ui.Point, sampled bool, width float64, play Play) ui.Chart {
	kmax := kRange(m, n, k)
	var theory, stop []ui.Point
	ys := []float64{}
	for k := 1; k <= kmax; k++ {
		y := rate(k, n)
		theory = append(theory, ui.Point{X: float64(k), Y: y})
		ys = append(ys, y)
		if play.stop() {
			stop = append(stop, ui.Point{X: float64(k), Y: rate(k, r.N)})
		}
	}
	opt := float64(m) / float64(max(n, 1)) * math.Ln2
	name := "measured"
	if sampled {
		name = "measured (n sampled to 5,000)"
	}
	optName := "optimum (m/n) ln 2 = " + format.Float(opt, 2)
	if play.stop() {
		theoryName += ", every key in"
		optName += ", every key in"
	}
	c := ui.Chart{
		Title:  "False-positive rate vs hash probes k",
		Width:  width,
		IntX:   true,
		XLabel: "hash probes k",
		YLabel: "false-positive rate",
		XMin:   1, XMax: float64(kmax),
		LogY: true, YMin: rateFloor(ys...) / 10, YMax: 1,
		Series: []ui.Series{
			{Name: theoryName, Class: "theory", Line: true, Points: theory},
			{Name: name, Class: "measured", Points: measured},
		},
		Marks: []ui.Mark{{X: opt, Label: optName, Class: "optimum"}},
	}
	if play.stop() {
		c.Series = append(c.Series, ui.Series{Name: "theory at this stop, n = " + format.Int(r.N), Class: "alt", Line: true, Dash: ui.Dashed, Points: stop})
	}
	if r.AbsentQueries > 0 {
		c.Series = append(c.Series, ui.Series{Name: play.pointName(), Class: "current", Points: []ui.Point{{X: float64(k), Y: r.EmpiricalFPR}}})
	}
	return c
}

// bpkChart is the rate-against-bits-per-key chart for n keys at the run's
// k: theory at this k, theory at the best k for each size, the sampled
// measurements at this k, and a line at the current bits per key. At a
// stop of the player the curves and the line are the filter's with every
// key in, and the stop is a point at its own m/n, off the chart to the
// right while few keys are in.
func bpkChart(r sim.Result, bpk float64, measured []ui.Point, sampled bool, width float64, play Play) ui.Chart {
	xmax := bpkRange(bpk)
	var fixed, best []ui.Point
	ys := []float64{}
	// Bits per key counts the generated keys, as the slider does; the
	// typed keys join them in n.
	n := max(play.n(r), 1)
	generated := max(n-r.Typed, 1)
	for x := 0.5; x <= xmax+1e-9; x += 0.25 {
		m := uint64(math.Max(1, math.Ceil(x*float64(generated))))
		y := core.Rate(m, n, r.K)
		fixed = append(fixed, ui.Point{X: x, Y: y})
		yb := core.Rate(m, n, core.OptimalK(m, n))
		best = append(best, ui.Point{X: x, Y: yb})
		ys = append(ys, y, yb)
	}
	name := "measured at k = " + format.Plain(float64(r.K))
	if sampled {
		name += " (n sampled)"
	}
	c := bpkAxes("False-positive rate vs bits per key", bpk, xmax, width, ys, play,
		ui.Series{Name: "theory at k = " + format.Plain(float64(r.K)), Class: "theory", Line: true, Points: fixed},
		ui.Series{Name: "theory at the best k", Class: "alt", Line: true, Dash: ui.Dashed, Points: best},
		ui.Series{Name: name, Class: "measured", Points: measured})
	if play.stop() && r.AbsentQueries > 0 {
		c.Series = append(c.Series, stopPoint(r))
	}
	return c
}

// stopPoint is the point of a stop of the player on a chart against bits
// per key: its measured rate at its own m over the generated keys in.
func stopPoint(r sim.Result) ui.Series {
	x := float64(r.M) / float64(max(r.N-r.Typed, 1))
	name := format.Float(x, 1)
	if x >= 100 {
		name = format.Int(uint64(math.Round(x)))
	}
	return ui.Series{Name: "this stop, m/n = " + name, Class: "current", Points: []ui.Point{{X: x, Y: r.EmpiricalFPR}}}
}

// bpkAxes is a chart of the rate against bits per key up to xmax, its
// rate axis fitted to ys, with series and a line at this filter's bpk.
func bpkAxes(title string, bpk, xmax, width float64, ys []float64, play Play, series ...ui.Series) ui.Chart {
	here := "this filter: " + format.Plain(ui.Round3(bpk)) + " bits per key"
	if play.stop() {
		here += ", every key in"
	}
	return ui.Chart{
		Title:  title,
		Width:  width,
		XLabel: "bits per key m/n",
		YLabel: "false-positive rate",
		XMin:   0.5, XMax: xmax,
		LogY: true, YMin: math.Max(rateFloor(ys...), 1e-7), YMax: 1,
		Series: series,
		Marks:  []ui.Mark{{X: bpk, Label: here, Class: "here"}},
	}
}

// layoutBPKChart is the rate-against-bits-per-key chart of a layout with a
// theory of its own (the cuckoo filter, whose m is a memory budget): the
// layout's theory at each budget for its fingerprint width (0 for its
// choice, which changes along the axis), the standard Bloom filter's at its
// best k beside it, the sampled measurements, this run's point and a line
// at the current bits per key. The theory is taken from empty filters of at
// most sampleItems keys: the layout's theory of an empty filter is the one
// at n keys, and it depends on bits per key, not on n.
func layoutBPKChart(r sim.Result, bpk float64, k, fingerprintBits int, measured []ui.Point, sampled bool, width float64, play Play) ui.Chart {
	xmax := bpkRange(bpk)
	n := min(max(play.n(r), 1), sampleItems)
	var own, bloom []ui.Point
	ys := []float64{}
	for x := 0.5; x <= xmax+1e-9; x += 0.5 {
		m := uint64(math.Max(1, math.Ceil(x*float64(n))))
		if f, err := r.Variant.Build(core.Spec{M: m, K: k, N: n, FingerprintBits: fingerprintBits, Seed: 1}); err == nil {
			y := r.Variant.Theory(f, n).Rate
			own = append(own, ui.Point{X: x, Y: y})
			ys = append(ys, y)
		}
		yb := core.Rate(m, n, core.OptimalK(m, n))
		bloom = append(bloom, ui.Point{X: x, Y: yb})
		ys = append(ys, yb)
	}
	widthName := "auto width"
	if fingerprintBits != 0 {
		widthName = strconv.Itoa(fingerprintBits) + "-bit fingerprints"
	}
	name := "measured"
	if sampled {
		name += " (n sampled)"
	}
	title, theoryName := "False-positive rate vs memory bits per key", "theory, "+r.Variant.Name()+" ("+widthName+")"
	if r.Variant.Chain() {
		title, theoryName = "False-positive rate vs the first link's bits per key", "theory, the chain of links"
	}
	c := bpkAxes(title, bpk, xmax, width, ys, play,
		ui.Series{Name: theoryName, Class: "theory", Line: true, Points: own},
		ui.Series{Name: "standard Bloom at the best k", Class: "alt", Line: true, Dash: ui.Dashed, Points: bloom},
		ui.Series{Name: name, Class: "measured", Points: measured})
	switch {
	case play.stop() && r.AbsentQueries > 0:
		c.Series = append(c.Series, stopPoint(r))
	case r.AbsentQueries > 0:
		c.Series = append(c.Series, ui.Series{Name: "this run", Class: "current", Points: []ui.Point{{X: bpk, Y: r.EmpiricalFPR}}})
	}
	return c
}

// Charts are the lab's two charts against k and bits per key, with
// points measured after each run on a goroutine of their own. The zero
// value is ready: no points, nothing drawn.
type Charts struct {
	// InPart is set where the lab is a part of another page, under its
	// h2: the charts' heading is then an h3.
	InPart bool
	// Figure, when set, is the figure of a chart, which names it
	// (settings.ChartK or settings.ChartBitsPerKey), that the row of
	// downloads under it offers; false while there is none.
	Figure       func(which string) (ui.FigureFile, bool)
	play         Play
	r            sim.Result // the run last drawn, for a figure
	p            sim.Params
	drawn        bool
	kSVG, bpkSVG string
	kPts, bpkPts []ui.Point
	sampled      bool
	// sweeping is true from Clear until the points of the run drawn
	// are in, or the page says none are coming (NoSweep): the line under
	// the charts must not call points measured that are not there yet,
	// while the controls rest before the sweep starts.
	sweeping bool
	runs     engine.Runs
}

// Clear drops the measured points and stops a sweep in flight: the
// filter changed, and its points are to come (Sweep), or NoSweep says
// they are not.
func (ch *Charts) Clear() {
	ch.runs.Cancel()
	ch.kPts, ch.bpkPts = nil, nil
	ch.sweeping = true
}

// NoSweep says no sweep follows the run drawn: the first view brought
// its points, or the player shows none.
func (ch *Charts) NoSweep() { ch.sweeping = false }

// chartSweep is what a sweep measures for a filter: the sample params, the
// k axis and the bits-per-key samples, and which charts a layout has.
type chartSweep struct {
	p                sim.Params
	typed            []string
	kmax             int
	xs               []float64
	sampled          bool
	sweepK, sweepBPK bool
}

// sweepOf plans the sweep for params p (the filter's shape) and run r.
// With own keys there are no generated queries: the points then measure
// generated keys of the same shape. A layout that k or bits per key mean
// nothing to has no chart against them, and a run without absent queries
// has nothing to measure. The typed keys go into every point's filter, as
// they went into r's.
func sweepOf(p sim.Params, r sim.Result, typed []string, own bool) chartSweep {
	if own {
		p.Queries = sampleQueries
	}
	sw := chartSweep{p: p, typed: typed, kmax: kRange(r.M, r.N, r.K), xs: bpkSamples(bpkRange(p.BitsPerKey))}
	if r.Variant.Chain() {
		// A chain's k axis is its first link's, sized by the design.
		m, k := p.Shape()
		sw.kmax = kRange(m, uint64(p.Items), k)
	}
	_, sw.sampled = sampleParams(p)
	if p.Queries > 0 {
		sw.sweepK, sw.sweepBPK = r.Variant.UsesK(), r.Variant.UsesM()
	}
	return sw
}

// measure runs the sweep's charts; step lets the browser yield and
// cancel, and done hears each chart's points as they arrive.
func (sw chartSweep) measure(step sim.Step, kDone func([]ui.Point)) (kPts, bpkPts []ui.Point, err error) {
	if sw.sweepK {
		if kPts, err = measureK(sw.p, sw.typed, sw.kmax, step); err != nil {
			return nil, nil, err
		}
		if kDone != nil {
			kDone(kPts)
		}
	}
	if sw.sweepBPK {
		if bpkPts, err = measureBPK(sw.p, sw.typed, sw.xs, step); err != nil {
			return nil, nil, err
		}
	}
	return kPts, bpkPts, nil
}

// Sweep measures the charts' points for params p and run r, a chart at a
// time, and redraws as each chart's points arrive; then follows once the
// last is drawn (at once if there is nothing to measure), unless a newer
// sweep replaced this one.
func (ch *Charts) Sweep(ctx app.Context, p sim.Params, r sim.Result, typed []string, own bool, then func()) {
	sw := sweepOf(p, r, typed, own)
	ch.sampled = sw.sampled
	ch.sweeping = sw.sweepK || sw.sweepBPK
	if !ch.sweeping {
		then()
		return
	}
	sweep := ch.runs.Start()
	ctx.Async(func() {
		step := engine.Yielding(sweep.Live, 5*time.Millisecond, func(int, int) {})
		_, bpkPts, err := sw.measure(step, func(kPts []ui.Point) {
			ctx.Dispatch(func(ctx app.Context) {
				if sweep.Live() {
					ch.kPts = kPts
					ch.Redraw(&r, p, ch.play)
				}
			})
		})
		if err != nil {
			if sweep.Live() {
				then()
			}
			return
		}
		ctx.Dispatch(func(ctx app.Context) {
			if sweep.Live() {
				ch.bpkPts = bpkPts
				ch.sweeping = false
				ch.Redraw(&r, p, ch.play)
				then()
			}
		})
	})
}

// Measured reports whether the charts hold points for the filter shown:
// the first view's, when the page starts with them.
func (ch *Charts) Measured() bool { return ch.kPts != nil || ch.bpkPts != nil }

// Stop stops a sweep in flight and keeps the points: the page is gone.
func (ch *Charts) Stop() { ch.runs.Cancel() }

// Use takes points measured elsewhere for the filter shown: the first
// view's, measured by the server as it rendered the page (Measure).
func (ch *Charts) Use(kPts, bpkPts []ui.Point, sampled bool) {
	ch.kPts, ch.bpkPts, ch.sampled = kPts, bpkPts, sampled
}

// Measure measures the charts' points for params p (the filter's shape)
// and run r of generated and typed keys at once, as Sweep would: the
// server's, for the first view. sampled says n was sampled down.
func Measure(p sim.Params, r sim.Result, typed []string) (kPts, bpkPts []ui.Point, sampled bool) {
	sw := sweepOf(p, r, typed, false)
	kPts, bpkPts, _ = sw.measure(nil, nil)
	return kPts, bpkPts, sw.sampled
}

// Play is what the player tells the charts: the lab shows a stop of At
// keys of Of (At is 0 with every key in), and Running says whether the
// player is playing on from it or was stopped there.
type Play struct {
	At, Of  int
	Running bool
}

// stop reports whether the lab shows a stop before the last key.
func (pl Play) stop() bool { return pl.At > 0 && pl.At < pl.Of }

// n is the keys of the filter the charts' axes and theory are for: r's,
// or at a stop the filter's with every key in (the typed keys join the
// generated ones, as they join r's).
func (pl Play) n(r sim.Result) uint64 {
	if pl.stop() {
		return uint64(pl.Of) + r.Typed
	}
	return r.N
}

// pointName names the measured point of the run shown.
func (pl Play) pointName() string {
	if pl.stop() {
		return "this stop"
	}
	return "this run"
}

// ChartWidths are the widths, in CSS pixels, each chart is drawn at, the
// same on the server and in the live lab, so the first view is the live
// one. The page shows the one for its box (web/lab.css, .chart-fit): the
// widest no more than a twentieth wider than the box, stretched to it by
// at most a third, so that text drawn at 12 to 14 px is seen at 11.4 to
// 18 px from a box of 228 px to one of 1,080. The widths are close to the
// boxes people see: 294 and 320 px on a phone, the embed's and the lab's,
// 417 at 1280, 648 and 680 at 720.
var ChartWidths = []float64{240, 300, 400, 520, 640, 840}

// fit draws a chart at each of ChartWidths, for the page to show the one
// that fits its box.
func fit(draw func(width float64) ui.Chart) string {
	var b strings.Builder
	b.WriteString(`<div class="chart-fit">`)
	for _, w := range ChartWidths {
		c := draw(w)
		c.Class = "w" + strconv.Itoa(int(w))
		b.WriteString(c.SVG())
	}
	b.WriteString(`</div>`)
	return b.String()
}

// Redraw draws the charts of run r at params p, at every width the page
// may show them at, for where the player stands.
func (ch *Charts) Redraw(r *sim.Result, p sim.Params, play Play) {
	if r == nil {
		return
	}
	ch.play = play
	ch.r, ch.p, ch.drawn = *r, p, true
	ch.kSVG, ch.bpkSVG = "", ""
	for _, which := range []string{settings.ChartK, settings.ChartBitsPerKey} {
		if _, ok := ChartOf(which, *r, p, nil, nil, false, 300, play); !ok {
			continue
		}
		svg := fit(func(w float64) ui.Chart {
			c, _ := ChartOf(which, *r, p, ch.kPts, ch.bpkPts, ch.sampled, w, play)
			return c
		})
		if which == settings.ChartK {
			ch.kSVG = svg
		} else {
			ch.bpkSVG = svg
		}
	}
}

// Took takes over the charts of run r at params p as the prerendered page
// drew them, kSVG and bpkSVG being the markup Redraw wrote there, read
// back from the document, rather than drawing them again as the live page
// starts: drawing the six widths of both was the largest part of the first
// view's run. The same run, points and stop draw the same charts.
func (ch *Charts) Took(r *sim.Result, p sim.Params, play Play, kSVG, bpkSVG string) {
	ch.play = play
	ch.r, ch.p, ch.drawn = *r, p, true
	ch.kSVG, ch.bpkSVG = kSVG, bpkSVG
}

// Chart is the chart which (settings.ChartK or settings.ChartBitsPerKey)
// as it was last drawn, width pixels wide, with the points measured so
// far: a figure's. It is false when there is none to draw.
func (ch *Charts) Chart(which string, width float64) (ui.Chart, bool) {
	if !ch.drawn {
		return ui.Chart{}, false
	}
	return ChartOf(which, ch.r, ch.p, ch.kPts, ch.bpkPts, ch.sampled, width, ch.play)
}

// ChartOf is the chart which (settings.ChartK or settings.ChartBitsPerKey)
// of run r at params p, width pixels wide, with the measured points kPts
// and bpkPts (sampled says n was sampled down for them) and where the
// player stands: the one the page draws, and the one a figure of the same
// settings draws on the server or the command line. It is false for a
// layout that has no such chart.
func ChartOf(which string, r sim.Result, p sim.Params, kPts, bpkPts []ui.Point, sampled bool, width float64, play Play) (ui.Chart, bool) {
	switch which {
	case settings.ChartK:
		switch {
		case r.Variant.Chain():
			return chainKChart(r, p, kPts, sampled, width, play), true
		case r.Variant.UsesK():
			return kChart(r, kPts, sampled, width, play), true
		}
	case settings.ChartBitsPerKey:
		switch {
		case !r.Variant.UsesM():
		case r.Variant.Bloom():
			return bpkChart(r, p.BitsPerKey, bpkPts, sampled, width, play), true
		default:
			_, k := p.Shape()
			if play.stop() {
				q := p
				q.Items = play.Of
				_, k = q.Shape()
			}
			return layoutBPKChart(r, p.BitsPerKey, k, p.FingerprintBits, bpkPts, sampled, width, play), true
		}
	}
	return ui.Chart{}, false
}

// heading is the charts' heading, a level under the lab's title: an h2 on
// the lab's page, an h3 where the lab is a part of a lesson.
func (ch *Charts) heading() app.UI {
	return ui.PartHeading(ch.InPart, idChartsTitle, "charts-title", "Charts")
}

// idChartsTitle is the charts' heading.
const idChartsTitle = "charts-title"

// Render is the two charts and the line under them, for layout v and run
// r (nil before the first); own says the run is on the user's keys, and
// play where the player stands.
func (ch *Charts) Render(v core.Variant, r *sim.Result, own bool, play Play) app.UI {
	return app.Section().Class("charts-col").Aria("labelledby", idChartsTitle).Body(
		ch.heading(),
		app.Div().Class("charts").Body(
			ch.chartBox(settings.ChartK, "chart-k", ch.kSVG, !v.UsesK()),
			ch.chartBox(settings.ChartBitsPerKey, "chart-bpk", ch.bpkSVG, !v.UsesM()),
		),
		app.P().ID("chart-status").Class("muted small").Text(ch.status(r, own, play, v.UsesK(), v.UsesM())),
	)
}

// RenderOne is one of the two charts, which (settings.ChartK or
// settings.ChartBitsPerKey), with the line under the charts: a compact
// lab's. The arguments are Render's.
func (ch *Charts) RenderOne(which string, v core.Variant, r *sim.Result, own bool, play Play) app.UI {
	id, svg, off := "chart-k", ch.kSVG, !v.UsesK()
	if which == settings.ChartBitsPerKey {
		id, svg, off = "chart-bpk", ch.bpkSVG, !v.UsesM()
	} else {
		which = settings.ChartK
	}
	return app.Div().Class("charts-col").Body(
		app.Div().Class("charts").Body(ch.chartBox(which, id, svg, off)),
		app.P().ID("chart-status").Class("muted small").Text(ch.status(r, own, play, !off && id == "chart-k", !off && id == "chart-bpk")),
	)
}

// status is the line under the charts shown (k and bpk say which): true
// for what they show now, playing or stopped.
func (ch *Charts) status(r *sim.Result, own bool, play Play, k, bpk bool) string {
	switch {
	case r == nil:
		return ""
	case play.stop() && (k || bpk):
		return playStatus(r, play, k, bpk)
	}
	return chartStatus(r, own, ch.sweeping)
}

// playStatus is the line under the charts at a stop of the player, while
// it plays on or stopped there; k and bpk say which charts are shown.
func playStatus(r *sim.Result, play Play, k, bpk bool) string {
	where := "Stopped at "
	if play.Running {
		where = "Playing: "
	}
	s := where + format.Int(uint64(play.At)) + " of " + format.Int(uint64(play.Of)) + " keys in. "
	if k && bpk {
		s += "The charts keep the axes, theory and lines of the filter with every key in. "
	} else {
		s += "The chart keeps the axes, theory and lines of the filter with every key in. "
	}
	var parts []string
	if r.AbsentQueries > 0 && k {
		parts = append(parts, "against k, \"this stop\" is the rate measured now, beside the theory for the keys in so far")
	}
	if r.AbsentQueries > 0 && bpk {
		parts = append(parts, "against bits per key, \"this stop\" is the rate measured now, at its own m/n (an arrow at the edge while that is off the chart)")
	}
	switch {
	case len(parts) > 0:
		s += "On the chart " + strings.Join(parts, "; on the chart ") + ". "
	default:
		s += "With no absent queries there is no rate of this stop to show. "
	}
	return s + "The sampled measured points return when every key is in."
}

// chartStatus is the line under the charts of result r: how the measured
// points were made, on own keys or generated ones, and which charts a
// layout has none of, and why.
func chartStatus(r *sim.Result, own, sweeping bool) string {
	v := r.Variant
	switch {
	case !v.UsesK() && !v.UsesM():
		s := "No charts: they sweep k and bits per key, and the " + v.Name() + " filter takes neither (" +
			variantOff(v, settings.IDHashes) + "; " + variantOff(v, settings.IDBitsPerKey) + ")."
		if v.Fingerprints() != nil {
			s += " Its rate depends on its fingerprint bits alone: choose them above."
		}
		return s
	case own && sweeping:
		return "Measuring the chart points on generated keys…"
	case own && r.AbsentQueries == 0:
		return "The theory curves are for your n. Your keys have no absent queries, so the charts have no point of theirs; the measured points come from generated keys with the same bits per key and k."
	case own:
		return "The theory curves are for your n, and the ringed point \"this run\" is your keys' measured rate. The other measured points come from generated keys with the same bits per key and k (n sampled to at most 5,000): the rate depends on bits per key and k, not on which keys."
	case r.AbsentQueries == 0:
		return "No absent queries, so nothing to measure: the charts show theory only."
	case sweeping:
		return "Measuring the chart points…"
	case !v.UsesK():
		return "k means nothing to the " + v.Name() + " filter (" + variantOff(v, settings.IDHashes) + "), so there is no chart against k. " +
			"Measured points come from the same settings with n sampled down to at most 5,000 keys and 10,000 absent queries; the theory is the " + v.Name() + " filter's own, beside the standard Bloom filter's at its best k."
	}
	return "Measured points come from the same settings with n sampled down to at most 5,000 keys and 10,000 absent queries; the rate depends on bits per key and k, not on n."
}

// variantOff is why control id means nothing to layout v, without the
// control's name: "a key has three cells".
func variantOff(v core.Variant, id string) string {
	_, why, _ := strings.Cut(settings.ControlNote(v, id), ": ")
	return why
}

// chartBox is chart which's figure, with its downloads under it when the
// page makes figures; off, it is hidden, for a layout the chart means
// nothing to.
func (ch *Charts) chartBox(which, id, svg string, off bool) app.UI {
	fig := app.Figure().ID(id).Class("chart-box")
	if off {
		// Only ever true: HTML reads hidden="false" as hidden.
		fig = fig.Hidden(true)
	}
	if ch.Figure == nil {
		return fig.Body(app.Raw(orEmptySVG(svg)))
	}
	what := "the chart against k"
	if which == settings.ChartBitsPerKey {
		what = "the chart against bits per key"
	}
	return fig.OnClick(ui.OnFigureClick(func() (ui.FigureFile, bool) { return ch.Figure(which) })).Body(
		app.Raw(orEmptySVG(svg)),
		ui.FigureButtons("download-"+which, what, true),
	)
}

func orEmptySVG(s string) string {
	if s == "" {
		return `<svg class="chart" width="300" height="290" viewBox="0 0 300 290" role="img" aria-label="chart not drawn yet" xmlns="http://www.w3.org/2000/svg"><text x="58" y="150" fill="#5a6478">Drawing…</text></svg>`
	}
	return s
}
