package calculator

import (
	stdhtml "html"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/bloomlab/bloomlab/app/internal/linktest"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/plan"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

func TestCalcFromQuery(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		query  string
		find   plan.Unknown
		notice string // a substring; "" for none
		values map[string]string
	}{
		{"empty link", "", plan.FindM, "", map[string]string{settings.CalcN: "100000000", settings.CalcP: "0.01"}},
		{"n and p", linktest.Query(settings.CalcN, "1e6", settings.CalcP, "1%25"), plan.FindM, "", map[string]string{settings.CalcN: "1e6", settings.CalcP: "1%"}},
		{"n and m", linktest.Query(settings.CalcN, "4000", settings.CalcM, "40000"), plan.FindP, "", map[string]string{settings.CalcN: "4000", settings.CalcM: "40000"}},
		{"p and m", linktest.Query(settings.CalcP, "0.01", settings.CalcM, "114.26+MiB"), plan.FindN, "", map[string]string{settings.CalcM: "114.26 MiB"}},
		{"explicit find", linktest.Query(settings.CalcFind, "n", settings.CalcN, "5", settings.CalcP, "0.1", settings.CalcM, "1000"), plan.FindN, "", nil},
		{"all three", linktest.Query(settings.CalcN, "5", settings.CalcP, "0.1", settings.CalcM, "1000"), plan.FindM, "the link gives n, p and m", nil},
		{"bad find", linktest.Query(settings.CalcFind, "k", settings.CalcN, "4000", settings.CalcM, "40000"), plan.FindP, `find: "k" is not m, p or n, so the calculator finds p`, nil},
		{"bad value kept", linktest.Query(settings.CalcN, "lots", settings.CalcP, "0.01"), plan.FindM, "", map[string]string{settings.CalcN: "lots"}},
		{"a key twice", linktest.Query(settings.CalcN, "10", settings.CalcN, "4000", settings.CalcM, "40000"), plan.FindP, "n: given 2 times, so the last, 4000, is used", map[string]string{settings.CalcN: "4000"}},
		{"costs", linktest.Query(settings.CalcAbsentQPS, "5e4", settings.CalcMaybeCost, "12", settings.CalcSavedCost, "3", settings.CalcKeyBytes, "36"), plan.FindM, "",
			map[string]string{settings.CalcAbsentQPS: "5e4", settings.CalcMaybeCost: "12", settings.CalcSavedCost: "3", settings.CalcKeyBytes: "36"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			q, _ := url.ParseQuery(tt.query)
			f, notice := settings.CalculatorFromQuery(q)
			if f.Find != tt.find {
				t.Errorf("find %q, want %q", f.Find, tt.find)
			}
			if (tt.notice == "") != (notice == "") || !strings.Contains(notice, tt.notice) {
				t.Errorf("notice %q, want one containing %q", notice, tt.notice)
			}
			for k, v := range tt.values {
				if f.Values[k] != v {
					t.Errorf("%s = %q, want %q", k, f.Values[k], v)
				}
			}
		})
	}
}

// TestCalcQueryRoundTrip: the link a form writes reads back as the same
// form, and leaves out the unknown the page computes.
func TestCalcQueryRoundTrip(t *testing.T) {
	t.Parallel()
	for _, find := range []plan.Unknown{plan.FindM, plan.FindP, plan.FindN} {
		f := settings.DefaultCalculator()
		f.Find = find
		f.Values[settings.CalcM] = "1.5 KiB"
		f.Values[settings.CalcAbsentQPS] = "250"
		q := f.Query()
		if q.Has(string(find)) {
			t.Errorf("find %s: the query carries the unknown: %s", find, q.Encode())
		}
		g, notice := settings.CalculatorFromQuery(q)
		if notice != "" || g.Find != find {
			t.Errorf("find %s: read back as %s with notice %q", find, g.Find, notice)
		}
		for k, v := range f.Values {
			if k != string(find) && g.Values[k] != v {
				t.Errorf("find %s: %s = %q, want %q", find, k, g.Values[k], v)
			}
		}
	}
}

