//go:build !js

// Command bloomstart measures how a running `bloomlab serve` starts in
// headless Chromium with its CPU slowed (4x by default, as Lighthouse's
// mobile preset): for each page it loads the page in a fresh browser
// context (cold cache), watches the main thread's long tasks (a
// PerformanceObserver for "longtask" installed before the page's scripts),
// and presses a key every -probe while the page starts, to see how long an
// input waits for the main thread. Per page it prints the first paint, the
// longest task after it, the blocking time (each task's time over 50 ms,
// summed after the first paint, as Lighthouse counts it), when the page's
// own answer shows (or -ready), and the inputs' waits: the first after the
// first paint, the longest, and from when on every input is answered
// within 50 ms.
//
//	bloomlab serve --port 8090 &
//	go run ./cmd/bloomstart -url http://localhost:8090 -pages /calculator,/audit -runs 3
//
// It is a measuring tool, not a test: no verdict of `make test` reads it,
// and its figures move with the machine's load, so compare runs made side
// by side.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/chromedp"
)

// observe is installed in every document before its scripts: it keeps the
// long tasks and, for each key pressed, when the event was made and when
// the main thread handled it.
const observe = `(() => {
	const s = window.__bloomstart = {tasks: [], probes: []};
	try {
		new PerformanceObserver(l => { for (const e of l.getEntries()) s.tasks.push([e.startTime, e.duration]); })
			.observe({type: "longtask", buffered: true});
	} catch (e) { s.noLongTasks = String(e); }
	addEventListener("keydown", e => { s.probes.push([e.timeStamp, performance.now()]); }, true);
})();`

// readyFor is each page's own "answered" state, as the browser tests wait for it.
var readyFor = map[string]string{
	"/calculator":  `!!document.querySelector('#calculator[data-state="ready"]')`,
	"/audit":       `!!document.querySelector('#audit[data-state="done"]')`,
	"/":            `!!document.querySelector('#lab[data-state="ready"]')`,
	"/lessons":     `!!document.querySelector('#lab[data-state="ready"]')`,
	"/experiments": `!!document.querySelector('#experiments[data-state]:not([data-state="static"])')`,
}

// state is what the page's observer holds, read every -probe.
type state struct {
	FCP     float64            `json:"fcp"`
	Ready   bool               `json:"ready"`
	Tasks   [][2]float64       `json:"tasks"`
	Probes  [][2]float64       `json:"probes"`
	Missing string             `json:"missing"`
	Now     float64            `json:"now"`
	Marks   map[string]float64 `json:"marks"`
}

type sample struct {
	fcp     float64            // first contentful paint, ms from navigation
	ready   float64            // the page's own answer shows, ms; 0 if never seen
	tasks   [][2]float64       // start, duration
	probes  [][2]float64       // made, handled
	missing string             // why there are no long tasks, if the browser has none
	marks   map[string]float64 // the page's marks of its start (bloomlab:main, first-view, live, whole)
}

