package lab

import (
	"net/url"
	"slices"

	"github.com/bloomlab/bloomlab/app/lab/painter"

	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The lab inside an article: the same page, settings, runs and parts,
// shown compact (Compact) for a frame in someone else's page. The parts
// see the page through framed, so a move replaces the frame's address
// instead of adding to the history: the reader's Back button leaves the
// article, it does not step back through the sliders.

// idOpenLab is the element ID of the compact lab's link to the full lab.
const idOpenLab = "embed-open"

// compactCounters are the figures a compact lab shows, of those the full
// lab shows: the filter's shape, its fill and its rates, with the figures
// of the layouts of fingerprints and the warning counts. The confidence
// intervals, probes and the exact set's size stay in the full lab.
var compactCounters = []string{
	"out-m", "out-n", "out-k", "out-bytes", "memory-bits-per-key", "fingerprint-bits-value",
	"out-set-bits", "out-fill", "load", "insert-failures", "build-retries",
	"out-fpr-theory", "out-fpr-empirical", "out-false-positives", "out-false-negatives",
}

// framed is the page as a compact lab's parts see it.
type framed struct{ *Page }

// commit records the settings in the frame's address, in place.
func (f framed) commit(ctx app.Context) {
	u := *ctx.Page().URL()
	u.RawQuery = f.query().Encode()
	ctx.Page().ReplaceURL(&u)
}

func (f framed) typeKeys(ctx app.Context, keys settings.TypedKeys) {
	s := f.settings
	s.Typed = keys
	f.change(ctx, s, 0)
	f.commit(ctx)
}

// query is the page's link query: the settings and the keys it keeps.
func (c *Page) query() url.Values {
	q := c.settings.Query()
	for k, vs := range c.keep {
		q[k] = vs
	}
	return q
}

// InitFramed wires the parts to the page as Init does, for a page shown
// with Compact. Such a page shows no audit badge, so it runs no audit: in
// an article, two embeds would otherwise each start the workers of an
// audit no one sees.
func (c *Page) InitFramed() {
	c.Init()
	c.panel.lab = framed{c}
	c.noAudit = true
}

// Compact is the lab for a frame: the sliders e names, the counters, the
// bit array, e's chart or key panel, and a link to the full lab in the
// same settings, which opens in a new tab. notices are what the page
// changed in e's own keys of the link; they are shown with the lab's.
func (c *Page) Compact(e settings.Embed, notices []string) app.UI {
	lc := labControls{lab: framed{c}}
	var marks painter.Marks
	if c.result != nil {
		marks = c.panel.playing(c.bits.marks(c.result, c.panel.marks()))
	}
	var counters []counter
	for _, ct := range c.counterList() {
		if slices.Contains(compactCounters, ct.id) {
			counters = append(counters, ct)
		}
	}
	return app.Div().ID("lab").Class("lab compact").DataSet("state", c.state()).Body(
		ui.Notices("notices", "clamp-notice", "Some settings in the link were changed to legal values:", append(slices.Clone(c.notices), notices...)),
		app.If(c.errText != "", func() app.UI { return ui.Failure("lab-error", c.errText) }),
		app.If(len(e.Sliders) > 0, func() app.UI {
			return app.Section().Class("controls compact-controls").Aria("label", "Controls").Body(
				app.Range(e.Sliders).Slice(func(i int) app.UI { return lc.renderSlider(settings.SliderByID(e.Sliders[i])) }),
			)
		}),
		c.renderProgress(),
		app.Section().Class("counters-box").Aria("label", "Counters").Body(
			counterGrid(counters),
			warningLines(c.result),
		),
		c.bits.render(c.result, marks),
		app.If(e.Chart != "", func() app.UI {
			return c.charts.RenderOne(e.Chart, c.variant(), c.result, c.own.keys != nil, c.player.chartPlay())
		}),
		app.If(e.Panel, c.panel.render),
		app.P().Class("compact-foot").Body(
			app.A().ID(idOpenLab).Href(ui.Href(ui.RouteLab)+"?"+c.settings.Query().Encode()).
				Target("_blank").Rel("noopener").Text("Open in Bloom Lab ↗"),
			app.Span().Class("muted").Text(" with these settings, all the controls and both charts"),
		),
	)
}
