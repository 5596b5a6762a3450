package lab

import (
	"errors"
	"strconv"
	"strings"

	"github.com/bloomlab/bloomlab/app/engine"
	"github.com/bloomlab/bloomlab/app/lab/charts"
	"github.com/bloomlab/bloomlab/app/lab/painter"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui"
	"github.com/bloomlab/bloomlab/app/ui/format"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Figures: the lab's charts, its bit array and the overlap view's chart as
// files for a slide (ui.Figure). The page makes them from what it shows;
// FigureOf makes the same from a link's settings alone, for `bloomlab
// figure`, with the run and the measured points the server's first view
// makes, so the command prints the figure the page offers.

// The figures the lab offers, as `bloomlab figure --chart` names them.
const (
	FigureK       = settings.ChartK          // the rate against k
	FigureBPK     = settings.ChartBitsPerKey // the rate against bits per key
	FigureBits    = "bits"                   // the bit array
	FigureOverlap = "overlap"                // keys on a bit against Poisson
)

// Figures names every figure FigureOf makes.
var Figures = []string{FigureK, FigureBPK, FigureBits, FigureOverlap}

// LabLink is the lab's link for settings s on the site at origin (scheme
// and host; "" for the path alone): what a figure's title holds.
func LabLink(origin string, s settings.Lab) string {
	return origin + ui.Href(ui.RouteLab) + "?" + s.Query().Encode()
}

// figureName names a figure's file after what it shows and the filter:
// bloomlab-k-n1000-bpk6-k3.
func figureName(which string, s settings.Lab) string {
	p := s.Run()
	return ui.FileName(which, "n"+strconv.Itoa(p.Items), "bpk"+format.Plain(ui.Round3(p.BitsPerKey)), "k"+strconv.Itoa(p.Hashes), p.Variant.Name())
}

// chartFigure is chart c as a figure for settings s.
func chartFigure(c ui.Chart, which, link string, s settings.Lab) ui.FigureFile {
	return ui.ChartFile(c, figureName(which, s), link, s.Large)
}

// bitsFigure is the bit array of run r (its positions in store, shaded by
// overlap when that is not nil) with marks as a figure for settings s: the
// wide picture the page draws, at twice its density, embedded as a PNG,
// so a filter of any m is a picture of bounded size, never a rect a bit.
func bitsFigure(r *sim.Result, store engine.BitStore, overlap []uint8, marks painter.Marks, link string, s settings.Lab) (ui.FigureFile, bool) {
	if r == nil || store.M == 0 {
		return ui.FigureFile{}, false
	}
	const scale = 2
	l := painter.Fitted(r.M, store.Group, false, s.Large, scale)
	var f painter.Frame
	png := pngDataURL(f.Render(store, overlap, l, marks, scale), l.W, l.H)
	if png == "" {
		return ui.FigureFile{}, false
	}
	picture, _, _ := painter.Caption(r, painter.Fitted(r.M, store.Group, false, s.Large, 1))
	if overlap != nil {
		picture += " Set bits are shaded by the keys that share them, from " + format.Plural(1, "key") + " (lightest) to " + strconv.Itoa(len(painter.OverlapColours)) + " or more (darkest)."
	}
	caption := []string{
		picture,
		"◯ ringed (orange): " + marks.RingSays + ".",
		"▢ boxed (green): " + marks.BoxSays + ".",
	}
	title := "The bit array: " + format.Plural(int(r.N), "key") + ", m = " + format.Int(r.M) + " " + r.Variant.Unit() + "s"
	if r.Variant.UsesK() {
		title += ", k = " + strconv.Itoa(r.K)
	}
	svg := ui.Picture{Title: title, Image: png, W: l.W / scale, H: l.H / scale, Caption: caption}.Figure(link, s.Large)
	w, h := ui.FigureSize(svg)
	return ui.FigureFile{SVG: svg, W: w, H: h, Name: figureName(FigureBits, s)}, true
}

// runMarks are run r's own marks, as the page shows them with no key of
// the panel's: the last key inserted and the first absent query.
func runMarks(r *sim.Result, group int, large bool) painter.Marks {
	_, ring, box := painter.Caption(r, painter.Fitted(r.M, group, false, large, 1))
	return painter.Marks{Ring: r.LastInserted, Box: r.FirstProbed, RingSays: ring, BoxSays: box}
}

// ErrNoFigure is a figure the settings' layout has none of.
var ErrNoFigure = errors.New("no such figure")

// FigureOf makes figure which (one of Figures) of the lab at settings s,
// width CSS pixels wide (charts only; the bit array is its picture's
// width), for the site at origin: the run, the measured points and the
// overlap counts as the server makes them for the page, at once. The
// settings are bounded as a link's are (settings.LabFromQuery); the run is
// as large as the lab allows.
func FigureOf(s settings.Lab, which string, width int, origin string) (ui.FigureFile, error) {
	link := LabLink(origin, s)
	p, typed := s.Run(), s.Typed.List()
	r, err := engine.Simulate(p, typed, nil, nil)
	if err != nil {
		return ui.FigureFile{}, err
	}
	play := charts.Play{Of: s.Params.Items}
	if s.Playing() {
		play.At = s.PlayAt
	}
	switch which {
	case FigureK, FigureBPK:
		kPts, bpkPts, sampled := charts.Measure(p, r.Result, typed)
		c, ok := charts.ChartOf(which, r.Result, p, kPts, bpkPts, sampled, float64(width), play)
		if !ok {
			return ui.FigureFile{}, errors.Join(ErrNoFigure, errors.New("the "+s.Params.Variant.Name()+" filter has no chart against "+chartAxis(which)))
		}
		return chartFigure(c, which, link, s), nil
	case FigureBits, FigureOverlap:
		var overlap *sim.Overlap
		if which == FigureOverlap || s.Overlap {
			if !s.Params.Variant.Bloom() {
				return ui.FigureFile{}, errors.Join(ErrNoFigure, errors.New("a "+s.Params.Variant.Name()+" filter's "+s.Params.Variant.Unit()+"s hold fingerprints, not bits that keys share: there is no overlap"))
			}
			o, err := sim.OverlapOf(p, typed, nil)
			if err != nil {
				return ui.FigureFile{}, errors.New(core.Message(err))
			}
			overlap = &o
		}
		if which == FigureOverlap {
			return chartFigure(overlapChart(overlap, float64(width)), which, link, s), nil
		}
		var counts []uint8
		if overlap != nil {
			counts = overlap.Counts
		}
		store := engine.StoreOfRun(r, nil)
		f, ok := bitsFigure(&r.Result, store, counts, runMarks(&r.Result, store.Group, s.Large), link, s)
		if !ok {
			return ui.FigureFile{}, errors.Join(ErrNoFigure, errors.New("the run has no bit array to draw"))
		}
		return f, nil
	}
	return ui.FigureFile{}, errors.Join(ErrNoFigure, errors.New(strconv.Quote(which)+" is not one of "+strings.Join(Figures, ", ")))
}

// chartAxis names what chart which is against.
func chartAxis(which string) string {
	if which == FigureK {
		return "k"
	}
	return "bits per key"
}

// figureLink is the lab's link for the settings shown, on the site the
// page came from.
func (c *Page) figureLink() string {
	return LabLink(ui.Origin(), c.settings)
}

// figure is figure which as the page shows it: the charts with the points
// measured so far, the bit array with the marks shown and its overlap
// shading, the overlap chart once counted; false while there is none.
func (c *Page) figure(which string) (ui.FigureFile, bool) {
	link, s := c.figureLink(), c.settings
	switch which {
	case FigureK, FigureBPK:
		ch, ok := c.charts.Chart(which, ui.DefaultFigureWidth)
		if !ok {
			return ui.FigureFile{}, false
		}
		return chartFigure(ch, which, link, s), true
	case FigureOverlap:
		if !c.overlap.on() || c.overlap.o == nil {
			return ui.FigureFile{}, false
		}
		return chartFigure(overlapChart(c.overlap.o, ui.DefaultFigureWidth), which, link, s), true
	case FigureBits:
		if c.result == nil {
			return ui.FigureFile{}, false
		}
		return bitsFigure(c.result, c.bits.store, c.bits.overlap, c.panel.playing(c.bits.marks(c.result, c.panel.marks())), link, s)
	}
	return ui.FigureFile{}, false
}

// figureButtons is the row of downloads of figure which, what naming it
// for a screen reader; the element that holds it takes onFigure(which).
func (c *Page) figureButtons(which, what string) app.UI {
	return ui.FigureButtons("download-"+which, what, which != FigureBits)
}

// onFigure offers figure which when one of its buttons is clicked.
func (c *Page) onFigure(which string) app.EventHandler {
	return ui.OnFigureClick(func() (ui.FigureFile, bool) { return c.figure(which) })
}