func main() {
	base := flag.String("url", "http://localhost:8090", "the address of a running bloomlab serve")
	pages := flag.String("pages", "/,/lessons,/experiments,/calculator,/audit,/about", "the pages, comma-separated")
	runs := flag.Int("runs", 3, "loads of each page (the median is printed)")
	cpu := flag.Float64("cpu", 4, "CPU slow-down rate (1 is none)")
	probe := flag.Duration("probe", 100*time.Millisecond, "time between key presses while the page starts")
	quiet := flag.Duration("quiet", 3*time.Second, "the page has started once no long task came for this long (and it is ready)")
	limit := flag.Duration("limit", 60*time.Second, "the longest a load is watched")
	width := flag.Int("width", 412, "viewport width, CSS px")
	height := flag.Int("height", 823, "viewport height, CSS px")
	chromium := flag.String("chromium", "/usr/bin/chromium", "the browser")
	verbose := flag.Bool("v", false, "print every long task of every load")
	readyExpr := flag.String("ready", "", "a JavaScript expression true once the page has answered, in place of each page's own state (say, once a form typed with -early has its tables)")
	early := flag.String("early", "", "JavaScript run in each page once its first view is parsed, as a reader acting while the page starts (say, typing into a field)")
	profile := flag.Int("profile", 0, "sample the main thread's JavaScript and WebAssembly during each load and print its N costliest functions, by time inclusive of what they call (serve a WebAssembly built without -s for Go's names; the sampling slows the page, so the other figures of such a run are not comparable)")
	flag.Parse()
	*runs = max(1, min(*runs, 20))

	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(*chromium), chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-dev-shm-usage", true))
	defer cancelAlloc()
	browser, cancelBrowser := chromedp.NewContext(alloc)
	defer cancelBrowser()
	if err := chromedp.Do(browser); err != nil {
		fmt.Fprintln(os.Stderr, "bloomstart:", err)
		os.Exit(1)
	}
	fmt.Printf("CPU %gx, %d x %d, %d load(s) a page, medians; ms from navigation\n\n", *cpu, *width, *height, *runs)
	fmt.Printf("%-14s %7s %9s %9s %8s %9s %9s %9s %8s\n", "page", "paint", "longest", "blocking", "ready", "input@fp", "input max", "inputs ok", "tasks")
	for _, p := range strings.Split(*pages, ",") {
		var got []sample
		for r := 0; r < *runs; r++ {
			ready := readyFor[strings.SplitN(p, "?", 2)[0]]
			if *readyExpr != "" {
				ready = *readyExpr
			}
			s, err := load(browser, strings.TrimRight(*base, "/")+p, ready, *early, *cpu, *probe, *quiet, *limit, *width, *height, *profile)
			if err != nil {
				fmt.Fprintf(os.Stderr, "bloomstart: %s: %v\n", p, err)
				continue
			}
			if s.missing != "" {
				fmt.Fprintln(os.Stderr, "bloomstart: no long tasks in this browser:", s.missing)
			}
			if *verbose {
				fmt.Printf("  %s run %d: paint %.0f, tasks (start+duration):", p, r+1, s.fcp)
				for _, t := range s.tasks {
					fmt.Printf(" %.0f+%.0f", t[0], t[1])
				}
				for _, m := range []string{"main", "first-view", "live", "whole"} {
					if at, ok := s.marks[m]; ok {
						fmt.Printf("; %s at %.0f", m, at)
					}
				}
				fmt.Println()
			}
			got = append(got, s)
		}
		if len(got) == 0 {
			continue
		}
		var paint, longest, blocking, ready, first, worst, ok, count []float64
		for _, s := range got {
			l, b, n := s.blocking()
			f, w, o := s.inputs()
			paint, longest, blocking, ready = append(paint, s.fcp), append(longest, l), append(blocking, b), append(ready, s.ready)
			first, worst, ok, count = append(first, f), append(worst, w), append(ok, o), append(count, float64(n))
		}
		fmt.Printf("%-14s %7.0f %9.0f %9.0f %8.0f %9.0f %9.0f %9.0f %8.0f\n", p, median(paint), median(longest), median(blocking),
			median(ready), median(first), median(worst), median(ok), median(count))
	}
	fmt.Println("\nlongest: the longest main-thread task after the first paint; blocking: the time over 50 ms of each such task, summed;")
	fmt.Println("ready: the page shows its own answer; input@fp: the wait of the first key pressed after the first paint;")
	fmt.Println("input max: the longest wait of a key pressed while the page started; inputs ok: from then on every key waited under 50 ms;")
	fmt.Println("tasks: long tasks after the first paint.")
}

// load opens url in a fresh browser context, slowed, and watches it start.
func load(browser context.Context, url, ready, early string, cpu float64, probe, quiet, limit time.Duration, w, h, profile int) (sample, error) {
	ctx, cancel := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, limit+30*time.Second)
	defer cancelT()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(w), int64(h))); err != nil {
		return sample{}, err
	}
	script := observe
	if early != "" {
		script += "\naddEventListener(\"DOMContentLoaded\", () => {\n" + early + "\n});"
	}
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: script}); err != nil {
		return sample{}, err
	}
	if _, err := chromedp.Call(ctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: cpu}); err != nil {
		return sample{}, err
	}
	if profile > 0 {
		if _, err := chromedp.Call(ctx, profiler.Enable, cdp.Empty{}); err != nil {
			return sample{}, err
		}
		if _, err := chromedp.Call(ctx, profiler.SetSamplingInterval, profiler.SetSamplingIntervalParams{Interval: 500}); err != nil {
			return sample{}, err
		}
		if _, err := chromedp.Call(ctx, profiler.Start, cdp.Empty{}); err != nil {
			return sample{}, err
		}
		defer func() {
			if res, err := chromedp.Call(ctx, profiler.Stop, cdp.Empty{}); err == nil && res.Profile != nil {
				printProfile(url, res.Profile, profile)
			}
		}()
	}
	// Navigate without waiting for the load event: the keys are pressed
	// from the first paint on.
	if _, err := chromedp.Call(ctx, page.Navigate, page.NavigateParams{URL: url}); err != nil {
		return sample{}, err
	}
	var s sample
	var painted sync.Once
	start := time.Now()
	lastTask, lastCount := time.Now(), 0
	for time.Since(start) < limit {
		readyJS := "false"
		if ready != "" {
			readyJS = ready
		}
		expr := `(() => { const s = window.__bloomstart; if (!s) return {}; const p = performance.getEntriesByName("first-contentful-paint")[0];
			const marks = {}; for (const m of performance.getEntriesByType("mark")) if (m.name.startsWith("bloomlab:")) marks[m.name.slice(9)] = m.startTime;
			return {fcp: p ? p.startTime : 0, ready: ` + readyJS + `, tasks: s.tasks, probes: s.probes, missing: s.noLongTasks || "", now: performance.now(), marks}; })()`
		st, err := chromedp.Run(ctx, chromedp.Evaluate[state](expr))
		if err != nil {
			time.Sleep(probe)
			continue
		}
		s.fcp, s.tasks, s.probes, s.missing, s.marks = st.FCP, st.Tasks, st.Probes, st.Missing, st.Marks
		if st.Ready && s.ready == 0 {
			s.ready = st.Now
		}
		if len(st.Tasks) != lastCount {
			lastTask, lastCount = time.Now(), len(st.Tasks)
		}
		if st.FCP > 0 {
			if (ready == "" || s.ready > 0) && time.Since(lastTask) > quiet && st.Now > st.FCP+quiet.Seconds()*1000 {
				break
			}
			painted.Do(func() { go press(ctx, probe) })
		}
		time.Sleep(probe)
	}
	return s, nil
}

