//go:build !wasm

package main

import (
	"fmt"
	"io"
	"os"

	"github.com/bloomlab/bloomlab/app/lessons/lessonfile"
)

// lessonUsage is lesson's usage, printed on a mistake.
const lessonUsage = `usage: bloomlab lesson check FILE   check a lesson file as the lessons page reads it (- for stdin)
       bloomlab lesson new          print a starting lesson that passes the check`

// runLesson checks a teacher's lesson file, or prints a template: the
// checker is the page's own (lessonfile), so a file that passes here opens
// there.
func runLesson(args []string, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 1 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help"):
		fmt.Fprintln(stderr, lessonUsage)
		return 0
	case len(args) == 1 && args[0] == "new":
		fmt.Fprint(stdout, lessonfile.Template)
		return 0
	case len(args) == 2 && args[0] == "check":
		return checkLesson(args[1], stdout, stderr)
	case len(args) == 0:
		fmt.Fprintln(stderr, "bloomlab lesson: say check FILE or new")
	case args[0] == "check":
		fmt.Fprintln(stderr, "bloomlab lesson check: give one lesson file")
	case args[0] == "new":
		fmt.Fprintf(stderr, "bloomlab lesson new: unexpected argument %q\n", args[1])
	default:
		fmt.Fprintf(stderr, "bloomlab lesson: unknown command %q\n", args[0])
	}
	fmt.Fprintln(stderr, lessonUsage)
	return 2
}

// checkLesson reads at most one byte past the format's bound, so a huge
// file is refused without being read.
func checkLesson(name string, stdout, stderr io.Writer) int {
	var in io.Reader = os.Stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(stderr, "bloomlab lesson check: %v\n", err)
			return 1
		}
		defer f.Close()
		in = f
	}
	src, err := io.ReadAll(io.LimitReader(in, lessonfile.MaxBytes+1))
	if err != nil {
		fmt.Fprintf(stderr, "bloomlab lesson check: %s: %v\n", name, err)
		return 1
	}
	l, errs := lessonfile.Parse(src)
	if len(errs) > 0 {
		fmt.Fprint(stderr, errs.Format(name))
		return 1
	}
	asks := 0
	for _, s := range l.Steps {
		if s.Question != nil {
			asks++
		}
	}
	fmt.Fprintf(stdout, "%s: %q, %d %s, %d %s: ok\n", name, l.Title, len(l.Steps), plural(len(l.Steps), "step"), asks, plural(asks, "prediction"))
	return 0
}
