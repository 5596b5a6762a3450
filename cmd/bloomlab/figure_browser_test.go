//go:build !js

package main

import (
	"bytes"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui"

	"github.com/chromedp/chromedp"
)

// keepDownloads makes URL.createObjectURL keep every Blob it is given in
// window.blobs, so a test reads what each download held.
const keepDownloads = `(() => {
  window.blobs = [];
  const orig = URL.createObjectURL;
  URL.createObjectURL = (b) => { window.blobs.push(b); return orig.call(URL, b); };
  return true;
})()`

// pngOf reads the PNG blob i: its type, size in pixels, and how many of
// its pixels are not white (a blank PNG has none).
func pngOf(i int) string {
	return `(async () => {
  const b = window.blobs[` + strconv.Itoa(i) + `];
  const img = await createImageBitmap(b);
  const c = new OffscreenCanvas(img.width, img.height);
  const x = c.getContext("2d");
  x.drawImage(img, 0, 0);
  const d = x.getImageData(0, 0, img.width, img.height).data;
  let ink = 0;
  for (let j = 0; j < d.length; j += 4) if (d[j] < 250 || d[j+1] < 250 || d[j+2] < 250) ink++;
  return b.type + " " + img.width + "x" + img.height + " " + ink;
})()`
}

// figureCLI is what `bloomlab figure` prints for args.
func figureCLI(t *testing.T, args ...string) string {
	t.Helper()
	var out, errs bytes.Buffer
	if code := dispatch(append([]string{"figure"}, args...), &out, &errs); code != 0 {
		t.Fatalf("bloomlab figure %q: exit %d: %s", args, code, errs.String())
	}
	return out.String()
}

// TestBrowserEarlyDownload: a download asked for before the lab is live,
// on the lab and on the embed, says it waits for the lab, and comes once
// the lab is live: the click is kept (web/early.js) and made again. On a
// link whose run is too large for the first view, it comes once the run
// has drawn the figure.
func TestBrowserEarlyDownload(t *testing.T) {
	needBrowser(t)
	for _, c := range []struct{ path, held string }{
		{"/", "#bit-array-first"},
		{"/embed?chart=k", "#bit-array-first"},
		{"/?" + settings.IDItems + "=1000000", "#starts-live"},
	} {
		path := c.path
		hl := holdLab(t)
		ctx := btab(t, 1280, 900)
		bdo(t, ctx, chromedp.Navigate(hl.URL+path), chromedp.WaitVisible(chromedp.CSS(c.held)))
		beval[bool](t, ctx, keepDownloads)
		if !beval[bool](t, ctx, `document.getElementById("download-k-svg") !== null`) {
			t.Fatalf("%s: the chart's SVG button has no id to keep its click by", path)
		}
		bdo(t, ctx, chromedp.Click(chromedp.CSS("#download-k-svg")))
		if note := bwaitText(t, ctx, "#download-k .early-note", func(s string) bool { return s != "" }); !strings.Contains(note, "starting") {
			t.Errorf("%s: the early download says %q", path, note)
		}
		hl.Release()
		bdo(t, ctx, waitLab())
		bwaitEval(t, ctx, `String(window.blobs.length)`, func(s string) bool { return s != "0" })
		if got := beval[string](t, ctx, `(async () => window.blobs.length + " " + window.blobs[0].type + " " + (await window.blobs[0].text()).slice(0, 4))()`); got != "1 image/svg+xml <svg" {
			t.Errorf("%s: once live, the early download gave %q, want one SVG", path, got)
		}
	}
}

