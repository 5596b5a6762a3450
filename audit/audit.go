package audit

import (
	"fmt"
	"slices"

	"github.com/bloomlab/bloomlab/core"
)

// Check is one named contract check.
type Check struct {
	ID       string // stable, e.g. "no-false-negatives/tiny-m"
	Group    string // one of Groups, in the specification's order
	Contract string // one line: what contract it checks
	// Needs lists what the check asks of a target beyond Add and Test; a
	// target that lacks one gets the check skipped, with the reason.
	Needs []Need
	// Run audits target t.
	Run func(t Target) Verdict
}

// Verdict is what one check found: whether the contract held, and a line
// with the figures behind the answer.
type Verdict struct {
	Pass    bool
	Detail  string
	stop    error // the run was stopped mid-check
	refused bool  // the target refused the check's shape
}

// stopped is the verdict of a check whose run was stopped.
func stopped(err error) Verdict { return Verdict{stop: err} }

// The nine groups, in the order the report lists them. Checks that could be
// fooled by a lost key come first; the false-positive rate comes after them;
// a filter in a system (saved, merged, counted) last, since each of those
// checks trusts the filter it starts from.
const (
	GroupNegatives   = "no false negatives"
	GroupIndices     = "indices in range"
	GroupIdempotent  = "idempotent duplicates"
	GroupAccounting  = "bit accounting"
	GroupFormulas    = "formulas"
	GroupHashing     = "hashing"
	GroupStatistics  = "statistics"
	GroupDeterminism = "determinism"
	GroupSystem      = "system"
)

// Groups lists the group names in report order.
var Groups = []string{GroupNegatives, GroupIndices, GroupIdempotent, GroupAccounting,
	GroupFormulas, GroupHashing, GroupStatistics, GroupDeterminism, GroupSystem}

// Checks lists every check in report order (groups in the specification's
// order). It builds the list afresh, so callers may keep or change it.
func Checks() []Check {
	var all []Check
	for _, group := range [][]Check{negativeChecks(), indexChecks(), idempotentChecks(),
		accountingChecks(), formulaChecks(), hashingChecks(), statisticsChecks(), determinismChecks(), systemChecks()} {
		all = append(all, group...)
	}
	return all
}

// Outcome is one check's line in a report. A skipped check has Pass
// false, Skipped true and the reason in Detail.
type Outcome struct {
	ID       string `json:"id"`
	Group    string `json:"group"`
	Contract string `json:"contract"`
	Pass     bool   `json:"pass"`
	Skipped  bool   `json:"skipped,omitempty"`
	Detail   string `json:"detail"`
	// Closed is set on a check skipped because the target does not show
	// what it needs: a check not open to this target, where a refused
	// shape or a program gone is open and not run.
	Closed bool `json:"closed,omitempty"`
}

// Report is one audit of one target.
type Report struct {
	Target  string    `json:"target"`
	About   string    `json:"about"`
	Checks  []Outcome `json:"checks"`
	Passed  int       `json:"passed"`
	Failed  int       `json:"failed"`
	Skipped int       `json:"skipped"`
	Total   int       `json:"total"`
	Digest  string    `json:"digest"`
	// ReportedFPR is the false-positive rate the target's filter shows at
	// the lab's default shape (m = 40000, k = 7, 4000 keys): what the
	// "beautiful" number looked like while checks failed.
	ReportedFPR float64 `json:"reportedFpr"`
	// Open counts the checks open to this target: all but those skipped
	// because it does not show what they need (Outcome.Closed).
	Open int `json:"open"`
	// Narrowed, on a report of some of the checks, says which ("--group
	// statistics: N of M checks", N kept of the M), where the command
	// line sets it.
	Narrowed string `json:"narrowed,omitempty"`
	// Lab names the lab that ran the audit, its version and the Go that
	// built it ("bloomlab v1.2.0 (go1.26.8)"), where the command line
	// sets it; a report read months later in a CI log says what wrote it.
	Lab string `json:"lab,omitempty"`
}

// Progress is called after each check, and while a long check works with
// last empty (its ID ""); a non-nil error stops the run. The browser
// yields to the page and cancels through it.
type Progress func(done, total int, last Outcome) error

// Run audits target t and calls progress (which may be nil) after each
// check. If progress stops the run, Run returns the outcomes so far, without
// a digest, and progress's error. A target that cannot build a small filter
// is an error.
func Run(t Target, progress Progress) (Report, error) { return RunOnly(t, nil, progress) }

