package lab

import (
	"strconv"
	"time"

	"github.com/bloomlab/bloomlab/app/engine"
	"github.com/bloomlab/bloomlab/app/lab/painter"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui"
	"github.com/bloomlab/bloomlab/app/ui/format"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The overlap view's elements.
const (
	idOverlap       = "overlap"
	idOverlapToggle = "overlap-toggle"
	idOverlapLegend = "overlap-legend"
	idOverlapNote   = "overlap-note"
)

// overlapView colours each set bit by how many keys map to it, with a
// legend and the counts' distribution against Poisson's. Whether it is
// open is the lab's settings (the link's overlap=), so a shared link and a
// reload keep it. It counts after each run while it is on, on a goroutine that yields to the page and
// gives up when the filter changes.
type overlapView struct {
	lab  overlapLab
	o    *sim.Overlap
	err  string
	runs engine.Runs
}

// overlapLab is what the overlap view needs of the page: the settings
// and the user's lists it counts on, whether a filter is shown to count,
// and a repaint once the counts are in.
type overlapLab interface {
	current() settings.Lab
	// showOverlap opens or closes the view, in the link.
	showOverlap(ctx app.Context, on bool)
	ownKeys() *engine.OwnKeys
	showing() bool
	draw(ctx app.Context)
	// figureButtons is the row of downloads of a figure, and onFigure
	// the handler of the element that holds it (figure.go).
	figureButtons(which, what string) app.UI
	onFigure(which string) app.EventHandler
}

// overlapWords says how many keys: "1 key", "3 keys", "255 or more keys".
func overlapWords(n int) string {
	if n >= 255 {
		return "255 or more keys"
	}
	return format.Plural(n, "key")
}

// on says whether the view is open.
func (ov *overlapView) on() bool { return ov.lab.current().Overlap }

// counts are the counts the picture shades by, nil while off or counting.
func (ov *overlapView) counts() []uint8 {
	if !ov.on() || ov.o == nil {
		return nil
	}
	return ov.o.Counts
}

// clear forgets the counts: the filter changed.
func (ov *overlapView) clear() {
	ov.runs.Cancel()
	ov.o, ov.err = nil, ""
}

// onToggle turns the view on or off, counts if a filter is shown, and
// repaints the picture with the counts or without them.
func (ov *overlapView) onToggle(ctx app.Context, e app.Event) {
	ov.lab.showOverlap(ctx, !ov.on())
	if ov.lab.showing() {
		ov.count(ctx)
	}
	ov.lab.draw(ctx)
}

// count counts the overlap of the filter the page's settings make, if
// the view is on, and repaints the picture when the counts are in.
func (ov *overlapView) count(ctx app.Context) {
	ov.clear()
	s, own := ov.lab.current(), ov.lab.ownKeys() != nil
	switch {
	case !ov.on():
		return
	case own:
		ov.err = "The overlap is counted on generated keys and the keys you type: go back to generated keys to see it."
		return
	case !s.Params.Variant.Bloom():
		ov.err = "A " + s.Params.Variant.Name() + " filter's " + s.Params.Variant.Unit() + "s hold fingerprints, not bits that keys share: there is no overlap to colour."
		return
	}
	p, typed := s.Run(), s.Typed.List()
	startRun(ctx, &ov.runs, func(run engine.Run) (sim.Overlap, error) {
		return sim.OverlapOf(p, typed, engine.Yielding(run.Live, 5*time.Millisecond, func(int, int) {}))
	}, func(ctx app.Context, o sim.Overlap, err error) {
		if err != nil {
			ov.err = core.Message(err)
			return
		}
		ov.o = &o
		ov.lab.draw(ctx)
	})
}

// render is the toggle and, when on, the legend, the note and the chart
// of the counts against Poisson. cells says whether the picture draws
// every position as a cell, where the colours can show.
func (ov *overlapView) render(cells bool) app.UI {
	body := []app.UI{
		app.Button().ID(idOverlapToggle).Class("chip toggle").Aria("pressed", ov.on()).
			Text("Colour bits by the keys that share them").OnClick(ov.onToggle),
	}
	switch {
	case !ov.on():
	case ov.err != "":
		body = append(body, app.P().ID(idOverlapNote).Class("muted small").Text(ov.err))
	case ov.o == nil:
		body = append(body, app.P().ID(idOverlapNote).Class("muted small").Text("Counting the keys on each bit…"))
	default:
		body = append(body, ov.renderCounts(cells)...)
	}
	return app.Section().ID(idOverlap).Class("overlap").Aria("label", "Overlap").OnClick(ov.lab.onFigure(FigureOverlap)).Body(body...)
}

func (ov *overlapView) renderCounts(cells bool) []app.UI {
	o := ov.o
	m := uint64(len(o.Counts))
	legend := app.Ul().ID(idOverlapLegend).Class("overlap-legend").Body(
		app.Range(painter.OverlapColours).Slice(func(i int) app.UI {
			n := o.Histogram[i+1]
			label := format.Plural(i+1, "key")
			if i == len(painter.OverlapColours)-1 {
				label = strconv.Itoa(i+1) + " or more keys"
				n = 0
				for _, c := range o.Histogram[i+1:] {
					n += c
				}
			}
			c := painter.OverlapColours[i]
			return app.Li().Body(
				app.Span().Class("swatch").Style("background", "rgb("+strconv.Itoa(int(c[0]))+","+strconv.Itoa(int(c[1]))+","+strconv.Itoa(int(c[2]))+")"),
				app.Text(label+": "+format.Plural(int(n), "bit")),
			)
		}),
	)
	note := "Each set bit is shaded by how many keys map to it; the pointer over a bit says the number. " +
		"The mean is " + format.Float(o.Mean, 3) + " keys a bit (kn/m), and " + format.Int(o.Histogram[0]) + " of " + format.Int(m) +
		" bits have none: the share Poisson gives is e^-" + format.Float(o.Mean, 3) + " = " + format.Percent(sim.PoissonShares(o.Mean)[0]) + "."
	if !cells {
		note += " This picture shades dots by density: the colours show where every bit is drawn as a square (fewer bits, or a wider window); the counts and the chart hold either way."
	}
	return []app.UI{
		legend,
		app.P().ID(idOverlapNote).Class("muted small").Text(note),
		app.Div().Class("overlap-chart").Body(app.Raw(overlapChart(o, overlapChartW).SVG())),
		ov.lab.figureButtons(FigureOverlap, "the chart of keys on a bit"),
	}
}

// overlapChartW is the overlap chart's width on the page: a phone's
// column, never scaled down, so its text keeps its size.
const overlapChartW = 300

// overlapChart is the share of bits that c keys map to, measured, beside
// the Poisson shares with the same mean, width CSS pixels wide.
func overlapChart(o *sim.Overlap, width float64) ui.Chart {
	m := float64(len(o.Counts))
	var measured, poisson []ui.Point
	top := 0.0
	for c, share := range sim.PoissonShares(o.Mean) {
		got := float64(o.Histogram[c]) / m
		measured = append(measured, ui.Point{X: float64(c), Y: got})
		poisson = append(poisson, ui.Point{X: float64(c), Y: share})
		top = max(top, got, share)
	}
	return ui.Chart{
		Title:  "Keys on a bit: measured against Poisson",
		Width:  width,
		IntX:   true,
		XLabel: "keys mapping to a bit (" + strconv.Itoa(sim.OverlapTop) + " = " + strconv.Itoa(sim.OverlapTop) + " or more)",
		YLabel: "share of bits",
		XMin:   0, XMax: sim.OverlapTop,
		YMin: 0, YMax: min(1, top*1.15),
		Series: []ui.Series{
			{Name: "Poisson, mean kn/m = " + format.Float(o.Mean, 3), Class: "theory", Line: true, Points: poisson},
			{Name: "measured", Class: "measured", Points: measured},
		},
	}
}
