// Package lab is the lab's page, the heart of the site: every setting of a
// simulated filter on a slider or a choice (the layout, the fault, the
// hashing), the filter those settings make, and what shows it: the
// counters beside the theory, the bit array drawn cell by cell, the charts
// of the rate against k and against bits per key, the glance that keeps a
// strip of the bits and the rates beside the controls in use, the player
// that replays the inserts, the key panel where a learner inserts, queries and attacks
// keys of their own, and their own key lists. Its settings live in the
// link (settings.Lab): a control change navigates to the new query and
// OnNav reads it back, so links, reloads and back/forward all restore the
// lab exactly, and the prerendered page already shows the filter (the
// first view, first_view.go).
//
// The Page holds the settings and the filter they make, and wires the
// parts that show them. Each part is a type with its own state in a file
// of its own (controls, own keys, key panel, player, counters, glance,
// bits, overlap, the file view), and reaches the page only through a small interface of what
// it needs (labEditor, keyLab, playLab, bitsLab, overlapLab, fileLab), so a part can be read,
// and tested, without the rest. A part that needs nothing of the page
// lives in a package of its own under app/lab, exporting what the page
// calls: the charts (app/lab/charts) and the painter of the bit array
// (app/lab/painter). Render only shows and wires: the simulation is
// core's, and the runs go through the engine, which cancels a run a newer
// move replaced and, for large shapes, runs it on the lab's worker.
//
// It imports its parts' packages (lab/charts, lab/painter), engine,
// settings, ui, ui/format, core, core/plan (for byte sizes) and audit (the audit
// badge's report), and no other page. Two
// pages build on it: lessons embeds the Page and guides it through a small
// API (Show, State, Settings, Keep, OnChange, ClearQueries), and embed
// shows it compact inside an article (InitFramed, Compact, compact.go);
// cmd/bloomlab's browser tests find its elements by their IDs, written
// out as the page writes them: the ID constants here are the page's own.
//
// Each chart and the bit array downloads as a figure for a slide
// (figure.go): the page makes it from what it shows, and FigureOf makes
// the same from a link's settings alone for `bloomlab figure`.
//
// Where the next thing goes: a new slider is one record in
// settings.Sliders and shows here with no edit; a new choice is a select in
// controls.go with its parse in settings; a new figure is a counter in
// counters.go; a new chart is a ui.Chart built in app/lab/charts; what a
// layout shows (its unit, its cells) comes from core's variant record,
// never from a comparison here; a new part with state of its own is a
// package under app/lab when it needs nothing of the page, otherwise a
// file with its type and its interface of the page; either way one field
// of Page. A part below the fold or behind a click waits out of the
// page's first tree (later.go): a later field in it, listed in laters.
package lab
