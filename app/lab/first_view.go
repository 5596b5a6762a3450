package lab

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"sync"

	"github.com/bloomlab/bloomlab/app/engine"
	"github.com/bloomlab/bloomlab/app/lab/charts"
	"github.com/bloomlab/bloomlab/app/lab/painter"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The first view: the prerendered page carries the lab as it will look
// when it is live, so a reader sees the filter before the WebAssembly has
// arrived. The server makes the run the page will make, draws its picture
// as an image with the very pixels the canvas will have (the one
// picture.render makes both), and measures the charts' points. The page,
// once live, makes the same run inside its first frame, takes the image
// and the points from the prerendered page instead of measuring again,
// and paints the canvas under the image before it takes the image away.

// firstView is what the prerendered page carries beyond its HTML, all of
// it on the element that shows the picture over the canvas: the pictures
// in its style, the rest in its data-first-view attribute.
type firstView struct {
	// Key is the settings' link query: the live page uses the view only
	// for the settings it was made for.
	Key string `json:"key"`
	// Wide and Narrow are the bit array's wide and narrow pictures
	// (painter.Fitted) as PNG data URLs: the page's CSS shows the one
	// its width wants, as the live canvas will draw it.
	Wide   string `json:"-"`
	Narrow string `json:"-"`
	// KChart and BPKChart are the charts as the prerendered page drew
	// them, read back from the document by the live page, which takes
	// them over instead of drawing them again.
	KChart   string `json:"-"`
	BPKChart string `json:"-"`
	// K and BPK are the charts' measured points, Sampled whether n was
	// sampled down for them.
	K       []ui.Point `json:"k"`
	BPK     []ui.Point `json:"bpk"`
	Sampled bool       `json:"sampled"`
}

// firstViews keeps the first views made, so a server asked for the same
// link again does no work: at most firstViewsKept, the oldest going first.
var firstViews struct {
	sync.Mutex
	keys  []string
	views map[string]*firstView
}

const firstViewsKept = 32

// hasFirstView reports whether settings s get a first view: the lab's run
// must be one the page makes inside a frame, on generated keys.
func hasFirstView(s settings.Lab) bool {
	return engine.WorkOf(s.Run()) <= syncWork
}

// prerenders bounds the first views made at once for links none is kept
// for: each costs the server 50 to 160 ms of drawing and measuring, and a
// stream of fresh links would otherwise keep every core busy. Nil (the
// static site, which must carry every view, and the tests) bounds nothing;
// bloomlab serve sets it with LimitPrerenders. A fresh link that finds
// every slot taken is served with its controls alone, as a link whose run
// is too large is, and the lab runs it once live.
var prerenders chan struct{}

// prerenderHeld, when a test sets it, is called while a first view is
// being made, its slot taken, so the test can hold the budget full.
var prerenderHeld func()

// LimitPrerenders lets at most n first views (n at least 1) be made at
// once from now on. A server calls it before it serves.
func LimitPrerenders(n int) {
	prerenders = make(chan struct{}, max(1, n))
}

// prerender makes the page's first view for its settings, as the server
// renders the page: the run, its counters, picture and charts. A link
// whose run is larger gets the controls alone, and the lab runs it when
// it is live; so does a link whose view is not kept while the budget
// (prerenders) is full.
func (c *Page) prerender() {
	s := c.settings
	c.deferred = false
	if !hasFirstView(s) {
		return
	}
	key := s.Query().Encode()
	firstViews.Lock()
	fv := firstViews.views[key]
	firstViews.Unlock()
	if fv == nil {
		slots := prerenders
		if slots != nil {
			select {
			case slots <- struct{}{}:
				defer func() { <-slots }()
			default:
				c.deferred = true
				return
			}
		}
	}
	r, err := engine.Simulate(s.Run(), s.Typed.List(), nil, nil)
	if err != nil {
		return
	}
	c.result, c.bits.store = &r.Result, engine.StoreOfRun(r, nil)
	if fv == nil {
		if prerenderHeld != nil {
			prerenderHeld()
		}
		fv = c.makeFirstView(key)
		keepFirstView(key, fv)
	}
	c.useFirstView(fv)
}

