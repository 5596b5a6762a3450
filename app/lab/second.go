package lab

import (
	"strconv"
	"time"

	"github.com/bloomlab/bloomlab/app/engine"
	"github.com/bloomlab/bloomlab/app/lab/painter"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui/format"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/system"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The second view's elements. The figures a test reads are data
// attributes of idSecondFigures and of each story's block, written from
// the same Result the text is.
const (
	idSecond        = "second"
	idSecondToggle  = "second-toggle"
	idSecondNote    = "second-note"
	idSecondFigures = "second-figures"
	idSecondRates   = "second-rates"
	idSecondKeys    = "second-keys"
	idSecondPrefix  = "second-"
)

// secondPictureW and secondPictureH are each small picture's box in CSS
// pixels: a phone's column holds one, a wide window four side by side.
const (
	secondPictureW = 260
	secondPictureH = 70
)

// secondView is a second filter beside the lab's, their union and
// intersection, and the system's false negatives (core/system). It is
// open when the link's second= says so; closed, it is one button, and
// nothing of it is built. Its build runs on a goroutine that yields to
// the page and gives up when a newer move replaces it, as the overlap
// view's count does.
type secondView struct {
	lab  secondLab
	res  *system.Result
	err  string
	runs engine.Runs
	// canvases are the pictures' painters by element ID, each keeping
	// its pixel array between draws.
	canvases map[string]*painter.Canvas
}

// secondLab is what the second view needs of the page: the settings, to
// open, close or switch its stories in the link, whether the user's own
// lists are in use, and whether a filter is shown.
type secondLab interface {
	current() settings.Lab
	showSecond(ctx app.Context, s settings.Second)
	ownKeys() *engine.OwnKeys
	showing() bool
}

func (sv *secondView) on() bool { return sv.lab.current().Second.On }

// clear forgets the build: the filter changed.
func (sv *secondView) clear() {
	sv.runs.Cancel()
	sv.res, sv.err = nil, ""
}

// onToggle opens or closes the view. The page's own commit of the link
// does not rerun what a link's change would (Page.OnNav): the view builds
// here.
func (sv *secondView) onToggle(ctx app.Context, e app.Event) {
	sv.lab.showSecond(ctx, settings.Second{On: !sv.on()})
	sv.build(ctx)
}

// onStory switches one story of the open view.
func (sv *secondView) onStory(flip func(*settings.Second)) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		s := sv.lab.current().Second
		flip(&s)
		sv.lab.showSecond(ctx, s)
		sv.build(ctx)
	}
}

// build builds the two filters of the settings shown, if the view is
// open, and paints the pictures when they are in.
func (sv *secondView) build(ctx app.Context) {
	sv.clear()
	s := sv.lab.current()
	switch {
	case !s.Second.On || !sv.lab.showing():
		return
	case sv.lab.ownKeys() != nil:
		sv.err = "The second filter is built over generated keys: go back to generated keys to see it."
		return
	}
	p := system.Params{Lab: s.Run(), Shared: s.Second.SharedKeys(s.Params.Items),
		Stories: system.Stories{Salt: s.Second.Salt, Stale: s.Second.Stale, Replicas: s.Second.Replicas}}
	startRun(ctx, &sv.runs, func(run engine.Run) (system.Result, error) {
		return system.Build(p, engine.Yielding(run.Live, 5*time.Millisecond, func(int, int) {}))
	}, func(ctx app.Context, r system.Result, err error) {
		if err != nil {
			sv.err = core.Message(err)
			return
		}
		sv.res = &r
		ctx.Defer(sv.paint)
	})
}

// pictures are the filters drawn, by element ID, with their captions.
func (sv *secondView) pictures() []secondPicture {
	r := sv.res
	if r == nil {
		return nil
	}
	ps := []secondPicture{
		{"a", "A, the lab's filter", r.A},
		{"b", "B, over " + sv.bKeys(), r.B},
		{"union", "A ∪ B (OR)", r.Union},
		{"intersection", "A ∩ B (AND)", r.Intersection},
	}
	if st := r.Salt; st != nil {
		ps = append(ps, secondPicture{"salt", "A OR B salted with seed " + strconv.FormatUint(st.Seed, 10), st.Merged})
	}
	if st := r.Stale; st != nil {
		ps = append(ps, secondPicture{"stale", "A's snapshot, " + format.Plural(int(st.Missed), "write") + " behind", st.Snapshot})
	}
	return ps
}

type secondPicture struct {
	id, caption string
	f           core.Membership
}

// paint draws every picture on its canvas, once they are in the page.
func (sv *secondView) paint(ctx app.Context) {
	if !app.IsClient {
		return
	}
	scale := app.Window().Get("devicePixelRatio").Float()
	if !(scale >= 1) {
		scale = 1
	}
	if sv.canvases == nil {
		sv.canvases = map[string]*painter.Canvas{}
	}
	for _, p := range sv.pictures() {
		el := app.Window().GetElementByID(idSecondPrefix + p.id + "-bits")
		if !el.Truthy() {
			continue
		}
		c := sv.canvases[p.id]
		if c == nil {
			c = &painter.Canvas{}
			sv.canvases[p.id] = c
		}
		store := engine.StoreOf(p.f)
		l := painter.LayoutOf(store.M, secondPictureW, secondPictureH, scale, store.Group)
		// The canvas's box in CSS pixels is the layout's, whose height
		// depends on m.
		el.Get("style").Set("width", format.Float(float64(l.W)/scale, 2)+"px")
		c.Draw(el, store, nil, painter.Marks{}, l, scale)
	}
}

