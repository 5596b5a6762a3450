package settings

import (
	"fmt"
	"maps"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/bloomlab/bloomlab/app/ui/format"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/plan"
	"github.com/bloomlab/bloomlab/core/sim"
)

// Lab is everything a lab link carries: the simulation's params, whether
// k follows the optimum, the projector mode, the keys typed into the key
// panel, and where the player stopped (0: every key in).
type Lab struct {
	Params   sim.Params
	OptimalK bool
	Large    bool
	// Overlap is the overlap view: set bits coloured by the keys on them.
	Overlap bool
	// Second is the second filter's view (second.go).
	Second Second
	// File is the file view: the lab's filter saved, a filter file opened.
	File   bool
	Typed  TypedKeys
	PlayAt int
}

// Run is the params of the filter the lab shows: the designed one, or at
// a player's stop the same filter holding its first PlayAt keys.
func (s Lab) Run() sim.Params {
	if s.Playing() {
		return s.Params.At(s.PlayAt)
	}
	return s.Params
}

// Playing reports whether the player stopped before the last key.
func (s Lab) Playing() bool { return s.PlayAt > 0 && s.PlayAt < s.Params.Items }

// DefaultLab is the lab as it opens without a query: core's default
// shape.
func DefaultLab() Lab {
	return Lab{Params: sim.Defaults()}
}

// Slider describes one range control: its element ID (which is also its URL
// query key), its label, its legal range, whether the slider moves on a log
// scale, and the field of sim.Params it moves. Values outside [Min, Max]
// are clamped. A new slider is one record in Sliders.
type Slider struct {
	ID, Label, Help string
	Min, Max, Step  float64
	// Log sliders move in steps of 1/logSteps of a decade, so a key press
	// on items moves 4000 to 4100, not to 4001.
	Log bool
	// Ladder, if set, is the track of a slider whose useful range is a
	// small part of its legal one: the thumb stops at the ladder's values,
	// so the common range gets most of the travel and an arrow press a
	// step one can see; a value between stops sits at the nearest and
	// stays exact in the link and in the slider's number field.
	Ladder []Rung
	// Exact shows a number field beside the slider, for a value the
	// ladder does not stop at.
	Exact bool
	Int   bool
	// Value reads the slider's value out of p.
	Value func(p sim.Params) float64
	// Set writes v, already legal, into p.
	Set func(p *sim.Params, v float64)
}

// Rung is a stretch of a ladder: stops every Step up to Upto, from where
// the rung before ended (the slider's Min for the first).
type Rung struct{ Upto, Step float64 }

// bitsPerKeyLadder gives bits per key 2 to 20, where filters are used,
// most of the track: a fifth of a bit a step to 10, so that Cassandra's
// 4.8, the 5% filter's 6.2 and the 1% rule's 9.6 are stops, then half a
// bit to 20; below 2 tenths and halves, above 4 bits a step to core's
// limit.
var bitsPerKeyLadder = []Rung{{Upto: 1, Step: 0.1}, {Upto: 2, Step: 0.5}, {Upto: 10, Step: 0.2}, {Upto: 20, Step: 0.5}, {Upto: core.MaxBitsPerKey, Step: 4}}

// logSteps is the number of slider positions per decade on a log slider.
const logSteps = 100

// The lab's ranges. They sit inside core's limits and keep the browser's
// memory bounded: at most 10^7 keys at 64 bits per key is 80 MB of filter.
const (
	MaxLabHashes = 32
	maxLabPasses = 10
	maxLabItems  = 10_000_000
	maxLabQuery  = 10_000_000
	maxLabKey    = 128
)

