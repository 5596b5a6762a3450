package app

import (
	"math"
	"net/url"
	"slices"
	"strings"
	"testing"

	"bloomlab/app/ui/format"
	"bloomlab/core"
)

func TestFromQueryRoundTrip(t *testing.T) {
	t.Parallel()
	cases := []Settings{
		DefaultSettings(),
		{Params: core.Params{BitsPerKey: 4.8, Hashes: 3, Items: 123456, Queries: 0, PresentShare: 0, KeyBytes: 8,
			DuplicatePasses: 10, Seed: math.MaxUint64, Variant: core.CountingVariant, Fault: core.WrapCounters, Hashing: core.IndependentHashing}, Large: true},
		{Params: core.Params{BitsPerKey: 64, Hashes: 32, Items: 1, Queries: maxLabQuery, PresentShare: 100, KeyBytes: 128,
			DuplicatePasses: 1, Seed: 0, Variant: core.BlockedVariant, Fault: core.NoFault, Hashing: core.DoubleHashing}},
	}
	for _, p := range Presets() {
		cases = append(cases, p.Settings)
	}
	for i, want := range cases {
		got, notices := FromQuery(want.Query())
		if len(notices) > 0 {
			t.Errorf("case %d: legal settings gave notices %q", i, notices)
		}
		if got != want {
			t.Errorf("case %d: round trip\n got %+v\nwant %+v", i, got, want)
		}
	}
}

func TestFromQueryClamps(t *testing.T) {
	t.Parallel()
	cases := []struct {
		query  string
		check  func(Settings) bool
		notice string
	}{
		{"bits-per-key=abc", func(s Settings) bool { return s.Params.BitsPerKey == 10 }, "bits-per-key: \"abc\" is not a number"},
		{"bits-per-key=0", func(s Settings) bool { return s.Params.BitsPerKey == 0.1 }, "raised to 0.1"},
		{"bits-per-key=1e9", func(s Settings) bool { return s.Params.BitsPerKey == 64 }, "lowered to 64"},
		{"bits-per-key=NaN", func(s Settings) bool { return s.Params.BitsPerKey == 10 }, "not a number"},
		{"bits-per-key=9.58", func(s Settings) bool { return s.Params.BitsPerKey == 9.6 }, "rounded to 9.6"},
		{"hashes=999", func(s Settings) bool { return s.Params.Hashes == 32 }, "hashes: 999 is above the maximum, so it was lowered to 32"},
		{"hashes=-3", func(s Settings) bool { return s.Params.Hashes == 1 }, "raised to 1"},
		{"items=-5", func(s Settings) bool { return s.Params.Items == 1 }, "items: -5 is below"},
		{"items=2.5", func(s Settings) bool { return s.Params.Items == 3 }, "rounded to 3"},
		{"queries=1e12", func(s Settings) bool { return s.Params.Queries == maxLabQuery }, "lowered to 10000000"},
		{"present-share=101", func(s Settings) bool { return s.Params.PresentShare == 100 }, "lowered to 100"},
		{"key-bytes=1", func(s Settings) bool { return s.Params.KeyBytes == 8 }, "raised to 8"},
		{"duplicate-passes=0", func(s Settings) bool { return s.Params.DuplicatePasses == 1 }, "raised to 1"},
		{"seed=-1", func(s Settings) bool { return s.Params.Seed == 0 }, "seed: -1 is below the minimum, so it was raised to 0"},
		{"seed=18446744073709551616", func(s Settings) bool { return s.Params.Seed == math.MaxUint64 }, "seed: 18446744073709551616 is above"},
		{"seed=abc", func(s Settings) bool { return s.Params.Seed == 1 }, "seed: \"abc\" is not a whole number"},
		{"bits-per-key=0x1p3", func(s Settings) bool { return s.Params.BitsPerKey == 10 }, "bits-per-key: \"0x1p3\" is not a number"},
		{"bits-per-key=Inf", func(s Settings) bool { return s.Params.BitsPerKey == 10 }, "bits-per-key: \"Inf\" is not a number"},
		{"hashes=3&hashes=9", func(s Settings) bool { return s.Params.Hashes == 9 }, "hashes: given 2 times (3, 9), so the last, 9, is used"},
		{"variant=bogus", func(s Settings) bool { return s.Params.Variant == core.Standard }, "variant: \"bogus\""},
		{"fault=rm-rf", func(s Settings) bool { return s.Params.Fault == core.NoFault }, "fault: \"rm-rf\""},
		{"optimal-k=maybe", func(s Settings) bool { return !s.OptimalK }, "optimal-k: \"maybe\""},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			q, err := url.ParseQuery(c.query)
			if err != nil {
				t.Fatal(err)
			}
			s, notices := FromQuery(q)
			if !c.check(s) {
				t.Errorf("settings %+v not clamped as expected", s.Params)
			}
			if len(notices) != 1 || !strings.Contains(notices[0], c.notice) {
				t.Errorf("notices %q, want one containing %q", notices, c.notice)
			}
			if err := s.Params.Validate(); err != nil {
				t.Errorf("clamped settings are not legal: %v", err)
			}
		})
	}
}

