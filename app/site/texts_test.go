package site

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// packageName finds a Go name qualified by one of the lab's own packages,
// as a rename by tool writes it into a sentence: "is painter.Outside the
// interval".
var packageName = regexp.MustCompile(`\b(painter|core|sim|try|keys|plan|settings|engine|ui|format|charts|lab|audit|experiment)\.[A-Z][A-Za-z]*\b`)

// codeNames are the sentences that name a Go function on purpose, for a
// reader who wants the source.
var codeNames = []string{"core.ExactSetBytes"}

// TestTextsNameNoGoPackage: no string a page shows names one of the lab's
// Go packages, except where it points a reader at the source on purpose.
func TestTextsNameNoGoPackage(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil || !strings.Contains(s, " ") {
				return true
			}
			for _, name := range packageName.FindAllString(s, -1) {
				if !strings.Contains(strings.Join(codeNames, " "), name) {
					t.Errorf("%s: a page's text names %s: %q", fset.Position(lit.Pos()), name, s)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
