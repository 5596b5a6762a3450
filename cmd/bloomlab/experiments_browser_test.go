//go:build !js

package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/core/experiment"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// waitExp waits until the experiments page runs in the browser and is in
// state: idle, running, done, cancelled or error. For idle it also waits
// until the page has measured the work of its sizes: the estimate and the
// note on full sizes then have their final text, and the Run button below
// them has stopped moving, so a click lands on it even on a slow machine.
func waitExp(state string) chromedp.Action[chromedp.Void] {
	if state != "idle" {
		return chromedp.WaitVisible(chromedp.CSS(`#experiments[data-state="` + state + `"]`))
	}
	return discard(chromedp.Poll[bool](`document.querySelector('#experiments[data-state="idle"]') !== null &&
  document.getElementById("exp-estimate").textContent !== "" &&
  document.getElementById("exp-full-note").textContent.includes("Expect")`, chromedp.WithPollingTimeout(0)))
}

// pressKey focuses the element sel and presses key, as a keyboard user does.
func pressKey(sel, key string) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(chromedp.Focus(chromedp.CSS(sel)), chromedp.KeyEvent(key))
}

// watchProgress records every value the progress bar's value takes,
// into window.progressSeen, from before the bar exists.
const watchProgress = `(() => {
  window.progressSeen = [];
  const note = () => {
    const bar = document.getElementById("exp-progress");
    if (!bar) return;
    const v = Number(bar.getAttribute("value"));
    const seen = window.progressSeen;
    if (seen.length === 0 || seen[seen.length - 1] !== v) seen.push(v);
  };
  new MutationObserver(note).observe(document.body, {subtree: true, childList: true, attributes: true, attributeFilter: ["value"]});
  return true;
})()`

// expProgress is the experiment's progress bar's value.
const expProgress = `document.getElementById("exp-progress").getAttribute("value")`

// captureDownloads makes URL.createObjectURL keep the last Blob it was
// given in window.lastBlob, so a test can read what a download held.
const captureDownloads = `(() => {
  const orig = URL.createObjectURL;
  URL.createObjectURL = (b) => { window.lastBlob = b; return orig.call(URL, b); };
  return true;
})()`

// nativeTable runs the experiment as the command line does (memory
// estimated, as in the browser).
func nativeTable(t *testing.T, name string, s experiment.Sizes) experiment.Table {
	t.Helper()
	e, ok := experiment.Find(name)
	if !ok {
		t.Fatalf("no experiment %q", name)
	}
	tab, err := e.Run(s, experiment.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// sameJSON compares two JSON documents: strings, booleans and nulls
// exactly; numbers to 1e-12 relative, since wasm and amd64 may differ in a
// floating-point function's last bit (counts are exact either way).
func sameJSON(path string, a, b any) []string {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return []string{fmt.Sprintf("%s: %v against %v", path, a, b)}
		}
		var diffs []string
		for k, v := range x {
			diffs = append(diffs, sameJSON(path+"."+k, v, y[k])...)
		}
		return diffs
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return []string{fmt.Sprintf("%s: %v against %v", path, a, b)}
		}
		var diffs []string
		for i := range x {
			diffs = append(diffs, sameJSON(fmt.Sprintf("%s[%d]", path, i), x[i], y[i])...)
		}
		return diffs
	case float64:
		y, ok := b.(float64)
		if !ok || math.Abs(x-y) > 1e-12*math.Max(math.Abs(x), math.Abs(y)) {
			return []string{fmt.Sprintf("%s: %v against %v", path, a, b)}
		}
		return nil
	}
	if a != b {
		return []string{fmt.Sprintf("%s: %v against %v", path, a, b)}
	}
	return nil
}

func compareJSON(t *testing.T, what string, got, want []byte) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("%s: %v\n%s", what, err, got)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	if diffs := sameJSON("", g, w); len(diffs) > 0 {
		t.Errorf("%s differs from the native table in %d places, first: %s", what, len(diffs), strings.Join(diffs[:min(5, len(diffs))], "; "))
	}
}