// RunOnly is Run over the checks only keeps (every check when only is
// nil): the report counts and digests those alone.
func RunOnly(t Target, only func(Check) bool, progress Progress) (Report, error) {
	checks := Checks()
	if only != nil {
		checks = slices.DeleteFunc(checks, func(c Check) bool { return !only(c) })
	}
	return RunList(t, checks, progress)
}

// RunList is Run over the checks given, in their order: some of Checks,
// and checks made for the run, as Against makes.
func RunList(t Target, checks []Check, progress Progress) (Report, error) {
	have, err := discover(t)
	if err != nil {
		return Report{}, err
	}
	var outcomes []Outcome
	for i, c := range checks {
		if progress != nil {
			t.pause = func() error { return progress(i, len(checks), Outcome{}) }
		}
		o, err := outcome(t, have, c)
		if err != nil {
			return tally(t, outcomes, len(checks)), err
		}
		outcomes = append(outcomes, o)
		if progress != nil {
			if err := progress(i+1, len(checks), o); err != nil {
				return tally(t, outcomes, len(checks)), err
			}
		}
	}
	r := tally(t, outcomes, len(checks))
	r.Digest = r.digest()
	return r, nil
}

// RunChecks runs the checks numbered which (indices into Checks) on target
// t, in that order, and hands each outcome to each; a non-nil error from
// each stops the run. Several runs that share out the checks, as a
// browser's workers do, give with Assemble the report of Run.
func RunChecks(t Target, which []int, each func(i int, o Outcome) error) error {
	have, err := discover(t)
	if err != nil {
		return err
	}
	checks := Checks()
	for _, i := range which {
		if i < 0 || i >= len(checks) {
			return fmt.Errorf("audit: no check %d of %d", i, len(checks))
		}
		o, err := outcome(t, have, checks[i])
		if err != nil {
			return err
		}
		if err := each(i, o); err != nil {
			return err
		}
	}
	return nil
}

// Assemble is the report of target t from the outcomes of every check, in
// the order of Checks.
func Assemble(t Target, outcomes []Outcome) (Report, error) {
	checks := Checks()
	if len(outcomes) != len(checks) {
		return Report{}, fmt.Errorf("audit: %d outcomes for %d checks", len(outcomes), len(checks))
	}
	for i, o := range outcomes {
		if o.ID != checks[i].ID {
			return Report{}, fmt.Errorf("audit: outcome %d is %q, want %q", i, o.ID, checks[i].ID)
		}
	}
	r := tally(t, outcomes, len(checks))
	r.Digest = r.digest()
	return r, nil
}

// tally is the report of the outcomes so far, without its digest.
func tally(t Target, outcomes []Outcome, total int) Report {
	r := Report{Target: t.Name, About: t.About, Total: total, Checks: outcomes, ReportedFPR: t.reportedRate()}
	if r.Checks == nil {
		r.Checks = []Outcome{}
	}
	r.Open = openChecks(outcomes)
	for _, o := range outcomes {
		switch {
		case o.Skipped:
			r.Skipped++
		case o.Pass:
			r.Passed++
		default:
			r.Failed++
		}
	}
	return r
}

// RunCheck runs the one check c on target t, as Run would: skipped, with
// the reason, when t lacks what c needs.
func RunCheck(t Target, c Check) (Outcome, error) {
	have, err := discover(t)
	if err != nil {
		return Outcome{}, err
	}
	return outcome(t, have, c)
}

// outcome runs check c on t, or skips it with the reason when t lacks what
// c needs; the error is the one that stopped the run mid-check.
func outcome(t Target, have views, c Check) (Outcome, error) {
	o := Outcome{ID: c.ID, Group: c.Group, Contract: c.Contract}
	if skip, why := have.missing(c, t.Name); skip {
		o.Skipped, o.Closed, o.Detail = true, true, why
		return o, nil
	}
	v := runCheck(c, t)
	if v.stop != nil {
		return o, v.stop
	}
	o.Pass, o.Skipped, o.Detail = v.Pass, v.refused, v.Detail
	return o, nil
}

