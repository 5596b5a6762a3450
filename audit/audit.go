package audit

import (
	"fmt"

	"bloomlab/core"
)

// Check is one named contract check.
type Check struct {
	ID       string // stable, e.g. "no-false-negatives/tiny-m"
	Group    string // one of Groups, in the specification's order
	Contract string // one line: what contract it checks
	// Run audits the lab's implementation as target t: a fault switched
	// on (core.NoFault is the real filter) and a hashing scheme.
	Run func(t Target) Verdict
}

// Target is what an audit checks: the lab's filters with one fault of the
// zoo switched on (core.NoFault for none) and a hashing scheme for the
// standard and counting filters ("" is double hashing). A check that builds
// a blocked filter, or one under a fault that breaks double hashing, builds
// it with double hashing, the only scheme it has.
type Target struct {
	core.Fault
	Hashing core.Hashing
}

// hashing is the scheme a filter of layout v under t uses.
func (t Target) hashing(v core.Variant) core.Hashing {
	if t.Hashing == "" || v.HashedBy(t.Fault, t.Hashing) != nil {
		return core.DoubleHashing
	}
	return t.Hashing
}

// Verdict is what one check found: whether the contract held, and a line
// with the figures behind the answer.
type Verdict struct {
	Pass   bool
	Detail string
}

// The eight groups, in the order the report lists them. Checks that could be
// fooled by a lost key come first; the false-positive rate comes last.
const (
	GroupNegatives   = "no false negatives"
	GroupIndices     = "indices in range"
	GroupIdempotent  = "idempotent duplicates"
	GroupAccounting  = "bit accounting"
	GroupFormulas    = "formulas"
	GroupHashing     = "hashing"
	GroupStatistics  = "statistics"
	GroupDeterminism = "determinism"
)

// Groups lists the group names in report order.
var Groups = []string{GroupNegatives, GroupIndices, GroupIdempotent, GroupAccounting,
	GroupFormulas, GroupHashing, GroupStatistics, GroupDeterminism}

// Checks lists every check in report order (groups in the specification's
// order). It builds the list afresh, so callers may keep or change it.
func Checks() []Check {
	var all []Check
	for _, group := range [][]Check{negativeChecks(), indexChecks(), idempotentChecks(),
		accountingChecks(), formulaChecks(), hashingChecks(), statisticsChecks(), determinismChecks()} {
		all = append(all, group...)
	}
	return all
}

// Outcome is one check's line in a report.
type Outcome struct {
	ID       string `json:"id"`
	Group    string `json:"group"`
	Contract string `json:"contract"`
	Pass     bool   `json:"pass"`
	Detail   string `json:"detail"`
}

// Report is one audit of the lab's filter with one fault switched on.
type Report struct {
	Fault string `json:"fault"`
	// Hashing is the scheme audited, empty for double hashing (the
	// default, whose digests predate the choice).
	Hashing core.Hashing `json:"hashing,omitempty"`
	Checks  []Outcome    `json:"checks"`
	Passed  int          `json:"passed"`
	Total   int          `json:"total"`
	Digest  string       `json:"digest"`
	// ReportedFPR is the false-positive rate the default-shape simulation
	// reported under this fault: what the "beautiful" number looked like
	// while the checks failed.
	ReportedFPR float64 `json:"reportedFpr"`
}

// Progress is called after each check; a non-nil error stops the run (the
// browser yields and cancels through it).
type Progress func(done, total int, last Outcome) error

// Run audits target t, the lab's filter with a fault switched on ("" or
// core.NoFault for the real filter) and a hashing scheme ("" for double
// hashing), and calls progress (which may be nil) after each check. If
// progress stops the run, Run returns the outcomes so far, without a
// digest, and progress's error. A fault outside the zoo, or a scheme the
// lab does not have, is an error.
func Run(t Target, progress Progress) (Report, error) {
	fault, err := core.ParseFault(string(t.Fault))
	if err != nil {
		return Report{}, fmt.Errorf("audit: %w", err)
	}
	h, err := core.ParseHashing(string(t.Hashing))
	if err != nil {
		return Report{}, fmt.Errorf("audit: %w", err)
	}
	f := Target{Fault: fault, Hashing: h}
	checks := Checks()
	r := Report{Fault: string(fault), Total: len(checks), Checks: make([]Outcome, 0, len(checks))}
	if h != core.DoubleHashing {
		r.Hashing = h
	}
	if res, err := core.Simulate(withFault(core.DefaultParams(), f)); err == nil {
		r.ReportedFPR = res.EmpiricalFPR
	}
	for i, c := range checks {
		v := runCheck(c, f)
		o := Outcome{ID: c.ID, Group: c.Group, Contract: c.Contract, Pass: v.Pass, Detail: v.Detail}
		r.Checks = append(r.Checks, o)
		if v.Pass {
			r.Passed++
		}
		if progress != nil {
			if err := progress(i+1, len(checks), o); err != nil {
				return r, err
			}
		}
	}
	r.Digest = r.digest()
	return r, nil
}

// runCheck runs one check, turning a panic into a failed verdict: a broken
// filter must show up red in the report, not take the report down with it.
func runCheck(c Check, f Target) (v Verdict) {
	defer func() {
		if e := recover(); e != nil {
			v = Verdict{Detail: fmt.Sprintf("panicked: %v", e)}
		}
	}()
	return c.Run(f)
}

// digest folds the fault, every check's ID, verdict and detail, and the
// reported rate into a short digest. Details print floats at fixed decimals
// and core.Digester rounds the rate to six, so the digest is the same on
// every platform.
func (r Report) digest() string {
	var d core.Digester
	d.String(r.Fault)
	if r.Hashing != "" {
		d.String(string(r.Hashing))
	}
	d.Uint(uint64(len(r.Checks)))
	for _, o := range r.Checks {
		d.String(o.ID)
		if o.Pass {
			d.Uint(1)
		} else {
			d.Uint(0)
		}
		d.String(o.Detail)
	}
	d.Uint(uint64(r.Passed))
	d.Float(r.ReportedFPR)
	return d.Sum()
}

// AllPassed reports whether every check passed.
func (r Report) AllPassed() bool { return r.Total > 0 && r.Passed == r.Total }

// pass and fail build verdicts with a formatted detail line.
func pass(format string, a ...any) Verdict {
	return Verdict{Pass: true, Detail: fmt.Sprintf(format, a...)}
}
func fail(format string, a ...any) Verdict { return Verdict{Detail: fmt.Sprintf(format, a...)} }

// verdict passes when ok, with the same detail either way.
func verdict(ok bool, format string, a ...any) Verdict {
	return Verdict{Pass: ok, Detail: fmt.Sprintf(format, a...)}
}
