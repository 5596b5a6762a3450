package settings

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/bloomlab/bloomlab/app/ui/format"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/plan"
)

// The calculator's fields: element IDs and URL query keys at once, as in
// the lab.
const (
	CalcFind      = "find"
	CalcN         = "n"
	CalcP         = "p"
	CalcM         = "m"
	CalcKeyBytes  = "key-bytes"
	CalcMaybeCost = "maybe-cost"
	CalcSavedCost = "saved-cost"
	CalcAbsentQPS = "absent-qps"
)

// CalcField describes one text field of the calculator.
type CalcField struct {
	ID, Label, Help, Default string
}

// The sizing fields, then the exact set's key length, then the cost model.
var (
	SizeFields = []CalcField{
		{ID: CalcN, Label: "n: keys to hold", Help: "a count: 100000000, 100,000,000 or 1e8", Default: "100000000"},
		{ID: CalcP, Label: "p: false-positive rate", Help: "0.01, 1% or 1 in 100", Default: "0.01"},
		{ID: CalcM, Label: "m: filter size", Help: "bits, or a size: 5000B, 1.5 KiB, 114.26 MiB, 1 GiB", Default: "958505838"},
	}
	CostFields = []CalcField{
		{ID: CalcKeyBytes, Label: "Key bytes", Help: "the length of one key, for the exact set's memory", Default: "16"},
		{ID: CalcMaybeCost, Label: "Cost of a \"maybe\" on an absent key", Help: "any unit: milliseconds of database time, cents", Default: "1"},
		{ID: CalcSavedCost, Label: "Cost a \"no\" saves", Help: "the lookup the filter spares, in the same unit", Default: "1"},
		{ID: CalcAbsentQPS, Label: "Absent queries per second", Help: "lookups for keys that are not in the set", Default: "1000"},
	}
)

// FindLabels words each unknown for the radio group.
var FindLabels = []struct {
	Find  plan.Unknown
	Label string
}{
	{plan.FindM, "m, the memory, from n and p"},
	{plan.FindP, "p, the rate, from n and m"},
	{plan.FindN, "n, the keys it holds, from p and m"},
}

// Calculator is the calculator's state as the user typed it: which of n, p
// and m to find, and every field's raw text. The URL carries exactly this.
type Calculator struct {
	Find   plan.Unknown
	Values map[string]string
}

// DefaultCalculator is the form without a query: the classic example,
// 10^8 keys at 1%.
func DefaultCalculator() Calculator {
	f := Calculator{Find: plan.FindM, Values: map[string]string{}}
	for _, fl := range append(append([]CalcField{}, SizeFields...), CostFields...) {
		f.Values[fl.ID] = fl.Default
	}
	return f
}

// Clone returns a copy whose Values can change without touching f's.
func (f Calculator) Clone() Calculator {
	g := Calculator{Find: f.Find, Values: make(map[string]string, len(f.Values))}
	for k, v := range f.Values {
		g.Values[k] = v
	}
	return g
}

// CalculatorFromQuery reads the calculator from a URL query. Fields keep their
// raw text, good or bad, so a bad value is shown next to its field as the
// user wrote it. Without a find key the unknown is the one of n, p and m
// the link leaves out; a notice says so when that is ambiguous or find is
// not m, p or n.
func CalculatorFromQuery(q url.Values) (Calculator, string) {
	f := DefaultCalculator()
	for k := range f.Values {
		if v, ok := Lookup(q, k); ok {
			f.Values[k] = v
		}
	}
	_, hasN := Lookup(q, CalcN)
	_, hasP := Lookup(q, CalcP)
	_, hasM := Lookup(q, CalcM)
	raw, hasFind := Lookup(q, CalcFind)
	notices := Repeated(q)
	f.Find = inferFind(hasN, hasP, hasM)
	switch {
	case hasFind:
		if u, err := plan.ParseUnknown(raw); err == nil {
			f.Find = u
		} else {
			notices = append(notices, "find: "+Quote(raw)+" is not m, p or n, so the calculator finds "+string(f.Find))
		}
	case hasN && hasP && hasM:
		notices = append(notices, "find: the link gives n, p and m, so the calculator finds m from n and p; choose another below")
	}
	return f, strings.Join(notices, "; ")
}