// printProfile prints the n functions with the most time in prof,
// counting the time of what they call, and their own time.
func printProfile(url string, prof *profiler.Profile, n int) {
	parent := map[int64]int64{}
	byID := map[int64]*profiler.ProfileNode{}
	for _, nd := range prof.Nodes {
		byID[nd.ID] = nd
		for _, c := range nd.Children {
			parent[c] = nd.ID
		}
	}
	name := func(nd *profiler.ProfileNode) string {
		f := nd.CallFrame
		if f == nil {
			return "?"
		}
		if f.FunctionName == "" {
			return "(anonymous) " + f.URL
		}
		return f.FunctionName
	}
	total, self := map[string]float64{}, map[string]float64{}
	for i, id := range prof.Samples {
		if i >= len(prof.TimeDeltas) {
			break
		}
		// A sample's time is the delta to the next sample.
		d := 0.0
		if i+1 < len(prof.TimeDeltas) {
			d = float64(prof.TimeDeltas[i+1]) / 1000
		}
		nd := byID[id]
		if nd == nil {
			continue
		}
		self[name(nd)] += d
		seen := map[string]bool{}
		for cur, ok := id, true; ok; cur, ok = parent[cur] {
			if k := name(byID[cur]); !seen[k] {
				seen[k] = true
				total[k] += d
			}
		}
	}
	top := func(m map[string]float64) []string {
		keys := make([]string, 0, len(m))
		for k := range m {
			if k != "(root)" && k != "(program)" && k != "(idle)" {
				keys = append(keys, k)
			}
		}
		slices.SortFunc(keys, func(a, b string) int { return int(m[b]*1000 - m[a]*1000) })
		return keys[:min(n, len(keys))]
	}
	fmt.Printf("  %s, profile: idle %.0f ms, program %.0f ms\n", url, self["(idle)"], self["(program)"])
	fmt.Printf("    %-70s %9s %9s\n", "function", "total ms", "self ms")
	for _, k := range top(total) {
		fmt.Printf("    %-70.70s %9.0f %9.0f\n", k, total[k], self[k])
	}
	fmt.Println("    by own time:")
	for _, k := range top(self) {
		fmt.Printf("    %-70.70s %9.0f %9.0f\n", k, total[k], self[k])
	}
}

// press presses a key nobody listens for every probe until ctx ends, on
// its own, so that a key can arrive in the middle of a long task: its wait
// is the main thread's.
func press(ctx context.Context, probe time.Duration) {
	tick := time.NewTicker(probe)
	defer tick.Stop()
	for {
		for _, typ := range []input.DispatchKeyEventType{input.DispatchKeyEventTypeRawKeyDown, input.DispatchKeyEventTypeKeyUp} {
			if _, err := chromedp.Call(ctx, input.DispatchKeyEvent, input.DispatchKeyEventParams{Type: typ, Key: "Shift", Code: "ShiftLeft", WindowsVirtualKeyCode: 16}); err != nil {
				return
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// blocking is the longest task after the first paint, the time over 50 ms
// of each, summed, and their count.
func (s sample) blocking() (longest, blocking float64, n int) {
	for _, t := range s.tasks {
		if t[0]+t[1] <= s.fcp {
			continue
		}
		d := t[1]
		if t[0] < s.fcp { // the part after the paint, as Lighthouse counts it
			d = t[0] + t[1] - s.fcp
		}
		n++
		longest = max(longest, d)
		blocking += max(0, d-50)
	}
	return longest, blocking, n
}

// inputs is the first key's wait after the first paint, the longest wait,
// and the time of the first key from which on every key waited under 50 ms.
func (s sample) inputs() (first, worst, okFrom float64) {
	first = -1
	for _, p := range s.probes {
		if p[0] < s.fcp {
			continue
		}
		wait := p[1] - p[0]
		if first < 0 {
			first = wait
		}
		worst = max(worst, wait)
		if wait >= 50 {
			okFrom = 0
		} else if okFrom == 0 {
			okFrom = p[0]
		}
	}
	return first, worst, okFrom
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	v = slices.Clone(v)
	slices.Sort(v)
	return v[len(v)/2]
}
