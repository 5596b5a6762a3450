package settings

import (
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/internal/linktest"
)

func TestEmbedFromQuery(t *testing.T) {
	t.Parallel()
	all := make([]string, len(Sliders))
	for i, s := range Sliders {
		all[i] = s.ID
	}
	cases := []struct {
		name, query string
		want        Embed
		notices     []string
	}{
		{"no keys", "", Embed{Sliders: DefaultEmbedSliders}, nil},
		{"the lab's keys only", linktest.Query(IDHashes, "5", IDLarge, "on"), Embed{Sliders: DefaultEmbedSliders}, nil},
		{"in the writer's order", linktest.Query(IDControls, "items,hashes"), Embed{Sliders: []string{IDItems, IDHashes}}, nil},
		{"every slider", linktest.Query(IDControls, strings.Join(all, ",")), Embed{Sliders: all}, nil},
		{"spaces, case and empty items", linktest.Query(IDControls, "+Hashes,,+ITEMS+"), Embed{Sliders: []string{IDHashes, IDItems}}, nil},
		{"none", linktest.Query(IDControls, "none"), Embed{}, nil},
		{"empty", linktest.Query(IDControls, ""), Embed{}, nil},
		{"unknown slider", linktest.Query(IDControls, "hashes,colour"), Embed{Sliders: []string{IDHashes}},
			[]string{`controls: "colour" is not one of the lab's sliders (bits-per-key, hashes, duplicate-passes, items, queries, present-share, key-bytes), so it is left out`}},
		{"unknown sliders, one notice", linktest.Query(IDControls, "hashes,colour,seed,colour"), Embed{Sliders: []string{IDHashes}},
			[]string{`controls: 3 names are not the lab's sliders (bits-per-key, hashes, duplicate-passes, items, queries, present-share, key-bytes), so they are left out; the first is "colour"`}},
		{"twice", linktest.Query(IDControls, "hashes,hashes"), Embed{Sliders: []string{IDHashes}}, []string{"controls: hashes is listed twice, so it is shown once"}},
		{"many times, one notice", linktest.Query(IDControls, "hashes,hashes,items,hashes,items"), Embed{Sliders: []string{IDHashes, IDItems}},
			[]string{"controls: 3 names are listed again, so each is shown once; the first is hashes"}},
		{"repeated key, the last wins", linktest.Query(IDControls, "items", IDControls, "hashes"), Embed{Sliders: []string{IDHashes}}, nil},
		{"chart k", linktest.Query(IDChart, "k"), Embed{Sliders: DefaultEmbedSliders, Chart: ChartK}, nil},
		{"chart bits per key", linktest.Query(IDChart, "Bits-Per-Key"), Embed{Sliders: DefaultEmbedSliders, Chart: ChartBitsPerKey}, nil},
		{"no chart", linktest.Query(IDChart, "none"), Embed{Sliders: DefaultEmbedSliders}, nil},
		{"unknown chart", linktest.Query(IDChart, "pie"), Embed{Sliders: DefaultEmbedSliders}, []string{`chart: "pie" is not k or bits-per-key, so the embed shows no chart`}},
		{"key panel", linktest.Query(IDPanel, "try"), Embed{Sliders: DefaultEmbedSliders, Panel: true}, nil},
		{"chart and panel", linktest.Query(IDChart, "k", IDPanel, "try"), Embed{Sliders: DefaultEmbedSliders, Chart: ChartK, Panel: true}, nil},
		{"unknown panel", linktest.Query(IDPanel, "player"), Embed{Sliders: DefaultEmbedSliders}, []string{`panel: "player" is not try (the key panel), so the embed shows none`}},
		{"frame name", linktest.Query(IDFrame, "fig-2.a_b:c"), Embed{Sliders: DefaultEmbedSliders, Frame: "fig-2.a_b:c"}, nil},
		{"longest frame name", linktest.Query(IDFrame, strings.Repeat("a", maxFrameID)), Embed{Sliders: DefaultEmbedSliders, Frame: strings.Repeat("a", maxFrameID)}, nil},
		{"frame name too long", linktest.Query(IDFrame, strings.Repeat("a", maxFrameID+1)), Embed{Sliders: DefaultEmbedSliders}, []string{"id: \"aaa"}},
		{"frame name with markup", linktest.Query(IDFrame, "%3Cb%3E"), Embed{Sliders: DefaultEmbedSliders}, []string{`id: "<b>" is not a name of 1 to 64 letters`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q, err := url.ParseQuery(c.query)
			if err != nil {
				t.Fatal(err)
			}
			got, notices := EmbedFromQuery(q)
			if !slices.Equal(got.Sliders, c.want.Sliders) || got.Chart != c.want.Chart || got.Panel != c.want.Panel || got.Frame != c.want.Frame {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
			if len(notices) != len(c.notices) {
				t.Fatalf("notices %q, want %d like %q", notices, len(c.notices), c.notices)
			}
			for i, n := range c.notices {
				if !strings.HasPrefix(notices[i], n) {
					t.Errorf("notice %q, want it to begin %q", notices[i], n)
				}
			}
			// What was read is written back as read, with no notice.
			again, more := EmbedFromQuery(got.Query())
			if !slices.Equal(again.Sliders, got.Sliders) || again.Chart != got.Chart || again.Panel != got.Panel || again.Frame != got.Frame || len(more) > 0 {
				t.Errorf("round trip: %+v with notices %q, want %+v", again, more, got)
			}
		})
	}
}

// An embed's link carries the lab's settings and the embed's keys, each
// read back as written, and never a key of the one for the other.
func TestEmbedLink(t *testing.T) {
	t.Parallel()
	s := Presets()[3].Settings
	s.Large, s.Typed = true, JoinTyped([]string{"apple", "pear & plum"})
	e := Embed{Sliders: []string{IDItems}, Chart: ChartK, Panel: true, Frame: "fig1"}
	link := EmbedLink("https://example.org/bloomlab/embed", s, e)
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	if u.Scheme+"://"+u.Host+u.Path != "https://example.org/bloomlab/embed" {
		t.Errorf("link %q is not at the embed's address", link)
	}
	gotLab, notices := LabFromQuery(u.Query())
	if gotLab != s || len(notices) > 0 {
		t.Errorf("the lab's settings read back as %+v with %q, want %+v", gotLab, notices, s)
	}
	gotEmbed, notices := EmbedFromQuery(u.Query())
	if !slices.Equal(gotEmbed.Sliders, e.Sliders) || gotEmbed.Chart != e.Chart || !gotEmbed.Panel || gotEmbed.Frame != e.Frame || len(notices) > 0 {
		t.Errorf("the embed's keys read back as %+v with %q, want %+v", gotEmbed, notices, e)
	}
	for k := range e.Query() {
		if _, ok := s.Query()[k]; ok {
			t.Errorf("the embed's key %q is also one of the lab's", k)
		}
	}
}

func TestEmbedSnippet(t *testing.T) {
	t.Parallel()
	link := EmbedLink("https://example.org/embed", DefaultLab(), DefaultEmbed())
	snippet := EmbedSnippet(link, `https://example.org"</script>`)
	if !strings.Contains(snippet, `<iframe src="`+strings.ReplaceAll(link, "&", "&amp;")+`"`) {
		t.Errorf("the snippet does not frame the link, escaped for HTML:\n%s", snippet)
	}
	if !strings.Contains(snippet, `e.origin !== "https://example.org\"\x3c/script>"`) {
		t.Errorf("the snippet does not check the origin, quoted for a script:\n%s", snippet)
	}
	if !strings.Contains(snippet, `"`+HeightMessage+`"`) {
		t.Errorf("the snippet does not listen for %s", HeightMessage)
	}
	script := snippet[strings.Index(snippet, "<script>"):]
	if lines := strings.Count(strings.TrimSpace(script), "\n") + 1; lines > 7 {
		t.Errorf("the script is %d lines, want five between its tags", lines)
	}
}
