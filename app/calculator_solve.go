package app

import (
	"bloomlab/app/settings"
	"bloomlab/app/ui/format"
	"bloomlab/core"
	"bloomlab/core/plan"
	"strconv"
)

// calcResult is what the page shows for a form: the plan, or the field
// errors that stop it, and how each good field was read.
type calcResult struct {
	Plan plan.Plan
	// Measured is the alternatives built and queried (plan.Measure), in
	// Plan.Alternatives' order; nil until measured.
	Measured []plan.Measured
	OK       bool
	Errors   map[string]string // field ID -> message
	Read     map[string]string // field ID -> the value as understood
	Err      string            // an error of the whole plan, not one field
}

// solveForm parses every known field and solves. It never fails: bad input
// comes back as messages for the page to put next to the fields.
func solveForm(f settings.Calculator) calcResult {
	r := calcResult{Errors: map[string]string{}, Read: map[string]string{}}
	in := plan.Input{Find: f.Find}
	fail := func(id string, err error) {
		r.Errors[id] = core.Message(err)
	}
	var err error
	if f.Find != plan.FindN {
		if in.N, err = plan.ParseKeys(f.Values[settings.CalcN]); err != nil {
			fail(settings.CalcN, err)
		} else {
			r.Read[settings.CalcN] = format.Int(in.N) + " keys"
		}
	}
	if f.Find != plan.FindP {
		if in.P, err = plan.ParseRate(f.Values[settings.CalcP]); err != nil {
			fail(settings.CalcP, err)
		} else {
			r.Read[settings.CalcP] = "p = " + strconv.FormatFloat(in.P, 'g', -1, 64) + " (" + format.Percent(in.P) + ")"
		}
	}
	if f.Find != plan.FindM {
		if in.M, err = plan.ParseBits(f.Values[settings.CalcM]); err != nil {
			fail(settings.CalcM, err)
		} else {
			r.Read[settings.CalcM] = format.Int(in.M) + " bits, " + plan.FormatSize(in.M)
		}
	}
	if in.KeyBytes, err = plan.ParseKeyBytes(f.Values[settings.CalcKeyBytes]); err != nil {
		fail(settings.CalcKeyBytes, err)
	}
	for _, a := range []struct {
		id, name string
		dst      *float64
	}{
		{settings.CalcMaybeCost, "the cost of a maybe", &in.Cost.Maybe},
		{settings.CalcSavedCost, "the cost a no saves", &in.Cost.Saved},
		{settings.CalcAbsentQPS, "absent queries per second", &in.Cost.AbsentQPS},
	} {
		if *a.dst, err = plan.ParseAmount(a.name, f.Values[a.id]); err != nil {
			fail(a.id, err)
		}
	}
	if len(r.Errors) > 0 {
		return r
	}
	pl, err := plan.Solve(in)
	if err != nil {
		r.Err = core.Message(err)
		return r
	}
	r.Plan, r.OK = pl, true
	return r
}

// solveAndMeasure is solveForm and, for a plan, the alternatives' measured
// column: a few tens of milliseconds of filters built and queried, which
// the page spends on every change and the link fuzzer is spared.
func solveAndMeasure(f settings.Calculator) calcResult {
	r := solveForm(f)
	if r.OK {
		r.Measured = plan.Measure(r.Plan)
	}
	return r
}

// solvedText writes the unknown as the user would type it back, so that
// switching what to find keeps the figure: m in bits, p as a decimal, n as
// a count.
func solvedText(pl plan.Plan, id string) string {
	switch id {
	case settings.CalcM:
		return strconv.FormatUint(pl.M, 10)
	case settings.CalcP:
		return strconv.FormatFloat(pl.P, 'g', 6, 64)
	case settings.CalcN:
		return strconv.FormatUint(pl.N, 10)
	}
	return ""
}
