package inittest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/constant"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/bloomlab/bloomlab"

// builds are the targets whose files are checked: this machine's (the
// command line and the server) and the browser's.
var builds = []struct{ goos, goarch string }{
	{"", ""},
	{"js", "wasm"},
}

// listed is what go list says of one package.
type listed struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	Export     string
	Module     *struct{ Path, Dir string }
	Error      *struct{ Err string }
}

// TestNothingRunsAtInit type-checks every package of the module for each
// build and fails on each package-level initializer that calls anything
// but a declared-lazy wrapper, and on each func init.
func TestNothingRunsAtInit(t *testing.T) {
	for _, b := range builds {
		name := "native"
		if b.goos != "" {
			name = b.goos + "-" + b.goarch
		}
		t.Run(name, func(t *testing.T) {
			pkgs := list(t, b.goos, b.goarch)
			exports := map[string]string{}
			for _, p := range pkgs {
				exports[p.ImportPath] = p.Export
			}
			fset := token.NewFileSet()
			imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
				file, ok := exports[path]
				if !ok || file == "" {
					return nil, fmt.Errorf("inittest: no export data for %q", path)
				}
				return os.Open(file)
			})
			checked := 0
			for _, p := range pkgs {
				if p.Module == nil || p.Module.Path != module || len(p.GoFiles) == 0 {
					continue
				}
				for _, v := range violations(t, fset, imp, p) {
					t.Error(v)
				}
				checked++
			}
			if checked < 10 {
				t.Fatalf("checked %d packages of %s, expected the whole module", checked, module)
			}
			t.Logf("checked %d packages", checked)
		})
	}
}

// list runs go list over the module for one build, with the export data of
// every dependency so the type checker need not read their sources.
func list(t *testing.T, goos, goarch string) []listed {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-deps", "-export",
		"-json=ImportPath,Dir,GoFiles,Export,Module,Error", module+"/...")
	cmd.Env = os.Environ()
	if goos != "" {
		cmd.Env = append(cmd.Env, "GOOS="+goos, "GOARCH="+goarch)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	var pkgs []listed
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listed
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		if p.Error != nil {
			t.Fatalf("go list: %s: %s", p.ImportPath, p.Error.Err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// violations type-checks one package from its sources and returns, for each
// initializer that runs code at init, its place and expression.
func violations(t *testing.T, fset *token.FileSet, imp types.Importer, p listed) []string {
	t.Helper()
	var files []*ast.File
	for _, name := range p.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	info := &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{},
		Uses:  map[*ast.Ident]types.Object{},
	}
	conf := types.Config{Importer: imp}
	if _, err := conf.Check(p.ImportPath, fset, files, info); err != nil {
		t.Fatalf("type-checking %s: %v", p.ImportPath, err)
	}
	where := func(pos token.Pos) string {
		at := fset.Position(pos)
		if rel, err := filepath.Rel(p.Module.Dir, at.Filename); err == nil {
			at.Filename = filepath.ToSlash(rel)
		}
		return fmt.Sprintf("%s:%d", at.Filename, at.Line)
	}
	var found []string
	for _, f := range files {
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.Name == "init" {
				found = append(found, where(fn.Pos())+": func init runs at package set-up; make its work lazy or a literal table")
			}
		}
	}
	for _, in := range info.InitOrder {
		ast.Inspect(in.Rhs, func(n ast.Node) bool {
			if why := runs(info, n); why != "" {
				found = append(found, fmt.Sprintf("%s: %s %s at init: %s; allowed at package level are literals and sync.OnceValue-style wrappers",
					where(n.Pos()), lhs(in), why, types.ExprString(n.(ast.Expr))))
				return false
			}
			_, fn := n.(*ast.FuncLit)
			return !fn // a function literal's body runs when it is called
		})
	}
	return found
}

// runs says why a node of an initializer runs code at init, or "" if it
// does not.
func runs(info *types.Info, n ast.Node) string {
	switch n := n.(type) {
	case *ast.UnaryExpr:
		if n.Op == token.ARROW {
			return "receives from a channel"
		}
	case *ast.CallExpr:
		fun := ast.Unparen(n.Fun)
		if info.Types[fun].IsType() {
			return "" // a conversion; its operand is checked on its own
		}
		if id, ok := fun.(*ast.Ident); ok {
			if b, ok := info.Uses[id].(*types.Builtin); ok {
				switch b.Name() {
				case "len", "cap", "new", "make", "min", "max":
					return ""
				}
				return "calls " + b.Name()
			}
		}
		switch callee(info, fun) {
		case "sync.OnceValue", "sync.OnceValues", "sync.OnceFunc":
			return ""
		case "errors.New":
			if info.Types[n.Args[0]].Value != nil && info.Types[n.Args[0]].Value.Kind() == constant.String {
				return ""
			}
		}
		return "calls " + types.ExprString(fun)
	}
	return ""
}

// callee names a call's package-level function as package.Name, or "" if
// it is anything else (a method, a value, a generic instance).
func callee(info *types.Info, fun ast.Expr) string {
	if ix, ok := fun.(*ast.IndexExpr); ok {
		fun = ix.X // sync.OnceValue[T]
	}
	var id *ast.Ident
	switch f := fun.(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return ""
	}
	fn, ok := info.Uses[id].(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Type().(*types.Signature).Recv() != nil {
		return ""
	}
	return fn.Pkg().Path() + "." + fn.Name()
}

func lhs(in *types.Initializer) string {
	names := make([]string, len(in.Lhs))
	for i, v := range in.Lhs {
		names[i] = v.Name()
	}
	return "var " + strings.Join(names, ", ")
}
