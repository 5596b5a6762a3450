package lab

import (
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/bloomlab/bloomlab/app/engine"
	"github.com/bloomlab/bloomlab/app/lab/charts"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui"
	"github.com/bloomlab/bloomlab/app/ui/format"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Element IDs of the player.
const (
	idPlayer    = "player"
	idPlay      = "play"
	idPlayStep  = "play-step"
	idPlayBack  = "play-back"
	idPlaySpeed = "play-speed"
)

// playEvery is every count the player stops at before its steps grow.
const playEvery = 200

// playStops are the counts of keys the player stops at for n keys: every
// count to playEvery, then steps 5% apart, then n. Each stop is a filter
// Simulate measures from scratch (sim.Params.At), so a stop looks the same
// however the player reached it.
func playStops(n int) []int {
	stops := make([]int, 0, playEvery+300)
	for at := 1; at <= min(n, playEvery); at++ {
		stops = append(stops, at)
	}
	for at := playEvery; at < n; {
		at = min(n, max(at+1, int(math.Round(float64(at)*1.05))))
		stops = append(stops, at)
	}
	return stops
}

// stopIndex is the stop at or below at keys (0: every key, the last).
func stopIndex(stops []int, at int) int {
	if at <= 0 {
		return len(stops) - 1
	}
	i, found := slices.BinarySearch(stops, at)
	if !found && i > 0 {
		i--
	}
	return i
}

// stopAt is the count of keys at stop i, clamped to the stops; the last
// is 0, every key in.
func stopAt(stops []int, i int) int {
	i = min(max(i, 0), len(stops)-1)
	if i == len(stops)-1 {
		return 0
	}
	return stops[i]
}

// playLab is what the player needs of the page.
type playLab interface {
	current() settings.Lab
	ownKeys() *engine.OwnKeys
	// seek shows the filter holding its first at keys (0: every key);
	// commit writes the link.
	seek(ctx app.Context, at int, commit bool)
	// stepped plays the last key's positions, one after another,
	// within the time given.
	stepped(ctx app.Context, within time.Duration)
}

// player plays the fill: it inserts the generated keys a stop at a time
// while the bit array, the counters and the charts follow.
type player struct {
	lab     playLab
	playing bool
	// later mounts the player after the page's first tree (later.go).
	later later
	// speed is stops a second.
	speed int
	// step is a step by the buttons, whose key's positions play when it
	// is shown (as every stop's do at the slowest speed).
	step bool
}

var playSpeeds = []int{1, 4, 15}

// off says why the player cannot play the lab's filter, or "".
func (pl *player) off() string {
	s := pl.lab.current()
	switch {
	case pl.lab.ownKeys() != nil:
		return "The player plays the generated keys: go back to them to play the fill."
	case s.Params.Variant.Static():
		return "A " + s.Params.Variant.Name() + " filter is built once from every key, so there is no filter of its first keys to play."
	}
	return ""
}

// at is the player's stop index and its stops.
func (pl *player) at() (int, []int) {
	s := pl.lab.current()
	stops := playStops(s.Params.Items)
	return stopIndex(stops, s.PlayAt), stops
}

func (pl *player) onPlay(ctx app.Context, e app.Event) {
	if pl.playing {
		pl.playing = false
		pl.lab.seek(ctx, pl.lab.current().PlayAt, true)
		return
	}
	pl.playing = true
	i, stops := pl.at()
	if i == len(stops)-1 {
		pl.lab.seek(ctx, stops[0], false) // from the first key again
		return
	}
	pl.tick(ctx)
}

// tick moves to the next stop; at the last it stops playing.
func (pl *player) tick(ctx app.Context) {
	if !pl.playing {
		return
	}
	i, stops := pl.at()
	if i+1 >= len(stops)-1 {
		pl.playing = false
		pl.lab.seek(ctx, 0, true)
		return
	}
	pl.lab.seek(ctx, stops[i+1], false)
}

// ran is called when the page has shown a stop: a playing player moves
// on after its pause.
func (pl *player) ran(ctx app.Context) {
	// A step shows its key's positions one after another, within the
	// pause before the next stop when playing.
	switch {
	case pl.step:
		pl.step = false
		pl.lab.stepped(ctx, time.Minute)
	case pl.playing && pl.stopsPerSecond() == playSpeeds[0]:
		pl.lab.stepped(ctx, 3*time.Second/4)
	}
	if !pl.playing {
		return
	}
	ctx.After(time.Second/time.Duration(pl.stopsPerSecond()), pl.tick)
}

func (pl *player) stopsPerSecond() int {
	if pl.speed <= 0 {
		return playSpeeds[1]
	}
	return pl.speed
}

// sync puts the position slider where the player stands. go-app sets a
// range's value and max in no fixed order, and the browser keeps a value
// set before its max clamped, or its thumb where it was: the page sets the
// value again once both are in.
func (pl *player) sync() {
	if el := app.Window().GetElementByID(settings.IDPlayAt); el.Truthy() {
		i, stops := pl.at()
		el.Set("max", len(stops)-1)
		el.Set("value", i)
	}
}

// chartPlay is what the charts are told of the player: the stop shown
// (0 with every key in), of how many keys, and whether it plays on.
func (pl *player) chartPlay() charts.Play {
	s := pl.lab.current()
	at := 0
	if s.Playing() {
		at = s.PlayAt
	}
	return charts.Play{At: at, Of: s.Params.Items, Running: pl.playing}
}

// pause stops playing where the player stands.
func (pl *player) pause() { pl.playing = false }

func (pl *player) onStep(delta int) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		pl.playing, pl.step = false, true
		i, stops := pl.at()
		pl.lab.seek(ctx, stopAt(stops, i+delta), true)
	}
}

