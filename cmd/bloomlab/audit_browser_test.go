//go:build !js

package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/audit"
	"github.com/bloomlab/bloomlab/core"

	"github.com/chromedp/chromedp"
)

// shownRows lists the IDs of the audit's rows a reader can see past the
// filter (a closed group's rows count: the group says how many).
const shownRows = `[...document.querySelectorAll('#audit-checks details:not([hidden]) tr[id^="check-"]:not([hidden])')].map(tr => tr.id.slice(6))`

// TestBrowserAuditGroups: on a phone, the audit of a broken filter lists
// its checks by group in audit.Groups' order, each heading counting its
// verdicts, the groups with a failure open with their failures first and
// the others closed; the filter narrows the list by verdict and by text;
// and no check's ID is broken inside a word.
func TestBrowserAuditGroups(t *testing.T) {
	needBrowser(t)
	base := labURL(t)
	ctx := btab(t, 360, 800)
	bdo(t, ctx, chromedp.Navigate(base+"/audit?"+params(settings.IDFault, "one-hash")), waitAudit())
	broken, _ := audit.Run(audit.MustLab(core.Variant{}, core.OneHash, ""), nil)

	var want []string
	for _, g := range audit.Groups {
		var passed, failed, skipped int
		for _, o := range broken.Checks {
			switch {
			case o.Group != g:
			case o.Skipped:
				skipped++
			case o.Pass:
				passed++
			default:
				failed++
			}
		}
		want = append(want, fmt.Sprintf("%s|%d passed · %d failed · %d skipped|open %v", g, passed, failed, skipped, failed > 0))
	}
	got := beval[[]string](t, ctx, `[...document.querySelectorAll('#audit-checks details')].map(d =>
  d.querySelector('summary h2').textContent + "|" + d.querySelector('summary .group-counts').textContent + "|open " + d.open)`)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("groups:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if bad := beval[[]string](t, ctx, `[...document.querySelectorAll('#audit-checks details[open] tbody')].filter(b => {
  const rows = [...b.rows].map(r => r.classList.contains("fail"));
  return rows.indexOf(false) >= 0 && rows.lastIndexOf(true) > rows.indexOf(false);
}).map(b => b.closest("details").id)`); len(bad) > 0 {
		t.Errorf("groups %q list a failure after a check that did not fail", bad)
	}

	count := func(keep func(audit.Outcome) bool) int {
		n := 0
		for _, o := range broken.Checks {
			if keep(o) {
				n++
			}
		}
		return n
	}
	shows := func(show, filter string) {
		t.Helper()
		bwaitEval(t, ctx, `(() => { const l = document.getElementById("audit-checks"); return (l.dataset.show ?? "") + "|" + (l.dataset.filter ?? ""); })()`,
			func(s string) bool { return s == show+"|"+filter })
	}
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#audit-show-failed")))
	shows("failed", "")
	if rows := beval[[]string](t, ctx, shownRows); len(rows) != broken.Failed || broken.Failed == 0 {
		t.Errorf("Failed shows %d rows, want the %d failures", len(rows), broken.Failed)
	}
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#audit-show-skipped")))
	shows("skipped", "")
	if rows := beval[[]string](t, ctx, shownRows); len(rows) != broken.Skipped || broken.Skipped == 0 {
		t.Errorf("Skipped shows %d rows, want the %d skipped", len(rows), broken.Skipped)
	}
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#audit-show-all")), chromedp.SendKeys(chromedp.CSS("#audit-filter"), "Seed"))
	shows("", "Seed")
	seed := count(func(o audit.Outcome) bool {
		return strings.Contains(strings.ToLower(o.ID), "seed") || strings.Contains(strings.ToLower(o.Contract), "seed")
	})
	if rows := beval[[]string](t, ctx, shownRows); len(rows) != seed || seed == 0 || seed == len(broken.Checks) {
		t.Errorf("the filter \"Seed\" shows %d rows, want the %d checks whose ID or contract says seed", len(rows), seed)
	}
	if open := beval[bool](t, ctx, `[...document.querySelectorAll('#audit-checks details:not([hidden])')].every(d => d.open)`); !open {
		t.Error("a group with a match is closed while the filter is on")
	}

	// Every piece of an ID between its '/' and '-' sits on one line: a
	// phone's cards and a laptop's narrow column break the ID only after
	// them.
	beval[bool](t, ctx, `(() => {
  const f = document.getElementById("audit-filter"); f.value = ""; f.dispatchEvent(new Event("input", {bubbles: true}));
  return true;
})()`)
	shows("", "")
	for _, width := range []int64{360, 1280} {
		bdo(t, ctx, chromedp.EmulateViewport(width, 800))
		split := beval[[]string](t, ctx, `(() => {
  document.querySelectorAll('#audit-checks details').forEach(d => d.open = true);
  const split = [];
  for (const code of document.querySelectorAll('#audit-checks td.check-id code')) {
    for (const n of code.childNodes) {
      if (n.nodeType !== Node.TEXT_NODE || n.textContent === "") continue;
      const r = document.createRange(); r.selectNodeContents(n);
      const tops = new Set([...r.getClientRects()].map(b => Math.round(b.top)));
      if (tops.size > 1) split.push(code.textContent);
    }
  }
  return split;
})()`)
		if len(split) > 0 {
			t.Errorf("%d IDs break inside a word at %d px, %q first", len(split), width, split[0])
		}
	}
}

// TestBrowserAuditHeldAnswers: with the audit held mid-way (bloomlab.hold,
// from the page's first frame: each worker stops after its first check),
// the list has drawn every row, in the
// groups' order, and the rows with a verdict are the audit's first checks,
// as many as the progress says, in the audit's order; a click on a closed
// group opens it and a verdict button narrows the list while the run
// stands held; let go, the run ends with every row's verdict in place and
// the group the reader opened still open.
func TestBrowserAuditHeldAnswers(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	defer holdFromStart(t, ctx)()
	bdo(t, ctx, chromedp.Navigate(labURL(t)+"/audit"))
	checks := audit.Checks()
	// Each of the audit's workers holds after its first check, so the run
	// stands at one check a worker.
	workers := beval[int](t, ctx, `Math.min(Math.max(navigator.hardwareConcurrency, 1), 8)`)
	bwaitEval(t, ctx, `String(document.getElementById("audit-progress")?.value)`, func(s string) bool { return s == strconv.Itoa(workers) })
	bwaitEval(t, ctx, `document.getElementById("audit-checks")?.dataset.rows ?? ""`, func(s string) bool { return s == strconv.Itoa(len(checks)) })
	done := beval[int](t, ctx, `document.getElementById("audit-progress").value`)
	if state := beval[string](t, ctx, `document.getElementById("audit").dataset.state`); state != "running" || done >= len(checks) {
		t.Fatalf("state %q with %d of %d checks done, want the run held mid-way", state, done, len(checks))
	}

	// The rows drawn, in the groups' order.
	var inGroups []string
	for _, g := range audit.Groups {
		for _, c := range checks {
			if c.Group == g {
				inGroups = append(inGroups, c.ID)
			}
		}
	}
	if got := beval[[]string](t, ctx, `[...document.querySelectorAll('#audit-checks tr[id^="check-"]')].map(tr => tr.id.slice(6))`); strings.Join(got, " ") != strings.Join(inGroups, " ") {
		t.Errorf("rows drawn:\n%q\nwant every check in the groups' order:\n%q", got, inGroups)
	}
	// The verdicts so far: the audit's first checks, in its order.
	ran := beval[[]string](t, ctx, `[...document.querySelectorAll('#audit-checks tr[id^="check-"]:not(.pending)')].map(tr => tr.id.slice(6))`)
	index := map[string]int{}
	for i, c := range checks {
		index[c.ID] = i
	}
	slices.SortFunc(ran, func(a, b string) int { return index[a] - index[b] })
	var first []string
	for _, c := range checks[:done] {
		first = append(first, c.ID)
	}
	if strings.Join(ran, " ") != strings.Join(first, " ") {
		t.Errorf("rows with a verdict while held: %q, want the first %d checks: %q", ran, done, first)
	}

	// A click on a verdict button, and on a closed group, while held (a
	// verdict button opens the groups it shows and closes them again).
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#audit-show-skipped")))
	bwaitEval(t, ctx, `document.getElementById("audit-checks").dataset.show ?? ""`, func(s string) bool { return s == "skipped" })
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#audit-show-all")))
	bwaitEval(t, ctx, `document.getElementById("audit-checks").dataset.show ?? ""`, func(s string) bool { return s == "" })
	last := "group-" + strings.ReplaceAll(audit.Groups[len(audit.Groups)-1], " ", "-")
	if beval[bool](t, ctx, `document.getElementById("`+last+`").open`) {
		t.Fatalf("#%s is open before the click", last)
	}
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#"+last+" summary")))
	bwaitEval(t, ctx, `String(document.getElementById("`+last+`").open)`, func(s string) bool { return s == "true" })
	if now := beval[int](t, ctx, `document.getElementById("audit-progress").value`); now != done {
		t.Fatalf("%d checks done after the clicks, %d before: the run was not held", now, done)
	}

	holdRuns(t, ctx, false)
	bdo(t, ctx, waitAudit())
	if n := beval[int](t, ctx, `document.querySelectorAll('#audit-checks tr.pending').length`); n != 0 {
		t.Errorf("%d rows still pending once the audit is done", n)
	}
	if !beval[bool](t, ctx, `document.getElementById("`+last+`").open`) {
		t.Errorf("#%s, opened during the run, closed as the run went on", last)
	}
}
