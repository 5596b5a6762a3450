// Package auditpage is the audit's page: the whole audit of the lab's
// filter (or, with ?fault=NAME, of one filter of the fault zoo) run in the
// browser check by check, a row for each contract with its verdict and
// detail, then the summary and the digest, which are the same natively,
// under Node and here. With a fault chosen it names the checks that caught
// it and the false-positive rate the broken filter reported meanwhile.
//
// The page runs nothing itself: the session's audit book
// (engine.Audits) starts a run once per fault, on the page's workers, and
// the page listens, so the lab's badge, this page and window.bloomlab share
// one run. It imports audit (for the checks it lists before any has run),
// engine, settings (the link's keys), ui, ui/format and core, and no other
// page.
//
// Where the next thing goes: a new check belongs in package audit's list,
// and the page shows it with no edit here, in its group's <details>
// (groups.go: the groups and their counts, the filter, the list, a
// component that adds its own rows a few at a time after the start and
// redraws nothing else, and a check's row as checkRow draws it, ran or
// pending); what a fault's link says is in OnNav
// and renderSummary; a part that shows the run as it comes in is a
// livePart, which each news of the run renders alone (Page.news).
package auditpage