func TestSolveForm(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		query  string
		m      uint64
		n      uint64
		errors map[string]string // field -> message substring
		err    string
	}{
		{"reference", linktest.Query(settings.CalcN, "100000000", settings.CalcP, "0.01"), 958_505_838, 100_000_000, nil, ""},
		{"units", linktest.Query(settings.CalcFind, "p", settings.CalcN, "4000", settings.CalcM, "5000B"), 40_000, 4000, nil, ""},
		{"inverse", linktest.Query(settings.CalcFind, "n", settings.CalcM, "958505838", settings.CalcP, "1%25"), 958_505_838, 100_000_000, nil, ""},
		{"bad unit", linktest.Query(settings.CalcFind, "p", settings.CalcN, "10", settings.CalcM, "5+Mb"), 0, 0, map[string]string{settings.CalcM: `m has unknown unit "Mb"`}, ""},
		{"two bad fields", linktest.Query(settings.CalcN, "0", settings.CalcP, "2"), 0, 0, map[string]string{settings.CalcN: "n must be from 1", settings.CalcP: "p must be below 1"}, ""},
		{"bad cost", linktest.Query(settings.CalcAbsentQPS, "-4"), 0, 0, map[string]string{settings.CalcAbsentQPS: "absent queries per second must be a number from 0"}, ""},
		{"unknown is not parsed", linktest.Query(settings.CalcFind, "m", settings.CalcN, "10", settings.CalcP, "0.1", settings.CalcM, "garbage"), 48, 10, nil, ""},
		{"m too small", linktest.Query(settings.CalcFind, "n", settings.CalcM, "5", settings.CalcP, "0.001"), 0, 0, nil, "5 bits cannot hold even one key"},
		{"hexadecimal p", linktest.Query(settings.CalcN, "1000", settings.CalcP, "0x1p-4"), 0, 0, map[string]string{settings.CalcP: "p must be a rate such as 0.01"}, ""},
		// Once froze the tab for over a minute: 10^8 terms for each k.
		{"many keys a block", linktest.Query(settings.CalcFind, "p", settings.CalcN, "9007199254740992", settings.CalcM, "512"), 512, 9007199254740992, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			q, _ := url.ParseQuery(tt.query)
			f, _ := settings.CalculatorFromQuery(q)
			r := f.Solve()
			if len(tt.errors) == 0 && tt.err == "" {
				if !r.OK || r.Plan.M != tt.m || r.Plan.N != tt.n {
					t.Fatalf("ok %v m %d n %d, want m %d n %d; errors %v %q", r.OK, r.Plan.M, r.Plan.N, tt.m, tt.n, r.Errors, r.Err)
				}
				return
			}
			if r.OK {
				t.Fatal("solved a form with bad input")
			}
			for id, want := range tt.errors {
				if !strings.Contains(r.Errors[id], want) {
					t.Errorf("error for %s = %q, want %q", id, r.Errors[id], want)
				}
			}
			if len(r.Errors) != len(tt.errors) {
				t.Errorf("errors %v, want only %v", r.Errors, tt.errors)
			}
			if !strings.Contains(r.Err, tt.err) {
				t.Errorf("plan error %q, want %q", r.Err, tt.err)
			}
		})
	}
}

func TestCalcRate(t *testing.T) {
	t.Parallel()
	for p, want := range map[float64]string{0.010039: "0.010039", 0.05: "0.05", 0.0009765625: "0.0009766", 1e-12: "1.000e-12", 0: "0"} {
		if got := calcRate(p); got != want {
			t.Errorf("calcRate(%v) = %q, want %q", p, got, want)
		}
	}
}

// renderCalculator loads the page for a query in the test engine and
// returns its HTML.
func renderCalculator(t *testing.T, query string) string {
	t.Helper()
	q, err := url.ParseQuery(query)
	if err != nil {
		t.Fatal(err)
	}
	c := New()
	c.form, c.notice = settings.CalculatorFromQuery(q)
	c.res, _ = solveTaking(c.form)
	e := app.NewTestEngine()
	if err := e.Load(c); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	return app.HTMLString(c)
}