// Control IDs: element IDs and URL query keys at once.
const (
	IDBitsPerKey      = "bits-per-key"
	IDHashes          = "hashes"
	IDDuplicatePasses = "duplicate-passes"
	IDItems           = "items"
	IDQueries         = "queries"
	IDPresentShare    = "present-share"
	IDKeyBytes        = "key-bytes"
	IDSeed            = "seed"
	IDOptimalK        = "optimal-k"
	IDVariant         = "variant"
	IDFault           = "fault"
	IDHashing         = "hashing"
	IDFingerprintBits = "fingerprint-bits"
	IDLarge           = "large"
	// IDOverlap is the link key of the overlap view, on when shown.
	IDOverlap = "overlap"
	// IDFile is the link key of the file view, on when shown.
	IDFile = "file"
)

// Sliders are the lab's range controls, in the order the page shows them.
var Sliders = []Slider{
	{ID: IDBitsPerKey, Label: "Bits per key", Help: "m / n, the memory spent on each key", Min: core.MinBitsPerKey, Max: core.MaxBitsPerKey, Step: 0.1,
		Ladder: bitsPerKeyLadder, Exact: true,
		Value: func(p sim.Params) float64 { return p.BitsPerKey },
		Set:   func(p *sim.Params, v float64) { p.BitsPerKey = v }},
	{ID: IDHashes, Label: "Hash probes k", Help: "bits set per key and read per query", Min: 1, Max: MaxLabHashes, Step: 1, Int: true,
		Value: func(p sim.Params) float64 { return float64(p.Hashes) },
		Set:   func(p *sim.Params, v float64) { p.Hashes = int(v) }},
	{ID: IDDuplicatePasses, Label: "Duplicate passes", Help: "times every key is inserted", Min: 1, Max: maxLabPasses, Step: 1, Int: true,
		Value: func(p sim.Params) float64 { return float64(p.DuplicatePasses) },
		Set:   func(p *sim.Params, v float64) { p.DuplicatePasses = int(v) }},
	{ID: IDItems, Label: "Items n", Help: "keys inserted", Min: 1, Max: maxLabItems, Step: 1, Log: true, Int: true,
		Value: func(p sim.Params) float64 { return float64(p.Items) },
		Set:   func(p *sim.Params, v float64) { p.Items = int(v) }},
	{ID: IDQueries, Label: "Queries", Help: "lookups after the inserts", Min: 0, Max: maxLabQuery, Step: 1, Log: true, Int: true,
		Value: func(p sim.Params) float64 { return float64(p.Queries) },
		Set:   func(p *sim.Params, v float64) { p.Queries = int(v) }},
	{ID: IDPresentShare, Label: "Present share %", Help: "share of queries for keys that were inserted", Min: 0, Max: 100, Step: 1, Int: true,
		Value: func(p sim.Params) float64 { return float64(p.PresentShare) },
		Set:   func(p *sim.Params, v float64) { p.PresentShare = int(v) }},
	{ID: IDKeyBytes, Label: "Key bytes", Help: "length of each key", Min: core.MinKeyBytes, Max: maxLabKey, Step: 1, Int: true,
		Value: func(p sim.Params) float64 { return float64(p.KeyBytes) },
		Set:   func(p *sim.Params, v float64) { p.KeyBytes = int(v) }},
}

// SliderByID returns the slider with the given ID.
func SliderByID(id string) Slider {
	for _, s := range Sliders {
		if s.ID == id {
			return s
		}
	}
	panic("settings: no slider " + id)
}

// legal rounds v to the slider's grain and clamps it into range.
func (s Slider) legal(v float64) float64 {
	if s.Int {
		v = math.Round(v)
	} else {
		v = math.Round(v*10) / 10
	}
	return math.Min(s.Max, math.Max(s.Min, v))
}

// Stops are the values a ladder slider's thumb stops at, from Min to
// Max, each on the slider's grain.
func (s Slider) Stops() []float64 {
	stops := []float64{s.Min}
	for _, r := range s.Ladder {
		from := stops[len(stops)-1]
		for i := 1; ; i++ {
			// From the rung's start by multiplication, not by sums, so
			// each stop is the round value it names.
			v := s.legal(from + float64(i)*r.Step)
			if v > r.Upto || v == stops[len(stops)-1] {
				break
			}
			stops = append(stops, v)
		}
	}
	return stops
}

