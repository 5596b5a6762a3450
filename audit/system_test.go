package audit

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/core"
)

// systemTarget is a Go target over the lab's standard filter with a file
// format of its own, as a library would have: m, k and seed as 8-byte
// little-endian words, the storage words, and a CRC-32 of all before it.
// Each field switches one bug on.
type systemTarget struct {
	// trusting allocates the words the header claims before reading
	// them.
	trusting bool
	// dropLast saves m/64 whole words and drops the last partial one;
	// its Load reads them back with the last word zero.
	dropLast bool
	// ignoreSeed merges filters of the same m and k whatever their seeds.
	ignoreSeed bool
	// salt is hashed before every key: a version that changes it puts
	// the same key elsewhere.
	salt byte
}

func (c systemTarget) target(name string) Target {
	return Target{Name: name, About: "the lab's standard filter with a file format of its own", Seeded: true,
		New: func(s Shape) (Filter, error) {
			f, err := core.NewFilter(s.M, s.K, s.Seed)
			if err != nil {
				return nil, err
			}
			return &systemFilter{f, c, s.Seed}, nil
		},
		Load: c.load}
}

type systemFilter struct {
	f    *core.Filter
	c    systemTarget
	seed uint64
}

func (f *systemFilter) salted(key []byte) []byte {
	if f.c.salt == 0 {
		return key
	}
	return append([]byte{f.c.salt}, key...)
}

func (f *systemFilter) Add(key []byte)       { f.f.Add(f.salted(key)) }
func (f *systemFilter) Test(key []byte) bool { ok, _ := f.f.Contains(f.salted(key)); return ok }

func (f *systemFilter) Count() (float64, float64) {
	e, err := core.EstimateKeys(f.f)
	if err != nil {
		return 0, 0
	}
	return e.N, e.SD
}

func (f *systemFilter) Save(w io.Writer) error {
	words := f.f.Words()
	if f.c.dropLast && f.f.M()%64 != 0 {
		words = words[:len(words)-1]
	}
	b := binary.LittleEndian.AppendUint64(nil, f.f.M())
	b = binary.LittleEndian.AppendUint64(b, uint64(f.f.K()))
	b = binary.LittleEndian.AppendUint64(b, f.seed)
	for _, x := range words {
		b = binary.LittleEndian.AppendUint64(b, x)
	}
	b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	_, err := w.Write(b)
	return err
}

func (f *systemFilter) Merge(other Filter) error {
	o, ok := other.(*systemFilter)
	switch {
	case !ok:
		return fmt.Errorf("not a filter of this target")
	case o.f.M() != f.f.M() || o.f.K() != f.f.K():
		return fmt.Errorf("m or k differ")
	case o.seed != f.seed && !f.c.ignoreSeed:
		return fmt.Errorf("seeds differ")
	}
	for i, x := range o.f.Words() {
		f.f.Words()[i] |= x
	}
	return nil
}

func (c systemTarget) load(r io.Reader) (Filter, error) {
	if c.trusting {
		return c.loadTrusting(r)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if len(b) < 28 || binary.LittleEndian.Uint32(b[len(b)-4:]) != crc32.ChecksumIEEE(b[:len(b)-4]) {
		return nil, errors.New("damaged")
	}
	m, k, seed := binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:]), binary.LittleEndian.Uint64(b[16:])
	words := (m + 63) / 64
	if c.dropLast {
		words = m / 64
	}
	if uint64(len(b)-28) != 8*words || k > core.MaxK {
		return nil, errors.New("m disagrees with the length")
	}
	return c.restore(m, int(k), seed, b[24:len(b)-4])
}

// loadTrusting allocates the words the header claims, then reads them.
func (c systemTarget) loadTrusting(r io.Reader) (Filter, error) {
	var h [24]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return nil, err
	}
	m := binary.LittleEndian.Uint64(h[:])
	payload := make([]byte, 8*((m+63)/64)+4)
	if _, err := io.ReadFull(r, payload); err != nil {
		return nil, err
	}
	if binary.LittleEndian.Uint32(payload[len(payload)-4:]) != crc32.Update(crc32.ChecksumIEEE(h[:]), crc32.IEEETable, payload[:len(payload)-4]) {
		return nil, errors.New("damaged")
	}
	return c.restore(m, int(binary.LittleEndian.Uint64(h[8:])), binary.LittleEndian.Uint64(h[16:]), payload[:len(payload)-4])
}