func TestCalculatorRenders(t *testing.T) {
	t.Parallel()
	html := renderCalculator(t, linktest.Query(settings.CalcN, "100000000", settings.CalcP, "0.01"))
	for id, want := range map[string]string{
		"calc-out-m": "958,505,838", "calc-out-memory": "114.26 MiB", "calc-out-k": "7",
		"calc-out-bpk": "9.585", "calc-out-fpr": "0.010039", "m-read": "found: 958,505,838 bits, 114.26 MiB",
		"cost-fp": "10.04", "cost-break-even": "0.5",
	} {
		if got := textOf(html, id); got != want {
			t.Errorf("#%s = %q, want %q", id, got, want)
		}
	}
	for _, id := range []string{"alt-bloom", "alt-blocked-same-m", "alt-blocked-same-p", "alt-counting", "alt-cuckoo-8", "alt-cuckoo-12", "alt-xor", "alt-fuse-3", "alt-fuse-4", "overfill-1.5", "overfill-2", "overfill-5", "calc-lab-link"} {
		if !strings.Contains(html, `id="`+id+`"`) {
			t.Errorf("no #%s", id)
		}
	}
	if !strings.Contains(html, `data-state="static"`) {
		t.Error("the prerendered page is not marked static")
	}
	if !strings.Contains(html, linktest.Query(settings.IDBitsPerKey, "9.6")) || !strings.Contains(html, linktest.Query(settings.IDHashes, "7")) {
		t.Error("the lab link does not carry the plan's shape")
	}

	fiveP := renderCalculator(t, linktest.Query(settings.CalcN, "100000000", settings.CalcP, "0.05"))
	for id, want := range map[string]string{"k-round": "4 0.050269", "k-ceil": "5 0.051029"} {
		re := regexp.MustCompile(`(?s)id="` + id + `".*?class="k"[^>]*>(\d+)<.*?class="rate"[^>]*>([^<]+)<`)
		m := re.FindStringSubmatch(fiveP)
		if m == nil || m[1]+" "+m[2] != want {
			t.Errorf("#%s = %v, want %q", id, m, want)
		}
	}
}

func TestCalculatorShowsFieldErrors(t *testing.T) {
	t.Parallel()
	html := renderCalculator(t, linktest.Query(settings.CalcFind, "p", settings.CalcN, "lots", settings.CalcM, "5+Mb"))
	if got := textOf(html, "n-error"); !strings.Contains(got, `n must be a count of keys`) {
		t.Errorf("#n-error = %q", got)
	}
	if got := textOf(html, "m-error"); !strings.Contains(got, `m has unknown unit &#34;Mb&#34;`) && !strings.Contains(got, `m has unknown unit "Mb"`) {
		t.Errorf("#m-error = %q", got)
	}
	// The prerendered HTML writes aria-invalid="true" as a bare attribute;
	// the browser sets the value.
	if !strings.Contains(html, `aria-invalid`) {
		t.Error("a bad form is not marked")
	}
	if strings.Contains(html, `id="alternatives"`) {
		t.Error("a bad form still shows the plan's tables")
	}
	if got := textOf(html, "calc-error"); got != "Fix the marked field to see the plan." {
		t.Errorf("#calc-error = %q", got)
	}
}

// TestCalculatorMeasured: the measured column shows what plan.Measure
// found for each row, with its counts in data attributes, and a titled dash
// for a structure the lab cannot build.
func TestCalculatorMeasured(t *testing.T) {
	t.Parallel()
	html := renderCalculator(t, linktest.Query(settings.CalcN, "100000000", settings.CalcP, "0.01"))
	q, _ := url.ParseQuery(linktest.Query(settings.CalcN, "100000000", settings.CalcP, "0.01"))
	f, _ := settings.CalculatorFromQuery(q)
	pl := f.Solve().Plan
	for _, m := range plan.Measure(pl) {
		// go-app writes attributes in no fixed order.
		row := regexp.MustCompile(`(?s)<tr [^>]*id="alt-` + regexp.QuoteMeta(m.ID) + `"[^>]*>.*?</tr>`).FindString(html)
		cell := regexp.MustCompile(`(?s)<td [^>]*class="num measured[^"]*"[^>]*>.*?</td>`).FindString(row)
		if cell == "" {
			t.Errorf("%s: no measured cell in %q", m.ID, row)
			continue
		}
		if !m.Built {
			titled := strings.Contains(cell, `title="`+m.Why+`"`) || strings.Contains(cell, `title="`+stdhtml.EscapeString(m.Why)+`"`)
			shown := strings.Contains(cell, `<small class="why">`+stdhtml.EscapeString(m.Why)+`</small>`)
			if !strings.Contains(cell, "<span>—</span>") || !titled || !shown {
				t.Errorf("%s: not built (%s), cell %q", m.ID, m.Why, cell)
			}
			continue
		}
		for _, want := range []string{
			`data-fp="` + strconv.FormatUint(m.FalsePositives, 10) + `"`,
			`data-queries="` + strconv.FormatUint(m.Queries, 10) + `"`,
			`<span class="rate">` + calcRate(m.Rate) + `</span>`,
			calcRate(m.Low) + " – " + calcRate(m.High),
		} {
			if !strings.Contains(cell, want) {
				t.Errorf("%s: cell %q lacks %q", m.ID, cell, want)
			}
		}
	}
	if n := strings.Count(html, `data-label="measured"`); n != len(pl.Alternatives) {
		t.Errorf("%d measured cells, want one a row, %d", n, len(pl.Alternatives))
	}
}

