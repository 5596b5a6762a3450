package lab

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/core/keys"
	"github.com/bloomlab/bloomlab/core/sim"

	"github.com/bloomlab/bloomlab/app/engine"
	"github.com/bloomlab/bloomlab/app/lab/charts"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui/format"
	"github.com/bloomlab/bloomlab/core"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

func TestParseOwnKeys(t *testing.T) {
	t.Parallel()
	small := keys.Limits{MaxKeys: 3, MaxBytes: 64, MaxLineBytes: 8}
	cases := []struct {
		name            string
		members, absent string
		fromBox         bool
		lim             keys.Limits
		lines, n, dups  int // members
		absentKeys      int
		says            string // the error, if any
	}{
		{name: "duplicates dropped", members: "a\nb\na\r\n\nc\nb\n", absent: "x\ny\nx\n", fromBox: true,
			lim: engine.KeyLimits, lines: 5, n: 3, dups: 2, absentKeys: 2},
		{name: "empty absent box", members: "a\n", absent: "", fromBox: true, lim: engine.KeyLimits, lines: 1, n: 1},
		{name: "blank absent box", members: "a\n", absent: "\n \n\t\n", fromBox: true, lim: engine.KeyLimits, lines: 1, n: 1},
		{name: "empty absent file", members: "a\n", absent: "", lim: engine.KeyLimits, says: "absent queries: no keys"},
		{name: "empty members", members: "\n\n", fromBox: true, lim: engine.KeyLimits, says: "members: no keys: the input is empty"},
		{name: "NUL", members: "a\nb\x00c\n", fromBox: true, lim: engine.KeyLimits, says: "members: keys must be text: line 2 holds a NUL byte"},
		{name: "invalid UTF-8", members: "ok\n", absent: "\xff\xfe\n", lim: engine.KeyLimits, says: "absent queries: keys must be text: line 1 is not valid UTF-8"},
		{name: "5000-byte line", members: "a\n" + strings.Repeat("x", 5000) + "\n", fromBox: true, lim: engine.KeyLimits,
			says: "members: key too long: line 2 is over 4096 bytes"},
		{name: "too many keys", members: "a\nb\nc\nd\n", fromBox: true, lim: small, says: "members: too many keys: more than 3"},
		{name: "too many bytes", members: strings.Repeat("abcdefg\n", 2), absent: strings.Repeat("1234567\n", 9),
			lim:  keys.Limits{MaxKeys: 100, MaxBytes: 64, MaxLineBytes: 8},
			says: "absent queries: key list too large: more than 64 bytes"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			own, err := engine.ParseOwnKeys([]byte(tc.members), []byte(tc.absent), tc.fromBox, tc.lim, nil)
			if tc.says != "" {
				if err == nil || !strings.Contains(err.Error(), tc.says) {
					t.Fatalf("error %v, want one saying %q", err, tc.says)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if own.Members.Lines != tc.lines || own.N() != tc.n || own.Members.Duplicates != tc.dups || own.Absent.Len() != tc.absentKeys {
				t.Errorf("lines %d n %d duplicates %d absent %d; want %d %d %d %d", own.Members.Lines, own.N(),
					own.Members.Duplicates, own.Absent.Len(), tc.lines, tc.n, tc.dups, tc.absentKeys)
			}
		})
	}
	t.Run("a newer read stops this one", func(t *testing.T) {
		members := []byte(strings.Repeat("key\n", 100_000))
		calls := 0
		_, err := engine.ParseOwnKeys(members, nil, true, engine.KeyLimits, func(done, total int) error {
			calls++
			if calls == 3 {
				return sim.ErrCancelled
			}
			return nil
		})
		if !errors.Is(err, sim.ErrCancelled) {
			t.Errorf("error %v after the step said stop, want core.ErrCancelled", err)
		}
	})
	t.Run("steps through the text and the duplicates", func(t *testing.T) {
		var members, absent strings.Builder
		for i := range 100_000 {
			fmt.Fprintf(&members, "member-%d\n", i%60_000)
			fmt.Fprintf(&absent, "absent-%d\n", i)
		}
		last, held := -1, 0
		_, err := engine.ParseOwnKeys([]byte(members.String()), []byte(absent.String()), false, engine.KeyLimits, func(done, total int) error {
			if done < last || total != members.Len()+absent.Len() || done > total {
				t.Errorf("step(%d, %d) after %d", done, total, last)
			}
			if done == members.Len() {
				held++
			}
			last = done
			return nil
		})
		if err != nil || last < members.Len() || held < 2 {
			t.Errorf("error %v, last step at %d, %d steps at the members' end: want steps into the absent list past %d, and while the duplicates go", err, last, held, members.Len())
		}
	})
}

func TestOwnKeysReport(t *testing.T) {
	t.Parallel()
	own, err := engine.ParseOwnKeys([]byte("a\nb\na\nc\nd\ne\n"), []byte("x\ny\nc\nx\n"), true, engine.KeyLimits, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := ownReport(own); !strings.Contains(got, "checking which are members") {
		t.Errorf("before the first run: %q", got)
	}
	own.AbsentMembers = 1
	want := "Your own keys: 6 member lines read, 1 duplicate dropped (a key counts once), so n = 5. " +
		"4 absent lines read, 1 duplicate dropped, 1 member left out of the rate (it is not absent): 2 absent queries measured."
	if got := ownReport(own); got != want {
		t.Errorf("report\n got %q\nwant %q", got, want)
	}
	none, _ := engine.ParseOwnKeys([]byte("a\n"), nil, true, engine.KeyLimits, nil)
	if got := ownReport(none); !strings.HasSuffix(got, "No absent queries, so no measured rate.") {
		t.Errorf("without absent keys: %q", got)
	}
}

// TestLabPageOwnKeys renders the lab running on a user's lists: the
// counters show that run, the report counts the duplicates, the sliders the
// lists decide are off, and going back brings the generated keys back.
func TestLabPageOwnKeys(t *testing.T) {
	t.Parallel()
	own, err := engine.ParseOwnKeys([]byte("alice\nbob\ncarol\nbob\ndave\n"), []byte("mallory\ntrent\nalice\n"), true, engine.KeyLimits, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := settings.DefaultLab()
	before := New()
	before.settings, before.own.keys = s, own
	before.setTheory()
	if got := textOf(labHTML(t, before), "out-n"); got != "4" {
		t.Errorf("out-n before the run = %q, want the 4 distinct members", got)
	}
	r, err := engine.Simulate(runParams(s, own), s.Typed.List(), own, nil)
	if err != nil {
		t.Fatal(err)
	}
	own.AbsentMembers = r.AbsentMembers
	c := New()
	c.settings, c.own.keys, c.result = s, own, &r.Result
	c.setTheory()
	c.charts.Redraw(c.result, c.shapeParams(), charts.Play{})
	html := labHTML(t, c)

	want, err := sim.RunKeys(c.settings.Params, [][]byte{[]byte("alice"), []byte("bob"), []byte("carol"), []byte("dave")},
		[][]byte{[]byte("mallory"), []byte("trent")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for id, w := range map[string]string{
		"out-m": "40", "out-n": "4", "out-false-negatives": "0 of 4",
		"out-false-positives":       format.Int(want.FalsePositives) + " of 2",
		settings.IDItems + "-value": "4", settings.IDQueries + "-value": "6", settings.IDPresentShare + "-value": "67", settings.IDKeyBytes + "-value": "varies",
	} {
		if got := textOf(html, id); got != w {
			t.Errorf("#%s = %q, want %q", id, got, w)
		}
	}
	if r.Digest != want.Digest {
		t.Errorf("the lab's run has digest %s, core's %s", r.Digest, want.Digest)
	}
	report := textOf(html, idOwnReport)
	for _, s := range []string{"5 member lines read, 1 duplicate dropped", "n = 4", "1 member left out of the rate"} {
		if !strings.Contains(report, s) {
			t.Errorf("report %q lacks %q", report, s)
		}
	}
	for _, id := range []string{settings.IDItems, settings.IDQueries, settings.IDPresentShare, settings.IDKeyBytes} {
		if !hasDisabled(html, "input", id) {
			t.Errorf("#%s is not disabled with own keys", id)
		}
	}
	for _, id := range []string{settings.IDBitsPerKey, settings.IDHashes, settings.IDDuplicatePasses} {
		if hasDisabled(html, "input", id) {
			t.Errorf("#%s is disabled, but it shapes the filter from own keys too", id)
		}
	}
	if hasDisabled(html, "button", idOwnBack) {
		t.Error("back to generated keys is disabled while own keys are in use")
	}
	if !strings.Contains(html, "not in the link") {
		t.Error("the section does not say the keys stay out of the link")
	}

	// Back to generated keys: the default counters and every slider on.
	g, err := engine.Simulate(runParams(s, nil), s.Typed.List(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	c = New()
	c.settings, c.result = s, &g.Result
	c.setTheory()
	html = labHTML(t, c)
	if got := textOf(html, "out-m"); got != "40,000" {
		t.Errorf("out-m back on generated keys = %q, want 40,000", got)
	}
	if strings.Contains(html, `id="`+idOwnReport+`"`) || hasDisabled(html, "input", settings.IDItems) {
		t.Error("the own-keys report or a disabled slider stayed after going back")
	}
	if !hasDisabled(html, "button", idOwnBack) {
		t.Error("back to generated keys is on without own keys")
	}
}

// TestOwnKeysOptimalK: with "use the optimal k" on, k follows the lists'
// own n, not the items slider the lists replace.
func TestOwnKeysOptimalK(t *testing.T) {
	t.Parallel()
	own, err := engine.ParseOwnKeys([]byte("alice\nbob\ncarol\ndave\n"), []byte("zed\n"), true, engine.KeyLimits, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := settings.DefaultLab()
	s.OptimalK, s.Params.BitsPerKey = true, 2.1 // m = 9 for 4 keys: k = 2, where 4,000 keys give k = 1
	s = s.Normalize()
	r, err := engine.Simulate(runParams(s, own), s.Typed.List(), own, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := core.OptimalK(r.M, 4); r.K != want {
		t.Errorf("k = %d for m = %d and 4 keys, want the optimum %d", r.K, r.M, want)
	}
}

// labHTML renders the lab as it stands in go-app's test engine.
func labHTML(t *testing.T, c *Page) string {
	t.Helper()
	e := app.NewTestEngine()
	if err := e.Load(c); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	return app.HTMLString(c)
}

// hasDisabled reports whether the element tag#id in html carries disabled.
func hasDisabled(html, tag, id string) bool {
	m := regexp.MustCompile(`<` + tag + `[^>]*id="` + regexp.QuoteMeta(id) + `"[^>]*>`).FindString(html)
	return regexp.MustCompile(` disabled[ =>]`).MatchString(m)
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
