package lab

import (
	"bytes"
	"errors"
	"strconv"

	"github.com/bloomlab/bloomlab/app/engine"
	"github.com/bloomlab/bloomlab/app/lab/charts"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui"
	"github.com/bloomlab/bloomlab/app/ui/format"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The file view's elements.
const (
	idFileView      = "file-view"
	idFileToggle    = "file-toggle"
	idFileSave      = "file-save"
	idFileOpen      = "file-open"
	idFileError     = "file-error"
	idFileNote      = "file-note"
	idFileShape     = "file-shape"
	idFileClose     = "file-close"
	idEstimateChart = "estimate-chart"
)

// maxOpenBytes is the largest filter file the page opens: a standard
// filter of half a billion bits. The size is read before a byte of the
// file is, and the file is read whole into the page's memory, so a
// larger one could take more than a tab has; bloomlab filter info reads
// any size.
const maxOpenBytes = 64 << 20

// estimateChartW is the estimate chart's width: a phone's column.
const estimateChartW = 300

// fileView is the lab's filter as a file and a file as a filter: the
// estimate of the lab's keys with its chart against the fill, a download
// of the lab's filter in the format of FORMAT.md, and a filter file
// opened (picked or dropped) with its shape, fill and estimated keys,
// which then answers the key panel's queries. Whether it is open is the
// link's file=; closed, it is one button, and nothing of it is built.
type fileView struct {
	lab    fileLab
	opened *openedFile
	// err is why the last file opened was refused, or why a save failed.
	err  string
	busy bool
	runs engine.Runs
}

// fileLab is what the file view needs of the page: the settings, the
// filter shown and the lists it may be built from, and a way to open
// and close the view and to tell the page that the key panel's filter
// changed.
type fileLab interface {
	current() settings.Lab
	showFile(ctx app.Context, on bool)
	shown() *sim.Result
	ownKeys() *engine.OwnKeys
	answered(ctx app.Context)
}

// openedFile is a filter file the page opened.
type openedFile struct {
	name  string
	size  int
	f     core.Membership
	about core.Description
}

// answer is what the opened filter says of key: maybe or no, with the
// positions it read and their arithmetic.
func (of *openedFile) answer(key string) fileAnswer {
	kb := []byte(key)
	maybe, _ := of.f.Contains(kb)
	a := fileAnswer{key: key, file: of.name, maybe: maybe, positions: of.f.Positions(nil, kb)}
	if e, ok := core.Explain(of.f, kb); ok {
		a.explain = &e
	}
	return a
}

// fileAnswer is the opened filter's answer to a typed key.
type fileAnswer struct {
	key, file string
	maybe     bool
	positions []uint64
	explain   *core.Explanation
}

func (fv *fileView) on() bool { return fv.lab.current().File }

func (fv *fileView) onToggle(ctx app.Context, e app.Event) { fv.lab.showFile(ctx, !fv.on()) }

// onSave offers the lab's filter as a file. A run on the lab's worker
// keeps its filter there: the page builds it again, as a small run
// does, before saving.
func (fv *fileView) onSave(ctx app.Context, e app.Event) {
	r := fv.lab.shown()
	if r == nil || fv.busy {
		return
	}
	fv.err = ""
	if r.Filter != nil {
		fv.save(r.Filter)
		return
	}
	s, own := fv.lab.current(), fv.lab.ownKeys()
	fv.busy = true
	startRun(ctx, &fv.runs, func(run engine.Run) (sim.KeysResult, error) {
		return engine.Simulate(runParams(s, own), s.Typed.List(), own, run.OnPage(func(int, int) {}))
	}, func(ctx app.Context, k sim.KeysResult, err error) {
		fv.busy = false
		if err != nil {
			fv.err = core.Message(err)
			return
		}
		fv.save(k.Filter)
	})
}

// save offers f as a file named for its shape.
func (fv *fileView) save(f core.Membership) {
	var b bytes.Buffer
	if err := core.Save(&b, f); err != nil {
		fv.err = "This filter cannot be saved: " + core.Message(err) + "."
		return
	}
	ui.DownloadBytes(fileName(f), "application/octet-stream", b.Bytes())
}

// fileName names a saved filter by its layout and shape.
func fileName(f core.Membership) string {
	v := "filter"
	if s, ok := f.(core.Shaped); ok {
		v = s.Shape().Variant.Name()
	}
	return ui.FileName(v, "m"+strconv.FormatUint(f.M(), 10), "k"+strconv.Itoa(f.K())) + ".blmf"
}

func (fv *fileView) onPick(ctx app.Context, e app.Event) {
	input := ctx.JSSrc()
	if files := input.Get("files"); files.Truthy() && files.Length() > 0 {
		fv.open(ctx, files.Index(0))
	}
	input.Set("value", "")
}

func (fv *fileView) onDragOver(ctx app.Context, e app.Event) { e.PreventDefault() }

func (fv *fileView) onDrop(ctx app.Context, e app.Event) {
	e.PreventDefault()
	if files := e.Get("dataTransfer").Get("files"); files.Truthy() && files.Length() > 0 {
		fv.open(ctx, files.Index(0))
	}
}

// open reads a browser File as a filter: refused unread past
// maxOpenBytes, refused with core's reason when it is no filter, else
// described and kept for the key panel.
func (fv *fileView) open(ctx app.Context, file app.Value) {
	name, size := file.Get("name").String(), file.Get("size").Int()
	fv.err = ""
	if err := checkOpenSize(name, size); err != nil {
		fv.err = err.Error()
		return
	}
	fv.busy = true
	startRun(ctx, &fv.runs, func(engine.Run) (*openedFile, error) {
		b, err := engine.ReadFile(file)
		if err != nil {
			return nil, err
		}
		return openFilter(name, b)
	}, func(ctx app.Context, of *openedFile, err error) {
		fv.busy = false
		if err != nil {
			fv.err = err.Error()
			return
		}
		fv.opened = of
		fv.lab.answered(ctx)
	})
}

// checkOpenSize refuses a file past maxOpenBytes before it is read.
func checkOpenSize(name string, size int) error {
	if size > maxOpenBytes {
		return errors.New("“" + name + "” is " + format.Int(uint64(size)) + " bytes: the lab opens filter files of at most " +
			format.Int(maxOpenBytes) + " bytes (64 MiB). bloomlab filter info reads larger ones.")
	}
	return nil
}

// openFilter reads the filter in b, the bytes of the file name, or says
// in words why it is none.
func openFilter(name string, b []byte) (*openedFile, error) {
	f, err := core.Load(bytes.NewReader(b))
	if err != nil {
		return nil, errors.New("“" + name + "” was not opened: " + core.Message(err) + ".")
	}
	return &openedFile{name: name, size: len(b), f: f, about: core.Describe(f)}, nil
}

func (fv *fileView) onClose(ctx app.Context, e app.Event) {
	fv.opened, fv.err = nil, ""
	fv.lab.answered(ctx)
}

// openFile is the filter file the key panel answers from, nil for none
// (or while the view is closed).
func (fv *fileView) openFile() *openedFile {
	if !fv.on() {
		return nil
	}
	return fv.opened
}

// render is the toggle and, when open, the view.
func (fv *fileView) render() app.UI {
	toggle := app.Button().ID(idFileToggle).Class("chip toggle").Aria("pressed", fv.on()).
		Text("Count the keys, save the filter, open a file").OnClick(fv.onToggle)
	if !fv.on() {
		return app.Section().ID(idFileView).Class("file-view").Aria("label", "Keys and files").Body(toggle)
	}
	state := "ready"
	if fv.busy {
		state = "busy"
	}
	return app.Section().ID(idFileView).Class("file-view").DataSet("state", state).Aria("label", "Keys and files").
		OnDragOver(fv.onDragOver).OnDrop(fv.onDrop).Body(
		toggle,
		fv.renderEstimate(),
		fv.renderSave(),
		fv.renderOpen(),
	)
}

// renderEstimate is the estimate of the lab's keys and its chart.
func (fv *fileView) renderEstimate() app.UI {
	r := fv.lab.shown()
	if r == nil {
		return app.P().Class("muted small").Text("The estimate follows the filter's run.")
	}
	if !r.Variant.Estimates() {
		return app.P().ID(idFileNote).Class("muted small").Text("A " + r.Variant.Name() + " filter's " + r.Variant.Unit() +
			"s do not tell how many keys set them: its keys are not estimated from its fill.")
	}
	e, err := estimateOf(r)
	note := "Read off the fill alone, the filter holds " + estimateWords(e, err) + " keys (" + strconv.Itoa(EstimateSDs) + " SD); it holds " + format.Int(r.N) + "."
	if err != nil {
		note = "Every position is set: any number of keys past the point of filling it could be behind it, so the fill tells none."
	}
	c := charts.EstimateChart(r.Variant, r.K, charts.Filled{M: r.M, X: r.SetBits, N: r.N}, estimateChartW)
	return app.Div().Body(
		app.P().ID("estimate-note").Class("small").Text(note),
		app.Div().ID(idEstimateChart).Class("overlap-chart").Body(app.Raw(c.SVG())),
	)
}

// renderSave is the download of the lab's filter.
func (fv *fileView) renderSave() app.UI {
	r := fv.lab.shown()
	save := app.Button().ID(idFileSave).Class("chip primary").Text("Download this filter").OnClick(fv.onSave)
	says := "The filter shown, in the format bloomlab filter reads (FORMAT.md)."
	switch {
	case r == nil || fv.busy:
		save = save.Disabled(true)
	case !r.Variant.Saves():
		save = save.Disabled(true)
		says = "Only the " + core.SavedVariantNames() + " filters are saved; this one is " + r.Variant.Name() + "."
	}
	return app.Div().Class("try-row").Body(save, app.Span().Class("muted small").Text(says))
}

// renderOpen is the file input, what was wrong with the last file, and
// the file opened.
func (fv *fileView) renderOpen() app.UI {
	return app.Div().Class("file-open").Body(
		app.Div().Class("try-row").Body(
			app.Label().For(idFileOpen).Text("Open a filter file (or drop one here), at most 64 MiB"),
			app.Input().Type("file").ID(idFileOpen).Accept(".blmf,application/octet-stream").OnChange(fv.onPick),
		),
		app.P().ID(idFileError).Class("try-error").Role("alert").Text(fv.err),
		app.If(fv.opened != nil, fv.renderOpened),
	)
}

// renderOpened describes the file opened: its shape, fill and keys.
func (fv *fileView) renderOpened() app.UI {
	of := fv.opened
	d := of.about
	v := d.Shape.Variant
	rows := [][2]string{
		{"file", of.name + ", " + format.Int(uint64(of.size)) + " bytes"},
		{"layout", v.Label()},
		{"m", format.Int(d.Shape.M) + " " + v.Unit() + "s"},
		{"k", strconv.Itoa(d.Shape.K)},
		{"seed", strconv.FormatUint(d.Shape.Seed, 10)},
		{"hashing", string(d.Shape.Hashing)},
		{"fill", format.Int(d.Nonzero) + " of " + format.Int(d.Shape.M) + " " + v.Terms().Nonzero + " (" + format.Percent(d.Fill) + ")"},
		{"keys inserted", format.Int(d.Inserted) + " (repeats included)"},
		{"keys estimated", estimateWords(d.Estimate, d.EstimateErr) + " (" + strconv.Itoa(EstimateSDs) + " SD)"},
	}
	return app.Div().Body(
		app.Dl().ID(idFileShape).Class("counters").Body(
			app.Range(rows).Slice(func(i int) app.UI {
				return app.Div().Class("counter").Body(app.Dt().Text(rows[i][0]), app.Dd().ID("file-"+strconv.Itoa(i)).Text(rows[i][1]))
			}),
		),
		app.P().Class("muted small").Text("The key panel's queries are answered by this file now, not by the lab's filter."),
		app.Button().ID(idFileClose).Class("chip").Text("Close the file").OnClick(fv.onClose),
	)
}

// renderFileAnswer is the opened file's answer in the key panel.
func renderFileAnswer(a *fileAnswer) app.UI {
	verdict := "maybe: every position “" + a.key + "” reads is set; the file's filter holds it, or it is a false positive."
	class := "verdict maybe"
	if !a.maybe {
		verdict, class = "no: “"+a.key+"” was never inserted into the file's filter; a position it reads is zero.", "verdict no"
	}
	return app.Div().ID("try-answer").Class("try-answer").Body(
		app.P().ID("try-file-label").Class("small").Text("“"+a.key+"”, answered by the opened file “"+a.file+"”, not by the lab's filter: it reads positions "+positionsText(a.positions)+"."),
		app.P().ID(idTryVerdict).Class(class).DataSet("file", "yes").Text(verdict),
		renderArithmetic(a.key, a.explain),
	)
}
