package lab

import (
	"strconv"

	"github.com/bloomlab/bloomlab/app/ui"
	"github.com/bloomlab/bloomlab/app/ui/format"
	"github.com/bloomlab/bloomlab/core/try"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// listLabels name the recover's candidate lists for a reader.
var listLabels = map[string]string{
	try.ListWords: "the 500 common words",
	try.ListPINs:  "every 4-digit PIN",
	try.ListIDs:   "user-1 to user-100000",
}

// renderAttackRow is the attacker's row of the key panel: the seed is in
// the link, so anyone with it can do what these buttons do.
func (kp *keyPanel) renderAttackRow() app.UI {
	return app.Div().Class("try-row try-attacks").Role("group").Aria("labelledby", "try-attacks-title").Body(
		app.Span().ID("try-attacks-title").Class("small muted").Text("As an attacker who knows the seed:"),
		app.Button().ID(idTryForge).Class("chip").DataSet("attack", try.AttackForge).
			Title("try made-up keys offline, as the filter would hash them, until one answers maybe").
			Text("Forge a false positive").OnClick(kp.onAttack),
		app.Button().ID(idTryFill).Class("chip").DataSet("attack", try.AttackFill).
			Title("craft keys that each turn on as many bits as they can, and insert them").
			Text("Craft "+strconv.Itoa(fillKeys)+" filling keys").OnClick(kp.onAttack),
		app.Span().Class("try-recover").Body(
			app.Label().For(idTryRecoverList).Text("Recover members from"),
			app.Select().ID(idTryRecoverList).Body(
				app.Range(try.CandidateLists).Slice(func(i int) app.UI {
					l := try.CandidateLists[i]
					// The list of the last recover, a lesson's too.
					return ui.Selected(app.Option().Value(l), l == kp.attack.List).Text(listLabels[l])
				}),
			),
			app.Button().ID(idTryRecover).Class("chip").DataSet("attack", try.AttackRecover).
				Title("test every candidate on the list against the filter").
				Text("Recover").OnClick(kp.onAttack),
		),
	)
}

// renderAttack says what the last attack found.
func (kp *keyPanel) renderAttack() app.UI {
	a := kp.attacked
	if a == nil || kp.answer == nil {
		return app.Text("")
	}
	unit := kp.answer.Unit
	var lines []string
	switch a.Kind {
	case try.AttackForge:
		if a.Algebraic {
			lines = append(lines, "Under the weak hash no search is needed: the twin of the member “"+a.Twin+
				"” weighs the same under 31·h + c, so it lands on the same positions whatever the seed. A secret seed would not help.")
		} else {
			lines = append(lines, "Found after "+format.Int(uint64(a.Tries))+" made-up keys, each hashed offline with the seed from the link; "+
				"at this filter's rate about "+format.Float(a.Expected, 1)+" are expected. The filter itself is asked once. "+
				"Without the seed every try would be a query to the filter.")
		}
	case try.AttackFill:
		turned := 0
		for _, n := range a.New {
			turned += n
		}
		lines = append(lines,
			"The "+strconv.Itoa(len(a.Keys))+" crafted keys turned on "+format.Int(uint64(turned))+" "+unit+"s, "+
				format.Float(float64(turned)/float64(len(a.Keys)), 1)+" a key of k = "+strconv.Itoa(kp.answer.K)+
				": as many random keys turn on about "+format.Float(a.RandomNew, 1)+".",
			"The fill went from "+format.Percent(a.FillBefore)+" to "+format.Percent(a.FillAfter)+
				", and every honest query's false-positive rate with it. Each key is the best of "+
				strconv.Itoa(try.FillTries)+" tried offline; they are now among the typed keys.")
	case try.AttackRecover:
		others := a.Positive - a.Members
		lines = append(lines,
			format.Int(uint64(a.Positive))+" of "+format.Int(uint64(a.Candidates))+" candidates ("+listLabels[a.List]+") test positive: "+
				format.Plural(a.Members, "member")+" and "+format.Int(uint64(others))+
				" others (about "+format.Float(a.Expected, 1)+" expected at this rate). "+
				format.Percent(a.Precision())+" of the positives are members.",
			"Every member on the list tests positive: the filter hides its members only among the false positives, "+
				"so a short list or a low rate gives them away.")
	}
	found := make([]app.UI, 0, len(a.Found))
	for i, key := range a.Found {
		li := app.Li().Text("“" + key + "”")
		if a.Member[i] {
			li = app.Li().Class("member").Text("“" + key + "”, a member")
		}
		found = append(found, li)
	}
	return app.Div().ID(idTryAttack).Class("try-answer try-attack").DataSet("kind", a.Kind).Body(
		app.Range(lines).Slice(func(i int) app.UI { return app.P().Text(lines[i]) }),
		app.If(len(found) > 0, func() app.UI {
			more := ""
			if a.Positive > len(a.Found) {
				more = " (the first " + strconv.Itoa(len(a.Found)) + ", members first)"
			}
			return app.Div().Body(
				app.P().Class("small").Text("Positives"+more+":"),
				app.Ul().ID(idTryAttack+"-found").Class("try-found small").Body(found...),
			)
		}),
	)
}
