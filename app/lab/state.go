package lab

import (
	"slices"

	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/audit"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"
	"github.com/bloomlab/bloomlab/core/try"
)

// State is what the lab holds at a moment, as a lesson's task reads it:
// the settings (the link), the run's result, the key panel's answers and
// the audit of the fault switched on. Pure data, so that a lesson's tasks
// are tested natively on states built by the core.
type State struct {
	Settings settings.Lab
	// Result is the filter shown, nil before its first run ends.
	Result *sim.Result
	// Queries are the key panel's answers since the page opened (or the
	// lesson's step began), oldest first, at most core.MaxTypedKeys.
	Queries []try.Query
	// Audit is the finished audit of Settings' fault, nil while it runs.
	Audit *audit.Report
	// Attack is what the key panel's last attack found, and AttackOn the
	// settings of the filter it attacked.
	Attack   *try.AttackResult
	AttackOn settings.Lab
}

// Attacked is the key panel's last attack of kind, nil if it was another
// kind or attacked another filter than the one shown: a forge or a
// recover runs again on every new filter, and until it has, the last one
// is about the old. A fill changes the typed keys itself, so it stands
// for the filter it filled.
func (st State) Attacked(kind string) *try.AttackResult {
	a := st.Attack
	if a == nil || a.Kind != kind || st.Shown() == nil {
		return nil
	}
	on := st.AttackOn
	on.Large = st.Settings.Large
	if kind == try.AttackFill {
		on.Typed = settings.JoinTyped(append(on.Typed.List(), a.Keys...))
	}
	if on != st.Settings {
		return nil
	}
	return a
}

// Shown is the run of the filter the settings describe, nil before it
// finished: the result a slider's move left behind describes another
// filter, and no task may be done by it. The run is matched by its layout,
// fault, keys and, for the Bloom layouts, shape (m as the layout builds it,
// and k).
func (st State) Shown() *sim.Result {
	r := st.Result
	if r == nil {
		return nil
	}
	p := st.Settings.Run()
	fault := p.Fault
	if fault == "" {
		fault = core.NoFault
	}
	typed := uint64(len(st.Settings.Typed.List()))
	if r.Fault != fault || r.Variant != p.Variant.Effective(fault) || r.Typed != typed || r.N != uint64(p.Items)+typed {
		return nil
	}
	if m, k := p.Shape(); r.Variant.Bloom() && (r.M != r.Variant.BuiltM(m) || r.K != k) {
		return nil
	}
	return r
}

// Answered returns the distinct keys the key panel answered with verdict
// v, in the order first asked, for which also keep holds (nil: all).
func (st State) Answered(v string, keep func(try.Query) bool) []string {
	var keys []string
	for _, q := range st.Queries {
		if q.Verdict == v && (keep == nil || keep(q)) && !slices.Contains(keys, q.Key) {
			keys = append(keys, q.Key)
		}
	}
	return keys
}

// Fault is the fault switched on, core.NoFault for the real filter.
func (st State) Fault() core.Fault {
	if f := st.Settings.Params.Fault; f != "" {
		return f
	}
	return core.NoFault
}
