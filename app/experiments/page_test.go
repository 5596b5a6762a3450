package experiments

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	stdhtml "html"
	"io"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bloomlab/bloomlab/app/engine"
	"github.com/bloomlab/bloomlab/app/internal/linktest"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui/format"
	"github.com/bloomlab/bloomlab/core/experiment"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// tinySizes shrinks an experiment's quick sizes so that every experiment
// runs in a test within milliseconds.
func tinySizes(e experiment.Experiment) experiment.Sizes {
	s := e.Quick
	if s.Items > 0 {
		s.Items = 3000
	}
	if s.Queries > 0 {
		s.Queries = 30000
	}
	if s.Replicates > 0 {
		s.Replicates = 2
	}
	return s
}

func tinyTable(t *testing.T, e experiment.Experiment) experiment.Table {
	t.Helper()
	tab, err := e.Run(tinySizes(e), experiment.Options{Workers: 1})
	if err != nil {
		t.Fatalf("%s: %v", e.Name, err)
	}
	return tab
}

// TestExpChartSVG draws every experiment's chart at both widths: well-formed
// SVG, a legend entry per series, an error bar per measured point with an
// interval, and no NaN or Inf anywhere.
func TestExpChartSVG(t *testing.T) {
	t.Parallel()
	for _, e := range experiment.All() {
		t.Run(e.Name, func(t *testing.T) {
			t.Parallel()
			tab := tinyTable(t, e)
			if tab.Chart == nil {
				t.Fatal("no chart")
			}
			bars := 0
			for _, s := range tab.Chart.Series {
				for _, p := range s.Points {
					if s.Kind == experiment.Points && p.Hi > p.Lo {
						bars++
					}
				}
			}
			for _, width := range []float64{0, expChartNarrow} {
				svg := expChartSVG(tab.Chart, width)
				wellFormed(t, svg)
				for _, s := range tab.Chart.Series {
					if !strings.Contains(svg, ">"+stdhtml.EscapeString(s.Name)+"</text>") {
						t.Errorf("legend lacks %q", s.Name)
					}
				}
				for _, label := range []string{tab.Chart.X, tab.Chart.Y} {
					if !strings.Contains(svg, ">"+stdhtml.EscapeString(label)+"</text>") {
						t.Errorf("no axis label %q", label)
					}
				}
				if got := strings.Count(svg, `<path class="ebar`) - countPointSeries(tab.Chart); got != bars {
					t.Errorf("%d error bars, want %d", got, bars)
				}
				if strings.Contains(svg, "NaN") || strings.Contains(svg, "Inf") {
					t.Errorf("SVG holds NaN or Inf:\n%s", svg)
				}
			}
		})
	}
}

// countPointSeries is the number of legend samples with an error bar.
func countPointSeries(c *experiment.Chart) int {
	n := 0
	for _, s := range c.Series {
		if s.Kind != experiment.Points {
			continue
		}
		for _, p := range s.Points {
			if p.Hi > p.Lo {
				n++
				break
			}
		}
	}
	return n
}

func wellFormed(t *testing.T, svg string) {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(svg))
	for {
		if _, err := dec.Token(); err != nil {
			if err != io.EOF {
				t.Fatalf("not well-formed: %v\n%s", err, svg)
			}
			return
		}
	}
}

// TestExpChartDegenerate: charts without points, or with zeros on a log
// axis, still draw.
func TestExpChartDegenerate(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]*experiment.Chart{
		"empty":        {Title: "t", X: "x", Y: "y"},
		"log zeros":    {LogX: true, LogY: true, Series: []experiment.Series{{Name: "measured", Kind: experiment.Points, Points: []experiment.Point{{X: 0, Y: 0}, {X: 2, Y: 0, Lo: 0, Hi: 0.1}}}}},
		"one point":    {Series: []experiment.Series{{Name: "measured", Kind: experiment.Points, Points: []experiment.Point{{X: 3, Y: 3}}}}},
		"many groups":  {Series: manySeries(9)},
		"categories":   {XLabels: []string{"a", "b"}, Series: []experiment.Series{{Name: "theory", Kind: experiment.Line, Points: []experiment.Point{{X: 0, Y: 1}, {X: 1, Y: 2}}}}},
		"tiny spreads": {Series: []experiment.Series{{Name: "theory", Kind: experiment.Line, Points: []experiment.Point{{X: 1, Y: 0.0500001}, {X: 1.0000001, Y: 0.05}}}}},
	} {
		t.Run(name, func(t *testing.T) {
			svg := expChartSVG(c, 0)
			wellFormed(t, svg)
			if strings.Contains(svg, "NaN") || strings.Contains(svg, "Inf") {
				t.Errorf("SVG holds NaN or Inf:\n%s", svg)
			}
		})
	}
	if expChartSVG(nil, 0) != "" {
		t.Error("a table without a chart draws one")
	}
}