func TestOptimalKFollowsFault(t *testing.T) {
	t.Parallel()
	// At 4.32 bits per key (the 5% target) round gives k = 3 and ceil 4.
	q := url.Values{"bits-per-key": {"4.3"}, "optimal-k": {"on"}, "hashes": {"20"}}
	s, _ := FromQuery(q)
	if s.Params.Hashes != core.OptimalK(17200, 4000) {
		t.Errorf("optimal k = %d, want %d", s.Params.Hashes, core.OptimalK(17200, 4000))
	}
	q.Set("fault", "k-ceil")
	s, _ = FromQuery(q)
	if s.Params.Hashes != core.CeilK(17200, 4000) {
		t.Errorf("under k-ceil the lab's k = %d, want the ceil %d", s.Params.Hashes, core.CeilK(17200, 4000))
	}
}

func TestLogSlider(t *testing.T) {
	t.Parallel()
	items := sliderByID(IDItems)
	cases := []struct{ value, next float64 }{{4000, 4100}, {1, 1}, {100, 100}, {200000, 200000}, {10_000_000, 10_000_000}}
	for _, c := range cases {
		pos := items.Position(c.value)
		if got := items.FromPosition(pos); got != c.value {
			t.Errorf("FromPosition(Position(%v)) = %v", c.value, got)
		}
	}
	if got := items.FromPosition(items.Position(4000) + 1); got != 4100 {
		t.Errorf("one step right of 4000 is %v, want 4100", got)
	}
	if got := sliderByID(IDQueries).FromPosition(0); got != 0 {
		t.Errorf("queries slider at 0 gives %v, want 0", got)
	}
}

func TestPresetsAreLegal(t *testing.T) {
	t.Parallel()
	for _, p := range Presets() {
		if err := p.Settings.Params.Validate(); err != nil {
			t.Errorf("%s: %v", p.ID, err)
		}
	}
	// RocksDB's 10 bits per key at k = 6: theory 0.8436% (SPEC section 6).
	for _, p := range Presets() {
		if p.ID == "rocksdb" {
			m, k := p.Settings.Params.Shape()
			if r := core.Rate(m, uint64(p.Settings.Params.Items), k); r < 0.00843 || r > 0.00844 {
				t.Errorf("rocksdb preset theory %v, want 0.008436", r)
			}
		}
	}
}

// A fault runs in the layout it lives in: a link, a fault chosen and a
// variant chosen each say what they moved.
func TestFaultAndLayout(t *testing.T) {
	t.Parallel()
	q, _ := url.ParseQuery("variant=counting&fault=negative-index")
	s, notices := FromQuery(q)
	if s.Params.Variant != core.Standard || len(notices) != 1 || notices[0] != "fault: negative-index lives in the standard filter, so the variant is standard, not counting" {
		t.Errorf("link: variant %s, notices %q", s.Params.Variant, notices)
	}
	s, notice := DefaultSettings().WithFault(core.WrapCounters)
	if s.Params.Variant != core.CountingVariant || notice != "fault: wrap-counters lives in the counting filter, so the variant is now counting" {
		t.Errorf("fault chosen: variant %s, notice %q", s.Params.Variant, notice)
	}
	s, notice = s.WithVariant(core.BlockedVariant)
	if s.Params.Variant != core.BlockedVariant || s.Params.Fault != core.NoFault || notice != "fault: wrap-counters lives in the counting filter, so the blocked filter runs without a fault" {
		t.Errorf("variant chosen: %s with fault %s, notice %q", s.Params.Variant, s.Params.Fault, notice)
	}
	if s, notice := DefaultSettings().WithFault(core.KFromCeil); notice != "" || s.Params.Variant != core.Standard {
		t.Errorf("k-ceil lives in every layout: variant %s, notice %q", s.Params.Variant, notice)
	}
	if _, err := core.Simulate(s.Params); err != nil {
		t.Error(err)
	}
}

