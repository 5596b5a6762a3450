// Package painter turns a filter's bit store into the pixels of the lab's
// bit array: the layout of m positions on a canvas (a cell a position
// while cells stay at least 2 CSS pixels wide, otherwise a density picture
// of bins, with a margin round them where the marks round the edge cells
// go whole; Fitted chooses it from m and a wide or narrow box alone, so the
// server draws the picture the live page will), the colours of set, clear
// and overlapping positions, the rings and boxes of the marks (Marks: a
// key's positions, a query's probes, the keyboard's cursor and the
// pointer's cell), and the caption that says what the picture shows.
// Every pixel the page shows comes from Frame.Render, so the live canvas
// (Shared.Draw) and the prerendered page's image (the lab's first view)
// are the same picture. A Frame keeps its buffers between renders: a
// slider's move allocates nothing large.
//
// It imports engine (the bit store it reads), ui/format, core and go-app
// (the canvas), never the lab's page, which imports it; what a layout
// shows (its unit, its groups, its links) it reads from the store and
// from core's variant record, never from a layout's name.
//
// Where the next thing goes: a new way of drawing positions is a mode of
// Layout with its branch in Render; a new mark is a field of Marks drawn
// in Render with a colour of its own beside rgbRing and rgbBox; what the
// pointer and the keyboard do with the picture stays in the lab (bits.go).
package painter