// nearest is the index of the stop nearest v, the lower of two as near;
// stops ascend.
func nearest(stops []float64, v float64) int {
	i, _ := slices.BinarySearch(stops, v)
	if i == len(stops) || i > 0 && v-stops[i-1] <= stops[i]-v {
		return i - 1
	}
	return i
}

// Position is where value v sits on the slider's track: the value itself,
// the nearest stop's index on a ladder, or logSteps*log10(v) on a log
// slider (0 stays 0).
func (s Slider) Position(v float64) float64 {
	if len(s.Ladder) > 0 {
		return float64(nearest(s.Stops(), v))
	}
	if !s.Log {
		return v
	}
	if v < 1 {
		return 0
	}
	return math.Round(math.Log10(v) * logSteps)
}

// FromPosition turns a track position back into a value. On a log slider it
// keeps two significant digits, so positions land on round numbers.
func (s Slider) FromPosition(pos float64) float64 {
	if len(s.Ladder) > 0 {
		stops := s.Stops()
		return stops[int(math.Max(0, math.Min(float64(len(stops)-1), math.Round(pos))))]
	}
	if !s.Log {
		return s.legal(pos)
	}
	if s.Min == 0 && pos <= 0 {
		return 0
	}
	v := math.Pow(10, pos/logSteps)
	if v >= 100 {
		mag := math.Pow(10, math.Floor(math.Log10(v))-1)
		v = math.Round(v/mag) * mag
	}
	return s.legal(v)
}

// TrackMin and TrackMax bound the range input itself, in positions;
// TrackStep is its step.
func (s Slider) TrackMin() float64 { return s.Position(s.Min) }
func (s Slider) TrackMax() float64 { return s.Position(s.Max) }
func (s Slider) TrackStep() float64 {
	if s.Log || len(s.Ladder) > 0 {
		return 1
	}
	return s.Step
}

// LabFromQuery reads lab settings from a URL query. Missing keys keep their
// defaults; malformed or out-of-range values are replaced by the nearest
// legal value, and each replacement is described in a notice for the page to
// show. Unknown keys are ignored.
func LabFromQuery(q url.Values) (Lab, []string) {
	s := DefaultLab()
	notices := Repeated(q)
	notices = append(notices, readSliders(q, &s.Params)...)
	var more []string
	s, more = s.readFilter(q)
	notices = append(notices, more...)
	s, more = s.readView(q)
	notices = append(notices, more...)
	s = s.Normalize()
	return s, notices
}

// readSliders reads every slider's key into p, with a notice for each value
// it could not take as given.
func readSliders(q url.Values, p *sim.Params) []string {
	var notices []string
	for _, sl := range Sliders {
		raw, ok := Lookup(q, sl.ID)
		if !ok {
			continue
		}
		legal, notice := sl.Parse(raw, sl.Value(*p))
		if notice != "" {
			notices = append(notices, notice)
		}
		sl.Set(p, legal)
	}
	return notices
}

// Parse reads a value typed for the slider (in a link or its number
// field): the nearest legal value, and a notice when that is not the value
// as given; text that is no number keeps current.
func (s Slider) Parse(raw string, current float64) (float64, string) {
	v, err := plan.ParseDecimal(raw)
	if err != nil {
		return current, fmt.Sprintf("%s: %s is not a number, so it stays at %s", s.ID, Quote(raw), format.Plain(current))
	}
	legal := s.legal(v)
	switch {
	case legal == v:
		return v, ""
	case v < s.Min:
		return legal, fmt.Sprintf("%s: %s is below the minimum, so it was raised to %s", s.ID, shorten(raw), format.Plain(legal))
	case v > s.Max:
		return legal, fmt.Sprintf("%s: %s is above the maximum, so it was lowered to %s", s.ID, shorten(raw), format.Plain(legal))
	}
	return legal, fmt.Sprintf("%s: %s was rounded to %s", s.ID, shorten(raw), format.Plain(legal))
}