func (c systemTarget) restore(m uint64, k int, seed uint64, payload []byte) (Filter, error) {
	f, err := core.NewFilter(m, k, seed)
	if err != nil {
		return nil, err
	}
	for i := range len(payload) / 8 {
		f.Words()[i] = binary.LittleEndian.Uint64(payload[8*i:])
	}
	return &systemFilter{f, c, seed}, nil
}

// Each broken target fails the check that is there for it, with the
// figures pinned below; the same target without its bug, and the lab's
// own filters, pass every check of the group that runs.
func TestSystemChecksCatchTheirBugs(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		target Target
		fails  []string
		red    string // in the first failed check's detail
	}{
		{systemTarget{}.target("own-format"), nil, ""},
		{systemTarget{trusting: true}.target("trusting-loader"), []string{"save/damaged/huge"},
			"claiming 2^32 bits: Load took 5368"},
		{systemTarget{dropLast: true}.target("drops-last-word"), []string{"save/round-trip/tiny-m", "save/round-trip/awkward-m"},
			"8 of 10 members answer no"},
		{systemTarget{ignoreSeed: true}.target("merge-ignores-seed"), []string{"merge/other-seed"},
			"merged: 0 of its own 4000 members and 3964 of the other's 4000 answer no"},
		{MustLab(core.Standard, "", ""), nil, ""},
		{MustLab(core.BlockedVariant, "", ""), nil, ""},
		{MustLab(core.CountingVariant, "", ""), nil, ""},
	} {
		r, err := RunOnly(c.target, func(c Check) bool { return c.Group == GroupSystem }, nil)
		if err != nil {
			t.Fatal(err)
		}
		var failed []string
		first := ""
		for _, o := range r.Checks {
			if o.Skipped {
				t.Errorf("%s: %s skipped: %s", c.target.Name, o.ID, o.Detail)
			}
			if !o.Pass && !o.Skipped {
				if first == "" {
					first = o.Detail
				}
				failed = append(failed, o.ID)
			}
		}
		if !slices.Equal(failed, c.fails) || !strings.Contains(first, c.red) {
			t.Errorf("%s fails %q, want %q; first detail %q, want it to hold %q", c.target.Name, failed, c.fails, first, c.red)
		}
		t.Logf("%s: %s; first failure: %s", c.target.Name, r.Summary(), first)
	}
}

// Filters kept by one version and read by the next: the same target
// keeps every member; a version whose hash changed (a salt before each
// key) loads the files and loses nearly all of them.
func TestAgainstCatchesAChangedHash(t *testing.T) {
	t.Parallel()
	kept, err := Keep(systemTarget{}.target("v1"))
	if err != nil {
		t.Fatal(err)
	}
	if len(kept) != len(roundTrips()) {
		t.Fatalf("kept %d filters, want %d", len(kept), len(roundTrips()))
	}
	for _, c := range []struct {
		target Target
		pass   bool
		red    string
	}{
		{systemTarget{}.target("v2-same"), true, "0 of 4000 kept members answer no"},
		{systemTarget{salt: 1}.target("v2-salted"), false, "3976 of 4000 kept members answer no"},
	} {
		r, err := RunList(c.target, Against(kept, "kept by v1"), nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.AllPassed() != c.pass || r.Total != len(kept) || !strings.Contains(r.Checks[2].Detail, c.red) {
			t.Errorf("%s: %s, want all passed %t; against/default: %s, want %q", c.target.Name, r.Summary(), c.pass, r.Checks[2].Detail, c.red)
		}
		t.Logf("%s: %s; %s: %s", c.target.Name, r.Summary(), r.Checks[2].ID, r.Checks[2].Detail)
	}
	if _, err := Keep(blackBox(MustLab(core.Standard, "", ""))); err == nil {
		t.Error("a target that does not save kept filters")
	}
}
