package app

import (
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"

	"bloomlab/app/ui/format"
	"bloomlab/core/experiment"
	"bloomlab/core/plan"
)

// Query keys of the experiments page. A link carries the experiment and
// every size it uses, so it reopens the same table.
const (
	ExpName       = "experiment"
	ExpItems      = "items"
	ExpQueries    = "queries"
	ExpReplicates = "replicates"
	ExpSeed       = "seed"
)

// ExpSelection is what an experiments link carries: which experiment, and
// the sizes and seed to run it at.
type ExpSelection struct {
	Name  string
	Sizes experiment.Sizes
}

// DefaultExpSelection is the page without a query: the first experiment at
// its quick sizes.
func DefaultExpSelection() ExpSelection {
	e := experiment.All()[0]
	return ExpSelection{Name: e.Name, Sizes: e.Quick}
}

// Experiment returns the selected experiment.
func (s ExpSelection) Experiment() experiment.Experiment {
	e, _ := experiment.Find(s.Name)
	return e
}

// key names the selection in the session's caches.
func (s ExpSelection) key() string {
	z := s.Sizes
	return fmt.Sprintf("%s/%d/%d/%d/%d", s.Name, z.Items, z.Queries, z.Replicates, z.Seed)
}

// WithSizes returns the selection at the experiment's quick or full sizes,
// keeping the seed.
func (s ExpSelection) WithSizes(full bool) ExpSelection {
	e := s.Experiment()
	sizes := e.Quick
	if full {
		sizes = e.Full
	}
	sizes.Seed = s.Sizes.Seed
	return ExpSelection{Name: s.Name, Sizes: sizes}
}

// expKnob is one size field: its element ID, query key, label and range.
// The experiment uses the knob when its Full sizes set it.
type expKnob struct {
	ID, Key, Label, Help string
	Max                  int
	field                func(*experiment.Sizes) *int
}

var expKnobs = []expKnob{
	{"exp-items", ExpItems, "Items n", "keys inserted into each filter", experiment.MaxItems,
		func(s *experiment.Sizes) *int { return &s.Items }},
	{"exp-queries", ExpQueries, "Absent queries", "lookups of keys never inserted, per measured point", experiment.MaxQueries,
		func(s *experiment.Sizes) *int { return &s.Queries }},
	{"exp-replicates", ExpReplicates, "Replicates", "independent repetitions, each with its own keys", experiment.MaxReplicates,
		func(s *experiment.Sizes) *int { return &s.Replicates }},
}

// uses reports whether experiment e reads knob k.
func (k expKnob) uses(e experiment.Experiment) bool { return *k.field(&e.Full) > 0 }

// ExpFromQuery reads a selection from a URL query. An unknown experiment
// falls back to the first; a size or seed that is not a number keeps the
// quick default, one out of range is clamped to the nearest legal value,
// and a size the experiment does not use is ignored. Each change is
// described in a notice for the page to show.
func ExpFromQuery(q url.Values) (ExpSelection, []string) {
	notices := repeated(q)
	sel := DefaultExpSelection()
	if raw, ok := lookup(q, ExpName); ok {
		if e, found := experiment.Find(raw); found {
			sel = ExpSelection{Name: e.Name, Sizes: e.Quick}
		} else {
			notices = append(notices, fmt.Sprintf("%s: %q is not one of %s, so the page shows %s",
				ExpName, raw, experiment.Names(), sel.Name))
		}
	}
	e := sel.Experiment()
	for _, k := range expKnobs {
		raw, ok := lookup(q, k.Key)
		if !ok {
			continue
		}
		if !k.uses(e) {
			notices = append(notices, fmt.Sprintf("%s: %s takes no %s, so %q is ignored", k.Key, e.Name, k.Key, raw))
			continue
		}
		v, notice := k.parse(raw, *k.field(&sel.Sizes))
		*k.field(&sel.Sizes) = v
		if notice != "" {
			notices = append(notices, notice)
		}
	}
	if raw, ok := lookup(q, ExpSeed); ok {
		v, notice := parseSeed(ExpSeed, raw, sel.Sizes.Seed)
		sel.Sizes.Seed = v
		if notice != "" {
			notices = append(notices, notice)
		}
	}
	return sel, notices
}

// parse reads a size typed by a user: a whole number, with thousands
// separators or in exponent form (1e6) if they like. It returns the legal
// value and, when that differs from what was typed, a notice; text that is
// not a number keeps current.
func (k expKnob) parse(raw string, current int) (int, string) {
	clean := strings.NewReplacer(",", "", "_", "", " ", "").Replace(raw)
	v, err := plan.ParseDecimal(clean)
	if err != nil {
		return current, fmt.Sprintf("%s: %q is not a whole number from 1 to %s, so it stays at %s",
			k.Key, raw, format.Int(uint64(k.Max)), format.Int(uint64(current)))
	}
	legal := math.Min(float64(k.Max), math.Max(1, math.Round(v)))
	switch {
	case v < 1:
		return int(legal), fmt.Sprintf("%s: %s is below the minimum, so it was raised to 1", k.Key, raw)
	case v > float64(k.Max):
		return int(legal), fmt.Sprintf("%s: %s is above the maximum, so it was lowered to %s", k.Key, raw, format.Int(uint64(k.Max)))
	case legal != v:
		return int(legal), fmt.Sprintf("%s: %s was rounded to %s", k.Key, raw, format.Int(uint64(legal)))
	}
	return int(legal), ""
}

// Query writes the selection as a URL query: the experiment, the sizes it
// uses and the seed.
func (s ExpSelection) Query() url.Values {
	q := url.Values{}
	q.Set(ExpName, s.Name)
	e := s.Experiment()
	for _, k := range expKnobs {
		if k.uses(e) {
			q.Set(k.Key, strconv.Itoa(*k.field(&s.Sizes)))
		}
	}
	q.Set(ExpSeed, strconv.FormatUint(s.Sizes.Seed, 10))
	return q
}

// CLI is the command that prints the same table. The browser estimates the
// memory experiment's maps, so its command does too.
func (s ExpSelection) CLI() string {
	b := []string{"bloomlab", "experiment", s.Name}
	e := s.Experiment()
	for _, k := range expKnobs {
		if k.uses(e) {
			b = append(b, "--"+k.Key, strconv.Itoa(*k.field(&s.Sizes)))
		}
	}
	b = append(b, "--seed", strconv.FormatUint(s.Sizes.Seed, 10))
	if s.Name == "memory" {
		b = append(b, "--estimate")
	}
	return strings.Join(b, " ")
}

// fileName names a download after the selection, e.g.
// bloomlab-rocksdb-items100000-queries2000000-seed1.csv.
func (s ExpSelection) fileName(ext string) string {
	parts := []string{"bloomlab", s.Name}
	e := s.Experiment()
	for _, k := range expKnobs {
		if k.uses(e) {
			parts = append(parts, k.Key+strconv.Itoa(*k.field(&s.Sizes)))
		}
	}
	parts = append(parts, "seed"+strconv.FormatUint(s.Sizes.Seed, 10))
	return strings.Join(parts, "-") + "." + ext
}

// sizesText words the sizes the experiment uses: "items 100,000, queries
// 1,000,000, seed 1".
func (s ExpSelection) sizesText() string {
	var parts []string
	e := s.Experiment()
	for _, k := range expKnobs {
		if k.uses(e) {
			parts = append(parts, k.Key+" "+format.Int(uint64(*k.field(&s.Sizes))))
		}
	}
	return strings.Join(append(parts, "seed "+strconv.FormatUint(s.Sizes.Seed, 10)), ", ")
}
