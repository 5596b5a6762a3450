//go:build !wasm

package main

import (
	"strconv"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/core/try"

	"github.com/chromedp/chromedp"
)

// waitAttack waits until the key panel shows an attack of kind.
func waitAttack(kind string) chromedp.Action[chromedp.Void] {
	return discard(chromedp.Poll[bool](`document.querySelector('#try[data-state="ready"] #try-attack[data-kind="`+kind+`"]') !== null`,
		chromedp.WithPollingTimeout(0)))
}

// TestBrowserAttacks runs the key panel's three attacks as a learner
// would, each checked against bloomlab try on the same filter: the forged
// key and its tries, the crafted keys joining the typed ones (and the
// link), the members recovered from the PINs.
func TestBrowserAttacks(t *testing.T) {
	needBrowser(t)
	ctx := btab(t, 1280, 900)
	base := labURL(t)

	// Forge: the same key after the same tries as the command line's.
	bdo(t, ctx, chromedp.Navigate(base+"/"), waitLab(),
		chromedp.Click(chromedp.CSS("#try-forge")), waitAttack(try.AttackForge))
	cli := cliTry(t, "--forge")
	forged := cli.Queries[len(cli.Queries)-1]
	if got := btext(t, ctx, "#try-verdict"); !strings.HasPrefix(got, "maybe: a false positive. “"+forged.Key+"” was never inserted") {
		t.Errorf("forge: verdict %q, want %q's", got, forged.Key)
	}
	if got := btext(t, ctx, "#try-attack"); !strings.Contains(got, "Found after "+strconv.Itoa(cli.Attack.Tries)+" made-up keys") {
		t.Errorf("forge: %q, want %d tries", got, cli.Attack.Tries)
	}

	// Fill: 8 crafted keys, the same as the command line's, typed in.
	small := []string{settings.IDItems, "20", settings.IDBitsPerKey, "5", settings.IDHashes, "3"}
	bdo(t, ctx, chromedp.Navigate(base+"/?"+params(small...)), waitLab(),
		chromedp.Click(chromedp.CSS("#try-fill")), waitAttack(try.AttackFill), waitLab())
	fill := cliTry(t, "--items", "20", "--bits-per-key", "5", "--hashes", "3", "--fill", "8").Attack
	bwaitText(t, ctx, "#try-typed", func(s string) bool { return strings.Contains(s, "“"+fill.Keys[7]+"”") })
	if got := btext(t, ctx, "#try-attack"); !strings.Contains(got, "The 8 crafted keys turned on 24 bits, 3.0 a key of k = 3") ||
		!strings.Contains(got, "from 44% to 68%") {
		t.Errorf("fill: %q", got)
	}
	if got := beval[string](t, ctx, `new URLSearchParams(location.search).get("`+settings.IDTry+`")`); got != string(settings.JoinTyped(fill.Keys)) {
		t.Errorf("fill: the link's typed keys %q, want the crafted %v", got, fill.Keys)
	}
	if got := btext(t, ctx, "#out-set-bits"); !strings.HasPrefix(got, "68 ") {
		t.Errorf("fill: %q bits set, want 68", got)
	}

	// Recover: the typed PINs found among every 4-digit PIN.
	bdo(t, ctx, chromedp.Navigate(base+"/?"+params(settings.IDTry, "4821,1234")), waitLab(),
		chromedp.SetValue(chromedp.CSS("#try-recover-list"), try.ListPINs),
		chromedp.Click(chromedp.CSS("#try-recover")), waitAttack(try.AttackRecover))
	rec := cliTry(t, "--insert", "4821,1234", "--recover", "pins").Attack
	want := strconv.Itoa(rec.Positive) + " of 10,000 candidates (every 4-digit PIN) test positive: 2 members and " + strconv.Itoa(rec.Positive-2) + " others"
	if got := btext(t, ctx, "#try-attack"); !strings.Contains(got, want) {
		t.Errorf("recover: %q, want %q", got, want)
	}
	members := beval[[]string](t, ctx, `[...document.querySelectorAll("#try-attack-found li.member")].map((li) => li.textContent)`)
	if strings.Join(members, "|") != "“1234”, a member|“4821”, a member" {
		t.Errorf("recover: members listed %q", members)
	}
}

// The key panel's attacks: members recovered from the PINs.
func TestBrowserAttackShots(t *testing.T) {
	shootPart(t, "attack-recover", "/?"+params(settings.IDTry, "4821,1234"), "try",
		chromedp.SetValue(chromedp.CSS("#try-recover-list"), try.ListPINs),
		chromedp.Click(chromedp.CSS("#try-recover")), waitAttack(try.AttackRecover))
}
