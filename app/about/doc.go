// Package about is the about page: the filter explained for the teacher
// and the newcomer, in short sections (how bits say no, the formula and its
// optimum, why a zero is proof, where the guarantee breaks, what to settle
// before shipping one), each with links that open the lab at the settings
// that show the point. The formulas are MathML and the chart of rate
// against k is ui.Chart's SVG, both drawn by the browser itself, so the
// page works offline and runs no simulation.
//
// It imports settings (the lab's links are written from settings.Lab, so a
// renamed link key renames them), ui, ui/format and core, and no other
// page: a link to the lab is a URL, not a call into package lab.
// page_test.go checks that every link is legal (no clamp notice) and opens
// the settings its section needs.
//
// Where the next thing goes: a new section is one entry in aboutSections
// (its ID and title, which the contents list too) and a function that
// writes its body; its links go in aboutLinks, under the section's ID,
// written with labLink (an edit of the default settings) or presetLink
// (one of the lab's classic cases), with a line in the test's table
// saying what each must open.
package about
