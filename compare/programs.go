package compare

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
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
	// Example marks a kit's example filter: audited with the libraries
	// in make test, and left out of the libraries' table.
	Example bool
}

// Programs are the filters of other languages the lab audits, in the order
// its tables list them.
func Programs() []Program {
	return []Program{
		{Name: "bloomfilter", Adapter: "adapters/js/bloomfilter.js"},
		{Name: "bloom-filters", Adapter: "adapters/js/bloom-filters.js", Slow: true},
		{Name: "libbloom", Adapter: "adapters/c/libbloom.c", Link: []string{"bloom"}},
		{Name: "guava", Adapter: "adapters/java/GuavaAdapter.java"},
		{Name: "bloom-filter-perl", Adapter: "adapters/perl/bloom-filter.pl", Slow: true},
		{Name: "js/signed-index", Adapter: "adapters/js/signed-index.js"},
		// The kits' examples: correct filters, so every check they reach
		// passes. Pure Python takes about 28 s for the statistics group
		// alone (4 s for the rest), three times the slowest whole audit
		// here, hence Slow.
		{Name: "python/example", Adapter: "adapters/python/example.py", Slow: true, Example: true},
		{Name: "c/example", Adapter: "adapters/c/example.c", Example: true},
	}
}

// Start starts p's adapter: Node for JavaScript, Python 3 for Python, Perl
// for Perl, the C adapter built with gcc and the Java one with javac on
// first use. Its error says what is missing and how to install it.
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
	case ".java":
		classes, err := buildJava(path)
		if err != nil {
			return nil, fmt.Errorf("%s: %v (needs a JDK and Guava: apt-get install -y default-jdk-headless libguava-java)", p.Name, err)
		}
		java, err := exec.LookPath("java")
		if err != nil {
			return nil, fmt.Errorf("%s needs java on the PATH (apt-get install -y default-jdk-headless)", p.Name)
		}
		return []string{java, "-cp", classes + string(filepath.ListSeparator) + guavaJar,
			strings.TrimSuffix(filepath.Base(path), ".java")}, nil
	case ".pl":
		perl, err := exec.LookPath("perl")
		if err == nil {
			err = exec.Command(perl, "-MBloom::Filter", "-e", "1").Run()
		}
		if err != nil {
			return nil, fmt.Errorf("%s needs perl and Bloom::Filter: apt-get install -y libbloom-filter-perl (%v)", p.Name, err)
		}
		return []string{perl, path}, nil
	}
	return nil, fmt.Errorf("%s: no way to run %s", p.Name, p.Adapter)
}

// packageDir is this package's directory, where the adapters are.
func packageDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}

// guavaJar is where Debian's libguava-java puts Guava.
const guavaJar = "/usr/share/java/guava.jar"

// built holds what each compiled adapter became, built once a process.
var built sync.Map // source path -> func() (string, error)

// buildOnce runs the compiler argv (which writes into dir) once a process
// for src, into a temporary directory of its own, and returns out, the
// path in dir the adapter runs from.
func buildOnce(src string, argv func(dir string) (cmd []string, out string)) (string, error) {
	once, _ := built.LoadOrStore(src, sync.OnceValues(func() (string, error) {
		dir, err := os.MkdirTemp("", "bloomlab-adapter-")
		if err != nil {
			return "", err
		}
		cmd, out := argv(dir)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		msg, err := exec.CommandContext(ctx, cmd[0], cmd[1:]...).CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("%s %s: %v: %s", cmd[0], filepath.Base(src), err, msg)
		}
		return out, nil
	}))
	return once.(func() (string, error))()
}

// buildC compiles the C adapter at src, linked with the libraries link and
// libm (C's own, for the kit's example's count); it returns the binary.
func buildC(src string, link []string) (string, error) {
	return buildOnce(src, func(dir string) ([]string, string) {
		bin := filepath.Join(dir, "adapter")
		args := []string{"gcc", "-O2", "-Wall", "-Wextra", "-o", bin, src}
		for _, l := range link {
			args = append(args, "-l"+l)
		}
		return append(args, "-lm"), bin
	})
}

// buildJava compiles the Java adapter at src against Guava; it returns
// the directory of its classes.
func buildJava(src string) (string, error) {
	if _, err := os.Stat(guavaJar); err != nil {
		return "", fmt.Errorf("no Guava at %s", guavaJar)
	}
	return buildOnce(src, func(dir string) ([]string, string) {
		return []string{"javac", "-cp", guavaJar, "-d", dir, src}, dir
	})
}