// readFilter reads the keys that choose the filter beyond the sliders: the
// seed, the layout, the fault, the hashing and the fingerprint width, each
// made to fit the ones before it, with a notice for each change.
func (s Lab) readFilter(q url.Values) (Lab, []string) {
	var notices []string
	note := func(format string, args ...any) { notices = append(notices, fmt.Sprintf(format, args...)) }
	if raw, ok := Lookup(q, IDSeed); ok {
		seed, notice := ParseSeed(IDSeed, raw, s.Params.Seed)
		s.Params.Seed = seed
		if notice != "" {
			notices = append(notices, notice)
		}
	}
	if raw, ok := Lookup(q, IDVariant); ok {
		v, err := core.ParseVariant(raw)
		if err != nil {
			note("variant: %s is not %s, so it stays standard", Quote(raw), core.VariantNames())
		} else {
			s.Params.Variant = v
		}
	}
	if raw, ok := Lookup(q, IDFault); ok {
		f, err := core.ParseFault(raw)
		if err != nil {
			note("fault: %s is not one of the zoo, so the filter stays unbroken", Quote(raw))
		} else {
			s.Params.Fault = f
		}
	}
	if v := s.Params.Variant.Effective(s.Params.Fault); v != s.Params.Variant {
		note("fault: %s lives in the %s filter, so the variant is %s, not %s", s.Params.Fault, v, v, s.Params.Variant)
		s.Params.Variant = v
	}
	if raw, ok := Lookup(q, IDHashing); ok {
		h, err := core.ParseHashing(raw)
		if err != nil {
			note("hashing: %s is not double, enhanced or independent, so it stays double", Quote(raw))
		} else {
			s.Params.Hashing = h
		}
	}
	var notice string
	if s, notice = s.hashingFits(); notice != "" {
		notices = append(notices, notice)
	}
	if raw, ok := Lookup(q, IDFingerprintBits); ok {
		bits, err := parseFingerprintBits(raw)
		if err != nil {
			note("%s: %s is not a width in bits, so the %s filter chooses its own (auto)", IDFingerprintBits, Quote(raw), s.Params.Variant)
		}
		s.Params.FingerprintBits = bits
		if s, notice = s.fingerprintFits(); notice != "" {
			notices = append(notices, notice)
		}
	}
	return s, notices
}

// readView reads the keys of what the lab shows of its filter: k at its
// optimum, the projector mode, the typed keys and the player's stop.
func (s Lab) readView(q url.Values) (Lab, []string) {
	var notices []string
	for _, flag := range []struct {
		id  string
		dst *bool
	}{{IDOptimalK, &s.OptimalK}, {IDLarge, &s.Large}, {IDOverlap, &s.Overlap}, {IDFile, &s.File}} {
		raw, ok := Lookup(q, flag.id)
		if !ok {
			continue
		}
		b, err := parseFlag(raw)
		if err != nil {
			notices = append(notices, fmt.Sprintf("%s: %s is not on or off, so it stays off", flag.id, Quote(raw)))
			continue
		}
		*flag.dst = b
	}
	var more []string
	s.Second, more = readSecond(q)
	notices = append(notices, more...)
	if raw, ok := Lookup(q, IDTry); ok {
		s.Typed, more = parseTyped(raw)
		notices = append(notices, more...)
	}
	if raw, ok := Lookup(q, IDPlayAt); ok {
		var notice string
		s.PlayAt, notice = parsePlayAt(raw, s.Params)
		if notice != "" {
			notices = append(notices, notice)
		}
	}
	return s, notices
}

