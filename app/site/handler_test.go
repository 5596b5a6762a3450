package site

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/bloomlab/bloomlab/app/internal/linktest"
	"github.com/bloomlab/bloomlab/app/lessons"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui"
)

var routesOnce sync.Once

// get prerenders path with the lab's handler under prefix, as the server
// and the static generator do.
func get(t *testing.T, prefix, path string) string {
	t.Helper()
	routesOnce.Do(Routes)
	srv := httptest.NewServer(NewHandler(prefix, "test"))
	defer srv.Close()
	res, err := http.Get(srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", path, res.Status)
	}
	return string(b)
}

// TestPrerenderedLab checks the page a browser gets before the wasm loads:
// every control and output under its stable ID, and the formula figures.
func TestPrerenderedLab(t *testing.T) {
	page := get(t, "", "/")
	ids := []string{settings.IDBitsPerKey, settings.IDHashes, settings.IDDuplicatePasses, settings.IDItems, settings.IDQueries, settings.IDPresentShare, settings.IDKeyBytes,
		settings.IDSeed, settings.IDOptimalK, settings.IDVariant, settings.IDFault, "out-m", "out-k", "out-set-bits", "out-fpr-theory",
		"out-fpr-empirical", "out-false-positives", "out-false-negatives", "audit-badge", "bit-array"}
	for _, id := range ids {
		if !strings.Contains(page, `id="`+id+`"`) {
			t.Errorf("prerendered lab lacks id %q", id)
		}
	}
	for _, want := range []string{`id="out-m">40,000<`, `id="out-k">7<`, `id="out-fpr-theory">0.008194<`, `for="` + settings.IDBitsPerKey + `"`} {
		if !strings.Contains(page, want) {
			t.Errorf("prerendered lab lacks %q", want)
		}
	}
}

// TestPrerenderedCheckbox pins that the optimal-k box shows its state
// before the wasm loads: HTML reads any checked attribute, even "false", as
// checked.
func TestPrerenderedCheckbox(t *testing.T) {
	box := regexp.MustCompile(`<input[^>]*id="` + regexp.QuoteMeta(settings.IDOptimalK) + `"[^>]*>`)
	if tag := box.FindString(get(t, "", "/")); tag == "" || strings.Contains(tag, "checked") {
		t.Error("the prerendered lab ticks the optimal-k box, which is off")
	}
	if tag := box.FindString(get(t, "", "/?"+linktest.Query(settings.IDOptimalK, "on"))); !strings.Contains(tag, "checked") {
		t.Error("the prerendered lab leaves the optimal-k box unticked, which is on")
	}
}

func TestPrerenderedClampNotice(t *testing.T) {
	page := get(t, "", "/?"+linktest.Query(settings.IDHashes, "999", settings.IDItems, "oops"))
	for _, want := range []string{`id="clamp-notice"`, "hashes: 999 is above the maximum, so it was lowered to 32", `items: &#34;oops&#34; is not a number`} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if !strings.Contains(page, `id="out-k">32<`) {
		t.Error("k not clamped to 32 in the page")
	}
}

func TestPrefixedLinks(t *testing.T) {
	page := get(t, "/bloomlab", "/audit")
	for _, want := range []string{`href="/bloomlab/audit"`, `href="/bloomlab/web/lab.css"`, `src="/bloomlab/app.js"`, `href="/bloomlab"`} {
		if !strings.Contains(page, want) {
			t.Errorf("prefixed page lacks %q", want)
		}
	}
	worker := get(t, "/bloomlab", "/app-worker.js")
	for _, want := range []string{`const ROOT = "/bloomlab";`, `"/bloomlab/web/app.wasm"`, `"/bloomlab/audit"`, `ignoreSearch`, `const linked`} {
		if !strings.Contains(worker, want) {
			t.Errorf("service worker lacks %q", want)
		}
	}
}

func TestServiceWorkerTemplate(t *testing.T) {
	t.Parallel()
	sw := serviceWorker("")
	if strings.Contains(sw, "cache.addAll(resourcesToCache)") {
		t.Error("the worker still caches all or nothing")
	}
	if !strings.Contains(sw, `const ROOT = "";`) {
		t.Error("no ROOT for a site at the root")
	}
}

