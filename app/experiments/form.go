package experiments

import (
	"net/url"
	"strconv"
	"time"

	"github.com/bloomlab/bloomlab/app/engine"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui/format"
	"github.com/bloomlab/bloomlab/core/experiment"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// formPage is what the form needs of the page: the selection and the type
// size the link holds, and a way to show a notice at once.
type formPage interface {
	selection() settings.Experiment
	largeType() bool
	// notify shows notice in place of the notices shown.
	notify(notice string)
}

// form picks the experiment and its sizes. It never changes the selection
// itself: every edit navigates to the new link, and the page's OnNav reads
// it back, so links, reloads and back/forward restore the form exactly.
type form struct {
	page formPage
	// carry holds notices from a field edit, shown after the navigation
	// the edit makes (OnNav would otherwise clear them).
	carry []string
	// probing is the selection whose work is being measured.
	probing string
}

// carried hands over, once, the notices the last edit carries.
func (f *form) carried() []string {
	c := f.carry
	f.carry = nil
	return c
}

// learnUnits measures, off the event, the work planned by the current
// sizes and by the experiment's quick and full sizes, for the estimates.
func (f *form) learnUnits(ctx app.Context) {
	sel := f.page.selection()
	todo := []settings.Experiment{sel, sel.WithSizes(false), sel.WithSizes(true)}
	missing := false
	for _, s := range todo {
		if _, ok := expSession.unitsOf(s); !ok {
			missing = true
		}
	}
	if !missing || f.probing == sel.Key() {
		return
	}
	f.probing = sel.Key()
	ctx.Async(func() {
		for _, s := range todo {
			if _, ok := expSession.unitsOf(s); !ok {
				expSession.setUnits(s, engine.WorkUnits(s.Name, s.Sizes))
				time.Sleep(time.Millisecond)
			}
		}
		ctx.Dispatch(func(ctx app.Context) { f.probing = "" })
	})
}

// navigate records sel and the type size in the URL as a new history
// entry; the page's OnNav reads them back, within the call.
func (f *form) navigate(ctx app.Context, sel settings.Experiment, large bool) {
	u := *ctx.Page().URL()
	u.RawQuery = expQuery(sel, large).Encode()
	ctx.NavigateTo(&u)
}

func (f *form) onExperiment(ctx app.Context, e app.Event) {
	cur := f.page.selection()
	ex, ok := experiment.Find(e.Get("target").Get("value").String())
	if !ok || ex.Name == cur.Name {
		return
	}
	sizes := ex.Quick
	sizes.Seed = cur.Sizes.Seed
	f.navigate(ctx, settings.Experiment{Name: ex.Name, Sizes: sizes}, f.page.largeType())
}

// onKnob reads a size field when it is committed (Enter, or leaving it).
// A value out of range is clamped with a notice, as in a link.
func (f *form) onKnob(k settings.ExpKnob) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		sel := f.page.selection()
		k := k.For(sel.Experiment())
		v, notice := k.Parse(e.Get("target").Get("value").String(), *k.Field(&sel.Sizes))
		*k.Field(&sel.Sizes) = v
		f.commitField(ctx, e, sel, notice, format.Int(uint64(v)))
	}
}

func (f *form) onSeed(ctx app.Context, e app.Event) {
	sel := f.page.selection()
	v, notice := settings.ParseSeed(settings.ExpSeed, e.Get("target").Get("value").String(), sel.Sizes.Seed)
	sel.Sizes.Seed = v
	f.commitField(ctx, e, sel, notice, strconv.FormatUint(v, 10))
}

// commitField navigates to sel, carrying notice to the page. When sel is
// unchanged (text that is not a number) it shows the notice at once and
// puts the legal value back in the field.
func (f *form) commitField(ctx app.Context, e app.Event, sel settings.Experiment, notice, shown string) {
	if sel == f.page.selection() {
		f.page.notify(notice)
		e.Get("target").Set("value", shown)
		return
	}
	if notice != "" {
		f.carry = []string{notice}
	}
	f.navigate(ctx, sel, f.page.largeType())
}

func (f *form) onSizes(full bool) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		cur := f.page.selection()
		if sel := cur.WithSizes(full); sel != cur {
			f.navigate(ctx, sel, f.page.largeType())
		}
	}
}

func (f *form) onLarge(ctx app.Context, e app.Event) {
	f.navigate(ctx, f.page.selection(), !f.page.largeType())
}