// compareCSV compares two CSV texts cell by cell, numbers as compareJSON
// does.
func compareCSV(t *testing.T, got, want string) {
	t.Helper()
	g, err := csv.NewReader(strings.NewReader(got)).ReadAll()
	if err != nil {
		t.Fatalf("downloaded CSV: %v\n%s", err, got)
	}
	w, _ := csv.NewReader(strings.NewReader(want)).ReadAll()
	if len(g) != len(w) {
		t.Fatalf("downloaded CSV has %d records, want %d", len(g), len(w))
	}
	for r := range w {
		if len(g[r]) != len(w[r]) {
			t.Fatalf("CSV record %d: %q, want %q", r, g[r], w[r])
		}
		for c := range w[r] {
			gf, gerr := strconv.ParseFloat(g[r][c], 64)
			wf, werr := strconv.ParseFloat(w[r][c], 64)
			same := g[r][c] == w[r][c] || (gerr == nil && werr == nil && math.Abs(gf-wf) <= 1e-12*math.Max(math.Abs(gf), math.Abs(wf)))
			if !same {
				t.Errorf("CSV record %d field %d: %q, want %q", r, c, g[r][c], w[r][c])
			}
		}
	}
}

// TestBrowserExperimentRun runs a small experiment from the page by
// keyboard: the progress bar moves to 100, and the table, its JSON and its
// downloads equal what `bloomlab experiment` prints for the same sizes and
// seed.
func TestBrowserExperimentRun(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	sizes := experiment.Sizes{Items: 30000, Queries: 600000, Seed: 7}
	query := params(settings.ExpName, "rounding", settings.ExpItems, "30000", settings.ExpQueries, "600000", settings.ExpSeed, "7")
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/experiments?"+query), waitExp("idle"))
	if got, want := btext(t, ctx, "#exp-cli"), "bloomlab experiment rounding --items 30000 --queries 600000 --seed 7"; got != want {
		t.Errorf("command line %q, want %q", got, want)
	}
	if got := beval[string](t, ctx, `document.getElementById("exp-items").value`); got != "30,000" {
		t.Errorf("items field %q, want 30,000", got)
	}
	beval[bool](t, ctx, watchProgress)
	beval[bool](t, ctx, captureDownloads)

	// The run is held at its first pause with work done, so that the bar
	// is seen mid-way on any machine, then let go.
	holdRuns(t, ctx, true)
	start := time.Now()
	bdo(t, ctx, pressKey("#exp-run", kb.Enter), waitExp("running"))
	if id := beval[string](t, ctx, `document.activeElement.id`); id != "exp-cancel" {
		t.Errorf("focus on %q after Run, want the Cancel button", id)
	}
	mid := bwaitEval(t, ctx, expProgress, func(s string) bool { return s != "0" })
	if n, _ := strconv.Atoi(mid); n >= 100 {
		t.Errorf("progress value %s with the run held mid-way", mid)
	}
	holdRuns(t, ctx, false)
	bdo(t, ctx, waitExp("done"))
	t.Logf("rounding, n = 30,000 and 600,000 queries, ran in %v in the browser (status: %s)", time.Since(start).Round(time.Millisecond), btext(t, ctx, "#exp-status"))

	seen := beval[[]int](t, ctx, `window.progressSeen`)
	t.Logf("progress value took %d values: %v", len(seen), seen)
	if len(seen) < 3 || seen[len(seen)-1] != 100 {
		t.Errorf("progress value went through %v, want several values ending at 100", seen)
	}
	for i := 1; i < len(seen); i++ {
		if seen[i] < seen[i-1] {
			t.Errorf("progress value went back: %v", seen)
			break
		}
	}
	if got := beval[string](t, ctx, `document.getElementById("exp-progress").tagName`); got != "PROGRESS" {
		t.Errorf("progress bar is a %s, not a progress element", got)
	}

	// The command line's own output for the same sizes and seed.
	cli := func(format string) []byte {
		var out, errs bytes.Buffer
		args := []string{"rounding", "--" + format, "--items", "30000", "--queries", "600000", "--seed", "7"}
		if code := dispatch(append([]string{"experiment"}, args...), &out, &errs); code != 0 {
			t.Fatalf("bloomlab experiment %s: exit %d: %s", strings.Join(args, " "), code, errs.String())
		}
		return out.Bytes()
	}
	want := cli("json")
	pageJSON := beval[string](t, ctx, `document.getElementById("exp-json").textContent`)
	compareJSON(t, "the page's JSON", []byte(pageJSON), want)
	t.Logf("the page's JSON is byte for byte the command line's: %v", pageJSON == string(want))
	native := nativeTable(t, "rounding", sizes)

	// The cells are the command line's text table's.
	sameCells(t, ctx, native)
	if got := btext(t, ctx, "#exp-title"); got != native.Title {
		t.Errorf("title %q, want %q", got, native.Title)
	}

	// The chart: one error bar per measured point, in the SVG.
	if n := beval[int](t, ctx, `document.querySelectorAll("#exp-chart svg path.ebar").length`); n != len(native.Rows)+1 {
		t.Errorf("%d error bars (with the legend's), want %d", n, len(native.Rows)+1)
	}

	// The downloads hold the command line's CSV and JSON.
	bdo(t, ctx, pressKey("#exp-csv", kb.Enter))
	compareCSV(t, beval[string](t, ctx, `window.lastBlob.text()`), string(cli("csv")))
	if typ := beval[string](t, ctx, `window.lastBlob.type`); typ != "text/csv" {
		t.Errorf("CSV blob type %q", typ)
	}
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#exp-json-download")))
	compareJSON(t, "the JSON download", []byte(beval[string](t, ctx, `window.lastBlob.text()`)), want)
}

