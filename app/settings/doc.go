// Package settings is what a page's link carries, read and written: the
// lab's settings (Lab), the experiments page's choice and sizes
// (Experiment), the calculator's form (Calculator) and what an embedded
// lab shows (Embed). Each is parsed from a URL query with every value
// range-checked; a value out of range is clamped or left at its default,
// and a notice says which, so a hand-edited or hostile link never does
// something other than what the page shows. It imports no go-app, so it is
// tested and fuzzed as plain Go. ControlNote says why a control of the
// lab means nothing to a layout, for the lab's controls and its charts.
//
// Of the app it imports only ui/format (a notice writes a number as the
// pages do), with core, core/plan and core/experiment for the ranges and
// the parsers it shares with the command line; every page imports it, and
// ui for the projector mode's key. The bounds it checks are read from core
// where core has them (bits per key, key bytes), never retyped, and the
// lab's own ranges, which keep the browser's memory bounded (k, items,
// queries, passes), are named once in lab.go.
//
// Where the next thing goes: a new slider of the lab is one record in
// Sliders (its ID, label, range and the field of sim.Params it moves),
// and the lab shows it with no other edit; any other new link key is an ID
// constant, its parse in its page's FromQuery (LabFromQuery and the
// others) with a notice for each value it changes, and its write in that
// page's Query, so the round-trip tests and the link fuzzer
// (links_fuzz_test.go) cover it.
package settings
