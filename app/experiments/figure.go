package experiments

import (
	"errors"
	"strings"

	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui"
	"github.com/bloomlab/bloomlab/core/experiment"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Link is the experiments page's link for selection sel, in large type
// or not, on the site at origin (scheme and host; "" for the path alone):
// what its chart's figure holds in its title.
func Link(origin string, sel settings.Experiment, large bool) string {
	return origin + ui.Href(ui.RouteExperiments) + "?" + expQuery(sel, large).Encode()
}

// Figure is the chart of table t, measured for selection sel, as a figure
// for a slide (ui.Chart.Figure), width CSS pixels wide, its title holding
// link; false for a table without a chart.
func Figure(sel settings.Experiment, t experiment.Table, width int, link string, large bool) (ui.FigureFile, bool) {
	if t.Chart == nil {
		return ui.FigureFile{}, false
	}
	name := strings.TrimSuffix(sel.FileName("x"), ".x") + "-chart"
	return ui.ChartFile(expChart(t.Chart, float64(width)), name, link, large), true
}

// FigureOf measures selection sel here, at once, and returns its chart's
// figure: `bloomlab figure --chart experiment-NAME` prints it.
func FigureOf(sel settings.Experiment, width int, origin string, large bool) (ui.FigureFile, error) {
	e, ok := experiment.Find(sel.Name)
	if !ok {
		return ui.FigureFile{}, errors.New("no experiment " + sel.Name)
	}
	// One worker, as the page runs it: the same table.
	t, err := e.Run(sel.Sizes, experiment.Options{Workers: 1})
	if err != nil {
		return ui.FigureFile{}, err
	}
	f, ok := Figure(sel, t, width, Link(origin, sel, large), large)
	if !ok {
		return ui.FigureFile{}, errors.New("the " + sel.Name + " experiment has a table and no chart")
	}
	return f, nil
}

// onFigure offers the chart of res as a figure when one of the buttons of
// its row (ui.FigureButtons) is clicked.
func (rv *resultView) onFigure(res *expResult) app.EventHandler {
	return ui.OnFigureClick(func() (ui.FigureFile, bool) {
		large := rv.page.largeType()
		return Figure(res.Sel, res.Table, ui.DefaultFigureWidth, Link(ui.Origin(), res.Sel, large), large)
	})
}