// TestBrowserExperimentRunAttacks runs the two experiments of an attacker
// who knows the hash key in the page, its workers sharing the replicates:
// the cells are the command line's text table's, and the page's JSON the
// command line's --json, the notes' verdict included.
func TestBrowserExperimentRunAttacks(t *testing.T) {
	needBrowser(t)
	for _, tc := range []struct {
		name  string
		sizes experiment.Sizes
		says  []string // in the notes
	}{
		{"adversarial", experiment.Sizes{Items: 1000, Queries: 2000, Replicates: 10, Seed: 7}, []string{"Forge.", "member's twin", "Fill."}},
		{"membership-inference", experiment.Sizes{Items: 1000, Replicates: 4, Seed: 7}, []string{"Recall: 100%", "A secret key does not help"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := btab(t, 1280, 900)
			query, args := expLink(tc.name, tc.sizes)
			bdo(t, ctx, chromedp.Navigate(labURL(t)+"/experiments?"+params(query...)), waitExp("idle"))
			if got, want := btext(t, ctx, "#exp-cli"), "bloomlab experiment "+tc.name+" "+strings.Join(args, " "); got != want {
				t.Errorf("command line %q, want %q", got, want)
			}
			start := time.Now()
			bdo(t, ctx, chromedp.Click(chromedp.CSS("#exp-run")), waitExp("done"))
			t.Logf("%s ran in %v in the browser", tc.name, time.Since(start).Round(time.Millisecond))
			shoot(t, ctx, "experiment-"+tc.name)

			var out, errs bytes.Buffer
			if code := dispatch(append([]string{"experiment", tc.name, "--json"}, args...), &out, &errs); code != 0 {
				t.Fatalf("bloomlab experiment %s: exit %d: %s", tc.name, code, errs.String())
			}
			page := beval[string](t, ctx, `document.getElementById("exp-json").textContent`)
			compareJSON(t, "the page's JSON", []byte(page), out.Bytes())
			// Their floats come from arithmetic and from functions Go
			// computes alike on both platforms (no math.Exp or math.Log,
			// which are assembly on amd64), so the bytes agree too.
			if page != out.String() {
				t.Error("the page's JSON is not byte for byte the command line's")
			}

			native := nativeTable(t, tc.name, tc.sizes)
			sameCells(t, ctx, native)
			for _, say := range tc.says {
				if !strings.Contains(page, say) {
					t.Errorf("the page's notes lack %q", say)
				}
			}
		})
	}
}

