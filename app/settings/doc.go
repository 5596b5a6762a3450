// Package settings is what a page's link carries, read and written: the
// lab's settings (Lab), the experiments page's choice and sizes
// (Experiment) and the calculator's form (Calculator). Each is parsed from
// a URL query with every value range-checked; a value out of range is
// clamped or left at its default, and a notice says which, so a hand-edited
// or hostile link never does something other than what the page shows.
// It imports no go-app, so it is tested and fuzzed as plain Go.
package settings
