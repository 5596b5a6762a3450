// Package experiments is the experiments page: the classic measurements of
// core/experiment run in the browser. The learner picks one, sets its
// sizes and seed, runs it with a progress bar and a cancel button, then
// reads the table, the chart and the notes, and downloads them as CSV or
// JSON; the same table comes from bloomlab experiment on the command line,
// whose command the page shows. The choice and the sizes live in the link
// (settings.Experiment); a run starts only on the Run button, never from a
// link, so the prerendered page and a shared link cost nothing until asked.
//
// The page is in parts, each a file with one job and a small interface of
// what it needs of the page: the form (form.go) edits the selection, the
// runner (runner.go) runs it through the engine, on the page's workers
// where there are some, and the result view (result.go) shows the table the
// session keeps for the selection (results.go), drawn with ui.Chart
// (chart.go). It imports engine, settings, ui, ui/format, core and
// core/experiment, and no other page; it runs no experiment itself.
//
// Where the next thing goes: a new experiment is a record of
// core/experiment's list (experiment.All) and appears here with no edit; a
// new size field is a knob in settings.ExpKnobs; how a kind of chart or
// column is shown is chart.go and result.go; what the run says while it
// goes is runner.go.
package experiments
