// Package keys is the keys people bring to the lab, as opposed to the keys
// it generates (core.Key). Three kinds, one file each:
//
//   - list.go: a key list read from a file, a paste or an upload, one key a
//     line (Read, ReadSteps, Parse): bounded by Limits whatever the input,
//     its duplicates dropped as it is read so that one never counts twice
//     in n, its keys kept end to end in one arena (List, Set).
//   - typed.go: the key panel's typed keys as a link carries them (Join,
//     Split), at most MaxTyped keys of MaxTypedBytes, checked by CheckTyped
//     with an error that names the key at fault.
//   - words.go: the common words the key panel tries, in a fixed order, to
//     find a false positive that is the same on every platform.
//
// The package imports only the standard library; core/sim and core/try
// build on it. Each caller sets its own Limits: the command line
// sim.DefaultKeyLimits, the browser the tighter engine.KeyLimits. Errors
// start "keys: ", which
// core.Message strips for people. A new source of keys (another file
// format) is a reader here that fills a List within Limits, with a fuzz
// test as FuzzReadKeys is.
package keys
