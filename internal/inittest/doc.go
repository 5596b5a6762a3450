// Package inittest holds one test: nothing of ours runs at package
// initialization that the first frame does not need.
//
// Every page of the WebAssembly build pays for the package set-up of every
// package it links before main starts, on the page's thread. So a
// package-level value in our packages (core, audit, app, cmd and the
// internal packages beside them) is a literal or declared lazy:
//
//   - constants, literals, composite literals of allowed parts, the address
//     of a composite literal, function literals (their bodies run later) and
//     names of functions, types or other package-level values;
//   - conversions of allowed parts, and the builtins that only size or
//     allocate (len, cap, new, make, min, max);
//   - errors.New with a constant message (one small allocation);
//   - sync.OnceValue, sync.OnceValues and sync.OnceFunc, whose argument
//     runs on first use.
//
// Any other call at package level, a channel receive, or a func init fails
// the test with its file and line. No func init is allowed, registration
// included: a table of what registers is a composite literal, and one list
// read where it is used keeps the order visible. The test type-checks each
// package twice, for this machine and for js/wasm, since files differ
// between the two builds.
package inittest