// The hashing scheme travels in the link, and falls back to double hashing,
// with a notice, where the filter cannot use another.
func TestHashingInTheLink(t *testing.T) {
	t.Parallel()
	q, _ := url.ParseQuery("hashing=independent&items=20")
	s, notices := FromQuery(q)
	if s.Params.Hashing != core.IndependentHashing || len(notices) != 0 || s.Query().Get(IDHashing) != "independent" {
		t.Errorf("hashing %q, notices %q, link %q", s.Params.Hashing, notices, s.Query().Encode())
	}
	if DefaultSettings().Query().Has(IDHashing) {
		t.Error("the default link names the default scheme")
	}
	for query, want := range map[string]string{
		"variant=blocked&hashing=enhanced":   "hashing: enhanced is not used here: the blocked filter draws its positions inside one block from a stream of its own; enhanced hashing applies to the standard and counting filters",
		"fault=one-hash&hashing=independent": "hashing: independent is not used here: the one-hash fault breaks double hashing itself, so it runs only with double hashing",
		"hashing=triple":                     `hashing: "triple" is not double, enhanced or independent, so it stays double`,
	} {
		q, _ := url.ParseQuery(query)
		s, notices := FromQuery(q)
		if s.Params.Hashing != core.DoubleHashing || len(notices) != 1 || notices[0] != want {
			t.Errorf("%s: hashing %q, notices %q", query, s.Params.Hashing, notices)
		}
	}
	s, notice := DefaultSettings().WithHashing(core.EnhancedDoubleHashing)
	s, notice = s.WithVariant(core.BlockedVariant)
	if s.Params.Hashing != core.DoubleHashing || !strings.HasPrefix(notice, "hashing: enhanced is not used here") {
		t.Errorf("blocked after enhanced: %q, %q", s.Params.Hashing, notice)
	}
}