// sameCells checks the page's table cell by cell against native's, as
// the command line's text table writes them.
func sameCells(t *testing.T, ctx context.Context, native experiment.Table) {
	t.Helper()
	cells := beval[[][]string](t, ctx, `[...document.querySelectorAll("#exp-table tbody tr")].map(r => [...r.cells].map(c => c.textContent))`)
	if len(cells) != len(native.Rows) {
		t.Fatalf("%d rows, want %d", len(cells), len(native.Rows))
	}
	for r, row := range native.Rows {
		for i, c := range native.Columns {
			if got, want := cells[r][i], c.Format(row[i]); got != want {
				t.Errorf("row %d %s = %q, want %q", r, c.Key, got, want)
			}
		}
	}
}

// TestBrowserExperimentCancel starts the full theory-vs-observed run, held
// mid-way, checks the page answers and navigates meanwhile, then cancels
// by keyboard: the run stops where it was, and a new run works.
func TestBrowserExperimentCancel(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	base := labURL(t)
	bdo(t, ctx, chromedp.Navigate(base+"/experiments?"+params(settings.ExpName, "theory-vs-observed", settings.ExpItems, "500000", settings.ExpQueries, "10000000")), waitExp("idle"))
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#exp-full")))
	bwaitEval(t, ctx, `document.getElementById("exp-full").getAttribute("aria-pressed")`, func(s string) bool { return s == "true" })
	note := btext(t, ctx, "#exp-full-note")
	if !regexp.MustCompile(`Expect about \d+ (s|min)`).MatchString(note) {
		t.Errorf("full-size note %q gives no time", note)
	}
	holdRuns(t, ctx, true)
	idle := pageWork(t, ctx)
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#exp-run")), waitExp("running"))
	bwaitEval(t, ctx, expProgress, func(s string) bool { return s != "0" })

	// While it runs, the page answers (the slowest answer is logged: a
	// bound on it would fail on a loaded machine), and its thread does
	// none of the run's work: the workers do it all.
	var slowest time.Duration
	for range 8 {
		start := time.Now()
		beval[string](t, ctx, expProgress)
		slowest = max(slowest, time.Since(start))
	}
	t.Logf("slowest answer during the full run: %v", slowest)
	// After a second the label says how long the rest will take.
	label := bwaitText(t, ctx, "#exp-progress-label", func(s string) bool { return strings.HasSuffix(s, " left") })
	if !regexp.MustCompile(`^Running theory-vs-observed \(items 500,000, queries 10,000,000, seed 1\): \d+%, about (\d+ (s|min)|\d+\.\d h) left$`).MatchString(label) {
		t.Errorf("progress label %q", label)
	}

	// A control still works: choosing another experiment navigates, and
	// the run goes on.
	bdo(t, ctx, chromedp.SetValue(chromedp.CSS("#exp-name"), "rocksdb"),
		discard(chromedp.Evaluate[bool](`document.getElementById("exp-name").dispatchEvent(new Event("change", {bubbles: true}))`)))
	bwaitEval(t, ctx, `location.search`, func(s string) bool { return strings.Contains(s, params(settings.ExpName, "rocksdb")) })
	if got := btext(t, ctx, "#exp-summary"); !strings.Contains(got, "RocksDB") {
		t.Errorf("summary %q after choosing rocksdb", got)
	}
	if state := beval[string](t, ctx, `document.getElementById("experiments").dataset.state`); state != "running" {
		t.Errorf("state %q after choosing another experiment, want the run to go on", state)
	}

	before := beval[string](t, ctx, expProgress)
	if got := pageWork(t, ctx); got != idle {
		t.Errorf("the page's thread did some of the full run itself: %+v, before it %+v, want all of it on the workers", got, idle)
	}
	bdo(t, ctx, pressKey("#exp-cancel", kb.Enter), waitExp("cancelled"))
	holdRuns(t, ctx, false)
	status := btext(t, ctx, "#exp-status")
	if !strings.HasPrefix(status, "Cancelled theory-vs-observed at ") {
		t.Errorf("status %q after Cancel", status)
	}
	stopped := beval[string](t, ctx, expProgress)
	if n, _ := strconv.Atoi(stopped); n >= 100 || stopped < before && len(stopped) == len(before) {
		t.Errorf("progress %s after cancelling at %s", stopped, before)
	}
	if id := beval[string](t, ctx, `document.activeElement.id`); id != "exp-run" {
		t.Errorf("focus on %q after Cancel, want the Run button", id)
	}
	// The cancel ended the workers mid-run; fresh ones take their place,
	// and the run that was let go after the cancel moved nothing.
	if got := waitEngines(t, ctx); !strings.HasPrefix(got, "Runs on ") || strings.Contains(got, "thread") {
		t.Errorf("engine status %q after the cancel", got)
	}
	if again := beval[string](t, ctx, expProgress); again != stopped {
		t.Errorf("progress moved from %s to %s after the cancel", stopped, again)
	}

	// A new, small run works at once.
	bdo(t, ctx, chromedp.Navigate(base+"/experiments?"+params(settings.ExpName, "rocksdb", settings.ExpItems, "5000", settings.ExpQueries, "50000")), waitExp("idle"),
		chromedp.Click(chromedp.CSS("#exp-run")), waitExp("done"))
	if n := beval[int](t, ctx, `document.querySelectorAll("#exp-table tbody tr").length`); n != 1 {
		t.Errorf("rocksdb table has %d rows, want 1", n)
	}
}

