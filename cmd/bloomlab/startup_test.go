//go:build !js

package main

import (
	"regexp"
	"slices"
	"testing"

	"bloomlab/audit"
)

// TestAuditPagePrerendersEveryCheck: the audit page as the server sends it
// has one row per check, in the audit's order, each pending, so that the
// outcomes fill rows already in place and nothing below the table moves
// as the audit runs (Lighthouse measured a layout shift of 0.085 when the
// rows were added one by one).
func TestAuditPagePrerendersEveryCheck(t *testing.T) {
	routesOnceForServe()
	web, _ := fakeWeb(t)
	h, err := labServer(web, "")
	if err != nil {
		t.Fatal(err)
	}
	res, body := get(t, h, "GET", "/audit")
	if res.StatusCode != 200 {
		t.Fatalf("GET /audit: %s", res.Status)
	}
	var ids []string
	for _, tr := range regexp.MustCompile(`<tr\b[^>]*>`).FindAllString(string(body), -1) {
		id := regexp.MustCompile(`\bid="check-([^"]+)"`).FindStringSubmatch(tr)
		if id == nil {
			continue
		}
		ids = append(ids, id[1])
		if !regexp.MustCompile(`\bclass="pending"`).MatchString(tr) {
			t.Errorf("row %s is not pending before the audit runs: %s", id[1], tr)
		}
	}
	var want []string
	for _, c := range audit.Checks() {
		want = append(want, c.ID)
	}
	if !slices.Equal(ids, want) {
		t.Errorf("the prerendered table has %d check rows, want one for each of the %d checks in order", len(ids), len(want))
	}
}