// textOf returns the text of the element with the given id in html.
func textOf(html, id string) string {
	re := regexp.MustCompile(`id="` + regexp.QuoteMeta(id) + `"[^>]*>([^<]*)<`)
	m := re.FindStringSubmatch(html)
	if m == nil {
		return ""
	}
	return strings.TrimSpace(m[1])
}

// The default link's tables are never measured, however many times the
// page is rendered (they come with the program, and TestDefaultTables
// holds them to what measuring gives); any other link is measured each
// time. The test counts measure's calls (so it runs alone, not in
// parallel).
func TestDefaultNeverMeasured(t *testing.T) {
	counted, calls := measure, 0
	measure = func(f settings.Calculator) settings.Solved { calls++; return counted(f) }
	defaultSolved = sync.OnceValue(solveDefault)
	t.Cleanup(func() { measure, defaultSolved = counted, sync.OnceValue(solveDefault) })
	first := renderCalculator(t, "")
	for range 4 {
		if renderCalculator(t, "") == "" {
			t.Fatal("no page")
		}
	}
	renderCalculator(t, linktest.Query(settings.CalcN, "100000000", settings.CalcP, "0.01"))
	if calls != 0 {
		t.Errorf("6 renders of the default link measured %d times, want 0", calls)
	}
	if !strings.Contains(first, `class="num measured`) {
		t.Error("the default page has no measured column")
	}
	const other = 3
	for range other {
		renderCalculator(t, linktest.Query(settings.CalcN, "4000", settings.CalcP, "0.01"))
	}
	if calls != other {
		t.Errorf("%d renders of another link measured %d times, want %d", other, calls, other)
	}
}

var (
	tagRe  = regexp.MustCompile(`<([a-z0-9]+)((?:\s+[a-z-]+(?:="[^"]*")?)*)\s*(/?)>`)
	attrRe = regexp.MustCompile(`[a-z-]+(?:="[^"]*")?`)
)

// sortedAttrs is html with each tag's attributes in order: go-app writes
// them in no set order.
func sortedAttrs(html string) string {
	return tagRe.ReplaceAllStringFunc(html, func(tag string) string {
		m := tagRe.FindStringSubmatch(tag)
		attrs := attrRe.FindAllString(m[2], -1)
		slices.Sort(attrs)
		return "<" + strings.Join(append([]string{m[1]}, attrs...), " ") + m[3] + ">"
	})
}

// TestFirstViewTables: for a link other than the default, the server's
// page carries the tables it measured, and the live page, given that
// page, takes them over without measuring: the same tables, field for
// field, as measuring gives. A form other than the first view's is
// measured; the default link's page carries none (the program has them).
func TestFirstViewTables(t *testing.T) {
	counted, calls := measure, 0
	measure = func(f settings.Calculator) settings.Solved { calls++; return counted(f) }
	t.Cleanup(func() {
		measure = counted
		taken.once, taken.view = sync.Once{}, firstView{}
	})
	serve := func(query string) (settings.Calculator, string) {
		t.Helper()
		q, err := url.ParseQuery(query)
		if err != nil {
			t.Fatal(err)
		}
		c := New()
		c.form, _ = settings.CalculatorFromQuery(q)
		c.res, c.from = solveTaking(c.form)
		c.firstView = firstViewJSON(c.form, c.res)
		e := app.NewTestEngine()
		if err := e.Load(c); err != nil {
			t.Fatal(err)
		}
		e.ConsumeAll()
		m := regexp.MustCompile(`data-tables="([^"]*)"`).FindStringSubmatch(app.HTMLString(c))
		if m == nil {
			return c.form, ""
		}
		return c.form, stdhtml.UnescapeString(m[1])
	}
	if _, raw := serve(""); raw != "" {
		t.Errorf("the default link's page carries tables: %.80s…", raw)
	}
	f, raw := serve(linktest.Query(settings.CalcN, "4000", settings.CalcP, "0.01"))
	if raw == "" {
		t.Fatal("the page of a link other than the default carries no tables")
	}
	fresh := counted(f)

	taken.once, taken.view = sync.Once{}, firstView{}
	readFirstView(func() string { return raw })
	calls = 0
	got, from := solveTaking(f)
	if calls != 0 || from != "first view" {
		t.Errorf("the live page measured %d times, its tables from %q, want none and the first view", calls, from)
	}
	if !reflect.DeepEqual(got, withoutSpecs(fresh)) {
		t.Errorf("the tables taken over are not what measuring gives:\ntaken %+v\nfresh %+v", tablesOf(got), tablesOf(fresh))
	}
	other, _ := settings.CalculatorFromQuery(url.Values{settings.CalcN: {"5000"}, settings.CalcP: {"0.01"}})
	if _, from := solveTaking(other); from != "measured" || calls != 1 {
		t.Errorf("another form's tables came from %q after %d measurements, want measured once", from, calls)
	}
}