// parsePlayAt reads the player's position: a count of keys from 1 to
// items, or 0 (also "" and "off") for every key in.
func parsePlayAt(raw string, p sim.Params) (int, string) {
	if raw == "" || strings.EqualFold(raw, "off") {
		return 0, ""
	}
	if p.Variant.Static() {
		return 0, fmt.Sprintf("%s: the %s filter is built once from every key, so there is no filter of its first keys to play; all %d are in", IDPlayAt, p.Variant, p.Items)
	}
	v, err := strconv.ParseInt(strings.ReplaceAll(raw, ",", ""), 10, 64)
	switch {
	case err != nil:
		return 0, fmt.Sprintf("%s: %s is not a whole number of keys, so all %d are in", IDPlayAt, Quote(raw), p.Items)
	case v < 0:
		return 0, fmt.Sprintf("%s: %d is below 0, so all %d keys are in", IDPlayAt, v, p.Items)
	case v > int64(p.Items):
		return 0, fmt.Sprintf("%s: %d is past the %d keys, so all are in", IDPlayAt, v, p.Items)
	case v == int64(p.Items):
		return 0, ""
	}
	return int(v), ""
}

// Lookup returns the last value given for key, trimmed: a link edited by
// hand often repeats a key, and the later one is what the user meant;
// repeated says so.
func Lookup(q url.Values, key string) (string, bool) {
	vs, ok := q[key]
	if !ok || len(vs) == 0 {
		return "", false
	}
	return strings.TrimSpace(vs[len(vs)-1]), true
}

// Repeated returns a notice for each key a link gives more than once,
// naming the value used, in the order of the keys' names: at most
// maxRepeated of them, then one that counts the rest, so a page's notices
// stay short however long its link.
func Repeated(q url.Values) []string {
	var notices []string
	more := 0
	for _, key := range slices.Sorted(maps.Keys(q)) {
		vs := q[key]
		switch {
		case len(vs) < 2:
		case len(notices) == maxRepeated:
			more++
		default:
			notices = append(notices, fmt.Sprintf("%s: given %d times, so the last, %s, is used",
				shorten(key), len(vs), shorten(strings.TrimSpace(vs[len(vs)-1]))))
		}
	}
	if more > 0 {
		notices = append(notices, fmt.Sprintf("%d more keys are given more than once; the last value of each is used", more))
	}
	return notices
}

// maxRepeated is how many repeated keys Repeated names one by one.
const maxRepeated = 4

// ParseSeed reads a seed for the link's key: any whole number a uint64
// holds, as on the command line. The link carries it as text, so no seed is
// rounded the way a JavaScript number would round one above 2^53.
func ParseSeed(key, raw string, current uint64) (uint64, string) {
	clean := strings.NewReplacer(",", "", "_", "", " ", "").Replace(raw)
	v, err := strconv.ParseUint(clean, 10, 64)
	switch {
	case err == nil:
		return v, ""
	case strings.HasPrefix(clean, "-"):
		if _, ierr := strconv.ParseInt(clean, 10, 64); ierr == nil || IsRange(ierr) {
			return 0, fmt.Sprintf("%s: %s is below the minimum, so it was raised to 0", key, shorten(raw))
		}
	case IsRange(err):
		return math.MaxUint64, fmt.Sprintf("%s: %s is above the maximum, so it was lowered to %d", key, shorten(raw), uint64(math.MaxUint64))
	}
	return current, fmt.Sprintf("%s: %s is not a whole number from 0 to %d, so it stays at %d", key, Quote(raw), uint64(math.MaxUint64), current)
}

func IsRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

func parseFlag(raw string) (bool, error) {
	switch strings.ToLower(raw) {
	case "1", "on", "true", "yes", "":
		return true, nil
	case "0", "off", "false", "no":
		return false, nil
	}
	return false, fmt.Errorf("settings: %q is not on or off", raw)
}

// WithFault switches fault f on, and with it the layout f lives in; the
// notice says when that moved the variant (or the hashing).
func (s Lab) WithFault(f core.Fault) (Lab, string) {
	s.Params.Fault = f
	var notices []string
	if v := s.Params.Variant.Effective(f); v != s.Params.Variant {
		notices = append(notices, fmt.Sprintf("fault: %s lives in the %s filter, so the variant is now %s", f, v, v))
		s.Params.Variant = v
	}
	s, notice := s.hashingFits()
	s, width := s.fingerprintFits()
	return s, joinNotices(append(notices, notice, width)...)
}