func manySeries(n int) []experiment.Series {
	var ss []experiment.Series
	for i := range n {
		ss = append(ss, experiment.Series{Name: "g" + string(rune('a'+i)) + " measured", Kind: experiment.Points,
			Points: []experiment.Point{{X: float64(i), Y: float64(i + 1), Lo: float64(i), Hi: float64(i + 2)}}})
	}
	return ss
}

// TestExpChart: the conversion colours one group as theory and measured,
// and several by group, each with its own marker shape and line dash; only
// measurements carry intervals.
func TestExpChart(t *testing.T) {
	t.Parallel()
	one := expChart(&experiment.Chart{Series: []experiment.Series{
		{Name: "theory", Kind: experiment.Line, Points: []experiment.Point{{X: 1, Y: 1, Lo: 0.5, Hi: 2}}},
		{Name: "measured", Kind: experiment.Points, Points: []experiment.Point{{X: 1, Y: 1, Lo: 0.5, Hi: 2}}},
	}}, 0)
	if got := []string{one.Series[0].Class, one.Series[1].Class}; got[0] != "theory" || got[1] != "measured" {
		t.Errorf("one group's classes %q, want theory and measured", got)
	}
	if one.Series[0].Intervals() || !one.Series[1].Intervals() {
		t.Error("intervals on the line, or none on the measurements")
	}
	if one.Width != expChartW || !one.TitleAbove || one.PlotHeight != expPlotH {
		t.Errorf("width %v, title above %v, plot height %v", one.Width, one.TitleAbove, one.PlotHeight)
	}
	e, _ := experiment.Find("grid")
	grid := expChart(tinyTable(t, e).Chart, expChartNarrow)
	a, b := grid.Series[0], grid.Series[2]
	if a.Class != "g0" || b.Class != "g1" || a.Shape == b.Shape || a.Dash == b.Dash || !a.Line || !b.Line {
		t.Errorf("grid's first two groups' lines %+v and %+v, want g0 and g1 told apart by dash and shape", a, b)
	}
	if m := grid.Series[1]; m.Class != "g0" || m.Line {
		t.Errorf("grid's first measurements %+v, want g0 markers", m)
	}
}

// TestExpGroups: "X theory" and "X measured" share group X.
func TestExpGroups(t *testing.T) {
	t.Parallel()
	e, _ := experiment.Find("grid")
	g, n := expGroups(tinyTable(t, e).Chart)
	if n != 4 || g[0] != g[1] || g[1] == g[2] {
		t.Errorf("grid groups %v (%d), want four pairs", g, n)
	}
	e, _ = experiment.Find("rounding")
	if _, n := expGroups(tinyTable(t, e).Chart); n != 1 {
		t.Errorf("rounding has %d groups, want 1", n)
	}
}

// TestRunExperiment: the browser's run gives the table a native run gives,
// reports progress, and stops when told.
func TestRunExperiment(t *testing.T) {
	t.Parallel()
	e, _ := experiment.Find("rounding")
	sel := settings.Experiment{Name: e.Name, Sizes: experiment.Sizes{Items: 20000, Queries: 400000, Seed: 3}}
	want, err := e.Run(sel.Sizes, experiment.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := engine.RunExperiment(sel.Name, sel.Sizes, engine.Always, func(int, int) {})
	if err != nil {
		t.Fatal(err)
	}
	wj, _ := json.Marshal(want)
	gj, _ := json.Marshal(got)
	if !bytes.Equal(wj, gj) {
		t.Errorf("the page's run differs from a native run:\n%s\n%s", gj, wj)
	}

	// Progress reaches the page at its pauses. The page pauses every
	// yieldEvery, so how many reports a run makes is a figure of the
	// machine (none for a run shorter than that); with a pause at every
	// step, the page's run reports each step of a native run, in order.
	var steps, reports [][2]int
	if _, err := e.Run(sel.Sizes, experiment.Options{Workers: 1, Progress: func(done, total int) error {
		steps = append(steps, [2]int{done, total})
		return nil
	}}); err != nil {
		t.Fatal(err)
	}
	got, err = engine.RunHere(sel.Name, sel.Sizes, 0, engine.Always, func(done, total int) { reports = append(reports, [2]int{done, total}) })
	if err != nil {
		t.Fatal(err)
	}
	if gj, _ = json.Marshal(got); !bytes.Equal(wj, gj) {
		t.Errorf("the page's run with a pause at every step differs from a native run:\n%s\n%s", gj, wj)
	}
	if len(steps) == 0 || !slices.Equal(reports, steps) {
		t.Errorf("with a pause at every step the page reported %v, want the native run's %d steps %v", reports, len(steps), steps)
	}

	// A stop is honoured at the next check: no more work is reported after
	// it. (Asserting a time here would fail on a loaded machine; the time
	// is logged.)
	calls, reportsAfterStop := 0, 0
	start := time.Now()
	_, err = engine.RunExperiment(e.Name, e.Full, func() bool { calls++; return calls <= 3 }, func(int, int) {
		if calls > 3 {
			reportsAfterStop++
		}
	})
	if !errors.Is(err, experiment.ErrCancelled) {
		t.Errorf("stopped run returned %v, want ErrCancelled", err)
	}
	if calls != 4 || reportsAfterStop > 0 {
		t.Errorf("the run checked for a stop %d times and reported %d steps after it, want 4 checks and none", calls, reportsAfterStop)
	}
	t.Logf("the full-size run returned %v after it was stopped at its fourth check", time.Since(start))
}

// TestWorkUnits: the probe finds the total a whole run reports.
func TestWorkUnits(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"rounding", "k-sweep", "memory"} {
		e, _ := experiment.Find(name)
		s := tinySizes(e)
		total := 0
		if _, err := e.Run(s, experiment.Options{Workers: 1, Progress: func(d, tt int) error { total = tt; return nil }}); err != nil {
			t.Fatal(err)
		}
		if got := engine.WorkUnits(name, s); got != total || got == 0 {
			t.Errorf("%s: workUnits %d, a run reports %d", name, got, total)
		}
	}
}

