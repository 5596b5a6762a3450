//go:build !js

package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// dropSeen keeps, on a new document, whether the last drop's default (the
// browser opening the dropped file in the tab) was turned off, once every
// handler had the drop. A drop comes to the page only if it turned the
// default of the drag over it off; else the browser has it.
const dropSeen = `window.addEventListener("drop", (e) => { setTimeout(() => { window.dropPrevented = String(e.defaultPrevented); }, 0); });`

// dropFile drops the file at path on the page at (x, y), as a reader
// dragging it from the desktop does: the browser's own drag events.
func dropFile(t *testing.T, ctx context.Context, path string, x, y float64) {
	t.Helper()
	data := &input.DragData{Items: []*input.DragDataItem{}, Files: []string{path}, DragOperationsMask: 1}
	for _, typ := range []input.DispatchDragEventType{input.DispatchDragEventTypeDragEnter, input.DispatchDragEventTypeDragOver, input.DispatchDragEventTypeDrop} {
		if _, err := chromedp.Call(ctx, input.DispatchDragEvent, input.DispatchDragEventParams{Type: typ, X: x, Y: y, Data: data}); err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
	}
}

// TestBrowserDroppedFileKeepsThePage: a file dropped on the page before
// it is live, or in a pause of a page's mount (the prerendered or the
// previous page in view, with none of the app's handlers, or with go-app's
// still waiting in its queue), or beside the drop zones, leaves the page
// where it is. The browser's default, the file opened in the tab in place
// of the page, threw the lab and its moves away. A file dropped on the
// file view once live is still opened there.
func TestBrowserDroppedFileKeepsThePage(t *testing.T) {
	needBrowser(t)
	file := filepath.Join(t.TempDir(), "keys.txt")
	if err := os.WriteFile(file, []byte("alice\nbob\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	hl := holdLab(t)
	ctx := btab(t, 1280, 900)
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: dropSeen}); err != nil {
		t.Fatal(err)
	}
	lab := hl.URL + "/?file=on"
	bdo(t, ctx, chromedp.Navigate(lab))
	bwaitText(t, ctx, "#app-wasm-loader-label", func(s string) bool { return strings.HasPrefix(s, "Starting the lab: ") })
	where := `location.href + " " + (window.dropPrevented ?? "no drop seen")`
	dropFile(t, ctx, file, 640, 450)
	if got := bwaitEval(t, ctx, where, func(s string) bool { return !strings.HasSuffix(s, "no drop seen") }); got != lab+" true" {
		t.Fatalf("a file dropped on the page before it was live: the page and the drop's default turned off are %q, want %q", got, lab+" true")
	}

	hl.Release()
	bdo(t, ctx, waitLab())
	bdo(t, ctx, chromedp.ScrollIntoView(chromedp.CSS("#file-view")))
	zone := beval[map[string]float64](t, ctx, `(() => {
  const r = document.getElementById("file-view").getBoundingClientRect();
  return {x: r.left + r.width / 2, y: r.top + 20};
})()`)
	beval[bool](t, ctx, `delete window.dropPrevented`)
	dropFile(t, ctx, file, zone["x"], zone["y"])
	if got := bwaitText(t, ctx, "#file-error", func(s string) bool { return s != "" }); !strings.Contains(got, "keys.txt") {
		t.Errorf("a file dropped on the file view once live: its error line says %q, not what was wrong with keys.txt", got)
	}
	if got := bwaitEval(t, ctx, where, func(s string) bool { return !strings.HasSuffix(s, "no drop seen") }); got != lab+" true" {
		t.Fatalf("a file dropped on the file view: the page and the drop's default turned off are %q, want %q", got, lab+" true")
	}
}
