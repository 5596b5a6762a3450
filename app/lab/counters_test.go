package lab

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/app/ui/format"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"
)

// The page says why its rate leaves the formula where the shape predicts
// it, and nothing where the formula holds.
func TestRateNote(t *testing.T) {
	t.Parallel()
	run := func(items int, h core.Hashing) *sim.Result {
		p := sim.Defaults()
		p.Items, p.Queries, p.PresentShare, p.Hashing = items, 20000, 0, h
		r, err := sim.Run(p)
		if err != nil {
			t.Fatal(err)
		}
		return &r
	}
	if note := rateNote(run(4000, core.DoubleHashing)); note != "" {
		t.Errorf("m = 40,000: %q", note)
	}
	if note := rateNote(run(20, core.DoubleHashing)); !strings.HasPrefix(note, "At m = 200, double hashing measures above the formula") {
		t.Errorf("m = 200, double: %q", note)
	}
	if note := rateNote(run(20, core.IndependentHashing)); strings.Contains(note, "hashing measures above") {
		t.Errorf("m = 200, independent: %q", note)
	}
	if note := rateNote(run(1, core.IndependentHashing)); !strings.Contains(note, "A filter this small expects 1.66 times the formula") {
		t.Errorf("m = 10, independent: %q", note)
	}
}

// counterOf returns the counter id of cs.
func counterOf(t *testing.T, cs []counter, id string) counter {
	t.Helper()
	for _, c := range cs {
		if c.id == id {
			return c
		}
	}
	t.Fatalf("no counter %s", id)
	return counter{}
}