// render is the toggle and, when open, the two filters, their union and
// intersection, and the stories switched on.
func (sv *secondView) render() app.UI {
	open := sv.on()
	body := []app.UI{
		app.Button().ID(idSecondToggle).Class("chip toggle").Aria("pressed", open).
			Text("A second filter: union, intersection and a system's false negatives").OnClick(sv.onToggle),
	}
	if open {
		// The controls stay in the page while the view is open: a build's
		// answer comes back through the context of the control that asked
		// for it, which go-app drops once that control is gone.
		body = append(body, sv.renderControls())
	}
	switch {
	case !open:
	case sv.err != "":
		body = append(body, app.P().ID(idSecondNote).Class("muted small").Text(sv.err))
	case sv.res == nil:
		body = append(body, app.P().ID(idSecondNote).Class("muted small").Text("Building the second filter…"))
	default:
		body = append(body, sv.renderResult()...)
	}
	return app.Section().ID(idSecond).Class("second").Aria("label", "A second filter").Body(body...)
}

func (sv *secondView) renderResult() []app.UI {
	r, s := sv.res, sv.lab.current()
	note := "B has A's shape (m = " + format.Int(r.M) + ", k = " + strconv.Itoa(r.K) + ") and seed, over " +
		sv.bKeys() + ". Their union is the OR of the bits, their intersection the AND."
	if s.Typed != "" {
		note += " The keys you typed are left out: A holds the generated keys only."
	}
	union := "The union has " + format.Int(r.Union.SetBits()) + " set bits; one filter built over both key sets has " +
		format.Int(r.BothSetBits) + ": "
	if r.SameBits {
		union += "the same bits, bit for bit."
	} else {
		union += "they differ."
	}
	return []app.UI{
		app.P().ID(idSecondNote).Class("muted small").Text(note),
		app.Div().ID(idSecondFigures).Class("second-pictures").
			DataSet("union-set", r.Union.SetBits()).DataSet("both-set", r.BothSetBits).DataSet("same-bits", r.SameBits).
			Body(app.Range(sv.pictures()[:4]).Slice(func(i int) app.UI { return sv.renderPicture(sv.pictures()[i]) })),
		app.P().Class("small").Text(union),
		sv.renderRates(),
		sv.renderKeys(),
		sv.renderStories(),
	}
}

// bKeys says which keys B holds: the next n after A's, or some of A's
// last keys and the ones after them.
func (sv *secondView) bKeys() string {
	r := sv.res
	if r.Shared == 0 {
		return "the next " + format.Plural(int(r.NB), "key") + " after A's"
	}
	return format.Plural(int(r.NB), "key") + ", " + format.Int(r.Shared) + " of them A's last and the rest the next after A's"
}

// renderControls is the slider of the keys both filters hold (the share
// of A's keys B holds too: at 0 the intersection holds no key, and its
// false positives are the AND's alone) and the stories' switches.
func (sv *secondView) renderControls() app.UI {
	s := sv.lab.current()
	sl, sh := settings.SecondShared, s.Second.Shared
	sw := func(name, label string, on bool, flip func(*settings.Second)) app.UI {
		return app.Button().ID(idSecondPrefix+name+"-toggle").Class("chip toggle").Aria("pressed", on).Text(label).OnClick(sv.onStory(flip))
	}
	return app.Div().Class("second-controls").Body(
		app.Label().Class("second-shared small").Body(
			app.Span().Text(sl.Label+": "+strconv.Itoa(sh)+"% ("+format.Plural(s.Second.SharedKeys(s.Params.Items), "key")+")"),
			app.Input().ID(settings.IDSecondShared).Type("range").
				Min(int(sl.Min)).Max(int(sl.Max)).Step(sl.Step).Value(strconv.Itoa(sh)).Title(sl.Help).
				OnChange(sv.onShared),
		),
		app.H4().Text("Where the contract leaks: a system's false negatives"),
		app.Div().Class("second-switches").Body(
			sw(settings.StorySalt, "Salts changed", s.Second.Salt, func(s *settings.Second) { s.Salt = !s.Salt }),
			sw(settings.StoryStale, "Stale snapshot", s.Second.Stale, func(s *settings.Second) { s.Stale = !s.Stale }),
			sw(settings.StoryReplicas, "Replicas diverge", s.Second.Replicas, func(s *settings.Second) { s.Replicas = !s.Replicas }),
		),
	)
}

// onShared moves the keys both filters hold.
func (sv *secondView) onShared(ctx app.Context, e app.Event) {
	v, _ := settings.SecondShared.Parse(ctx.JSSrc().Get("value").String(), 0)
	s := sv.lab.current().Second
	s.Shared = int(v)
	sv.lab.showSecond(ctx, s)
	sv.build(ctx)
}

