package auditcli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bloomlab/bloomlab/audit"
	"github.com/bloomlab/bloomlab/core"
)

// salted is the lab's standard filter with salt hashed before every key,
// as a Go target: a version that changes the salt changes its hash.
func salted(salt byte) audit.Target {
	lab := audit.MustLab(core.Standard, "", "")
	return audit.Target{Name: "salted", About: "the lab's standard filter, each key salted", Seeded: true,
		New: func(s audit.Shape) (audit.Filter, error) {
			f, err := lab.New(s)
			return saltedFilter{f, salt}, err
		},
		Load: func(r io.Reader) (audit.Filter, error) {
			f, err := lab.Load(r)
			return saltedFilter{f, salt}, err
		}}
}

type saltedFilter struct {
	audit.Filter
	salt byte
}

func (f saltedFilter) Add(key []byte)         { f.Filter.Add(append([]byte{f.salt}, key...)) }
func (f saltedFilter) Test(key []byte) bool   { return f.Filter.Test(append([]byte{f.salt}, key...)) }
func (f saltedFilter) Save(w io.Writer) error { return f.Filter.(audit.Saver).Save(w) }

// versions stands in for --exec: "v1" and "v1-again" are one version of
// the target, "v2" the next, whose salt changed.
func versions(_ context.Context, argv []string, _ time.Duration) (audit.Target, func(), error) {
	if argv[0] == "v2" {
		return salted(2), func() {}, nil
	}
	return salted(1), func() {}, nil
}

// --keep saves the round-trip filters with their keys; --against reads
// them back: the same version keeps every member, a version whose hash
// changed loses them, and the report says how many.
func TestKeepThenAgainst(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	audit := func(args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := MainWith(context.Background(), prog, args, &out, &errOut, Options{Exec: versions})
		return code, out.String(), errOut.String()
	}
	if code, out, errOut := audit("--keep", dir, "--run", "^save/round-trip/", "--exec", "--", "v1"); code != 0 {
		t.Fatalf("--keep: exit %d\n%s%s", code, out, errOut)
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(names) != 9 {
		t.Errorf("--keep wrote %d files, want kept.json and 4 filters with their keys: %q", len(names), names)
	}
	for _, c := range []struct {
		version string
		code    int
		words   string
	}{
		{"v1-again", 0, "4/4 checks passed"},
		{"v2", 1, "3968 of 4000 kept members answer no after loading the kept 5056-byte file"},
	} {
		code, out, errOut := audit("--against", dir, "--run", "^against/", "--exec", "--", c.version)
		if code != c.code || !strings.Contains(out, c.words) || !strings.Contains(out, "kept by salted") {
			t.Errorf("--against with %s: exit %d, want %d, and the report should hold %q and who kept the files:\n%s%s", c.version, code, c.code, c.words, out, errOut)
		}
	}
	// The lab's own target keeps and reads its files alike.
	labDir := filepath.Join(dir, "lab")
	if code, out, errOut := audit("--keep", labDir, "--run", "^save/round-trip/default$"); code != 0 {
		t.Fatalf("--keep of the lab: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, errOut := audit("--against", labDir, "--run", "^against/"); code != 0 || !strings.Contains(out, "4/4 checks passed") {
		t.Errorf("--against of the lab: exit %d\n%s%s", code, out, errOut)
	}
	// A kept file damaged since is refused, and fails its check.
	file := filepath.Join(labDir, "default.filter")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 0xff
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := audit("--against", labDir, "--run", "^against/"); code != 1 || !strings.Contains(out, "the kept 5056-byte file does not load: core: filter file's payload fails its checksum") {
		t.Errorf("--against a damaged file: exit %d, want 1:\n%s", code, out)
	}
}