// runCheck runs one check, turning a panic into a failed verdict: a broken
// filter must show up red in the report, not take the report down with it.
func runCheck(c Check, t Target) (v Verdict) {
	defer t.done()
	defer func() {
		if e := recover(); e != nil {
			switch e := e.(type) {
			case Broken:
				v = Verdict{Detail: e.Error()}
				return
			case refused:
				v = Verdict{Detail: "skipped: " + e.detail, refused: true}
				return
			case Unavailable:
				v = Verdict{Detail: "not run: " + e.Reason, refused: true}
				return
			}
			v = Verdict{Detail: fmt.Sprintf("panicked: %v", e)}
		}
	}()
	return c.Run(t)
}

// Refusal is the error a target's New returns for a shape it does not take
// by design: an m past what it can address, a k past its maximum. The
// check that asked is skipped with the reason: a refusal is honest, and
// neither a pass nor a false negative.
type Refusal struct{ Reason string }

func (r Refusal) Error() string { return "refused: " + r.Reason }

// Unavailable is the error (or the panic) of a target that can build no
// more filters for a reason outside the check that asked: a program that
// hung, or kept failing, is not started again. The checks that need it
// are skipped at once, "not run" with the reason, rather than each waiting
// out the same fault.
type Unavailable struct{ Reason string }

func (u Unavailable) Error() string { return "not run: " + u.Reason }

// refused ends a check whose shape the target refused, with the detail.
type refused struct{ detail string }

// Broken is what a target's filter panics with when it cannot answer at
// all, as a filter in another process that exited cannot: the check it
// serves fails with the error as its detail.
type Broken struct{ Err error }

func (b Broken) Error() string { return b.Err.Error() }

// digest folds the target's name, every check's ID, verdict and detail, and
// the reported rate into a short digest. Details print floats at fixed
// decimals and core.Digester rounds the rate to six, so the digest is the
// same on every platform.
func (r Report) digest() string {
	var d core.Digester
	d.String(r.Target)
	d.Uint(uint64(len(r.Checks)))
	for _, o := range r.Checks {
		d.String(o.ID)
		switch {
		case o.Skipped:
			d.Uint(2)
		case o.Pass:
			d.Uint(1)
		default:
			d.Uint(0)
		}
		d.String(o.Detail)
	}
	d.Uint(uint64(r.Passed))
	d.Float(r.ReportedFPR)
	return d.Sum()
}

// Summary is the report's last line: "N/M checks passed", M the checks
// that ran, and when some did not, ", S skipped" and how many of the O
// checks open to the target ran: "(M of the O checks open to libbloom
// ran)" when the target refused a shape, or "(all M checks open to
// lab/standard ran)". Letters, not figures: the figures grow with every
// check.
func (r Report) Summary() string {
	if r.Skipped == 0 {
		return r.Tally()
	}
	return r.Tally() + " (" + r.Coverage() + ")"
}

// Coverage says how many of the checks open to the target ran, "all N
// checks open to T ran", when some were skipped; "" when none was.
func (r Report) Coverage() string {
	if r.Skipped == 0 {
		return ""
	}
	ran := r.Passed + r.Failed
	open := fmt.Sprintf("%d of the %d", ran, openChecks(r.Checks))
	if ran == openChecks(r.Checks) {
		open = fmt.Sprintf("all %d", ran)
	}
	return fmt.Sprintf("%s checks open to %s ran", open, r.Target)
}

// Tally is the summary's counts alone, "N/M checks passed, S skipped",
// for a badge.
func (r Report) Tally() string {
	return fmt.Sprintf("%d/%d checks passed%s", r.Passed, r.Passed+r.Failed, skippedText(r.Skipped))
}

// openChecks counts the checks open to the target: all but those skipped
// because it does not show what they need.
func openChecks(outcomes []Outcome) int {
	n := 0
	for _, o := range outcomes {
		if !o.Closed {
			n++
		}
	}
	return n
}

// AllPassed reports whether every check that ran passed (skipped checks
// neither pass nor fail), and at least one ran.
func (r Report) AllPassed() bool { return r.Failed == 0 && r.Passed > 0 && len(r.Checks) == r.Total }

// pass and fail build verdicts with a formatted detail line.
func pass(format string, a ...any) Verdict {
	return Verdict{Pass: true, Detail: fmt.Sprintf(format, a...)}
}
func fail(format string, a ...any) Verdict { return Verdict{Detail: fmt.Sprintf(format, a...)} }

// verdict passes when ok, with the same detail either way.
func verdict(ok bool, format string, a ...any) Verdict {
	return Verdict{Pass: ok, Detail: fmt.Sprintf(format, a...)}
}