// keepFirstView keeps fv, made for the link query key, in firstViews.
func keepFirstView(key string, fv *firstView) {
	firstViews.Lock()
	defer firstViews.Unlock()
	if firstViews.views == nil {
		firstViews.views = map[string]*firstView{}
	}
	if _, ok := firstViews.views[key]; ok {
		return
	}
	if len(firstViews.keys) >= firstViewsKept {
		delete(firstViews.views, firstViews.keys[0])
		firstViews.keys = firstViews.keys[1:]
	}
	firstViews.keys = append(firstViews.keys, key)
	firstViews.views[key] = fv
}

// makeFirstView draws the picture and measures the charts of the page's
// result, whose link query is key.
func (c *Page) makeFirstView(key string) *firstView {
	r, store := c.result, c.bits.store
	marks := c.bits.marks(r, painter.Marks{})
	var p painter.Frame
	picture := func(narrow bool) string {
		l := c.bits.fitted(r, narrow, 1)
		return pngDataURL(p.Render(store, nil, l, marks, 1), l.W, l.H)
	}
	fv := &firstView{Key: key, Wide: picture(false), Narrow: picture(true)}
	fv.K, fv.BPK, fv.Sampled = charts.Measure(c.shapeParams(), *r, c.settings.Typed.List())
	return fv
}

// useFirstView shows fv: the picture until the canvas is painted, and the
// charts, drawn from its points or, live, as the prerendered page drew them.
func (c *Page) useFirstView(fv *firstView) {
	c.bits.first = fv
	c.charts.Use(fv.K, fv.BPK, fv.Sampled)
	if fv.KChart != "" || fv.BPKChart != "" {
		c.charts.Took(c.result, c.shapeParams(), c.player.chartPlay(), fv.KChart, fv.BPKChart)
		return
	}
	c.charts.Redraw(c.result, c.shapeParams(), c.player.chartPlay())
}

// encode is fv's attribute: JSON in base64, since go-app writes an
// attribute's quotes as Go escapes, not as HTML ones.
func (fv *firstView) encode() string {
	b, err := json.Marshal(fv)
	if err != nil {
		return ""
	}
	return base64.StdEncoding.EncodeToString(b)
}

// readFirstView reads the first view the prerendered page carries, still
// in the document as the live page starts, if it was made for settings s.
func readFirstView(s settings.Lab) *firstView {
	el := app.Window().GetElementByID(idBitArrayFirst)
	if !el.Truthy() {
		return nil
	}
	var fv firstView
	b, err := base64.StdEncoding.DecodeString(el.Call("getAttribute", "data-first-view").String())
	if err != nil || json.Unmarshal(b, &fv) != nil || fv.Key != s.Query().Encode() {
		return nil
	}
	// The pictures come back as they were written, url(...), or as the
	// browser writes them, url("...").
	picture := func(name string) string {
		bg := strings.TrimSpace(el.Get("style").Call("getPropertyValue", name).String())
		return strings.Trim(strings.TrimSuffix(strings.TrimPrefix(bg, "url("), ")"), `"`)
	}
	fv.Wide, fv.Narrow = picture("--first-wide"), picture("--first-narrow")
	drawn := func(id string) string {
		if chart := app.Window().Get("document").Call("querySelector", "#"+id+" > .chart-fit"); chart.Truthy() {
			return chart.Get("outerHTML").String()
		}
		return ""
	}
	fv.KChart, fv.BPKChart = drawn("chart-k"), drawn("chart-bpk")
	return &fv
}

// startFirstView starts the live page on the first view of the
// prerendered page, if it carries one for the settings in the address
// bar: the run is made here, before the page's first render, so that
// render is the prerendered page's twin. It reports whether it did.
func (c *Page) startFirstView() bool {
	s, notices := settings.LabFromQuery(app.Window().URL().Query())
	fv := readFirstView(s)
	if fv == nil || !hasFirstView(s) {
		return false
	}
	// Read, the view's run is made in a task of its own.
	ui.LetBrowserIn()
	r, err := engine.Simulate(s.Run(), s.Typed.List(), nil, nil)
	if err != nil {
		return false
	}
	c.settings, c.notices, c.loaded = s, notices, true
	c.setTheory()
	c.result, c.bits.store = &r.Result, engine.StoreOfRun(r, nil)
	c.useFirstView(fv)
	return true
}
