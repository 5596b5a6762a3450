package compare

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/audit"
)

// readmePath is the lab's README, whose audit figures TestReadmeFigures
// holds to the audit.
const readmePath = "../README.md"

// tableHead starts each of the README's tables of verdicts per group; its
// other columns name libraries by their verdicts files.
const tableHead = "| group (passed / failed / skipped) |"

// verdictsPath is where the verdicts of the target called name are pinned.
func verdictsPath(name string) string {
	return filepath.Join("testdata", strings.ReplaceAll(name, "/", "-")+".verdicts")
}

// TestVerdictsCoverEveryCheck: every pinned verdicts file lists the
// audit's checks, in order. A file that an adapter missing here left
// behind fails, with no need of the adapter.
func TestVerdictsCoverEveryCheck(t *testing.T) {
	t.Parallel()
	var ids []string
	for _, c := range audit.Checks() {
		ids = append(ids, c.ID)
	}
	files, err := filepath.Glob("testdata/*.verdicts")
	if err != nil || len(files) == 0 {
		t.Fatalf("no verdicts files (%v)", err)
	}
	for _, path := range files {
		pinned, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, line := range strings.Split(strings.TrimSpace(string(pinned)), "\n") {
			_, id, _ := strings.Cut(line, " ")
			got = append(got, id)
		}
		if !slices.Equal(got, ids) {
			t.Errorf("%s lists %d checks, the audit %d, or not in its order: make golden rewrites it", path, len(got), len(ids))
		}
	}
}

// TestReadmeFigures holds the README's audit figures to the audit: each
// table of verdicts per group to the pinned verdicts of its libraries
// (which TestLibraryVerdicts and TestProgramVerdicts hold to the live
// audit), and the counts its prose gives to a live audit of
// bits-and-blooms. With -update (make golden, after the verdicts) it
// rewrites them, so a new check reaches the README only through here. Its
// findings about libraries (how many checks one fails) it checks and
// leaves: a new failure is a finding to write by hand.
func TestReadmeFigures(t *testing.T) {
	doc, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	bb, err := audit.Run(BitsAndBlooms(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := readmeTables(string(doc))
	if err != nil {
		t.Fatal(err)
	}
	labOnly := 0
	for _, o := range bb.Checks {
		if o.Closed && strings.Contains(o.Detail, "needs the lab's") {
			labOnly++
		}
	}
	for _, f := range []struct{ pattern, says string }{
		// The text report's last line, as the README shows its form.
		{"`\\d+/\\d+ checks passed, \\d+ skipped \\((all \\d+|\\d+ of the \\d+) checks open to bits-and-blooms ran\\)`", "`" + bb.Summary() + "`"},
		{`\d+ checks audit the lab's own`, fmt.Sprintf("%d checks audit the lab's own", labOnly)},
	} {
		re := regexp.MustCompile(f.pattern)
		if n := len(re.FindAllStringIndex(want, -1)); n != 1 {
			t.Fatalf("the README says %d times what %s matches, want once (%s)", n, f.pattern, f.says)
		}
		want = re.ReplaceAllLiteralString(want, f.says)
	}
	for _, f := range []struct{ pattern, library string }{
		{"`bloom-filters` fails (\\w+),", "bloom-filters"},
		{"Perl's `Bloom::Filter` fails (\\w+),", "bloom-filter-perl"},
		{"Guava's `BloomFilter` fails (\\w+),", "guava"},
	} {
		m := regexp.MustCompile(f.pattern).FindStringSubmatch(want)
		failed, err := tally(f.library)
		if err != nil {
			t.Fatal(err)
		}
		said := "nothing it matches"
		if m != nil {
			said = m[1]
		}
		if n := failed[len(failed)-1].failed; said != spelled(n) {
			t.Errorf("the README says %s fails %s (%s), its verdicts %d: a finding to write by hand", f.library, said, f.pattern, n)
		}
	}
	if *update {
		if want != string(doc) {
			if err := os.WriteFile(readmePath, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	if want != string(doc) {
		t.Errorf("the README's audit figures are not the audit's (make golden rewrites them):\n%s", lineDiff(string(doc), want))
	}
}

// readmeTables is doc with each table of verdicts per group rebuilt from
// the verdicts of the libraries its head names.
func readmeTables(doc string) (string, error) {
	lines := strings.Split(doc, "\n")
	var out []string
	for i := 0; i < len(lines); i++ {
		out = append(out, lines[i])
		if !strings.HasPrefix(lines[i], tableHead) || i+1 == len(lines) {
			continue
		}
		libraries := strings.Split(strings.TrimSuffix(strings.TrimPrefix(lines[i], tableHead+" "), " |"), " | ")
		columns := make([][]count, len(libraries))
		for c, name := range libraries {
			var err error
			if columns[c], err = tally(name); err != nil {
				return "", err
			}
		}
		out = append(out, lines[i+1]) // the rule
		for i+2 < len(lines) && strings.HasPrefix(lines[i+2], "|") {
			i++
		}
		i++
		for g, name := range append(slices.Clone(audit.Groups), "all checks") {
			row := "| " + name
			for c := range libraries {
				row += " | " + columns[c][g].String()
			}
			out = append(out, row+" |")
		}
	}
	return strings.Join(out, "\n"), nil
}

// count is one library's passed, failed and skipped checks in one group.
type count struct{ passed, failed, skipped int }

func (c count) String() string { return fmt.Sprintf("%d / %d / %d", c.passed, c.failed, c.skipped) }

// tally counts the pinned verdicts of library per group, in audit.Groups
// order, with the totals last.
func tally(library string) ([]count, error) {
	pinned, err := os.ReadFile(verdictsPath(library))
	if err != nil {
		return nil, fmt.Errorf("compare: the README names %q, which has no verdicts: %w", library, err)
	}
	group := map[string]int{}
	for _, c := range audit.Checks() {
		group[c.ID] = slices.Index(audit.Groups, c.Group)
	}
	out := make([]count, len(audit.Groups)+1)
	for _, line := range strings.Split(strings.TrimSpace(string(pinned)), "\n") {
		word, id, _ := strings.Cut(line, " ")
		g, ok := group[id]
		if !ok {
			return nil, fmt.Errorf("compare: %s pins %q, which the audit no longer has: make golden rewrites it", verdictsPath(library), id)
		}
		for _, c := range []*count{&out[g], &out[len(audit.Groups)]} {
			switch word {
			case "pass":
				c.passed++
			case "fail":
				c.failed++
			default:
				c.skipped++
			}
		}
	}
	return out, nil
}

// spelled is n as the README's prose writes a count: a word to twelve.
func spelled(n int) string {
	words := []string{"no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"}
	if n < len(words) {
		return words[n]
	}
	return strconv.Itoa(n)
}

// lineDiff lists the lines where got and want differ, by line number.
func lineDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	var b strings.Builder
	for i := range max(len(g), len(w)) {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			fmt.Fprintf(&b, "  README.md:%d: %s\n           want: %s\n", i+1, gl, wl)
		}
	}
	return b.String()
}
