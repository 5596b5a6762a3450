package settings

import (
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"

	"github.com/bloomlab/bloomlab/app/ui/format"
	"github.com/bloomlab/bloomlab/core/experiment"
	"github.com/bloomlab/bloomlab/core/plan"
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

// Experiment is what an experiments link carries: which experiment, and
// the sizes and seed to run it at.
type Experiment struct {
	Name  string
	Sizes experiment.Sizes
}

// DefaultExperiment is the page without a query: the first experiment at
// its quick sizes.
func DefaultExperiment() Experiment {
	e := experiment.All()[0]
	return Experiment{Name: e.Name, Sizes: e.Quick}
}

// Experiment returns the selected experiment.
func (s Experiment) Experiment() experiment.Experiment {
	e, _ := experiment.Find(s.Name)
	return e
}

// Key names the selection in the session's caches.
func (s Experiment) Key() string {
	z := s.Sizes
	return fmt.Sprintf("%s/%d/%d/%d/%d", s.Name, z.Items, z.Queries, z.Replicates, z.Seed)
}

// WithSizes returns the selection at the experiment's quick or full sizes,
// keeping the seed.
func (s Experiment) WithSizes(full bool) Experiment {
	e := s.Experiment()
	sizes := e.Quick
	if full {
		sizes = e.Full
	}
	sizes.Seed = s.Sizes.Seed
	return Experiment{Name: s.Name, Sizes: sizes}
}

// ExpKnob is one size field: its element ID, query key, label and range.
// The experiment uses the knob when its Full sizes set it.
type ExpKnob struct {
	ID, Key, Label, Help string
	Max                  int
	Field                func(*experiment.Sizes) *int
}

var ExpKnobs = []ExpKnob{
	{"exp-items", ExpItems, "Items n", "keys inserted into each filter", experiment.MaxItems,
		func(s *experiment.Sizes) *int { return &s.Items }},
	{"exp-queries", ExpQueries, "Absent queries", "lookups of keys never inserted, per measured point", experiment.MaxQueries,
		func(s *experiment.Sizes) *int { return &s.Queries }},
	{"exp-replicates", ExpReplicates, "Replicates", "independent repetitions, each with its own keys", experiment.MaxReplicates,
		func(s *experiment.Sizes) *int { return &s.Replicates }},
}

// For is knob k as experiment e takes it: an experiment may take fewer
// items than the others, or call them something else.
func (k ExpKnob) For(e experiment.Experiment) ExpKnob {
	if k.Key == ExpItems {
		k.Max = e.MaxItemsOf()
		if e.ItemsHelp != "" {
			k.Help = e.ItemsHelp
		}
	}
	return k
}

// Uses reports whether experiment e reads knob k.
func (k ExpKnob) Uses(e experiment.Experiment) bool { return *k.Field(&e.Full) > 0 }

// ExperimentFromQuery reads a selection from a URL query. An unknown experiment
// falls back to the first; a size or seed that is not a number keeps the
// quick default, one out of range is clamped to the nearest legal value,
// and a size the experiment does not use is ignored. Each change is
// described in a notice for the page to show.
func ExperimentFromQuery(q url.Values) (Experiment, []string) {
	notices := Repeated(q)
	sel := DefaultExperiment()
	if raw, ok := Lookup(q, ExpName); ok {
		if e, found := experiment.Find(raw); found {
			sel = Experiment{Name: e.Name, Sizes: e.Quick}
		} else {
			notices = append(notices, fmt.Sprintf("%s: %s is not one of %s, so the page shows %s",
				ExpName, Quote(raw), experiment.Names(), sel.Name))
		}
	}
	e := sel.Experiment()
	for _, k := range ExpKnobs {
		k = k.For(e)
		raw, ok := Lookup(q, k.Key)
		if !ok {
			continue
		}
		if !k.Uses(e) {
			notices = append(notices, fmt.Sprintf("%s: %s takes no %s, so %s is ignored", k.Key, e.Name, k.Key, Quote(raw)))
			continue
		}
		v, notice := k.Parse(raw, *k.Field(&sel.Sizes))
		*k.Field(&sel.Sizes) = v
		if notice != "" {
			notices = append(notices, notice)
		}
	}
	if raw, ok := Lookup(q, ExpSeed); ok {
		v, notice := ParseSeed(ExpSeed, raw, sel.Sizes.Seed)
		sel.Sizes.Seed = v
		if notice != "" {
			notices = append(notices, notice)
		}
	}
	return sel, notices
}

// Parse reads a size typed by a user: a whole number, with thousands
// separators or in exponent form (1e6) if they like. It returns the legal
// value and, when that differs from what was typed, a notice; text that is
// not a number keeps current.
func (k ExpKnob) Parse(raw string, current int) (int, string) {
	clean := strings.NewReplacer(",", "", "_", "", " ", "").Replace(raw)
	v, err := plan.ParseDecimal(clean)
	if err != nil {
		return current, fmt.Sprintf("%s: %s is not a whole number from 1 to %s, so it stays at %s",
			k.Key, Quote(raw), format.Int(uint64(k.Max)), format.Int(uint64(current)))
	}
	legal := math.Min(float64(k.Max), math.Max(1, math.Round(v)))
	switch {
	case v < 1:
		return int(legal), fmt.Sprintf("%s: %s is below the minimum, so it was raised to 1", k.Key, shorten(raw))
	case v > float64(k.Max):
		return int(legal), fmt.Sprintf("%s: %s is above the maximum, so it was lowered to %s", k.Key, shorten(raw), format.Int(uint64(k.Max)))
	case legal != v:
		return int(legal), fmt.Sprintf("%s: %s was rounded to %s", k.Key, shorten(raw), format.Int(uint64(legal)))
	}
	return int(legal), ""
}

// Query writes the selection as a URL query: the experiment, the sizes it
// uses and the seed.
func (s Experiment) Query() url.Values {
	q := url.Values{}
	q.Set(ExpName, s.Name)
	e := s.Experiment()
	for _, k := range ExpKnobs {
		if k.Uses(e) {
			q.Set(k.Key, strconv.Itoa(*k.Field(&s.Sizes)))
		}
	}
	q.Set(ExpSeed, strconv.FormatUint(s.Sizes.Seed, 10))
	return q
}

// CLI is the command that prints the same table. The browser estimates the
// memory experiment's maps, so its command does too.
func (s Experiment) CLI() string { return strings.Join(s.CLIArgs(), " ") }

// CLIArgs is the command CLI writes, a flag and its value kept together
// ("--seed 1"), so a page can wrap the line between arguments only.
func (s Experiment) CLIArgs() []string {
	b := []string{"bloomlab", "experiment", s.Name}
	e := s.Experiment()
	for _, k := range ExpKnobs {
		if k.Uses(e) {
			b = append(b, "--"+k.Key+" "+strconv.Itoa(*k.Field(&s.Sizes)))
		}
	}
	b = append(b, "--seed "+strconv.FormatUint(s.Sizes.Seed, 10))
	if s.Name == "memory" {
		b = append(b, "--estimate")
	}
	return b
}

// FileName names a download after the selection, e.g.
// bloomlab-rocksdb-items100000-queries2000000-seed1.csv.
func (s Experiment) FileName(ext string) string {
	parts := []string{"bloomlab", s.Name}
	e := s.Experiment()
	for _, k := range ExpKnobs {
		if k.Uses(e) {
			parts = append(parts, k.Key+strconv.Itoa(*k.Field(&s.Sizes)))
		}
	}
	parts = append(parts, "seed"+strconv.FormatUint(s.Sizes.Seed, 10))
	return strings.Join(parts, "-") + "." + ext
}

// SizesText words the sizes the experiment uses: "items 100,000, queries
// 1,000,000, seed 1".
func (s Experiment) SizesText() string {
	var parts []string
	e := s.Experiment()
	for _, k := range ExpKnobs {
		if k.Uses(e) {
			parts = append(parts, k.Key+" "+format.Int(uint64(*k.Field(&s.Sizes))))
		}
	}
	return strings.Join(append(parts, "seed "+strconv.FormatUint(s.Sizes.Seed, 10)), ", ")
}