// TestBrowserExperimentLinks: a bad link is clamped with a notice; the
// memory experiment says it estimates; the size buttons change the URL.
func TestBrowserExperimentLinks(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	base := labURL(t)
	bdo(t, ctx, chromedp.Navigate(base+"/experiments?"+params(settings.ExpName, "rocksdb", settings.ExpItems, "0", settings.ExpQueries, "lots", settings.ExpReplicates, "4", settings.ExpSeed, "-2")), waitExp("idle"))
	notice := btext(t, ctx, "#clamp-notice")
	for _, want := range []string{"items: 0 is below the minimum, so it was raised to 1", `queries: "lots" is not a whole number`,
		"rocksdb takes no replicates", "seed: -2 is below the minimum"} {
		if !strings.Contains(notice, want) {
			t.Errorf("notice %q lacks %q", notice, want)
		}
	}
	if got := btext(t, ctx, "#exp-cli"); got != "bloomlab experiment rocksdb --items 1 --queries 2000000 --seed 0" {
		t.Errorf("command line %q", got)
	}

	// A field out of range is clamped on Enter, with a notice.
	typeInto(t, ctx, "exp-items", "20000000")
	bwaitEval(t, ctx, `location.search`, func(s string) bool { return strings.Contains(s, params(settings.ExpItems, "10000000")) })
	if got := btext(t, ctx, "#clamp-notice"); !strings.Contains(got, "items: 20000000 is above the maximum, so it was lowered to 10,000,000") {
		t.Errorf("notice after typing too many items: %q", got)
	}

	bdo(t, ctx, chromedp.Click(chromedp.CSS("#exp-quick")))
	bwaitEval(t, ctx, `location.search`, func(s string) bool {
		return strings.Contains(s, params(settings.ExpItems, "100000", settings.ExpQueries, "2000000"))
	})

	bdo(t, ctx, chromedp.Navigate(base+"/experiments?"+params(settings.ExpName, "memory")), waitExp("idle"))
	if got := btext(t, ctx, "#exp-memory-note"); !strings.Contains(got, "estimate") {
		t.Errorf("memory note %q", got)
	}
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#exp-run")), waitExp("done"))
	for _, cell := range beval[[]string](t, ctx, `[...document.querySelectorAll("#exp-table tbody tr td:last-child")].map(c => c.textContent)`) {
		if cell != "formula" && cell != "estimate" {
			t.Errorf("memory source %q, want formula or estimate", cell)
		}
	}
}