// The counters keep one list for every layout, the figures a layout lacks
// hidden; the cuckoo and fuse filters show their own figures, exactly as
// core measured them, and their theory under its own formula.
func TestLabCounters(t *testing.T) {
	t.Parallel()
	var ids []string
	for _, v := range core.Variants {
		p := sim.Defaults()
		p.Variant = v
		r, err := sim.Run(p)
		if err != nil {
			t.Fatal(err)
		}
		s := settings.Lab{Params: p}
		for _, cs := range [][]counter{labCounters(theoryOf(s.Params), v, 0, nil), labCounters(theoryOf(s.Params), v, 0, &r)} {
			var got []string
			for _, c := range cs {
				got = append(got, c.id)
			}
			if ids == nil {
				ids = got
			}
			if !slices.Equal(got, ids) {
				t.Errorf("%s: counters %q, want the same list for every layout %q", v, got, ids)
			}
		}
	}

	p := sim.Defaults()
	p.Variant, p.BitsPerKey = core.CuckooVariant, 8
	r, err := sim.Run(p)
	if err != nil {
		t.Fatal(err)
	}
	if r.InsertFailures == 0 {
		t.Fatal("a cuckoo filter at 8 bits per key and 8-bit fingerprints failed no insert; the alarm is untested")
	}
	cs := labCounters(theoryOf(p), p.Variant, 0, &r)
	for id, want := range map[string]string{
		"out-m": "4,000", "out-k": "8", "load": format.Percent(r.Load), "relocations": format.Int(r.Relocations),
		"insert-failures": format.Int(r.InsertFailures), settings.IDFingerprintBits + "-value": "8 (auto)",
		"memory-bits-per-key": "8.00", "out-set-bits": format.Int(r.SetBits) + " of 4,000",
		"out-fpr-theory": format.Rate(r.TheoryFPRVariant), "out-probes": format.Float(r.ProbesPerNegative, 3),
	} {
		if c := counterOf(t, cs, id); c.value != want || c.hidden {
			t.Errorf("cuckoo %s = %q hidden %v, want %q", id, c.value, c.hidden, want)
		}
	}
	for id, label := range map[string]string{"out-m": "m slots", "out-k": "slots a query reads", "out-set-bits": "occupied slots", "out-probes": "slots read per absent query"} {
		if c := counterOf(t, cs, id); c.label != label {
			t.Errorf("cuckoo %s labelled %q, want %q", id, c.label, label)
		}
	}
	if c := counterOf(t, cs, "insert-failures"); !c.alarm {
		t.Error("insert failures are not marked as a problem")
	}
	if c := counterOf(t, cs, "out-fpr-theory"); !strings.HasPrefix(c.title, "1 - (1 - load/(2^f - 1))^8") {
		t.Errorf("cuckoo theory formula %q", c.title)
	}
	for _, id := range []string{"out-fpr-exact", "out-fill", "build-retries"} {
		if !counterOf(t, cs, id).hidden {
			t.Errorf("cuckoo shows %s", id)
		}
	}
	warns := warnings(&r)
	if len(warns) != 2 || warns[0].id != "insert-failure-warning" || warns[1].id != "false-negative-warning" ||
		!strings.HasPrefix(warns[0].value, "⚠ "+format.Int(r.InsertFailures)+" inserts failed: the table is too full") ||
		!strings.HasSuffix(warns[0].value, "false negative. More bits per key make room.") ||
		!strings.HasSuffix(warns[1].value, "They are the inserts that failed above.") {
		t.Errorf("cuckoo warnings %+v", warns)
	}

	// At 12 bits there is a narrower width to suggest.
	p.BitsPerKey, p.FingerprintBits = 10, 12
	if r, err = sim.Run(p); err != nil {
		t.Fatal(err)
	}
	if w := warnings(&r); len(w) == 0 || !strings.HasSuffix(w[0].value, "More bits per key, or narrower fingerprints, make room.") {
		t.Errorf("cuckoo at 12 bits: %+v", w)
	}

	p = sim.Defaults()
	p.Variant, p.FingerprintBits = core.FuseVariant, 16
	r, err = sim.Run(p)
	if err != nil {
		t.Fatal(err)
	}
	cs = labCounters(theoryOf(p), p.Variant, 16, &r)
	for id, want := range map[string]string{
		"out-m": format.Int(r.M), "out-k": "3", settings.IDFingerprintBits + "-value": "16", "build-retries": format.Int(r.BuildRetries),
		"memory-bits-per-key": format.Float(r.MemoryBitsPerKey, 2), "out-fpr-theory": "1.5e-05", "out-fill": format.Percent(r.Occupancy),
	} {
		if c := counterOf(t, cs, id); c.value != want || c.hidden {
			t.Errorf("fuse %s = %q hidden %v, want %q", id, c.value, c.hidden, want)
		}
	}
	for _, id := range []string{"out-fpr-exact", "load", "relocations", "insert-failures"} {
		if !counterOf(t, cs, id).hidden {
			t.Errorf("fuse shows %s", id)
		}
	}
	if c := counterOf(t, cs, "out-m"); c.label != "m cells" {
		t.Errorf("fuse out-m labelled %q", c.label)
	}
	if len(warnings(&r)) != 0 {
		t.Errorf("a fuse filter that built warns: %+v", warnings(&r))
	}
	// The Ribbon filter's rows: a query reads about half of the w, 64 or
	// 128.
	for v, w := range map[core.Variant]string{core.RibbonVariant: "64", core.RibbonWideVariant: "128"} {
		rp := sim.Defaults()
		rp.Variant = v
		rr, err := sim.Run(rp)
		if err != nil {
			t.Fatal(err)
		}
		rcs := labCounters(theoryOf(rp), rp.Variant, 0, &rr)
		for id, want := range map[string][2]string{"out-m": {"m rows", format.Int(rr.M)}, "out-k": {"rows a query may read", w},
			"out-set-bits": {"nonzero rows", format.Int(rr.SetBits) + " of " + format.Int(rr.M)}, settings.IDFingerprintBits + "-value": {"fingerprint bits", "7 (auto)"}} {
			if c := counterOf(t, rcs, id); c.label != want[0] || c.value != want[1] || c.hidden {
				t.Errorf("%s %s: %q = %q hidden %v, want %q = %q", v, id, c.label, c.value, c.hidden, want[0], want[1])
			}
		}
	}
	r.BuildError = "fuse: could not build"
	if w := warnings(&r); len(w) != 1 || w[0].id != "build-error" || !counterOf(t, labCounters(theory{}, p.Variant, 16, &r), "build-retries").alarm {
		t.Errorf("a fuse filter that did not build: %+v", w)
	}

	// The scalable chain shows its links, its rate bound and what it has
	// grown to per key; its set bits have an expectation, as a Bloom
	// filter's do.
	p = sim.Defaults()
	p.Variant = core.ScalableVariant
	if r, err = sim.Run(p); err != nil {
		t.Fatal(err)
	}
	cs = labCounters(theoryOf(p), p.Variant, 0, &r)
	for id, want := range map[string]string{
		"links": "4", "rate-bound": format.Rate(r.RateBound), "out-m": "100,480", "out-k": "34", "memory-bits-per-key": "25.12",
		"out-set-bits":   format.Int(r.SetBits) + " (expected " + format.Int(uint64(math.Round(r.ExpectedSetBits))) + ")",
		"out-fpr-theory": format.Rate(r.TheoryFPRVariant),
	} {
		if c := counterOf(t, cs, id); c.value != want || c.hidden {
			t.Errorf("scalable %s = %q hidden %v, want %q", id, c.value, c.hidden, want)
		}
	}
	if c := counterOf(t, cs, "out-k"); c.label != "k probes, all links" {
		t.Errorf("scalable out-k labelled %q", c.label)
	}
	if r.RateBound < r.TheoryFPRVariant || r.RateBound > 0.016 || len(warnings(&r)) != 0 {
		t.Errorf("scalable bound %v, theory %v, warnings %+v", r.RateBound, r.TheoryFPRVariant, warnings(&r))
	}
	r.ChainLimit, r.PastCapacity = "the chain has its most links, 32", 9
	if w := warnings(&r); len(w) != 1 || w[0].id != "chain-limit-warning" || !strings.Contains(w[0].value, "9 keys went into its last link past its capacity") {
		t.Errorf("a chain at its bound: %+v", w)
	}
	for _, id := range []string{"links", "rate-bound"} {
		if !counterOf(t, labCounters(theoryOf(sim.Defaults()), core.Standard, 0, nil), id).hidden {
			t.Errorf("standard shows %s", id)
		}
	}

	// Before the first result, the Bloom formulas say nothing of them.
	for _, v := range []core.Variant{core.CuckooVariant, core.FuseVariant, core.RibbonVariant, core.RibbonWideVariant, core.ScalableVariant} {
		p := sim.Defaults()
		p.Variant = v
		cs := labCounters(theoryOf(p), v, 0, nil)
		for _, id := range []string{"out-m", "out-k", "out-fpr-theory"} {
			if c := counterOf(t, cs, id); c.value != "…" {
				t.Errorf("%s before the result: %s = %q", v, id, c.value)
			}
		}
	}
	// The standard filter's are as they were.
	std := labCounters(theoryOf(sim.Defaults()), core.Standard, 0, nil)
	for id, want := range map[string]string{"out-m": "40,000", "out-k": "7", "out-fpr-theory": "0.008194"} {
		if c := counterOf(t, std, id); c.value != want {
			t.Errorf("standard before the result: %s = %q, want %q", id, c.value, want)
		}
	}
	for _, id := range []string{"load", "memory-bits-per-key", settings.IDFingerprintBits + "-value", "build-retries"} {
		if !counterOf(t, std, id).hidden {
			t.Errorf("standard shows %s", id)
		}
	}
}

// The rate note says nothing of hashing for the cuckoo and fuse filters,
// and names a failed construction.
func TestRateNoteOtherLayouts(t *testing.T) {
	t.Parallel()
	for _, v := range []core.Variant{core.CuckooVariant, core.FuseVariant, core.RibbonVariant, core.RibbonWideVariant, core.ScalableVariant} {
		p := sim.Defaults()
		p.Variant, p.Items, p.Queries, p.PresentShare = v, 20, 20000, 0
		r, err := sim.Run(p)
		if err != nil {
			t.Fatal(err)
		}
		if note := rateNote(&r); strings.Contains(note, "hashing") || strings.Contains(note, "formula") {
			t.Errorf("%s at n = 20: %q", v, note)
		}
		r.BuildError, r.EmpiricalFPR, r.WholeCILow, r.WholeCIHigh = "fuse: could not build", 1, 0.99, 1
		if note := rateNote(&r); !strings.Contains(note, "could not be built") {
			t.Errorf("%s not built: %q", v, note)
		}
	}
}