// TestBrowserFigureDownloads: each figure's buttons download, from the
// lab, the embed and the experiments page, the SVG `bloomlab figure`
// prints for the same settings (the chart's points, the link in its title,
// its own style), its points as CSV, and a PNG twice the figure's size in
// pixels (the window's density is 1) that is not blank; the bit array's
// figure holds its picture; large type's figures are the command's with
// --large.
func TestBrowserFigureDownloads(t *testing.T) {
	needBrowser(t)
	base := labURL(t)
	const query = "bits-per-key=6&hashes=3&overlap=on"
	ctx := btab(t, 1280, 900)
	bdo(t, ctx, chromedp.Navigate(base+"/?"+query), waitLab())
	bwaitText(t, ctx, "#chart-status", func(s string) bool { return s != "" && !strings.Contains(s, "Measuring") })
	bwaitText(t, ctx, "#overlap-note", func(s string) bool { return strings.Contains(s, "mean") })
	beval[bool](t, ctx, keepDownloads)
	n := 0
	// get clicks the button of format in row and returns what it offered.
	get := func(row, format string) string {
		t.Helper()
		bdo(t, ctx, chromedp.Click(chromedp.CSS("#"+row+` button[data-format="`+format+`"]`)))
		n++
		bwaitEval(t, ctx, `String(window.blobs.length)`, func(s string) bool { return s == strconv.Itoa(n) })
		b := `window.blobs[` + strconv.Itoa(n-1) + `]`
		return beval[string](t, ctx, `(async () => `+b+`.type + "\n" + await `+b+`.text())()`)
	}
	checkPNG := func(name, svg string) {
		t.Helper()
		get("download-"+name, ui.FormatPNG)
		w, h := ui.FigureSize(svg)
		got := beval[string](t, ctx, pngOf(n-1))
		f := strings.Fields(got)
		if len(f) != 3 || f[0] != "image/png" || f[1] != strconv.Itoa(int(2*w))+"x"+strconv.Itoa(int(2*h)) {
			t.Errorf("%s: PNG %q, want image/png %gx%g", name, got, 2*w, 2*h)
		}
		if ink, _ := strconv.Atoi(f[len(f)-1]); ink < 1000 {
			t.Errorf("%s: PNG of %d inked pixels: blank", name, ink)
		}
	}
	for _, which := range []string{"k", "bits-per-key", "overlap"} {
		row := "download-" + which
		typ, svg, _ := strings.Cut(get(row, ui.FormatSVG), "\n")
		want := figureCLI(t, "--chart", which, "--origin", base, query)
		if typ != "image/svg+xml" || svg+"\n" != want {
			t.Errorf("%s: the page's SVG (%s) is not the command's:\n%.300s\n%.300s", which, typ, svg, want)
		}
		if err := ui.CheckFigure(svg, ui.Chart{}, base+"/?"); err != nil {
			t.Errorf("%s: %v", which, err)
		}
		typ, csv, _ := strings.Cut(get(row, ui.FormatCSV), "\n")
		if want := figureCLI(t, "--chart", which, "--format", "csv", query); typ != "text/csv" || csv != want {
			t.Errorf("%s: the page's CSV (%s) is not the command's:\n%.300s\n%.300s", which, typ, csv, want)
		}
		checkPNG(which, svg)
	}
	typ, bits, _ := strings.Cut(get("download-bits", ui.FormatSVG), "\n")
	if err := ui.CheckFigure(bits, ui.Chart{}, base+"/?"+labQuery(t, query)); typ != "image/svg+xml" || err != nil || !strings.Contains(bits, `href="data:image/png;base64,`) {
		t.Errorf("the bit array's SVG (%s): %v\n%.300s", typ, err, bits)
	}
	if n := beval[int](t, ctx, `document.querySelectorAll("#download-bits button").length`); n != 2 {
		t.Errorf("the bit array has %d downloads, want SVG and PNG", n)
	}
	checkPNG("bits", bits)

	// Large type: the command's figure with --large.
	bdo(t, ctx, chromedp.Navigate(base+"/?bits-per-key=6&hashes=3&large=on"), waitLab())
	bwaitText(t, ctx, "#chart-status", func(s string) bool { return s != "" && !strings.Contains(s, "Measuring") })
	beval[bool](t, ctx, keepDownloads)
	n = 0
	if _, svg, _ := strings.Cut(get("download-k", ui.FormatSVG), "\n"); svg+"\n" != figureCLI(t, "--chart", "k", "--large", "--origin", base, "bits-per-key=6&hashes=3") {
		t.Errorf("large type: the page's figure is not the command's with --large:\n%.300s", svg)
	}

	// The embed's chart.
	bdo(t, ctx, chromedp.Navigate(base+"/embed?chart=bits-per-key&bits-per-key=6&hashes=3"), waitLab())
	bwaitText(t, ctx, "#chart-status", func(s string) bool { return s != "" && !strings.Contains(s, "Measuring") })
	beval[bool](t, ctx, keepDownloads)
	n = 0
	if _, svg, _ := strings.Cut(get("download-bits-per-key", ui.FormatSVG), "\n"); svg+"\n" != figureCLI(t, "--chart", "bits-per-key", "--origin", base, "bits-per-key=6&hashes=3") {
		t.Errorf("the embed's figure is not the command's:\n%.300s", svg)
	}

	// The experiments page's chart, once the experiment has run.
	expQuery := params(settings.ExpName, "overfill", settings.ExpItems, "2000", settings.ExpQueries, "20000", settings.ExpSeed, "3")
	bdo(t, ctx, chromedp.Navigate(base+"/experiments?"+expQuery), waitExp("idle"))
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#exp-run")), waitExp("done"))
	beval[bool](t, ctx, keepDownloads)
	n = 0
	_, svg, _ := strings.Cut(get("download-experiment", ui.FormatSVG), "\n")
	if want := figureCLI(t, "--chart", "experiment-overfill", "--origin", base, "items=2000&queries=20000&seed=3"); svg+"\n" != want {
		t.Errorf("the experiment's figure is not the command's:\n%.300s\n%.300s", svg, want)
	}
	checkPNG("experiment", svg)
}

// labQuery is the lab's full query for a link's query: what a
// figure's title holds.
func labQuery(t *testing.T, query string) string {
	t.Helper()
	q, err := url.ParseQuery(query)
	if err != nil {
		t.Fatal(err)
	}
	s, notices := settings.LabFromQuery(q)
	if len(notices) > 0 {
		t.Fatal(notices)
	}
	return s.Query().Encode()
}