// TestExpResultExports: the JSON is the command line's --json output, byte
// for byte, and the CSV its --csv output.
func TestExpResultExports(t *testing.T) {
	t.Parallel()
	e, _ := experiment.Find("probes")
	tab := tinyTable(t, e)
	res, err := newExpResult(settings.Experiment{Name: e.Name, Sizes: tinySizes(e)}, tab, time.Second, 1)
	if err != nil {
		t.Fatal(err)
	}
	var js bytes.Buffer
	enc := json.NewEncoder(&js)
	enc.SetIndent("", "  ")
	enc.Encode(tab)
	if res.JSON != js.String() {
		t.Errorf("JSON:\n%s\nwant:\n%s", res.JSON, js.String())
	}
	var csv bytes.Buffer
	tab.WriteCSV(&csv)
	if res.CSV != csv.String() || !strings.HasPrefix(res.CSV, "bitsPerKey,k,fill,probes,probesCI95_lo,probesCI95_hi") {
		t.Errorf("CSV:\n%s\nwant:\n%s", res.CSV, csv.String())
	}
}

// renderExperiments loads the page for a query in the test engine, as the
// static generator does, and returns its HTML.
func renderExperiments(t *testing.T, query string) (string, *Page) {
	t.Helper()
	q, err := url.ParseQuery(query)
	if err != nil {
		t.Fatal(err)
	}
	p := New()
	p.sel, p.notices = settings.ExperimentFromQuery(q)
	e := app.NewTestEngine()
	if err := e.Load(p); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	return app.HTMLString(p), p
}

func TestExperimentsPageStatic(t *testing.T) {
	html, _ := renderExperiments(t, linktest.Query(settings.ExpName, "overfill", settings.ExpItems, "0", settings.ExpQueries, "abc"))
	for _, want := range []string{
		`data-state="static"`, `id="exp-items"`, `id="exp-queries"`, `id="exp-seed"`, `id="exp-run"`, `id="exp-full"`,
		`<span class="cli-arg">overfill</span>`, `<span class="cli-arg">--items 1</span>`, `<span class="cli-arg">--queries 500000</span>`, `<span class="cli-arg">--seed 1</span>`, "items: 0 is below the minimum",
		`queries: &#34;abc&#34; is not a whole number`, "Full sizes are the published ones: items 200,000, queries 10,000,000, seed 1.",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("static page lacks %q", want)
		}
	}
	for _, unwanted := range []string{`id="exp-replicates"`, `role="progressbar"`, `id="exp-table"`, `id="exp-memory-note"`, `disabled`} {
		if strings.Contains(html, unwanted) {
			t.Errorf("static page holds %q", unwanted)
		}
	}
	if n := len(regexp.MustCompile(`<option [^>]*selected`).FindAllString(html, -1)); n != 1 {
		t.Errorf("%d options selected, want 1", n)
	}
	mem, _ := renderExperiments(t, linktest.Query(settings.ExpName, "memory"))
	if !strings.Contains(mem, `id="exp-memory-note"`) || !strings.Contains(mem, "is an estimate here") {
		t.Error("the memory experiment does not say its exact set is an estimate")
	}
}