// falseBoolean finds a boolean attribute written with a value of false,
// which HTML reads as true: the attribute's presence is what counts.
var falseBoolean = regexp.MustCompile(`<[a-z]+[^>]*\s(selected|hidden|disabled|checked|readonly|required|multiple|open|autofocus)="false"[^>]*>`)

// Every page as prerendered shows its controls as the lab will set them:
// no option selected, element hidden or control disabled by a "false".
func TestPrerenderedBooleansAreTrue(t *testing.T) {
	for _, path := range []string{ui.RouteLab, ui.RouteLab + "?" + linktest.Query(settings.IDVariant, "cuckoo", settings.IDFault, "off-by-one"), ui.RouteLessons, ui.RouteLessons + "?" + linktest.Query(lessons.IDLesson, "2", lessons.IDStep, "1"),
		ui.RouteExperiments, ui.RouteCalculator, ui.RouteAudit, ui.RouteAbout, ui.RouteEmbed, ui.RouteEmbed + "?" + linktest.Query(settings.IDVariant, "cuckoo", "chart", "k")} {
		if tag := falseBoolean.FindString(get(t, "", path)); tag != "" {
			t.Errorf("%s: %s", path, tag)
		}
	}
}

// The prerendered lab is the lab's first view: the counters with their
// values, the bit array's picture and both charts with their measured
// points; a link whose run is larger than the page makes in a frame gets
// the controls and a line that says the run starts when the lab is live.
func TestPrerenderedFirstView(t *testing.T) {
	page := get(t, "", ui.RouteLab)
	for _, want := range []string{`id="out-m">40,000<`, `id="out-fpr-theory">0.008194<`, `id="bit-array-first"`,
		`--first-wide:url(data:image/png;base64,`, `--first-narrow:url(data:image/png;base64,`, `data-state="prerendered"`} {
		if !strings.Contains(page, want) {
			t.Errorf("the prerendered lab lacks %q", want)
		}
	}
	if n := strings.Count(page, `<circle class="dot measured"`); n < 20 {
		t.Errorf("the prerendered charts have %d measured points", n)
	}
	if strings.Contains(page, "starts-live") {
		t.Error("the default lab says its run waits for the lab")
	}
	large := get(t, "", ui.RouteLab+"?"+linktest.Query(settings.IDItems, "1000000"))
	if strings.Contains(large, "bit-array-first") || !strings.Contains(large, `id="starts-live"`) {
		t.Error("a run of a million keys was prerendered, or its page does not say it starts when the lab is live")
	}
	lesson := get(t, "", ui.RouteLessons)
	if !strings.Contains(lesson, `id="bit-array-first"`) {
		t.Error("the first lesson's lab has no first view")
	}
	// The embed's too: a page or a test that waits for the lab to be
	// ready must not take the prerendered embed for the live one.
	if embed := get(t, "", ui.RouteEmbed); !strings.Contains(embed, `id="bit-array-first"`) || !strings.Contains(embed, `data-state="prerendered"`) {
		t.Error(`the prerendered embed has no first view, or its lab is not data-state="prerendered"`)
	}
}

// The prerendered lab offers no embed snippet: it cannot know the site it
// is on, and a frame named by path alone would load the writer's own site.
func TestPrerenderedEmbedSnippet(t *testing.T) {
	page := get(t, "", ui.RouteLab)
	box := regexp.MustCompile(`<textarea[^>]*id="embed-snippet"[^>]*>[^<]*</textarea>`).FindString(page)
	if box == "" {
		t.Fatal("the prerendered lab has no embed box")
	}
	if strings.Contains(box, "iframe") || !strings.Contains(box, "once the lab is live") {
		t.Errorf("the prerendered embed box: %s", box)
	}
	if !regexp.MustCompile(`<button[^>]*id="embed-copy"[^>]*disabled|<button[^>]*disabled[^>]*id="embed-copy"`).MatchString(page) {
		t.Error("the prerendered embed box offers a copy of no snippet")
	}
}