// TestBrowserExperimentFigures takes the page's screenshots and times every
// experiment's quick sizes: set BLOOMLAB_FIGURES to a directory.
func TestBrowserExperimentFigures(t *testing.T) {
	out := os.Getenv("BLOOMLAB_FIGURES")
	if out == "" {
		t.Skip("set BLOOMLAB_FIGURES=DIR to take screenshots and timings")
	}
	needBrowser(t)
	base := labURL(t)
	shot := func(ctx context.Context, name string) {
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(out, name+".png")
		if err := os.WriteFile(file, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot %s", file)
	}
	part := func(ctx context.Context, sel, name string) {
		png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS(sel)))
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(out, name+".png")
		if err := os.WriteFile(file, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot %s", file)
	}
	for _, e := range experiment.All() {
		ctx := btab(t, 1280, 900)
		bdo(t, ctx, chromedp.Navigate(base+"/experiments?"+params(settings.ExpName, e.Name)), waitExp("idle"),
			chromedp.Click(chromedp.CSS("#exp-run")), waitExp("done"))
		ms := beval[float64](t, ctx, `Number(document.getElementById("exp-status").dataset.ms)`)
		units := beval[float64](t, ctx, `Number(document.getElementById("exp-status").dataset.units)`)
		t.Logf("%-20s quick sizes: %6.2f s in headless Chromium, %.3g work units a second", e.Name, ms/1000, units/math.Max(ms, 1)*1000)
		switch e.Name {
		case "rounding", "grid", "hashing", "memory":
			shot(ctx, "exp-"+e.Name+"-1280")
			ctx360 := btab(t, 360, 800)
			bdo(t, ctx360, chromedp.Navigate(base+"/experiments?"+params(settings.ExpName, e.Name)), waitExp("idle"),
				chromedp.Click(chromedp.CSS("#exp-run")), waitExp("done"))
			shot(ctx360, "exp-"+e.Name+"-360")
			part(ctx360, "#exp-result", "exp-"+e.Name+"-360-result")
			part(ctx360, ".exp-form", "exp-"+e.Name+"-360-form")
		}
	}
	ctx := btab(t, 360, 800)
	bdo(t, ctx, chromedp.Navigate(base+"/experiments?"+params(settings.ExpName, "k-sweep", settings.ExpItems, "99999999", settings.ExpReplicates, "0")), waitExp("idle"),
		chromedp.Click(chromedp.CSS("#exp-run")), chromedp.Sleep(1500*time.Millisecond))
	shot(ctx, "exp-running-360")
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#exp-cancel")), waitExp("cancelled"))
	shot(ctx, "exp-cancelled-360")
}

// discard runs a valued action for its effect.
func discard[T any](a chromedp.Action[T]) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := a(ctx, t)
		return chromedp.Void{}, err
	}
}

