package lab

import (
	"bytes"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"
)

// TestOpenFilter: the lab's filter saved and opened again answers every
// key as the lab's does and is described as core describes it; a file
// with a byte flipped, cut short, or of other bytes is refused in
// core's words, and one past the bound is refused by its size alone.
func TestOpenFilter(t *testing.T) {
	t.Parallel()
	r, err := sim.Run(sim.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := core.Save(&b, r.Filter); err != nil {
		t.Fatal(err)
	}
	file := b.Bytes()
	of, err := openFilter("lab.blmf", file)
	if err != nil {
		t.Fatal(err)
	}
	if of.about != core.Describe(r.Filter) {
		t.Errorf("opened: %+v, want %+v", of.about, core.Describe(r.Filter))
	}
	for _, key := range []string{"apple", "pear", "plum", "quince", "fig"} {
		want, _ := r.Filter.Contains([]byte(key))
		if got := of.answer(key); got.maybe != want || got.file != "lab.blmf" {
			t.Errorf("%q: the file answers %v, the lab %v", key, got.maybe, want)
		}
	}
	flipped := bytes.Clone(file)
	flipped[core.FileHeaderBytes+3] ^= 0x10
	for name, c := range map[string]struct {
		b    []byte
		want string
	}{
		"flipped":   {flipped, "payload fails its checksum"},
		"truncated": {file[:len(file)-10], "ends early"},
		"other":     {[]byte(strings.Repeat("apple\n", 20)), "not a filter file"},
	} {
		if _, err := openFilter(name, c.b); err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "“"+name+"” was not opened: ") {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
	if err := checkOpenSize("big.blmf", maxOpenBytes+1); err == nil || !strings.Contains(err.Error(), "at most 67,108,864 bytes") {
		t.Errorf("past the bound: %v", err)
	}
	if err := checkOpenSize("edge.blmf", maxOpenBytes); err != nil {
		t.Errorf("at the bound: %v", err)
	}
}