// WithVariant switches to layout v; a fault that has no form in v is
// switched off, and the notice says so (and likewise for the hashing).
func (s Lab) WithVariant(v core.Variant) (Lab, string) {
	s.Params.Variant = v
	var notices []string
	if f := s.Params.Fault; v.Accepts(f) != nil {
		s.Params.Fault = core.NoFault
		notices = append(notices, fmt.Sprintf("fault: %s lives in the %s filter, so the %s filter runs without a fault", f, v.Effective(f), v))
	}
	s, notice := s.hashingFits()
	s, width := s.fingerprintFits()
	return s, joinNotices(append(notices, notice, width)...)
}

// WithHashing switches the scheme to h where the filter can use it.
func (s Lab) WithHashing(h core.Hashing) (Lab, string) {
	s.Params.Hashing = h
	return s.hashingFits()
}

// hashingFits goes back to double hashing where the layout or the fault
// has no other scheme, and says why.
func (s Lab) hashingFits() (Lab, string) {
	h := s.Params.Hashing
	if err := s.Params.Variant.HashedBy(s.Params.Fault, h); err != nil {
		s.Params.Hashing = core.DoubleHashing
		return s, fmt.Sprintf("hashing: %s is not used here: %s", h, core.Message(err))
	}
	return s, ""
}

// WithFingerprintBits sets the fingerprint width, 0 for the layout's
// choice, where the layout has that width.
func (s Lab) WithFingerprintBits(bits int) (Lab, string) {
	s.Params.FingerprintBits = bits
	return s.fingerprintFits()
}

// fingerprintFits goes back to the layout's own choice of fingerprint
// width (0, "auto") where the layout has no fingerprints or not of that
// width, and says why. Switching variant keeps a width both layouts have.
func (s Lab) fingerprintFits() (Lab, string) {
	bits, v := s.Params.FingerprintBits, s.Params.Variant
	if v.CheckFingerprintBits(bits) == nil {
		return s, ""
	}
	s.Params.FingerprintBits = 0
	if v.Fingerprints() == nil {
		return s, fmt.Sprintf("%s: the %s filter has no fingerprints, so the width %d does not apply", IDFingerprintBits, v, bits)
	}
	return s, fmt.Sprintf("%s: the %s filter's fingerprints are %s bits wide, so %d became auto (the filter's choice)", IDFingerprintBits, v, v.FingerprintWidths("or"), bits)
}

// parseFingerprintBits reads a fingerprint width from a link: a whole
// number, or "auto" (also "" and 0) for the layout's choice. Whether the
// layout has that width is fingerprintFits's question.
func parseFingerprintBits(raw string) (int, error) {
	if raw == "" || strings.EqualFold(raw, "auto") {
		return 0, nil
	}
	bits, err := strconv.Atoi(raw)
	if err != nil {
		return 0, fmt.Errorf("settings: %q is not a width in bits", raw)
	}
	return bits, nil
}

func joinNotices(notices ...string) string {
	var kept []string
	for _, n := range notices {
		if n != "" {
			kept = append(kept, n)
		}
	}
	return strings.Join(kept, "; ")
}

// Normalize makes Hashes follow the optimum when OptimalK is on: the k the
// lab would choose for this fault (the k-ceil fault chooses by ceil). A
// player's stop past the keys, or on a filter built once from all of
// them, is every key in.
func (s Lab) Normalize() Lab {
	if !s.Playing() || s.Params.Variant.Static() {
		s.PlayAt = 0
	}
	if s.OptimalK {
		p := s.Params
		p.Hashes = 0
		_, k := p.Shape()
		s.Params.Hashes = min(k, MaxLabHashes)
	}
	return s
}