// TestPrerenderedLessons checks the page a browser gets before the wasm
// loads: the step a link names, or a notice for one that does not exist,
// over the whole lab.
func TestPrerenderedLessons(t *testing.T) {
	for _, tc := range []struct {
		path string
		want []string
	}{
		{"/lessons?" + linktest.Query(lessons.IDLesson, "3", lessons.IDStep, "2"), []string{`id="lesson-title">The three moves<`, "Lesson 3 of " + strconv.Itoa(lessonFiles(t)) + " · step 2 of 3",
			"raise k past the optimum until the theory rate is 10% above the optimum&#39;s.", `id="` + lessons.IDLessonShow + `"`, `data-done="false"`, `id="bit-array"`}},
		{"/lessons", []string{`id="lesson-title">A zero is proof<`, "Inserting a key only ever sets bits."}},
		{"/lessons?" + linktest.Query(lessons.IDLesson, "99", lessons.IDStep, "0"), []string{`id="lesson-notice"`, "there is no lesson 99", "there is no step 0", `id="lesson-title">Counting the keys<`}},
		{"/lessons/?" + linktest.Query(lessons.IDLesson, "2"), []string{`id="lesson-title">A false positive, explained<`}},
	} {
		page := get(t, "", tc.path)
		for _, want := range tc.want {
			if !strings.Contains(page, want) {
				t.Errorf("%s lacks %q", tc.path, want)
			}
		}
		if !regexp.MustCompile(`<a[^>]*aria-current="page"[^>]*>Lessons</a>`).MatchString(page) {
			t.Errorf("%s does not mark Lessons the current page in the navigation", tc.path)
		}
		if tag := regexp.MustCompile(`<small[^>]*id="lesson-storage"[^>]*>`).FindString(page); !strings.Contains(tag, "hidden") {
			t.Errorf("%s says the browser keeps no progress before it asked the browser", tc.path)
		}
	}
}

// bigLink is a link of about 200 KB that a page must survive: every key a
// page reads given many times with a long last value, the typed keys and
// the embed's sliders repeated thousands of times, and keys no page reads.
func bigLink() string {
	q := url.Values{}
	long := strings.Repeat("9", 300)
	for _, key := range []string{settings.IDBitsPerKey, settings.IDHashes, settings.IDDuplicatePasses, settings.IDItems, settings.IDQueries,
		settings.IDPresentShare, settings.IDKeyBytes, settings.IDSeed, settings.IDOptimalK, settings.IDVariant, settings.IDFault,
		settings.IDHashing, settings.IDFingerprintBits, settings.IDLarge, settings.IDPlayAt, settings.IDChart, settings.IDPanel, settings.IDFrame,
		settings.CalcN, settings.CalcP, settings.CalcM, settings.CalcFind, settings.ExpName, settings.ExpReplicates,
		lessons.IDLesson, lessons.IDStep, lessons.IDGuess} {
		for range 30 {
			q.Add(key, "x"+long)
		}
	}
	q.Add(settings.IDTry, strings.Repeat("apple,", 4000)+strings.Repeat(",", 2000)+strings.Repeat("é", 300)+","+strings.Repeat("pear,", 4000))
	q.Add(settings.IDControls, strings.Repeat("colour,hashes,", 3000))
	for i := range 2000 {
		q.Add("k"+strconv.Itoa(i), "1")
		q.Add("k"+strconv.Itoa(i), "2")
	}
	return q.Encode()
}

// TestBigLinkBounded: a page answers a 200 KB link with its page and a
// notice, and grows by no more than maxLinkGrowth over its page with no
// link: a notice counts what a link repeats or spoils, and names a value
// shortened, rather than echo the link.
func TestBigLinkBounded(t *testing.T) {
	const maxLinkGrowth = 16 << 10
	link := bigLink()
	if len(link) < 200<<10 {
		t.Fatalf("the link is %d bytes, want 200 KB", len(link))
	}
	for _, route := range PageRoutes() {
		plain := get(t, "", route)
		big := get(t, "", route+"?"+link)
		if len(big) > len(plain)+maxLinkGrowth {
			t.Errorf("%s: %d bytes with a 200 KB link, %d without: more than %d bytes more", route, len(big), len(plain), maxLinkGrowth)
		}
		// The about page reads no setting but large type from its link.
		// The calculator says it in the line under its choice of what to
		// find.
		if route != ui.RouteAbout && !strings.Contains(big, `class="notice"`) && !strings.Contains(big, `id="find-notice"`) {
			t.Errorf("%s says nothing of a 200 KB link", route)
		}
	}
}

