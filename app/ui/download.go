package ui

import (
	"math"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// FigureFile is a figure as the page offers it: its SVG, its points as
// CSV ("" for a picture, which has none), its size in CSS pixels and the
// file name it is saved under, without the extension.
type FigureFile struct {
	SVG, CSV string
	W, H     float64
	Name     string
}

// The formats a figure downloads as, the buttons' data-format.
const (
	FormatSVG = "svg"
	FormatPNG = "png"
	FormatCSV = "csv"
)

// PNGScale is how many device pixels a downloaded PNG has a CSS pixel:
// twice the screen's density (devicePixelRatio), at least 2, and at most
// 6, so a figure on a phone stays a few megapixels.
func PNGScale(dpr float64) float64 {
	if !(dpr >= 1) {
		dpr = 1
	}
	return math.Min(6, 2*dpr)
}

// FigureButtons is a figure's row of downloads: SVG, PNG and, when the
// figure has points, CSV. what names the figure for a screen reader ("the
// chart against k"); id is the row's ID, and id-FORMAT each button's, so
// that a click made before the page is live is kept and made again once
// it is (web/early.js). It is written as HTML, so the prerendered page and
// the live one hold the very same markup; the element that holds it takes
// the clicks (OnFigureClick).
func FigureButtons(id, what string, csv bool) app.UI {
	var b strings.Builder
	b.WriteString(`<div id="` + esc(id) + `" class="figure-downloads"><span class="figure-downloads-label muted small" aria-hidden="true">Download:</span>`)
	button := func(format, label string) {
		says := esc("Download " + what + " as " + label)
		b.WriteString(`<button type="button" id="` + esc(id+"-"+format) + `" class="chip figure-download" data-format="` + format + `" aria-label="` + says + `" title="` + says + `">` + label + `</button>`)
	}
	button(FormatSVG, "SVG")
	button(FormatPNG, "PNG")
	if csv {
		button(FormatCSV, "CSV")
	}
	b.WriteString(`</div>`)
	return app.Raw(b.String())
}

// OnFigureClick handles the clicks on the element that holds a row of
// FigureButtons: a click on one of its buttons calls make, which draws
// the figure only when it is asked for ("ok" false when there is nothing
// to download yet), and offers it in the button's format.
func OnFigureClick(make func() (FigureFile, bool)) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		button := e.Get("target").Call("closest", "button[data-format]")
		if !button.Truthy() {
			return
		}
		f, ok := make()
		if !ok {
			return
		}
		switch button.Get("dataset").Get("format").String() {
		case FormatSVG:
			Download(f.Name+".svg", "image/svg+xml", f.SVG)
		case FormatCSV:
			if f.CSV != "" {
				Download(f.Name+".csv", "text/csv", f.CSV)
			}
		case FormatPNG:
			DownloadPNG(f.Name+".png", f.SVG, f.W, f.H)
		}
	}
}

// Download offers text as a file without a server: a Blob behind an
// object URL, followed through a link made for the purpose.
func Download(name, mime, text string) {
	w := app.Window()
	save(name, w.Get("Blob").New([]any{text}, map[string]any{"type": mime}))
}

// DownloadBytes offers data as a file, as Download offers text.
func DownloadBytes(name, mime string, data []byte) {
	w := app.Window()
	arr := w.Get("Uint8Array").New(len(data))
	app.CopyBytesToJS(arr, data)
	save(name, w.Get("Blob").New([]any{arr}, map[string]any{"type": mime}))
}

// save offers blob as the file name through a link made for the purpose,
// and lets the blob go once the browser has taken its copy.
func save(name string, blob app.Value) {
	w := app.Window()
	u := w.Get("URL").Call("createObjectURL", blob)
	doc := w.Get("document")
	a := doc.Call("createElement", "a")
	a.Set("href", u)
	a.Set("download", name)
	a.Get("style").Set("display", "none")
	doc.Get("body").Call("appendChild", a)
	a.Call("click")
	a.Call("remove")
	var release app.Func
	release = app.FuncOf(func(this app.Value, args []app.Value) any {
		w.Get("URL").Call("revokeObjectURL", u)
		release.Release()
		return nil
	})
	w.Call("setTimeout", release, 10_000)
}

// DownloadPNG offers svg, w x h CSS pixels, as a PNG at PNGScale: the
// browser draws the SVG into an image, the image onto a canvas that many
// times larger, and the canvas into a PNG. Only the browser makes PNGs of
// charts: the WebAssembly carries no PNG encoder.
func DownloadPNG(name, svg string, w, h float64) {
	win := app.Window()
	scale := PNGScale(win.Get("devicePixelRatio").Float())
	cw, ch := int(math.Ceil(w*scale)), int(math.Ceil(h*scale))
	img := win.Get("Image").New()
	var onload, onerror, onblob app.Func
	onblob = app.FuncOf(func(this app.Value, args []app.Value) any {
		onblob.Release()
		if len(args) > 0 && args[0].Truthy() {
			save(name, args[0])
		}
		return nil
	})
	onload = app.FuncOf(func(this app.Value, args []app.Value) any {
		onload.Release()
		onerror.Release()
		canvas := win.Get("document").Call("createElement", "canvas")
		canvas.Set("width", cw)
		canvas.Set("height", ch)
		canvas.Call("getContext", "2d").Call("drawImage", img, 0, 0, cw, ch)
		canvas.Call("toBlob", onblob, "image/png")
		return nil
	})
	onerror = app.FuncOf(func(this app.Value, args []app.Value) any {
		// An image the browser cannot draw offers nothing.
		onload.Release()
		onblob.Release()
		onerror.Release()
		return nil
	})
	img.Set("onload", onload)
	img.Set("onerror", onerror)
	img.Set("src", "data:image/svg+xml;charset=utf-8,"+win.Call("encodeURIComponent", svg).String())
}

// FileName joins parts into a download's name: "bloomlab-k-n1000-m6000".
func FileName(parts ...string) string {
	return strings.Join(append([]string{"bloomlab"}, parts...), "-")
}

// ChartFile is chart c as a figure file named name, its title holding
// link, in large type or not.
func ChartFile(c Chart, name, link string, large bool) FigureFile {
	svg := c.Figure(link, large)
	w, h := FigureSize(svg)
	return FigureFile{SVG: svg, CSV: c.CSV(), W: w, H: h, Name: name}
}

// FigureSize reads a figure's width and height, in CSS pixels, back from
// its root element.
func FigureSize(svg string) (w, h float64) {
	attr := func(name string) float64 {
		_, rest, _ := strings.Cut(svg, " "+name+`="`)
		v, _, _ := strings.Cut(rest, `"`)
		f, _ := strconv.ParseFloat(v, 64)
		return f
	}
	return attr("width"), attr("height")
}
