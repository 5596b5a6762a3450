package compare

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/bloomlab/bloomlab/audit/program"
)

// Program is a filter of another language that the lab audits through the
// protocol (audit/program/PROTOCOL.md), by its adapter in adapters/.
type Program struct {
	// Name is the target's name as its adapter says hello, and its
	// verdicts file's name in testdata.
	Name string
	// Adapter is the adapter's file, relative to this package.
	Adapter string
	// Slow marks a library too slow for its statistics group in make test:
	// make audit-slow runs that group, against the same pinned verdicts.
	Slow bool
	// Link are the libraries a C adapter is linked with, as gcc's -l
	// takes them ("bloom" for libbloom, from Debian's libbloom-dev).
	Link []string
}

// Programs are the filters of other languages the lab audits, in the order
// its tables list them.
func Programs() []Program {
	return []Program{
		{Name: "bloomfilter", Adapter: "adapters/js/bloomfilter.js"},
		{Name: "bloom-filters", Adapter: "adapters/js/bloom-filters.js", Slow: true},
		{Name: "libbloom", Adapter: "adapters/c/libbloom.c", Link: []string{"bloom"}},
		{Name: "js/signed-index", Adapter: "adapters/js/signed-index.js"},
		// The kits' examples: correct filters, so every check they reach
		// passes. Pure Python takes about 28 s for the statistics group
		// alone (4 s for the rest), three times the slowest whole audit
		// here, hence Slow.
		{Name: "python/example", Adapter: "adapters/python/example.py", Slow: true},
		{Name: "c/example", Adapter: "adapters/c/example.c"},
	}
}

// Start starts p's adapter: Node for JavaScript, Python 3 for Python, the
// C adapter built with gcc on first use. Its error says what is missing
// and how to install it.
func (p Program) Start(ctx context.Context) (*program.Program, error) {
	argv, err := p.command()
	if err != nil {
		return nil, err
	}
	return program.Start(ctx, argv, program.DefaultTimeout)
}

// command is the command line that runs p's adapter.
func (p Program) command() ([]string, error) {
	dir := packageDir()
	path := filepath.Join(dir, p.Adapter)
	switch filepath.Ext(path) {
	case ".js":
		node, err := exec.LookPath("node")
		if err != nil {
			return nil, fmt.Errorf("%s needs Node (node on the PATH)", p.Name)
		}
		if _, err := os.Stat(filepath.Join(dir, "adapters/js/node_modules")); err != nil {
			return nil, fmt.Errorf("%s needs its npm packages: cd compare/adapters/js && npm ci", p.Name)
		}
		return []string{node, path}, nil
	case ".py":
		python, err := exec.LookPath("python3")
		if err != nil {
			return nil, fmt.Errorf("%s needs Python 3 (python3 on the PATH)", p.Name)
		}
		// -B: importing the kit writes no __pycache__ beside the sources.
		return []string{python, "-B", path}, nil
	case ".c":
		bin, err := buildC(path, p.Link)
		if err != nil {
			needs := "gcc"
			for _, l := range p.Link {
				needs += fmt.Sprintf(" and lib%s-dev: apt-get install -y lib%s-dev", l, l)
			}
			return nil, fmt.Errorf("%s: %v (needs %s)", p.Name, err, needs)
		}
		return []string{bin}, nil
	}
	return nil, fmt.Errorf("%s: no way to run %s", p.Name, p.Adapter)
}

// packageDir is this package's directory, where the adapters are.
func packageDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}

// built holds each C adapter's binary, built once a process.
var built sync.Map // source path -> func() (string, error)

// buildC compiles the C adapter at src, linked with the libraries link,
// into a temporary directory.
func buildC(src string, link []string) (string, error) {
	once, _ := built.LoadOrStore(src, sync.OnceValues(func() (string, error) {
		dir, err := os.MkdirTemp("", "bloomlab-adapter-")
		if err != nil {
			return "", err
		}
		bin := filepath.Join(dir, "adapter")
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		args := []string{"-O2", "-Wall", "-Wextra", "-o", bin, src}
		for _, l := range link {
			args = append(args, "-l"+l)
		}
		out, err := exec.CommandContext(ctx, "gcc", args...).CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("gcc %s: %v: %s", filepath.Base(src), err, out)
		}
		return bin, nil
	}))
	return once.(func() (string, error))()
}