// inferFind picks the unknown a link leaves out; m when it is not clear.
func inferFind(hasN, hasP, hasM bool) plan.Unknown {
	switch {
	case hasN && hasM && !hasP:
		return plan.FindP
	case hasP && hasM && !hasN:
		return plan.FindN
	}
	return plan.FindM
}

// Query writes the form as a URL query: find, the two known fields and the
// cost model. The unknown is left out, since the page computes it.
func (f Calculator) Query() url.Values {
	q := url.Values{}
	q.Set(CalcFind, string(f.Find))
	for _, fl := range SizeFields {
		if fl.ID != string(f.Find) {
			q.Set(fl.ID, f.Values[fl.ID])
		}
	}
	for _, fl := range CostFields {
		q.Set(fl.ID, f.Values[fl.ID])
	}
	return q
}

// Solved is what the page shows for a form: the plan, or the field
// errors that stop it, and how each good field was read.
type Solved struct {
	Plan plan.Plan
	// Measured is the alternatives built and queried (plan.Measure), in
	// Plan.Alternatives' order; nil until measured.
	Measured []plan.Measured
	// Cheapest is each of the lab's structures at the fewest bits for the
	// plan's n and p (plan.Cheapest), and CheapestFor the cheapest for
	// each of plan.Needs; nil until priced.
	Cheapest    []plan.Sized
	CheapestFor []int
	OK          bool
	Errors      map[string]string // field ID -> message
	Read        map[string]string // field ID -> the value as understood
	Err         string            // an error of the whole plan, not one field
}

// Solve parses every known field and solves. It never fails: bad input
// comes back as messages for the page to put next to the fields.
func (f Calculator) Solve() Solved { return f.solve(plan.Solve) }

// SolveFigures is Solve without the plan's alternatives
// (plan.SolveFigures): what a page works out at each key, in microseconds
// where the alternatives can take a second at a slow laptop's pace.
func (f Calculator) SolveFigures() Solved { return f.solve(plan.SolveFigures) }

func (f Calculator) solve(solve func(plan.Input) (plan.Plan, error)) Solved {
	r := Solved{Errors: map[string]string{}, Read: map[string]string{}}
	in := plan.Input{Find: f.Find}
	fail := func(id string, err error) {
		r.Errors[id] = core.Message(err)
	}
	var err error
	if f.Find != plan.FindN {
		if in.N, err = plan.ParseKeys(f.Values[CalcN]); err != nil {
			fail(CalcN, err)
		} else {
			r.Read[CalcN] = format.Int(in.N) + " keys"
		}
	}
	if f.Find != plan.FindP {
		if in.P, err = plan.ParseRate(f.Values[CalcP]); err != nil {
			fail(CalcP, err)
		} else {
			r.Read[CalcP] = "p = " + strconv.FormatFloat(in.P, 'g', -1, 64) + " (" + format.Percent(in.P) + ")"
		}
	}
	if f.Find != plan.FindM {
		if in.M, err = plan.ParseBits(f.Values[CalcM]); err != nil {
			fail(CalcM, err)
		} else {
			r.Read[CalcM] = format.Int(in.M) + " bits, " + plan.FormatSize(in.M)
		}
	}
	if in.KeyBytes, err = plan.ParseKeyBytes(f.Values[CalcKeyBytes]); err != nil {
		fail(CalcKeyBytes, err)
	}
	for _, a := range []struct {
		id, name string
		dst      *float64
	}{
		{CalcMaybeCost, "the cost of a maybe", &in.Cost.Maybe},
		{CalcSavedCost, "the cost a no saves", &in.Cost.Saved},
		{CalcAbsentQPS, "absent queries per second", &in.Cost.AbsentQPS},
	} {
		if *a.dst, err = plan.ParseAmount(a.name, f.Values[a.id]); err != nil {
			fail(a.id, err)
		}
	}
	if len(r.Errors) > 0 {
		return r
	}
	pl, err := solve(in)
	if err != nil {
		r.Err = core.Message(err)
		return r
	}
	r.Plan, r.OK = pl, true
	return r
}

// SolvedText writes the unknown as the user would type it back, so that
// switching what to find keeps the figure: m in bits, p as a decimal, n as
// a count.
func SolvedText(pl plan.Plan, id string) string {
	switch id {
	case CalcM:
		return strconv.FormatUint(pl.M, 10)
	case CalcP:
		return strconv.FormatFloat(pl.P, 'g', 6, 64)
	case CalcN:
		return strconv.FormatUint(pl.N, 10)
	}
	return ""
}
