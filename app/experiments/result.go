package experiments

import (
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui"
	"github.com/bloomlab/bloomlab/core/experiment"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// resultPage is what the result needs of the page: the selection whose
// table a download takes.
type resultPage interface {
	selection() settings.Experiment
	// largeType says whether the page is in large type, which the
	// chart's figure follows.
	largeType() bool
}

// resultView shows a measured table: the table itself, its chart and
// notes, the JSON, and the CSV and JSON downloads.
type resultView struct {
	page resultPage
	// narrow is set in a narrow window, where the chart is drawn narrower
	// so that its text keeps its size.
	narrow bool
}

// measure notes whether the window is narrow.
func (rv *resultView) measure() {
	if !app.IsClient {
		return
	}
	w, _ := app.Window().Size()
	rv.narrow = w > 0 && w < 560
}

func (rv *resultView) chartWidth() float64 {
	if rv.narrow {
		return expChartNarrow
	}
	return expChartW
}

func (rv *resultView) onDownload(kind string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		res := expSession.result(rv.page.selection())
		if res == nil {
			return
		}
		if kind == "csv" {
			ui.Download(res.Sel.FileName("csv"), "text/csv", res.CSV)
			return
		}
		ui.Download(res.Sel.FileName("json"), "application/json", res.JSON)
	}
}

// renderCLI gives the command that prints sel's table. A narrow screen
// wraps it between arguments, never inside one ("--seed 1" stays whole).
func (rv *resultView) renderCLI(sel settings.Experiment) app.UI {
	var args []app.UI
	for i, a := range sel.CLIArgs() {
		if i > 0 {
			args = append(args, app.Text(" "))
		}
		args = append(args, app.Span().Class("cli-arg").Text(a))
	}
	return app.P().Class("exp-cli small").Body(
		app.Text("The same table on the command line: "),
		app.Code().ID("exp-cli").Body(args...),
	)
}

// renderMemoryNote says, for the memory experiment, why its exact set is
// a model here and measured only on the command line.
func (rv *resultView) renderMemoryNote(sel settings.Experiment) app.UI {
	return app.If(sel.Name == "memory", func() app.UI {
		return app.P().ID("exp-memory-note").Class("notice").Body(
			app.Strong().Text("The exact set is an estimate here. "),
			app.Text("A browser's heap belongs to the whole page, so no Go map is measured here: the map rows come from the model of a map's table and keys in core.ExactSetBytes. The command line builds real maps and measures them natively: "),
			app.Code().Text("bloomlab experiment memory"),
			app.Text("."),
		)
	})
}

func (rv *resultView) render(res *expResult) app.UI {
	t := res.Table
	return app.Div().ID("exp-result").Class("exp-result").Body(
		app.Section().Class("table-box exp-table-box").Aria("labelledby", "exp-title").Body(
			app.H2().ID("exp-title").Text(t.Title),
			app.P().Class("exp-scroll-hint muted small").Aria("hidden", "true").Text("The table scrolls sideways."),
			app.Div().Class("exp-table-wrap").Role("region").Aria("labelledby", "exp-title").TabIndex(0).Body(
				app.Table().ID("exp-table").Class("exp-table").Body(
					app.THead().Body(app.Tr().Body(app.Range(t.Columns).Slice(func(i int) app.UI {
						c := t.Columns[i]
						return app.Th().Scope("col").Class(expCellClass(c)).DataSet("key", c.Key).Text(c.Title)
					}))),
					app.TBody().Body(app.Range(t.Rows).Slice(func(r int) app.UI {
						row := t.Rows[r]
						return app.Tr().Body(app.Range(t.Columns).Slice(func(i int) app.UI {
							c := t.Columns[i]
							return app.Td().Class(expCellClass(c)).Text(c.Format(row[i]))
						}))
					})),
				),
			),
			app.If(len(t.Notes) > 0, func() app.UI {
				return app.Ul().ID("exp-notes").Class("exp-notes").Body(app.Range(t.Notes).Slice(func(i int) app.UI {
					return app.Li().Text(t.Notes[i])
				}))
			}),
			app.Div().Class("exp-downloads").Body(
				app.Button().ID("exp-csv").Class("chip").Text("Download CSV").OnClick(rv.onDownload("csv")),
				app.Button().ID("exp-json-download").Class("chip").Text("Download JSON").OnClick(rv.onDownload("json")),
			),
		),
		app.If(t.Chart != nil, func() app.UI { return rv.renderChart(res) }),
		app.Details().Class("exp-json").Body(
			app.Summary().Text("The table as JSON, as bloomlab experiment --json prints it"),
			app.Pre().ID("exp-json").Text(res.JSON),
		),
	)
}

func (rv *resultView) renderChart(res *expResult) app.UI {
	c := res.Table.Chart
	return app.Figure().ID("exp-chart").Class("chart-box exp-chart-box").Aria("labelledby", "exp-chart-title").OnClick(rv.onFigure(res)).Body(
		app.H2().ID("exp-chart-title").Class("exp-chart-title").Text(c.Title),
		app.Raw(res.chartSVG(rv.chartWidth())),
		app.FigCaption().Body(
			app.If(len(c.XLabels) > 0, func() app.UI {
				return app.Ol().Class("exp-xkey").Type("A").Body(app.Range(c.XLabels).Slice(func(i int) app.UI {
					return app.Li().Text(c.XLabels[i])
				}))
			}),
			app.P().Class("muted small").Text(expCaption(c)),
			ui.FigureButtons("download-experiment", "the chart", true),
		),
	)
}

// expCellClass aligns text left and numbers right.
func expCellClass(c experiment.Column) string {
	if c.Kind == experiment.Text {
		return "text"
	}
	return "num"
}
