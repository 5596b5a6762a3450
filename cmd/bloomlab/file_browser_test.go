//go:build !js

package main

import (
	"bytes"
	"encoding/base64"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"

	"github.com/chromedp/chromedp"
)

// savedBlobJS catches the next Blob the page offers for download, so a
// test reads the file's bytes as the browser would save them.
const savedBlobJS = `(() => {
  window.savedBlob = null;
  const make = URL.createObjectURL;
  URL.createObjectURL = (b) => { window.savedBlob = b; return make.call(URL, b); };
  return true;
})()`

// savedBytesJS is the caught Blob's bytes, in base64.
const savedBytesJS = `(async () => {
  const b = new Uint8Array(await window.savedBlob.arrayBuffer());
  let s = "";
  for (const x of b) s += String.fromCharCode(x);
  return btoa(s);
})()`

// TestBrowserFile: the counters show core's estimate of the lab's keys
// with its interval; the file view opens from a click (into the link)
// and from a link, and is not built without one; the lab's filter
// downloads as the bytes core.Save writes for it; opened again, the file
// is described and answers typed keys as the lab's filter does; a file
// with a byte flipped, or cut short, is refused in core's words.
func TestBrowserFile(t *testing.T) {
	needBrowser(t)
	s := settings.DefaultLab()
	s.Typed = settings.JoinTyped([]string{"apple"})
	r, err := sim.RunTyped(s.Run(), []string{"apple"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	e, err := core.EstimateKeys(r.Filter)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := core.Save(&want, r.Filter); err != nil {
		t.Fatal(err)
	}

	ctx := btab(t, 1280, 900)
	base := labURL(t)
	bdo(t, ctx, chromedp.Navigate(base+"/?"+s.Query().Encode()), waitLab())
	if got, w := btext(t, ctx, "#out-estimate"), thousands(uint64(math.Round(e.N)))+" ± "+thousands(uint64(math.Round(2*e.SD))); got != w {
		t.Errorf("estimate %q, want %q (n = %d)", got, w, r.N)
	}
	if beval[bool](t, ctx, `document.getElementById("estimate-chart") !== null || document.getElementById("file-open") !== null`) {
		t.Errorf("the file view is built while closed")
	}
	bdo(t, ctx, chromedp.Click(chromedp.CSS("#file-toggle")))
	bwaitEval(t, ctx, `String(document.querySelectorAll("#estimate-chart svg").length)`, func(s string) bool { return s == "1" })
	if u := beval[string](t, ctx, `location.search`); !strings.Contains(u, "file=on") {
		t.Errorf("the open view is not in the link: %s", u)
	}

	// The download is core.Save's file of the same filter, byte for byte.
	bdo(t, ctx, discard(chromedp.Evaluate[bool](savedBlobJS)), chromedp.Click(chromedp.CSS("#file-save")))
	bwaitEval(t, ctx, `String(window.savedBlob !== null)`, func(s string) bool { return s == "true" })
	got, err := base64.StdEncoding.DecodeString(beval[string](t, ctx, savedBytesJS))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("downloaded %d bytes, core.Save writes %d: they differ", len(got), want.Len())
	}

	// Opened again: described, and answering as the lab's filter does.
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	bdo(t, ctx, chromedp.SetUploadFiles(chromedp.CSS("#file-open"), []string{write("lab.blmf", got)}))
	shape := bwaitText(t, ctx, "#file-shape", func(s string) bool { return strings.Contains(s, "lab.blmf") })
	for _, w := range []string{"m" + thousands(r.M) + " bits", "k" + strconv.Itoa(r.K), "keys estimated" + thousands(uint64(math.Round(e.N)))} {
		if !strings.Contains(shape, w) {
			t.Errorf("the file's description %q lacks %q", shape, w)
		}
	}
	keys := []string{"apple", "pear", "plum"}
	for i := 0; len(keys) < 6 && i < 100_000; i++ {
		// A false positive or two: keys the lab never inserted that its
		// filter answers maybe for.
		if k := "w" + strconv.Itoa(i); contains(r.Filter, k) {
			keys = append(keys, k)
		}
	}
	for _, key := range keys {
		bdo(t, ctx, setKey(key), chromedp.Click(chromedp.CSS("#try-query")), waitPanel("try-file-label", "“"+key+"”"))
		verdict := btext(t, ctx, "#try-verdict")
		if maybe := strings.HasPrefix(verdict, "maybe"); maybe != contains(r.Filter, key) || (!maybe && !strings.HasPrefix(verdict, "no")) {
			t.Errorf("%q: the file answers %q; the lab's filter says maybe %v", key, verdict, contains(r.Filter, key))
		}
	}

	// Damaged files are refused in words, on the page.
	flipped := bytes.Clone(got)
	flipped[core.FileHeaderBytes+5] ^= 0x01
	for name, c := range map[string]struct {
		b    []byte
		says string
	}{
		"flipped.blmf":   {flipped, "filter file's payload fails its checksum"},
		"truncated.blmf": {got[:len(got)/2], "filter file ends early"},
	} {
		bdo(t, ctx, chromedp.SetUploadFiles(chromedp.CSS("#file-open"), []string{write(name, c.b)}))
		bwaitText(t, ctx, "#file-error", func(s string) bool {
			return strings.HasPrefix(s, "“"+name+"” was not opened: ") && strings.Contains(s, c.says)
		})
	}

	// A link opens the view.
	s.File = true
	bdo(t, ctx, chromedp.Navigate(base+"/?"+s.Query().Encode()), waitLab())
	bwaitEval(t, ctx, `String(document.querySelectorAll("#estimate-chart svg").length)`, func(s string) bool { return s == "1" })
}

// contains is f's answer for key.
func contains(f core.Membership, key string) bool {
	maybe, _ := f.Contains([]byte(key))
	return maybe
}