// TestBrowserExperimentAlternatives runs the alternatives experiment in the
// page at a small size: every variant, built by the same core, gives the
// table the native run gives, the seeds' claims included, and no wall-clock
// time, which only the command line measures.
func TestBrowserExperimentAlternatives(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	sizes := experiment.Sizes{Items: 2000, Queries: 20000, Seed: 7}
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/experiments?"+params(settings.ExpName, "alternatives", settings.ExpItems, "2000", settings.ExpQueries, "20000", settings.ExpSeed, "7")),
		waitExp("idle"), chromedp.Click(chromedp.CSS("#exp-run")), waitExp("done"))
	native, err := json.Marshal(nativeTable(t, "alternatives", sizes))
	if err != nil {
		t.Fatal(err)
	}
	page := beval[string](t, ctx, `document.getElementById("exp-json").textContent`)
	compareJSON(t, "the page's alternatives table", []byte(page), native)
	for _, want := range []string{"cuckoo", "cuckoo-ss", "fuse", "does not fit", "Claim (a)", "Claim (a) for the semi-sorted", "Claim (b)", "Claim (c)", "the Ribbon filter with 7-bit results (w = 128) takes "} {
		if !strings.Contains(page, want) {
			t.Errorf("the page's table lacks %q", want)
		}
	}
	if strings.Contains(page, "insertNs") {
		t.Error("the page's table holds wall-clock times")
	}
}

// TestBrowserExperimentFrontier runs the frontier on the page: its cells
// are the command line's, its chart draws a point for every structure
// measured (each with its interval) and the floor and Bloom lines.
func TestBrowserExperimentFrontier(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	sizes := experiment.Sizes{Items: 2000, Queries: 20_000, Seed: 7}
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/experiments?"+params(settings.ExpName, "frontier", settings.ExpItems, "2000", settings.ExpQueries, "20000", settings.ExpSeed, "7")),
		waitExp("idle"), chromedp.Click(chromedp.CSS("#exp-run")), waitExp("done"))
	shoot(t, ctx, "experiment-frontier")
	native := nativeTable(t, "frontier", sizes)
	sameCells(t, ctx, native)
	// A bar a measured point, and one in each measured series' legend.
	measured, points := 0, 0
	for _, sr := range native.Chart.Series {
		if sr.Kind == experiment.Points {
			measured += len(sr.Points)
			points++
		}
	}
	if measured < 20 {
		t.Errorf("%d points charted", measured)
	}
	if n := beval[int](t, ctx, `document.querySelectorAll("#exp-chart svg path.ebar").length`); n != measured+points {
		t.Errorf("%d error bars (with the legend's), want %d", n, measured+points)
	}
	legend := btext(t, ctx, "#exp-chart")
	for _, want := range []string{"floor: p = 2^-b", "Bloom: p = 2^(-b ln 2)", "fuse", "cuckoo"} {
		if !strings.Contains(legend, want) {
			t.Errorf("the chart's legend lacks %q", want)
		}
	}
}

// TestBrowserExperimentScalable runs claim 4's experiment in the page at a
// small size: the chains the workers grow give the native run's table,
// its verdict included, and the page shows it; a screenshot under
// BLOOMLAB_SHOTS.
func TestBrowserExperimentScalable(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	sizes := experiment.Sizes{Items: 500, Queries: 20000, Seed: 7}
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/experiments?"+params(settings.ExpName, "scalable", settings.ExpItems, "500", settings.ExpQueries, "20000", settings.ExpSeed, "7")),
		waitExp("idle"), chromedp.Click(chromedp.CSS("#exp-run")), waitExp("done"))
	native, err := json.Marshal(nativeTable(t, "scalable", sizes))
	if err != nil {
		t.Fatal(err)
	}
	page := beval[string](t, ctx, `document.getElementById("exp-json").textContent`)
	compareJSON(t, "the page's scalable table", []byte(page), native)
	for _, want := range []string{"Claim 4", "the claim holds here", "bound p0/(1-r)"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page's table lacks %q", want)
		}
	}
	shoot(t, ctx, "experiment-scalable")
}