// withoutSpecs is r with each alternative's Spec left out, as a first view
// carries them: the page never reads them.
func withoutSpecs(r settings.Solved) settings.Solved {
	r.Plan.Alternatives = slices.Clone(r.Plan.Alternatives)
	for i := range r.Plan.Alternatives {
		r.Plan.Alternatives[i].Spec = core.Spec{}
	}
	return r
}

// TestKnownLeavesAlternatives: a typed form answers with its figures
// alone, its alternatives left to the lab's worker (measureTables), while
// the default form and the first view's bring theirs whole.
func TestKnownLeavesAlternatives(t *testing.T) {
	f, _ := settings.CalculatorFromQuery(url.Values{settings.CalcN: {"4000"}, settings.CalcP: {"1e-19"}})
	r, from := known(f)
	if !r.OK || from != "" || r.Plan.Alternatives != nil || r.Plan.M == 0 {
		t.Errorf("a typed form: from %q, %d alternatives, m = %d, want its figures and no alternatives yet", from, len(r.Plan.Alternatives), r.Plan.M)
	}
	d, from := known(settings.DefaultCalculator())
	if from != "program" || len(d.Plan.Alternatives) == 0 || len(d.Measured) != len(d.Plan.Alternatives) {
		t.Errorf("the default form: from %q, %d alternatives, %d measured, want them whole from the program", from, len(d.Plan.Alternatives), len(d.Measured))
	}
}

// heldPage is the page with its context kept, for a test to dispatch a
// new form as the page's own events do.
type heldPage struct {
	*Page
	ctx app.Context
}

// OnPreRender, as the test engine is the server's, where OnMount is not called.
func (p *heldPage) OnPreRender(ctx app.Context) { p.ctx = ctx }

// TestStillPartsRenderOnce: a new form renders the page again, its figures
// and tables anew, and its still parts (headings, explanations, table
// heads) not. The test counts their renders (so it runs alone, not in
// parallel).
func TestStillPartsRenderOnce(t *testing.T) {
	counted, renders := still, 0
	still = func(render func() app.UI) app.UI {
		return counted(func() app.UI { renders++; return render() })
	}
	t.Cleanup(func() { still = counted })
	p := &heldPage{Page: New()}
	p.show(settings.DefaultCalculator())
	e := app.NewTestEngine()
	if err := e.Load(p); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	first := renders
	if first == 0 || !strings.Contains(app.HTMLString(p), `id="alternatives-title"`) {
		t.Fatalf("the page rendered %d still parts, its headings among them", first)
	}
	f := settings.DefaultCalculator()
	f.Values[settings.CalcN] = "4000"
	p.ctx.Dispatch(func(app.Context) { p.show(f) })
	e.ConsumeAll()
	html := app.HTMLString(p)
	if got := textOf(html, "calc-out-n"); got != "4,000" {
		t.Errorf("after a new form n shows %q, want 4,000", got)
	}
	if !strings.Contains(html, `id="alternatives-title"`) {
		t.Error("after a new form the tables' heading is gone")
	}
	if renders != first {
		t.Errorf("a new form rendered the still parts %d more times, want none", renders-first)
	}
}
