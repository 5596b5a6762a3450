package settings

import (
	"fmt"
	"html"
	"net/url"
	"slices"
	"strings"
)

// Link keys of an embed, the lab inside an article: which sliders it
// shows, which chart, whether it has the key panel, and the name the frame
// gives itself when it tells its page its height. Every other key is the
// lab's own, read by LabFromQuery.
const (
	IDControls = "controls"
	IDChart    = "chart"
	IDPanel    = "panel"
	IDFrame    = "id"
)

// The charts an embed can show: the rate against k, or against bits per
// key.
const (
	ChartK          = "k"
	ChartBitsPerKey = IDBitsPerKey
)

// PanelTry is the panel= value that shows the key panel (its element ID).
const PanelTry = IDTry

// maxFrameID bounds the id= a page gives a frame.
const maxFrameID = 64

// Embed is what an embed link carries besides the lab's settings.
type Embed struct {
	// Sliders are the slider IDs shown, in the writer's order, each once.
	Sliders []string
	// Chart is ChartK, ChartBitsPerKey or "" for none.
	Chart string
	// Panel shows the key panel.
	Panel bool
	// Frame is the id= the frame says its height under, "" for none.
	Frame string
}

// DefaultEmbedSliders are the sliders of a link without controls=: the
// shape of the filter and how full it is.
var DefaultEmbedSliders = []string{IDBitsPerKey, IDHashes, IDItems}

// DefaultEmbed is an embed as a link without its keys opens it.
func DefaultEmbed() Embed { return Embed{Sliders: slices.Clone(DefaultEmbedSliders)} }

// EmbedFromQuery reads an embed's own keys from a link. As with the lab's
// settings, anything it cannot use is left out or replaced, and each change
// is said in a notice for the embed to show. controls= lists slider IDs
// separated by commas (or spaces); an empty list, or none, shows no slider.
func EmbedFromQuery(q url.Values) (Embed, []string) {
	e := DefaultEmbed()
	var notices []string
	note := func(format string, args ...any) { notices = append(notices, fmt.Sprintf(format, args...)) }
	if raw, ok := Lookup(q, IDControls); ok {
		e.Sliders = nil
		var unknown, twice []string
		for _, id := range strings.FieldsFunc(raw, func(r rune) bool { return r == ',' || r == ' ' }) {
			id = strings.ToLower(id)
			switch {
			case id == "none":
			case !slices.ContainsFunc(Sliders, func(s Slider) bool { return s.ID == id }):
				unknown = append(unknown, id)
			case slices.Contains(e.Sliders, id):
				twice = append(twice, id)
			default:
				e.Sliders = append(e.Sliders, id)
			}
		}
		// One notice for each kind, with a count: a link may list a name
		// thousands of times.
		switch len(unknown) {
		case 0:
		case 1:
			note("%s: %s is not one of the lab's sliders (%s), so it is left out", IDControls, Quote(unknown[0]), sliderIDs())
		default:
			note("%s: %d names are not the lab's sliders (%s), so they are left out; the first is %s", IDControls, len(unknown), sliderIDs(), Quote(unknown[0]))
		}
		switch len(twice) {
		case 0:
		case 1:
			note("%s: %s is listed twice, so it is shown once", IDControls, twice[0])
		default:
			note("%s: %d names are listed again, so each is shown once; the first is %s", IDControls, len(twice), twice[0])
		}
	}
	if raw, ok := Lookup(q, IDChart); ok {
		switch c := strings.ToLower(raw); c {
		case "", "none":
		case ChartK, ChartBitsPerKey:
			e.Chart = c
		default:
			note("%s: %s is not %s or %s, so the embed shows no chart", IDChart, Quote(raw), ChartK, ChartBitsPerKey)
		}
	}
	if raw, ok := Lookup(q, IDPanel); ok {
		switch strings.ToLower(raw) {
		case "", "none":
		case PanelTry:
			e.Panel = true
		default:
			note("%s: %s is not %s (the key panel), so the embed shows none", IDPanel, Quote(raw), PanelTry)
		}
	}
	if raw, ok := Lookup(q, IDFrame); ok {
		if frameID(raw) {
			e.Frame = raw
		} else {
			note("%s: %s is not a name of 1 to %d letters, digits, '-', '_', '.' or ':', so the frame goes unnamed", IDFrame, Quote(raw), maxFrameID)
		}
	}
	return e, notices
}

// frameID reports whether s is a frame name an embed takes.
func frameID(s string) bool {
	if s == "" || len(s) > maxFrameID {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.:", r)) {
			return false
		}
	}
	return true
}

// sliderIDs lists the lab's slider IDs, for a notice.
func sliderIDs() string {
	ids := make([]string, len(Sliders))
	for i, s := range Sliders {
		ids[i] = s.ID
	}
	return strings.Join(ids, ", ")
}

// Query writes the embed's own keys; EmbedFromQuery reads them back as
// they were. controls= is always written, so an empty list stays empty.
func (e Embed) Query() url.Values {
	q := url.Values{}
	controls := strings.Join(e.Sliders, ",")
	if controls == "" {
		controls = "none"
	}
	q.Set(IDControls, controls)
	if e.Chart != "" {
		q.Set(IDChart, e.Chart)
	}
	if e.Panel {
		q.Set(IDPanel, PanelTry)
	}
	if e.Frame != "" {
		q.Set(IDFrame, e.Frame)
	}
	return q
}

// EmbedLink is the address of embed e of the lab in settings s; page is
// the embed's own address, without a query
// ("https://example.org/bloomlab/embed").
func EmbedLink(page string, s Lab, e Embed) string {
	q := s.Query()
	for k, vs := range e.Query() {
		q[k] = vs
	}
	return page + "?" + q.Encode()
}

// HeightMessage is the type of the message an embed sends its page with
// its height: {type: HeightMessage, height: N, id: "..."}.
const HeightMessage = "bloomlab-embed-height"

// EmbedSnippet is what a writer pastes into a page to show the embed at
// link: the frame, and five lines of script that set its height whenever
// the embed says its height changed, for messages from origin (the lab's
// site) only. Without the script the frame keeps its first height and
// scrolls.
func EmbedSnippet(link, origin string) string {
	return `<iframe src="` + html.EscapeString(link) + `" title="Bloom Lab: a Bloom filter to try" ` +
		`style="width:100%;height:560px;border:0" loading="lazy"></iframe>
<script>
addEventListener("message", (e) => {
  if (e.origin !== ` + jsString(origin) + ` || e.data?.type !== "` + HeightMessage + `") return;
  for (const f of document.querySelectorAll("iframe")) if (f.contentWindow === e.source) f.style.height = e.data.height + "px";
});
</script>`
}

// jsString quotes s as a JavaScript string inside an HTML script element:
// double quotes, and no "</" that would end the element.
func jsString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\r", `\r`, "<", `\x3c`)
	return `"` + r.Replace(s) + `"`
}