// TestBrowserExperimentCLIWraps: on a phone the command line wraps between
// its arguments, never inside one: "--seed" stays beside its value.
func TestBrowserExperimentCLIWraps(t *testing.T) {
	needBrowser(t)
	base := labURL(t)
	ctx := btab(t, 360, 800)
	for _, name := range []string{"theory-vs-observed", "adversarial", "memory"} {
		bdo(t, ctx, chromedp.Navigate(base+"/experiments?"+params(settings.ExpName, name, settings.ExpItems, "200000")), waitExp("idle"))
		got := beval[string](t, ctx, `(() => {
			const code = document.getElementById("exp-cli");
			const lines = new Set([...code.querySelectorAll(".cli-arg")].map(a => Math.round(a.getBoundingClientRect().top)));
			const split = [...code.querySelectorAll(".cli-arg")].filter(a => a.getClientRects().length > 1).map(a => a.textContent);
			return lines.size + " lines; split: " + split.join(" | ");
		})()`)
		if !strings.HasSuffix(got, "split: ") {
			t.Errorf("%s: the command line breaks inside an argument at 360 px: %s", name, got)
		}
		if strings.HasPrefix(got, "1 lines") {
			t.Errorf("%s: the command line fits one line at 360 px (%s), so this test shows nothing", name, got)
		}
	}
}

// TestBrowserExperimentSystem runs the two experiments of filters in a
// system in the page, its workers sharing them: the table is the command
// line's cell for cell as its text table prints them, with its title, and
// the page's JSON is the command line's --json byte for byte.
func TestBrowserExperimentSystem(t *testing.T) {
	needBrowser(t)
	for _, tc := range []struct {
		sizes experiment.Sizes
		name  string
		says  []string // in the notes
	}{
		{experiment.Sizes{Items: 2000, Replicates: 6, Seed: 7}, "estimate", []string{"rms error in SDs is their root mean square"}},
		{experiment.Sizes{Items: 2000, Queries: 20000, Seed: 7}, "merge", []string{"core.IntersectionFill", "AND false pos is at least A∩B false pos"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := btab(t, 1280, 900)
			query, args := expLink(tc.name, tc.sizes)
			bdo(t, ctx, chromedp.Navigate(labURL(t)+"/experiments?"+params(query...)), waitExp("idle"))
			if got, want := btext(t, ctx, "#exp-cli"), "bloomlab experiment "+tc.name+" "+strings.Join(args, " "); got != want {
				t.Errorf("command line %q, want %q", got, want)
			}
			bdo(t, ctx, chromedp.Click(chromedp.CSS("#exp-run")), waitExp("done"))
			shoot(t, ctx, "experiment-"+tc.name)

			var out, errs bytes.Buffer
			if code := dispatch(append([]string{"experiment", tc.name, "--json"}, args...), &out, &errs); code != 0 {
				t.Fatalf("bloomlab experiment %s: exit %d: %s", tc.name, code, errs.String())
			}
			page := beval[string](t, ctx, `document.getElementById("exp-json").textContent`)
			compareJSON(t, "the page's JSON", []byte(page), out.Bytes())
			if page != out.String() {
				t.Error("the page's JSON is not byte for byte the command line's")
			}
			native := nativeTable(t, tc.name, tc.sizes)
			sameCells(t, ctx, native)
			if got := btext(t, ctx, "#exp-title"); got != native.Title {
				t.Errorf("title %q, want %q", got, native.Title)
			}
			for _, say := range tc.says {
				if !strings.Contains(page, say) {
					t.Errorf("the page's notes lack %q", say)
				}
			}
		})
	}
}

// expLink is the experiments page's link to run name at sizes, as
// key-value pairs for params, and the command line's flags for the same.
func expLink(name string, sizes experiment.Sizes) (query, args []string) {
	query = []string{settings.ExpName, name}
	for _, knob := range []struct {
		flag, key string
		v         int
	}{{"--items", settings.ExpItems, sizes.Items}, {"--queries", settings.ExpQueries, sizes.Queries}, {"--replicates", settings.ExpReplicates, sizes.Replicates}} {
		if knob.v > 0 {
			query = append(query, knob.key, strconv.Itoa(knob.v))
			args = append(args, knob.flag, strconv.Itoa(knob.v))
		}
	}
	seed := strconv.FormatUint(sizes.Seed, 10)
	return append(query, settings.ExpSeed, seed), append(args, "--seed", seed)
}