// The page says why its rate leaves the formula where the shape predicts
// it, and nothing where the formula holds.
func TestRateNote(t *testing.T) {
	t.Parallel()
	run := func(items int, h core.Hashing) *core.Result {
		p := core.DefaultParams()
		p.Items, p.Queries, p.PresentShare, p.Hashing = items, 20000, 0, h
		r, err := core.Simulate(p)
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

// The fingerprint width travels in the link as fingerprint-bits (left out
// at 0, the layout's choice); a width the layout lacks, or garbage, goes
// back to auto with a notice.
func TestFingerprintBitsInTheLink(t *testing.T) {
	t.Parallel()
	q, _ := url.ParseQuery("variant=cuckoo&fingerprint-bits=12")
	s, notices := FromQuery(q)
	if s.Params.Variant != core.CuckooVariant || s.Params.FingerprintBits != 12 || len(notices) != 0 {
		t.Errorf("cuckoo at 12 bits: %s %d, notices %q", s.Params.Variant, s.Params.FingerprintBits, notices)
	}
	if got := s.Query().Get(IDFingerprintBits); got != "12" {
		t.Errorf("the link carries fingerprint-bits=%q, want 12", got)
	}
	if back, _ := FromQuery(s.Query()); back != s {
		t.Errorf("round trip: %+v, want %+v", back.Params, s.Params)
	}
	if DefaultSettings().Query().Has(IDFingerprintBits) {
		t.Error("the default link names a fingerprint width")
	}
	for _, query := range []string{"variant=cuckoo&fingerprint-bits=auto", "variant=fuse&fingerprint-bits=0", "variant=fuse&fingerprint-bits="} {
		q, _ := url.ParseQuery(query)
		if s, notices := FromQuery(q); s.Params.FingerprintBits != 0 || len(notices) != 0 {
			t.Errorf("%s: %d bits, notices %q", query, s.Params.FingerprintBits, notices)
		}
	}
	for query, want := range map[string]string{
		"variant=cuckoo&fingerprint-bits=7":      "fingerprint-bits: the cuckoo filter's fingerprints are 8, 12 or 16 bits wide, so 7 became auto (the filter's choice)",
		"fingerprint-bits=7&variant=cuckoo":      "fingerprint-bits: the cuckoo filter's fingerprints are 8, 12 or 16 bits wide, so 7 became auto (the filter's choice)",
		"variant=fuse&fingerprint-bits=12":       "fingerprint-bits: the fuse filter's fingerprints are 8 or 16 bits wide, so 12 became auto (the filter's choice)",
		"variant=cuckoo&fingerprint-bits=-8":     "fingerprint-bits: the cuckoo filter's fingerprints are 8, 12 or 16 bits wide, so -8 became auto (the filter's choice)",
		"variant=cuckoo&fingerprint-bits=twelve": `fingerprint-bits: "twelve" is not a width in bits, so the cuckoo filter chooses its own (auto)`,
		"variant=cuckoo&fingerprint-bits=12.5":   `fingerprint-bits: "12.5" is not a width in bits, so the cuckoo filter chooses its own (auto)`,
		"fingerprint-bits=16":                    "fingerprint-bits: the standard filter has no fingerprints, so the width 16 does not apply",
	} {
		q, _ := url.ParseQuery(query)
		s, notices := FromQuery(q)
		if s.Params.FingerprintBits != 0 || len(notices) != 1 || notices[0] != want {
			t.Errorf("%s: %d bits, notices %q", query, s.Params.FingerprintBits, notices)
		}
		if err := s.Params.Validate(); err != nil {
			t.Errorf("%s: %v", query, err)
		}
	}
	// A fault the cuckoo filter lacks moves the variant, and the width
	// the standard filter lacks goes with it: two notices.
	q, _ = url.ParseQuery("variant=cuckoo&fault=one-hash&fingerprint-bits=12")
	s, notices = FromQuery(q)
	if s.Params.Variant != core.Standard || s.Params.FingerprintBits != 0 || len(notices) != 2 ||
		notices[0] != "fault: one-hash lives in the standard filter, so the variant is standard, not cuckoo" ||
		notices[1] != "fingerprint-bits: the standard filter has no fingerprints, so the width 12 does not apply" {
		t.Errorf("cuckoo with one-hash: %s %d bits, notices %q", s.Params.Variant, s.Params.FingerprintBits, notices)
	}
}

// Switching variant keeps the width where the new layout has it, and goes
// back to auto with a notice where it does not; so does a fault that moves
// the variant.
func TestFingerprintBitsFollowVariant(t *testing.T) {
	t.Parallel()
	s, notice := DefaultSettings().WithVariant(core.CuckooVariant)
	if notice != "" {
		t.Errorf("to cuckoo: %q", notice)
	}
	s, notice = s.WithFingerprintBits(16)
	if s.Params.FingerprintBits != 16 || notice != "" {
		t.Errorf("16 bits on cuckoo: %d, %q", s.Params.FingerprintBits, notice)
	}
	kept, notice := s.WithVariant(core.FuseVariant)
	if kept.Params.FingerprintBits != 16 || notice != "" {
		t.Errorf("cuckoo 16 to fuse: %d, %q", kept.Params.FingerprintBits, notice)
	}
	s, _ = s.WithFingerprintBits(12)
	reset, notice := s.WithVariant(core.FuseVariant)
	if reset.Params.FingerprintBits != 0 || notice != "fingerprint-bits: the fuse filter's fingerprints are 8 or 16 bits wide, so 12 became auto (the filter's choice)" {
		t.Errorf("cuckoo 12 to fuse: %d, %q", reset.Params.FingerprintBits, notice)
	}
	std, notice := s.WithVariant(core.Standard)
	if std.Params.FingerprintBits != 0 || notice != "fingerprint-bits: the standard filter has no fingerprints, so the width 12 does not apply" {
		t.Errorf("cuckoo 12 to standard: %d, %q", std.Params.FingerprintBits, notice)
	}
	broken, notice := s.WithFault(core.OneHash)
	if broken.Params.Variant != core.Standard || broken.Params.FingerprintBits != 0 ||
		notice != "fault: one-hash lives in the standard filter, so the variant is now standard; fingerprint-bits: the standard filter has no fingerprints, so the width 12 does not apply" {
		t.Errorf("one-hash on cuckoo 12: %s %d, %q", broken.Params.Variant, broken.Params.FingerprintBits, notice)
	}
	if bad, notice := s.WithFingerprintBits(7); bad.Params.FingerprintBits != 0 || notice == "" {
		t.Errorf("7 bits on cuckoo: %d, %q", bad.Params.FingerprintBits, notice)
	}
	for _, s := range []Settings{s, kept, reset, std, broken} {
		if err := s.Params.Validate(); err != nil {
			t.Error(err)
		}
	}
}

// Every control that means nothing to a layout says why, and only those.
func TestControlNotes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		v                    core.Variant
		hashes, bpk, hashing string
	}{
		{v: core.Standard},
		{v: core.CountingVariant},
		{v: core.BlockedVariant, hashing: "the scheme does not apply: the blocked filter draws its positions inside one block from a stream of its own"},
		{v: core.CuckooVariant, hashes: "k does not apply: a key has two buckets of four slots",
			hashing: "the scheme does not apply: the cuckoo filter finds its two buckets and its fingerprint in one SipHash output"},
		{v: core.FuseVariant, hashes: "k does not apply: a key has three cells",
			bpk:     "bits per key does not apply: the fuse filter sizes itself from n, about 1.125 n cells of f bits",
			hashing: "the scheme does not apply: the fuse filter finds its three cells in three consecutive segments from one hash"},
	}
	for _, c := range cases {
		got := []string{controlNote(c.v, IDHashes), controlNote(c.v, IDOptimalK), controlNote(c.v, IDBitsPerKey), controlNote(c.v, IDHashing), controlNote(c.v, IDItems)}
		want := []string{c.hashes, c.hashes, c.bpk, c.hashing, ""}
		if !slices.Equal(got, want) {
			t.Errorf("%s: notes\n %q\nwant\n %q", c.v, got, want)
		}
	}
	if h := sliderHelp(sliderByID(IDBitsPerKey), core.CuckooVariant); !strings.Contains(h, "memory budget") {
		t.Errorf("cuckoo's bits per key help: %q", h)
	}
	if h := sliderHelp(sliderByID(IDBitsPerKey), core.Standard); h != sliderByID(IDBitsPerKey).Help {
		t.Errorf("standard's bits per key help: %q", h)
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
		p := core.DefaultParams()
		p.Variant = v
		r, err := core.Simulate(p)
		if err != nil {
			t.Fatal(err)
		}
		s := Settings{Params: p}
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

	p := core.DefaultParams()
	p.Variant, p.BitsPerKey = core.CuckooVariant, 8
	r, err := core.Simulate(p)
	if err != nil {
		t.Fatal(err)
	}
	if r.InsertFailures == 0 {
		t.Fatal("a cuckoo filter at 8 bits per key and 8-bit fingerprints failed no insert; the alarm is untested")
	}
	cs := labCounters(theoryOf(p), p.Variant, 0, &r)
	for id, want := range map[string]string{
		"out-m": "4,000", "out-k": "8", "load": format.Percent(r.Load), "relocations": format.Int(r.Relocations),
		"insert-failures": format.Int(r.InsertFailures), "fingerprint-bits-value": "8 (auto)",
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
	if r, err = core.Simulate(p); err != nil {
		t.Fatal(err)
	}
	if w := warnings(&r); len(w) == 0 || !strings.HasSuffix(w[0].value, "More bits per key, or narrower fingerprints, make room.") {
		t.Errorf("cuckoo at 12 bits: %+v", w)
	}

	p = core.DefaultParams()
	p.Variant, p.FingerprintBits = core.FuseVariant, 16
	r, err = core.Simulate(p)
	if err != nil {
		t.Fatal(err)
	}
	cs = labCounters(theoryOf(p), p.Variant, 16, &r)
	for id, want := range map[string]string{
		"out-m": format.Int(r.M), "out-k": "3", "fingerprint-bits-value": "16", "build-retries": format.Int(r.BuildRetries),
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
	r.BuildError = "fuse: could not build"
	if w := warnings(&r); len(w) != 1 || w[0].id != "build-error" || !counterOf(t, labCounters(theory{}, p.Variant, 16, &r), "build-retries").alarm {
		t.Errorf("a fuse filter that did not build: %+v", w)
	}

	// Before the first result, the Bloom formulas say nothing of them.
	for _, v := range []core.Variant{core.CuckooVariant, core.FuseVariant} {
		p := core.DefaultParams()
		p.Variant = v
		cs := labCounters(theoryOf(p), v, 0, nil)
		for _, id := range []string{"out-m", "out-k", "out-fpr-theory"} {
			if c := counterOf(t, cs, id); c.value != "…" {
				t.Errorf("%s before the result: %s = %q", v, id, c.value)
			}
		}
	}
	// The standard filter's are as they were.
	std := labCounters(theoryOf(core.DefaultParams()), core.Standard, 0, nil)
	for id, want := range map[string]string{"out-m": "40,000", "out-k": "7", "out-fpr-theory": "0.008194"} {
		if c := counterOf(t, std, id); c.value != want {
			t.Errorf("standard before the result: %s = %q, want %q", id, c.value, want)
		}
	}
	for _, id := range []string{"load", "memory-bits-per-key", "fingerprint-bits-value", "build-retries"} {
		if !counterOf(t, std, id).hidden {
			t.Errorf("standard shows %s", id)
		}
	}
}

// The rate note says nothing of hashing for the cuckoo and fuse filters,
// and names a failed construction.
func TestRateNoteOtherLayouts(t *testing.T) {
	t.Parallel()
	for _, v := range []core.Variant{core.CuckooVariant, core.FuseVariant} {
		p := core.DefaultParams()
		p.Variant, p.Items, p.Queries, p.PresentShare = v, 20, 20000, 0
		r, err := core.Simulate(p)
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

// Charts: none against k for the cuckoo filter, which draws its own theory
// against bits per key beside the Bloom filter's; none at all for the fuse
// filter, and the line under them says why.
func TestLayoutCharts(t *testing.T) {
	t.Parallel()
	p := core.DefaultParams()
	p.Variant = core.CuckooVariant
	r, err := core.Simulate(p)
	if err != nil {
		t.Fatal(err)
	}
	c := layoutBPKChart(r, 10, 0, []Point{{X: 2, Y: 0.03}}, true, 0)
	if len(c.Series) != 4 || c.Series[0].Name != "theory, cuckoo (auto width)" || len(c.Series[0].Points) != 40 {
		t.Fatalf("cuckoo chart series %+v", c.Series)
	}
	// At 10 bits per key the auto width is 8 bits at 80% load, the run's own.
	for _, pt := range c.Series[0].Points {
		if pt.X == 10 && math.Abs(pt.Y-r.TheoryFPRVariant) > 1e-12 {
			t.Errorf("theory at 10 bits per key %v, the run's %v", pt.Y, r.TheoryFPRVariant)
		}
	}
	if svg := c.SVG(); !strings.Contains(svg, "standard Bloom at the best k") {
		t.Error("the Bloom filter is not drawn beside the cuckoo filter")
	}
	if s := chartStatus(&r, false, false); !strings.HasPrefix(s, "k means nothing to the cuckoo filter (a key has two buckets of four slots)") {
		t.Errorf("cuckoo chart status %q", s)
	}
	p.Variant = core.FuseVariant
	if r, err = core.Simulate(p); err != nil {
		t.Fatal(err)
	}
	if s := chartStatus(&r, false, true); s != "No charts: they sweep k and bits per key, and the fuse filter takes neither (a key has three cells; the fuse filter sizes itself from n, about 1.125 n cells of f bits). Its rate depends on its fingerprint bits alone: choose them above." {
		t.Errorf("fuse chart status %q", s)
	}
}