// Query writes settings as a URL query: every control under its element ID.
func (s Lab) Query() url.Values {
	q := url.Values{}
	for _, sl := range Sliders {
		q.Set(sl.ID, format.Plain(sl.Value(s.Params)))
	}
	q.Set(IDSeed, strconv.FormatUint(s.Params.Seed, 10))
	q.Set(IDVariant, s.Params.Variant.Name())
	q.Set(IDFault, string(s.Params.Fault))
	if h := s.Params.Hashing; h != "" && h != core.DoubleHashing {
		q.Set(IDHashing, string(h))
	}
	if b := s.Params.FingerprintBits; b != 0 {
		q.Set(IDFingerprintBits, strconv.Itoa(b))
	}
	q.Set(IDOptimalK, onOff(s.OptimalK))
	if s.Large {
		q.Set(IDLarge, "on")
	}
	if s.Overlap {
		q.Set(IDOverlap, "on")
	}
	if v := s.Second.query(); v != "" {
		q.Set(IDSecond, v)
		if s.Second.Shared > 0 {
			q.Set(IDSecondShared, strconv.Itoa(s.Second.Shared))
		}
	}
	if s.File {
		q.Set(IDFile, "on")
	}
	if s.Typed != "" {
		q.Set(IDTry, string(s.Typed))
	}
	if s.Playing() {
		q.Set(IDPlayAt, strconv.Itoa(s.PlayAt))
	}
	return q
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// Preset is a classic configuration a teacher can open with one click.
type Preset struct {
	ID, Name, Lesson string
	Settings         Lab
}

// Presets are the lab's classic cases. Each keeps the default workload and
// changes only what the lesson is about.
func Presets() []Preset {
	with := func(f func(p *sim.Params, s *Lab)) Lab {
		s := DefaultLab()
		f(&s.Params, &s)
		return s.Normalize()
	}
	return []Preset{
		{ID: "rule-of-thumb", Name: "1% rule of thumb", Lesson: "9.6 bits per key and k = 7 give about 1% false positives",
			Settings: with(func(p *sim.Params, s *Lab) { p.BitsPerKey = 9.6; p.Hashes = 7 })},
		{ID: "rocksdb", Name: "RocksDB: 10 bits, k = 6", Lesson: "RocksDB's default: 10 bits per key with k = 6, theory 0.84%",
			Settings: with(func(p *sim.Params, s *Lab) { p.BitsPerKey = 10; p.Hashes = 6 })},
		{ID: "cassandra", Name: "Cassandra: 0.1", Lesson: "Cassandra's 10% target needs only 4.8 bits per key with k = 3",
			Settings: with(func(p *sim.Params, s *Lab) { p.BitsPerKey = 4.8; p.Hashes = 3 })},
		{ID: "overfilled", Name: "Overfilled to 2x", Lesson: "a filter sized for 4,000 keys at 1% holding 8,000: the rate jumps to about 16%",
			Settings: with(func(p *sim.Params, s *Lab) { p.Items = 8000; p.BitsPerKey = 4.8; p.Hashes = 7 })},
		{ID: "too-many-hashes", Name: "Too many hashes", Lesson: "k = 20 at 10 bits per key fills the array and the rate climbs",
			Settings: with(func(p *sim.Params, s *Lab) { p.BitsPerKey = 10; p.Hashes = 20 })},
	}
}

// SmallStart is the lab a newcomer starts with: 16 keys in 128 bits at
// k = 3, an array small enough that every bit is a cell one can see and
// point at, and a third of it set.
func SmallStart() Lab {
	s := DefaultLab()
	s.Params.Items, s.Params.BitsPerKey, s.Params.Hashes = smallStartKeys, smallStartBits/smallStartKeys, 3
	return s.Normalize()
}

// The small start's shape: n keys in m bits.
const (
	smallStartKeys = 16
	smallStartBits = 128
)

// LargeType reads the projector mode of a page's link: on only when the
// large key says so. The lab and the lessons read it with their settings;
// the other pages have no other use for the lab's settings.
func LargeType(q url.Values) bool {
	raw, ok := Lookup(q, IDLarge)
	if !ok {
		return false
	}
	on, _ := parseFlag(raw)
	return on
}