// TestExperimentsPageShowsResult: a measured table shows its cells as the
// command line prints them, its notes, chart and JSON.
func TestExperimentsPageShowsResult(t *testing.T) {
	e, _ := experiment.Find("hashing")
	sel := settings.Experiment{Name: e.Name, Sizes: tinySizes(e)}
	tab := tinyTable(t, e)
	res, err := newExpResult(sel, tab, 1500*time.Millisecond, 123456)
	if err != nil {
		t.Fatal(err)
	}
	expSession.keep(res)
	p := New()
	p.sel = sel
	p.runner.run = &expRun{Sel: sel, Done: 100, Total: 100, Elapsed: res.Elapsed}
	p.live = true
	eng := app.NewTestEngine()
	if err := eng.Load(p); err != nil {
		t.Fatal(err)
	}
	eng.ConsumeAll()
	html := app.HTMLString(p)
	for _, want := range []string{`data-state="done"`, `id="exp-chart"`, `id="exp-csv"`, `value="100`, "finished in 1.50 s", `type="A"`, `Done in 1.50 s in this browser.`, `data-units="123456"`} {
		if !strings.Contains(html, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	cells := regexp.MustCompile(`<td class="(?:num|text)">([^<]*)</td>`).FindAllStringSubmatch(html, -1)
	var want []string
	for _, row := range tab.Rows {
		for i, c := range tab.Columns {
			want = append(want, stdhtml.EscapeString(c.Format(row[i])))
		}
	}
	if len(cells) != len(want) {
		t.Fatalf("%d cells, want %d", len(cells), len(want))
	}
	for i, c := range cells {
		if strings.ReplaceAll(c[1], "&#39;", "&#x27;") != strings.ReplaceAll(want[i], "&#39;", "&#x27;") {
			t.Errorf("cell %d = %q, want %q", i, c[1], want[i])
		}
	}
	for _, n := range tab.Notes {
		if !strings.Contains(html, stdhtml.EscapeString(n)) && !strings.Contains(html, n) {
			t.Errorf("note %q not shown", n)
		}
	}
}

func TestFormatDuration(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{
		300 * time.Millisecond: "under a second", 12 * time.Second: "12 s", 5 * time.Minute: "5 min", 3 * time.Hour: "3.0 h",
	} {
		if got := format.Duration(d); got != want {
			t.Errorf("format.Duration(%v) = %q, want %q", d, got, want)
		}
	}
	if got := format.Elapsed(125 * time.Second); got != "2 min 5 s" {
		t.Errorf("format.Elapsed(125 s) = %q", got)
	}
}

// The progress bar shows the latest report at the next tick, however soon
// after the last one it came; it skips ticks with no new percentage, but
// for one a second, which keeps the time left fresh.
func TestProgressPace(t *testing.T) {
	t.Parallel()
	p := newProgressPace()
	p.latest = [2]int{0, 1000}
	if !p.due() {
		t.Error("the first tick does not draw the bar")
	}
	p.latest = [2]int{10, 1000}
	p.latest = [2]int{25, 1000} // two reports between ticks: the latest counts
	if due := p.due(); !due || p.shownPct != 2 {
		t.Errorf("a tick after the bar moved to 2%%: due %v, shown %d%%", due, p.shownPct)
	}
	p.latest = [2]int{26, 1000} // the same percentage
	quiet := int(progressQuiet / progressEvery)
	for i := 1; i < quiet; i++ {
		if p.due() {
			t.Fatalf("tick %d with no new percentage redrew the bar", i)
		}
	}
	if !p.due() {
		t.Errorf("no redraw after %v with no news", progressQuiet)
	}
	if p.due() {
		t.Error("the quiet redraw came twice")
	}
}

// TestSessionKeepsTheLatest: a session of many selections keeps the
// latest keptSelections of them, tables and work counts alike.
func TestSessionKeepsTheLatest(t *testing.T) {
	s := &expStore{results: map[string]*expResult{}, units: map[string]int{}, paces: map[string]float64{}}
	sel := func(i int) settings.Experiment {
		return settings.Experiment{Name: "rocksdb", Sizes: experiment.Sizes{Items: i + 1, Queries: 1, Seed: 1}}
	}
	for i := range 3 * keptSelections {
		s.setUnits(sel(i), i)
		s.keep(&expResult{Sel: sel(i), Units: i})
	}
	if len(s.results) != keptSelections || len(s.units) != keptSelections {
		t.Errorf("kept %d tables and %d work counts, want %d", len(s.results), len(s.units), keptSelections)
	}
	if s.result(sel(0)) != nil || s.result(sel(3*keptSelections-1)) == nil {
		t.Error("the session kept the oldest selection or lost the latest")
	}
}