func (pl *player) onSlide(commit bool) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		i, err := strconv.Atoi(e.Get("target").Get("value").String())
		if err != nil {
			return
		}
		pl.playing = false
		_, stops := pl.at()
		pl.lab.seek(ctx, stopAt(stops, i), commit)
	}
}

func (pl *player) onSpeed(ctx app.Context, e app.Event) {
	if v, err := strconv.Atoi(e.Get("target").Get("value").String()); err == nil && slices.Contains(playSpeeds, v) {
		pl.speed = v
	}
}

func (pl *player) render() app.UI {
	s := pl.lab.current()
	n := s.Params.Items
	i, stops := pl.at()
	shown := n
	if s.PlayAt > 0 {
		shown = s.PlayAt
	}
	off := pl.off()
	label := "Play"
	if pl.playing {
		label = "Pause"
	}
	valueText := format.Int(uint64(shown)) + " of " + format.Int(uint64(n)) + " keys inserted"
	buttons := []app.HTMLButton{
		app.Button().ID(idPlayBack).Class("chip").Title("one stop back").Aria("label", "step back").Text("◀").OnClick(pl.onStep(-1)),
		app.Button().ID(idPlay).Class("chip primary").Aria("pressed", pl.playing).Text(label).OnClick(pl.onPlay),
		app.Button().ID(idPlayStep).Class("chip").Title("one stop forward").Aria("label", "step forward").Text("▶").OnClick(pl.onStep(1)),
	}
	slider := app.Input().Type("range").ID(settings.IDPlayAt).Min(0).Max(len(stops)-1).Step(1).Value(i).
		Aria("valuetext", valueText).Aria("describedby", "play-help").
		OnInput(pl.onSlide(false)).OnChange(pl.onSlide(true))
	speed := app.Select().ID(idPlaySpeed).Aria("label", "stops a second").OnChange(pl.onSpeed).Body(
		app.Range(playSpeeds).Slice(func(j int) app.UI {
			v := playSpeeds[j]
			return ui.Selected(app.Option().Value(strconv.Itoa(v)), v == pl.stopsPerSecond()).Text(strconv.Itoa(v) + " a second")
		}),
	)
	if off != "" {
		for j := range buttons {
			buttons[j] = buttons[j].Disabled(true)
		}
		slider = slider.Disabled(true)
		speed = speed.Disabled(true)
	}
	help := "Insert the keys a stop at a time: one by one to " + strconv.Itoa(playEvery) + ", then 5% more a stop. Each stop is the same filter (m and k as designed) holding its first keys, measured afresh."
	if s.Params.Variant.Chain() {
		help = "Insert the keys a stop at a time: one by one to " + strconv.Itoa(playEvery) + ", then 5% more a stop. Each stop is the same chain (its first link as designed) grown as far as its first keys take it, measured afresh: watch a link join when the last one fills."
	}
	if off != "" {
		help = off
	}
	return app.Section().ID(idPlayer).Class(offClass("player", off != "")).Aria("label", "Play the fill").Body(
		app.Div().Class("player-row").Body(
			buttons[0], buttons[1], buttons[2],
			app.Label().For(settings.IDPlayAt).Class("player-label").Body(
				app.Span().Text("Keys in "),
				app.Output().ID(settings.IDPlayAt+"-value").For(settings.IDPlayAt).Text(valueText),
			),
			slider,
			speed,
		),
		app.Small().ID("play-help").Class("muted").Text(help),
	)
}