// TestAppJSKeepsToGoApp holds the lab's splice into go-app's app.js
// honest: go-app's script as this go-app sends it has the two calls the
// lab takes out, once each, and declares every name of go-app's that
// web/start.js reads; the page has the loader's elements start.js reads,
// and loads start.js after app.js. A go-app that changed any of these
// fails AppJS, and so this test.
func TestAppJSKeepsToGoApp(t *testing.T) {
	goapp := get(t, "", "/app.js")
	js, err := AppJS([]byte(goapp))
	if err != nil {
		t.Fatal(err)
	}
	for _, call := range startCalls {
		if strings.Contains(string(js), call) {
			t.Errorf("the lab's app.js still makes %q as it runs", strings.TrimSpace(call))
		}
	}
	start, err := os.ReadFile("../../web/start.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range regexp.MustCompile(`\bgoapp\w+`).FindAllString(string(start), -1) {
		if !slices.Contains(startNames[:], name) {
			t.Errorf("web/start.js reads %s of go-app's app.js, which startNames does not list", name)
		}
	}
	for _, name := range startNames {
		if !strings.Contains(string(start), name) {
			t.Errorf("startNames lists %s, which web/start.js does not read", name)
		}
	}
	// Each change of go-app's script that start.js could not live with
	// is refused.
	for _, old := range append(startCalls[:], "\nconst goappLoadingLabel = ", "\nasync function goappInitServiceWorker()", "\nfunction goappGetenv(k)") {
		if _, err := AppJS([]byte(strings.Replace(goapp, old, "\n// gone\n", 1))); err == nil {
			t.Errorf("AppJS took a go-app app.js without %q", strings.TrimSpace(old))
		}
	}
	page := get(t, "", "/")
	for _, id := range []string{"app-wasm-loader", "app-wasm-loader-icon", "app-wasm-loader-label"} {
		if !strings.Contains(page, `id="`+id+`"`) || !strings.Contains(string(start), `getElementById("`+id+`")`) {
			t.Errorf("the page or web/start.js lacks the loader's element %s", id)
		}
	}
	var order []string
	for _, tag := range regexp.MustCompile(`<script[^>]*>`).FindAllString(page, -1) {
		if src := regexp.MustCompile(`\bsrc="([^"]+)"`).FindStringSubmatch(tag); src != nil && strings.Contains(tag, " defer") {
			order = append(order, src[1])
		}
	}
	if i, j := slices.Index(order, "/app.js"), slices.Index(order, "/web/start.js"); i < 0 || j < i {
		t.Errorf("the page's deferred scripts run in the order %v: web/start.js must come after app.js", order)
	}
}

// lessonFiles is how many built-in lessons there are: one file each in
// app/lessons/text, so a new lesson moves no test.
func lessonFiles(t *testing.T) int {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "lessons", "text", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no lesson files: %v", err)
	}
	return len(files)
}

// TestPageUnderItsFolder: a static server that redirects /audit to
// /audit/ lands on the same page, not on go-app's page not found.
func TestPageUnderItsFolder(t *testing.T) {
	for _, route := range PageRoutes() {
		if route == ui.RouteLab {
			continue
		}
		// go-app writes attributes in no fixed order: the title says which
		// page it is.
		title := regexp.MustCompile(`<title>[^<]*</title>`)
		if got, want := title.FindString(get(t, "", route+"/")), title.FindString(get(t, "", route)); got != want {
			t.Errorf("%s/ is %s, not the page %s (%s)", route, got, route, want)
		}
	}
}