// renderLarge is the large type switch, shown in the page's head.
func (f *form) renderLarge() app.UI {
	return app.Button().ID(settings.IDLarge).Class("chip toggle").Aria("pressed", f.page.largeType()).Text("Large type").OnClick(f.onLarge)
}

// render is the form, with action (the runner's Run or Cancel button)
// beside the estimate of how long a run takes.
func (f *form) render(action app.UI) app.UI {
	sel := f.page.selection()
	ex := sel.Experiment()
	all := experiment.All()
	return app.Section().Class("controls exp-form").Aria("label", "Experiment and sizes").Body(
		app.Div().Class("control").Body(
			app.Label().For("exp-name").Text("Experiment"),
			app.Select().ID("exp-name").Aria("describedby", "exp-summary").OnChange(f.onExperiment).Body(
				app.Range(all).Slice(func(i int) app.UI {
					o := app.Option().Value(all[i].Name).Text(all[i].Name)
					if all[i].Name == sel.Name {
						// Only ever true: prerendered, selected="false" would select.
						o = o.Selected(true)
					}
					return o
				}),
			),
			app.Small().ID("exp-summary").Class("exp-summary").Text(ex.Summary),
		),
		app.Range(settings.ExpKnobs).Slice(func(i int) app.UI {
			k := settings.ExpKnobs[i].For(ex)
			if !k.Uses(ex) {
				return nil
			}
			return renderField(k.ID, k.Label, format.Int(uint64(*k.Field(&sel.Sizes))),
				k.Help+"; 1 to "+format.Int(uint64(k.Max)), f.onKnob(k))
		}),
		renderField("exp-seed", "Seed", strconv.FormatUint(sel.Sizes.Seed, 10),
			"any whole number from 0 to 2^64 - 1; the same seed gives the same table", f.onSeed),
		app.Div().Class("exp-sizes").Role("group").Aria("label", "Preset sizes").Body(
			app.Button().ID("exp-quick").Class("chip").Aria("pressed", sel == sel.WithSizes(false)).
				Text("Quick sizes").OnClick(f.onSizes(false)),
			app.Button().ID("exp-full").Class("chip").Aria("pressed", sel == sel.WithSizes(true)).
				Text("Full sizes").Aria("describedby", "exp-full-note").OnClick(f.onSizes(true)),
		),
		app.P().ID("exp-full-note").Class("muted small").Text(fullNote(sel)),
		app.Div().Class("exp-actions").Body(
			action,
			app.Span().ID("exp-estimate").Class("muted small").Text(estimateText(sel)),
		),
		app.P().ID("exp-engine").Class("muted small").Text(engine.Status()),
	)
}

func renderField(id, label, value, help string, onChange app.EventHandler) app.UI {
	return app.Div().Class("control exp-field").Body(
		app.Label().For(id).Text(label),
		app.Input().Type("text").ID(id).Value(value).Attr("inputmode", "numeric").
			AutoComplete(false).Spellcheck(false).Aria("describedby", id+"-help").OnChange(onChange),
		app.Small().ID(id+"-help").Text(help),
	)
}

// estimateText says how long sel's sizes may take.
func estimateText(sel settings.Experiment) string {
	units, ok := expSession.unitsOf(sel)
	if !ok {
		return ""
	}
	d, _ := expSession.estimate(sel.Name, units)
	return format.About(d)
}

// fullNote says what sel's full sizes are and how long they may take in a
// browser.
func fullNote(sel settings.Experiment) string {
	full := sel.WithSizes(true)
	text := "Full sizes are the published ones: " + full.SizesText() + "."
	fu, ok := expSession.unitsOf(full)
	if !ok {
		return text
	}
	d, here := expSession.estimate(sel.Name, fu)
	where := "in a typical desktop browser"
	if here {
		where = "in this browser, at the pace of its last run"
	}
	if cu, ok := expSession.unitsOf(sel); ok && cu > 0 && full != sel {
		ratio := float64(fu) / float64(cu)
		if ratio >= 1.05 {
			text += " They do " + strconv.FormatFloat(ratio, 'f', 1, 64) + " times the work of these sizes."
		}
	}
	text += " Expect " + format.About(d) + " " + where + "; the page stays usable and Cancel stops the run."
	return text
}

// expQuery is sel's query, with the projector mode when it is on.
func expQuery(sel settings.Experiment, large bool) url.Values {
	q := sel.Query()
	if large {
		q.Set(settings.IDLarge, "on")
	}
	return q
}
