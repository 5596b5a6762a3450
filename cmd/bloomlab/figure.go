//go:build !wasm

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/bloomlab/bloomlab/app/experiments"
	"github.com/bloomlab/bloomlab/app/lab"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui"
)

// experimentFigure prefixes an experiment's name in --chart:
// experiment-overfill is the overfill experiment's chart.
const experimentFigure = "experiment-"

// runFigure prints a figure for a slide: the SVG (or the chart's points as
// CSV) the page's download buttons offer for the same settings, made by
// the same code. The settings are a link's query, or the whole link, read
// as the page reads it; a value the page would have to change is refused.
func runFigure(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("figure")
	chart := fs.String("chart", "", "the figure: "+strings.Join(lab.Figures, ", ")+", or "+experimentFigure+"NAME for an experiment's chart (bloomlab experiment --list)")
	formatName := fs.String("format", ui.FormatSVG, "svg, or csv for the chart's points")
	width := fs.Int("width", ui.DefaultFigureWidth, fmt.Sprintf("the chart's width in CSS pixels, in [%d, %d] (the bit array is its picture's width)", ui.MinFigureWidth, ui.MaxFigureWidth))
	large := fs.Bool("large", false, "large type, the projector mode: the text drawn larger beside the chart")
	origin := fs.String("origin", "", "the site the link in the figure's title points at (https://example.org); a whole link as the settings gives it")
	// The settings may come before the flags or after them.
	var query []string
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			return fail("figure", fs, parseError(fs, err), stderr)
		}
		if fs.NArg() == 0 {
			break
		}
		query = append(query, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	f, err := figureOf(*chart, *formatName, *width, *large, *origin, query)
	if err != nil {
		return fail("figure", fs, err, stderr)
	}
	if *formatName == ui.FormatCSV {
		io.WriteString(stdout, f.CSV)
		return 0
	}
	io.WriteString(stdout, f.SVG+"\n")
	return 0
}

// parseError is a flag parse error in the lab's words (see parse).
func parseError(fs *flag.FlagSet, err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return err
	}
	return usageError{flagMessage(fs, err.Error())}
}

// figureOf checks the flags and makes the figure they ask for.
func figureOf(chart, formatName string, width int, large bool, origin string, query []string) (ui.FigureFile, error) {
	switch {
	case chart == "":
		return ui.FigureFile{}, badFlag("--chart names the figure: one of %s, or %sNAME", strings.Join(lab.Figures, ", "), experimentFigure)
	case formatName == ui.FormatPNG:
		return ui.FigureFile{}, badFlag("--format png: the browser makes PNGs (the figure's PNG button in the lab); print the SVG and convert it")
	case formatName != ui.FormatSVG && formatName != ui.FormatCSV:
		return ui.FigureFile{}, badFlag("--format must be svg or csv, got %q", formatName)
	case len(query) > 1:
		return ui.FigureFile{}, badFlag("give the settings as one link query, such as 'bits-per-key=6&hashes=3', got %d arguments", len(query))
	}
	if w, ok := ui.FigureWidth(width); !ok {
		return ui.FigureFile{}, badFlag("--width must be a whole number of pixels in [%d, %d], got %d (try %d)", ui.MinFigureWidth, ui.MaxFigureWidth, width, w)
	}
	raw := ""
	if len(query) == 1 {
		raw = query[0]
	}
	q, linkOrigin, err := settingsQuery(raw)
	if err != nil {
		return ui.FigureFile{}, err
	}
	if origin == "" {
		origin = linkOrigin
	}
	if large {
		q.Set(settings.IDLarge, "on")
	}
	if name, ok := strings.CutPrefix(chart, experimentFigure); ok {
		q.Set(settings.ExpName, name)
		known := []string{settings.ExpName, settings.ExpSeed, settings.IDLarge}
		for _, k := range settings.ExpKnobs {
			known = append(known, k.Key)
		}
		sel, notices := settings.ExperimentFromQuery(q)
		if err := refuse(unknownKeys(q, known), notices); err != nil {
			return ui.FigureFile{}, err
		}
		return experiments.FigureOf(sel, width, origin, q.Get(settings.IDLarge) == "on")
	}
	known := []string{settings.IDLarge, settings.IDOverlap, settings.IDTry, settings.IDPlayAt, settings.IDHashing, settings.IDFingerprintBits}
	for k := range settings.DefaultLab().Query() {
		known = append(known, k)
	}
	s, notices := settings.LabFromQuery(q)
	if err := refuse(unknownKeys(q, known), notices); err != nil {
		return ui.FigureFile{}, err
	}
	f, err := lab.FigureOf(s, chart, width, origin)
	if errors.Is(err, lab.ErrNoFigure) {
		return f, usageError{strings.TrimPrefix(err.Error(), lab.ErrNoFigure.Error()+"\n")}
	}
	if err == nil && formatName == ui.FormatCSV && f.CSV == "" {
		return f, badFlag("--format csv: the %s figure is a picture, with no points to write", chart)
	}
	return f, err
}

// settingsQuery reads the settings argument: a query ('bits-per-key=6'),
// with or without its '?', or a whole link, whose site becomes the
// figure's origin.
func settingsQuery(raw string) (url.Values, string, error) {
	origin := ""
	if strings.Contains(raw, "://") {
		u, err := url.Parse(raw)
		if err != nil {
			return nil, "", badFlag("the settings %s are not a link: %v", strconv.Quote(raw), err)
		}
		origin, raw = u.Scheme+"://"+u.Host, u.RawQuery
	}
	q, err := url.ParseQuery(strings.TrimPrefix(raw, "?"))
	if err != nil {
		return nil, "", badFlag("the settings %s are not a link's query: %v", strconv.Quote(raw), err)
	}
	return q, origin, nil
}

// unknownKeys words each key of q that is none of known: the page would
// pass over it, and a figure is drawn only for settings as given.
func unknownKeys(q url.Values, known []string) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(q)) {
		if !slices.Contains(known, k) {
			out = append(out, strconv.Quote(k)+" is no setting of the page (its settings: "+strings.Join(slices.Sorted(slices.Values(known)), ", ")+")")
		}
	}
	return out
}

// refuse is the settings' notices as a usage error: the page would show
// them and change the values; a figure is drawn only for settings as given.
func refuse(unknown, notices []string) error {
	all := append(unknown, notices...)
	if len(all) == 0 {
		return nil
	}
	return badFlag("%s", strings.Join(all, "; "))
}
