package settings

import (
	"math"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/internal/linktest"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"
)

func TestFromQueryRoundTrip(t *testing.T) {
	t.Parallel()
	cases := []Lab{
		DefaultLab(),
		{Params: sim.Params{BitsPerKey: 4.8, Hashes: 3, Items: 123456, Queries: 0, PresentShare: 0, KeyBytes: 8,
			DuplicatePasses: 10, Seed: math.MaxUint64, Variant: core.CountingVariant, Fault: core.WrapCounters, Hashing: core.IndependentHashing}, Large: true},
		{Params: sim.Params{BitsPerKey: 64, Hashes: 32, Items: 1, Queries: maxLabQuery, PresentShare: 100, KeyBytes: 128,
			DuplicatePasses: 1, Seed: 0, Variant: core.BlockedVariant, Fault: core.NoFault, Hashing: core.DoubleHashing}},
	}
	for _, p := range Presets() {
		cases = append(cases, p.Settings)
	}
	for i, want := range cases {
		got, notices := LabFromQuery(want.Query())
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
		check  func(Lab) bool
		notice string
	}{
		{linktest.Query(IDBitsPerKey, "abc"), func(s Lab) bool { return s.Params.BitsPerKey == 10 }, "bits-per-key: \"abc\" is not a number"},
		{linktest.Query(IDBitsPerKey, "0"), func(s Lab) bool { return s.Params.BitsPerKey == 0.1 }, "raised to 0.1"},
		{linktest.Query(IDBitsPerKey, "1e9"), func(s Lab) bool { return s.Params.BitsPerKey == 64 }, "lowered to 64"},
		{linktest.Query(IDBitsPerKey, "NaN"), func(s Lab) bool { return s.Params.BitsPerKey == 10 }, "not a number"},
		{linktest.Query(IDBitsPerKey, "9.58"), func(s Lab) bool { return s.Params.BitsPerKey == 9.6 }, "rounded to 9.6"},
		{linktest.Query(IDHashes, "999"), func(s Lab) bool { return s.Params.Hashes == 32 }, "hashes: 999 is above the maximum, so it was lowered to 32"},
		{linktest.Query(IDHashes, "-3"), func(s Lab) bool { return s.Params.Hashes == 1 }, "raised to 1"},
		{linktest.Query(IDItems, "-5"), func(s Lab) bool { return s.Params.Items == 1 }, "items: -5 is below"},
		{linktest.Query(IDItems, "2.5"), func(s Lab) bool { return s.Params.Items == 3 }, "rounded to 3"},
		{linktest.Query(IDQueries, "1e12"), func(s Lab) bool { return s.Params.Queries == maxLabQuery }, "lowered to 10000000"},
		{linktest.Query(IDPresentShare, "101"), func(s Lab) bool { return s.Params.PresentShare == 100 }, "lowered to 100"},
		{linktest.Query(IDKeyBytes, "1"), func(s Lab) bool { return s.Params.KeyBytes == 8 }, "raised to 8"},
		{linktest.Query(IDDuplicatePasses, "0"), func(s Lab) bool { return s.Params.DuplicatePasses == 1 }, "raised to 1"},
		{linktest.Query(IDSeed, "-1"), func(s Lab) bool { return s.Params.Seed == 0 }, "seed: -1 is below the minimum, so it was raised to 0"},
		{linktest.Query(IDSeed, "18446744073709551616"), func(s Lab) bool { return s.Params.Seed == math.MaxUint64 }, "seed: 18446744073709551616 is above"},
		{linktest.Query(IDSeed, "abc"), func(s Lab) bool { return s.Params.Seed == 1 }, "seed: \"abc\" is not a whole number"},
		{linktest.Query(IDBitsPerKey, "0x1p3"), func(s Lab) bool { return s.Params.BitsPerKey == 10 }, "bits-per-key: \"0x1p3\" is not a number"},
		{linktest.Query(IDBitsPerKey, "Inf"), func(s Lab) bool { return s.Params.BitsPerKey == 10 }, "bits-per-key: \"Inf\" is not a number"},
		{linktest.Query(IDHashes, "3", IDHashes, "9"), func(s Lab) bool { return s.Params.Hashes == 9 }, "hashes: given 2 times, so the last, 9, is used"},
		{linktest.Query(IDVariant, "bogus"), func(s Lab) bool { return s.Params.Variant == core.Standard }, "variant: \"bogus\""},
		{linktest.Query(IDFault, "rm-rf"), func(s Lab) bool { return s.Params.Fault == core.NoFault }, "fault: \"rm-rf\""},
		{linktest.Query(IDOptimalK, "maybe"), func(s Lab) bool { return !s.OptimalK }, "optimal-k: \"maybe\""},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			q, err := url.ParseQuery(c.query)
			if err != nil {
				t.Fatal(err)
			}
			s, notices := LabFromQuery(q)
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
	q := url.Values{IDBitsPerKey: {"4.3"}, IDOptimalK: {"on"}, IDHashes: {"20"}}
	s, _ := LabFromQuery(q)
	if s.Params.Hashes != core.OptimalK(17200, 4000) {
		t.Errorf("optimal k = %d, want %d", s.Params.Hashes, core.OptimalK(17200, 4000))
	}
	q.Set(IDFault, "k-ceil")
	s, _ = LabFromQuery(q)
	if s.Params.Hashes != core.CeilK(17200, 4000) {
		t.Errorf("under k-ceil the lab's k = %d, want the ceil %d", s.Params.Hashes, core.CeilK(17200, 4000))
	}
}

func TestLogSlider(t *testing.T) {
	t.Parallel()
	items := SliderByID(IDItems)
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
	if got := SliderByID(IDQueries).FromPosition(0); got != 0 {
		t.Errorf("queries slider at 0 gives %v, want 0", got)
	}
}

// TestSliderMovesItsOwnField sets each slider to a legal value of its own
// and reads every slider back: the one moved shows the value, the others
// their defaults, so a record's Value and Set name the same field of
// sim.Params and no other record's.
func TestSliderMovesItsOwnField(t *testing.T) {
	t.Parallel()
	def := DefaultLab().Params
	for _, moved := range Sliders {
		t.Run(moved.ID, func(t *testing.T) {
			t.Parallel()
			v := moved.legal(moved.Max)
			if v == moved.Value(def) {
				v = moved.legal(moved.Min)
			}
			p := def
			moved.Set(&p, v)
			for _, sl := range Sliders {
				want := sl.Value(def)
				if sl.ID == moved.ID {
					want = v
				}
				if got := sl.Value(p); got != want {
					t.Errorf("after setting %s to %v, %s reads %v, want %v", moved.ID, v, sl.ID, got, want)
				}
			}
		})
	}
}

func TestPresetsAreLegal(t *testing.T) {
	t.Parallel()
	for _, p := range Presets() {
		if err := p.Settings.Params.Validate(); err != nil {
			t.Errorf("%s: %v", p.ID, err)
		}
	}
	// RocksDB's 10 bits per key at k = 6: theory 0.8436%, the theory column
	// of the rocksdb experiment (core/experiment).
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
	q, _ := url.ParseQuery(linktest.Query(IDVariant, "counting", IDFault, "negative-index"))
	s, notices := LabFromQuery(q)
	if s.Params.Variant != core.Standard || len(notices) != 1 || notices[0] != "fault: negative-index lives in the standard filter, so the variant is standard, not counting" {
		t.Errorf("link: variant %s, notices %q", s.Params.Variant, notices)
	}
	s, notice := DefaultLab().WithFault(core.WrapCounters)
	if s.Params.Variant != core.CountingVariant || notice != "fault: wrap-counters lives in the counting filter, so the variant is now counting" {
		t.Errorf("fault chosen: variant %s, notice %q", s.Params.Variant, notice)
	}
	s, notice = s.WithVariant(core.BlockedVariant)
	if s.Params.Variant != core.BlockedVariant || s.Params.Fault != core.NoFault || notice != "fault: wrap-counters lives in the counting filter, so the blocked filter runs without a fault" {
		t.Errorf("variant chosen: %s with fault %s, notice %q", s.Params.Variant, s.Params.Fault, notice)
	}
	if s, notice := DefaultLab().WithFault(core.KFromCeil); notice != "" || s.Params.Variant != core.Standard {
		t.Errorf("k-ceil lives in every layout: variant %s, notice %q", s.Params.Variant, notice)
	}
	if _, err := sim.Run(s.Params); err != nil {
		t.Error(err)
	}
}

// The hashing scheme travels in the link, and falls back to double hashing,
// with a notice, where the filter cannot use another.
func TestHashingInTheLink(t *testing.T) {
	t.Parallel()
	q, _ := url.ParseQuery(linktest.Query(IDHashing, "independent", IDItems, "20"))
	s, notices := LabFromQuery(q)
	if s.Params.Hashing != core.IndependentHashing || len(notices) != 0 || s.Query().Get(IDHashing) != "independent" {
		t.Errorf("hashing %q, notices %q, link %q", s.Params.Hashing, notices, s.Query().Encode())
	}
	if DefaultLab().Query().Has(IDHashing) {
		t.Error("the default link names the default scheme")
	}
	for query, want := range map[string]string{
		linktest.Query(IDVariant, "blocked", IDHashing, "enhanced"):   "hashing: enhanced is not used here: the blocked filter draws its positions inside one block from a stream of its own; enhanced hashing applies to the standard and counting filters",
		linktest.Query(IDFault, "one-hash", IDHashing, "independent"): "hashing: independent is not used here: the one-hash fault breaks double hashing itself, so it runs only with double hashing",
		linktest.Query(IDHashing, "triple"):                           `hashing: "triple" is not double, enhanced or independent, so it stays double`,
	} {
		q, _ := url.ParseQuery(query)
		s, notices := LabFromQuery(q)
		if s.Params.Hashing != core.DoubleHashing || len(notices) != 1 || notices[0] != want {
			t.Errorf("%s: hashing %q, notices %q", query, s.Params.Hashing, notices)
		}
	}
	s, notice := DefaultLab().WithHashing(core.EnhancedDoubleHashing)
	s, notice = s.WithVariant(core.BlockedVariant)
	if s.Params.Hashing != core.DoubleHashing || !strings.HasPrefix(notice, "hashing: enhanced is not used here") {
		t.Errorf("blocked after enhanced: %q, %q", s.Params.Hashing, notice)
	}
}

// The fingerprint width travels in the link as fingerprint-bits (left out
// at 0, the layout's choice); a width the layout lacks, or garbage, goes
// back to auto with a notice.
func TestFingerprintBitsInTheLink(t *testing.T) {
	t.Parallel()
	q, _ := url.ParseQuery(linktest.Query(IDVariant, "cuckoo", IDFingerprintBits, "12"))
	s, notices := LabFromQuery(q)
	if s.Params.Variant != core.CuckooVariant || s.Params.FingerprintBits != 12 || len(notices) != 0 {
		t.Errorf("cuckoo at 12 bits: %s %d, notices %q", s.Params.Variant, s.Params.FingerprintBits, notices)
	}
	if got := s.Query().Get(IDFingerprintBits); got != "12" {
		t.Errorf("the link carries fingerprint-bits=%q, want 12", got)
	}
	if back, _ := LabFromQuery(s.Query()); back != s {
		t.Errorf("round trip: %+v, want %+v", back.Params, s.Params)
	}
	if DefaultLab().Query().Has(IDFingerprintBits) {
		t.Error("the default link names a fingerprint width")
	}
	for _, query := range []string{linktest.Query(IDVariant, "cuckoo", IDFingerprintBits, "auto"), linktest.Query(IDVariant, "fuse", IDFingerprintBits, "0"), linktest.Query(IDVariant, "fuse", IDFingerprintBits, "")} {
		q, _ := url.ParseQuery(query)
		if s, notices := LabFromQuery(q); s.Params.FingerprintBits != 0 || len(notices) != 0 {
			t.Errorf("%s: %d bits, notices %q", query, s.Params.FingerprintBits, notices)
		}
	}
	for query, want := range map[string]string{
		linktest.Query(IDVariant, "cuckoo", IDFingerprintBits, "7"):      "fingerprint-bits: the cuckoo filter's fingerprints are 8, 12 or 16 bits wide, so 7 became auto (the filter's choice)",
		linktest.Query(IDFingerprintBits, "7", IDVariant, "cuckoo"):      "fingerprint-bits: the cuckoo filter's fingerprints are 8, 12 or 16 bits wide, so 7 became auto (the filter's choice)",
		linktest.Query(IDVariant, "fuse", IDFingerprintBits, "33"):       "fingerprint-bits: the fuse filter's fingerprints are 1 to 32 bits wide, so 33 became auto (the filter's choice)",
		linktest.Query(IDVariant, "fuse", IDFingerprintBits, "-1"):       "fingerprint-bits: the fuse filter's fingerprints are 1 to 32 bits wide, so -1 became auto (the filter's choice)",
		linktest.Query(IDVariant, "cuckoo", IDFingerprintBits, "-8"):     "fingerprint-bits: the cuckoo filter's fingerprints are 8, 12 or 16 bits wide, so -8 became auto (the filter's choice)",
		linktest.Query(IDVariant, "cuckoo", IDFingerprintBits, "twelve"): `fingerprint-bits: "twelve" is not a width in bits, so the cuckoo filter chooses its own (auto)`,
		linktest.Query(IDVariant, "cuckoo", IDFingerprintBits, "12.5"):   `fingerprint-bits: "12.5" is not a width in bits, so the cuckoo filter chooses its own (auto)`,
		linktest.Query(IDFingerprintBits, "16"):                          "fingerprint-bits: the standard filter has no fingerprints, so the width 16 does not apply",
	} {
		q, _ := url.ParseQuery(query)
		s, notices := LabFromQuery(q)
		if s.Params.FingerprintBits != 0 || len(notices) != 1 || notices[0] != want {
			t.Errorf("%s: %d bits, notices %q", query, s.Params.FingerprintBits, notices)
		}
		if err := s.Params.Validate(); err != nil {
			t.Errorf("%s: %v", query, err)
		}
	}
	// Every fuse width from 1 to 32 bits is taken from a link as it is,
	// and written back.
	for bits := 1; bits <= 32; bits++ {
		q, _ := url.ParseQuery(linktest.Query(IDVariant, "fuse", IDFingerprintBits, strconv.Itoa(bits)))
		s, notices := LabFromQuery(q)
		if s.Params.FingerprintBits != bits || len(notices) != 0 || s.Query().Get(IDFingerprintBits) != strconv.Itoa(bits) {
			t.Errorf("fuse at %d bits: %d bits, notices %q, link %s", bits, s.Params.FingerprintBits, notices, s.Query().Encode())
		}
		if err := s.Params.Validate(); err != nil {
			t.Errorf("fuse at %d bits: %v", bits, err)
		}
	}
	// A fault the cuckoo filter lacks moves the variant, and the width
	// the standard filter lacks goes with it: two notices.
	q, _ = url.ParseQuery(linktest.Query(IDVariant, "cuckoo", IDFault, "one-hash", IDFingerprintBits, "12"))
	s, notices = LabFromQuery(q)
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
	s, notice := DefaultLab().WithVariant(core.CuckooVariant)
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
	if kept, notice := s.WithVariant(core.FuseVariant); kept.Params.FingerprintBits != 12 || notice != "" {
		t.Errorf("cuckoo 12 to fuse: %d, %q", kept.Params.FingerprintBits, notice)
	}
	fuse7, _ := DefaultLab().WithVariant(core.FuseVariant)
	fuse7, _ = fuse7.WithFingerprintBits(7)
	reset, notice := fuse7.WithVariant(core.CuckooVariant)
	if reset.Params.FingerprintBits != 0 || notice != "fingerprint-bits: the cuckoo filter's fingerprints are 8, 12 or 16 bits wide, so 7 became auto (the filter's choice)" {
		t.Errorf("fuse 7 to cuckoo: %d, %q", reset.Params.FingerprintBits, notice)
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
	for _, s := range []Lab{s, kept, reset, std, broken} {
		if err := s.Params.Validate(); err != nil {
			t.Error(err)
		}
	}
}
