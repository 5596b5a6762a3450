// Package sim is the lab's measurement: one run of the lab's controls
// (Params) builds a filter of any layout, inserts the generated members
// (and the key panel's typed keys, or a user's own lists), queries absent
// keys and members, and returns what it measured beside what theory
// predicts (Result), with a digest that is the same natively, under Node
// and in a browser. The lab's page, `bloomlab simulate`, the audit, the
// experiments and the key panel (package try) all run it.
//
// A run is bounded by Params.Validate (core's limits) and reports through
// a Step every Chunk operations (Pace), which is also how a caller cancels
// it (ErrCancelled). Params.At is the player's stop: the same filter
// holding only its first keys. OverlapOf counts, for the overlap view, how
// many keys share each position.
//
// The package imports core and core/keys only. It knows no layout: it asks
// the variant's record (core.Variant) and the filter's views, so a new
// layout needs nothing here. A new measured figure goes in Result (and in
// its digest only if every platform must reproduce it bit for bit).
package sim