// renderPicture is a picture with its caption. The set bits are counted
// from storage: the careless OR writes into storage behind its filter's
// count.
func (sv *secondView) renderPicture(p secondPicture) app.UI {
	set := format.Int(p.f.Popcount()) + " of " + format.Int(p.f.M())
	return app.Figure().Class("second-picture").Body(
		app.Canvas().ID(idSecondPrefix+p.id+"-bits").Class("second-bits").Aria("label", p.caption+": "+set+" bits set"),
		app.FigCaption().Class("small").Text(p.caption+": "+set+" set"),
	)
}

// renderRates is each filter's measured rate over the lab's absent
// queries beside its theory.
func (sv *secondView) renderRates() app.UI {
	r := sv.res
	row := func(name string, x system.Rated, theory string) app.UI {
		return app.Tr().Body(app.Th().Scope("row").Text(name),
			app.Td().Text(format.Int(x.FalsePositives)+" of "+format.Int(r.Absent)+" = "+format.Rate(x.Measured)),
			app.Td().Text(format.Rate(x.Theory)+" "+theory))
	}
	return app.Table().ID(idSecondRates).Class("second-table small").
		DataSet("intersection-fp", r.RateIntersection.FalsePositives).DataSet("shared-fp", r.RateShared.FalsePositives).Body(
		app.Caption().Text("False positives over the lab's absent queries"),
		app.Tr().Body(app.Th().Scope("col").Text("filter"), app.Th().Scope("col").Text("measured"), app.Th().Scope("col").Text("theory")),
		row("A", r.RateA, ""),
		row("B", r.RateB, ""),
		row("A ∪ B", r.RateUnion, "(one filter over both sets)"),
		row("A ∩ B", r.RateIntersection, "(Broder and Mitzenmacher)"),
		row("the keys both hold, alone", r.RateShared, "(A ∩ B answers yes at least as often)"),
	)
}

// renderKeys is each filter's estimated key count beside the true one.
func (sv *secondView) renderKeys() app.UI {
	r := sv.res
	row := func(name string, c system.Counted) app.UI {
		est := c.Err
		if est == "" {
			est = estimateWords(c.Estimate, nil)
		}
		return app.Tr().Body(app.Th().Scope("row").Text(name), app.Td().Text(format.Int(c.True)), app.Td().Text(est))
	}
	return app.Table().ID(idSecondKeys).Class("second-table small").Body(
		app.Caption().Text("How many keys: true and estimated from the set bits"),
		app.Tr().Body(app.Th().Scope("col").Text("filter"), app.Th().Scope("col").Text("keys"), app.Th().Scope("col").Text("estimated, ± "+strconv.Itoa(EstimateSDs)+" SD")),
		row("A", r.KeysA), row("B", r.KeysB), row("A ∪ B", r.KeysUnion), row("A ∩ B", r.KeysIntersection),
	)
}

// renderStories is the counts of each story switched on.
func (sv *secondView) renderStories() app.UI {
	r := sv.res
	var body []app.UI
	if st := r.Salt; st != nil {
		body = append(body, app.Div().ID(idSecondPrefix+settings.StorySalt).Class("second-story").
			DataSet("lost", st.Lost).DataSet("members", st.Members).Body(
			app.P().Text("B built with seed "+strconv.FormatUint(st.Seed, 10)+": core refuses the merge ("+st.Refused+
				"). A careless system ORs the bits anyway and queries with A's seed: "+format.Int(st.Lost)+" of B's "+
				format.Int(st.Members)+" members now answer no, false negatives."),
			sv.renderPicture(sv.pictures()[4]),
		))
	}
	if st := r.Stale; st != nil {
		body = append(body, app.Div().ID(idSecondPrefix+settings.StoryStale).Class("second-story").
			DataSet("missed", st.Missed).DataSet("lost", st.Lost).DataSet("lucky", st.Lucky).Body(
			app.P().Text("A snapshot saved before the last "+format.Plural(int(st.Missed), "write")+": "+format.Int(st.Lost)+
				" of them answer no, and "+format.Int(st.Lucky)+" answer yes only as an absent key may, by a false positive."),
			sv.renderPicture(sv.pictures()[len(sv.pictures())-1]),
		))
	}
	if st := r.Replicas; st != nil {
		body = append(body, app.Div().ID(idSecondPrefix+settings.StoryReplicas).Class("second-story").
			DataSet("lost-1", st.Lost[0]).DataSet("lost-2", st.Lost[1]).DataSet("union-lost", st.UnionLost).Body(
			app.P().Text("Two replicas of A each missed "+format.Plural(int(st.Missed), "different write")+": the first answers no for "+
				format.Int(st.Lost[0])+" of A's keys, the second for "+format.Int(st.Lost[1])+". Their union answers no for "+
				format.Int(st.UnionLost)+": every write reached one of them."),
		))
	}
	return app.Div().Class("second-stories").Body(body...)
}
