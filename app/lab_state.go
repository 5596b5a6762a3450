package app

import (
	"bloomlab/app/settings"
	"bloomlab/audit"
	"bloomlab/core"
)

// labState is what the lab holds at a moment, as a lesson's task reads it:
// the settings (the link), the run's result, the key panel's answers and
// the audit of the fault switched on. Pure data, so that a lesson's tasks
// are tested natively on states built by the core.
type labState struct {
	Settings settings.Lab
	// Result is the filter shown, nil before its first run ends.
	Result *core.Result
	// Queries are the key panel's answers since the page opened (or the
	// lesson's step began), oldest first, at most core.MaxTryKeys.
	Queries []core.TryQuery
	// Audit is the finished audit of Settings' fault, nil while it runs.
	Audit *audit.Report
}
