package lab

import (
	"strings"

	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/core"
)

// controlNote says why control id means nothing for layout v, or "" when
// it does: the hashes slider and the optimal k where k does not apply, bits
// per key where the layout sizes itself, the hashing select where the
// layout finds its positions its own way. The page disables the control
// and shows the note in its help.
func controlNote(v core.Variant, id string) string {
	switch id {
	case settings.IDHashes, settings.IDOptimalK:
		if v.UsesK() {
			return ""
		}
		places := v.Places()
		if places == "" {
			places = "the " + v.Name() + " filter places a key its own way"
		}
		return "k does not apply: " + places
	case settings.IDBitsPerKey:
		if v.UsesM() {
			return ""
		}
		sizes := v.Sizes()
		if sizes == "" {
			sizes = "the " + v.Name() + " filter sizes itself from n"
		}
		return "bits per key does not apply: " + sizes
	case settings.IDHashing:
		if v.Hashings() {
			return ""
		}
		how := core.Message(v.HashedBy(core.NoFault, core.IndependentHashing))
		how, _, _ = strings.Cut(how, "; ")
		return "the scheme does not apply: " + how
	}
	return ""
}

// sliderHelp is the help under slider sl for layout v: the slider's own,
// or for bits per key in a layout of fingerprints, what the bits buy.
func sliderHelp(sl settings.Slider, v core.Variant) string {
	if sl.ID == settings.IDBitsPerKey && v.UsesM() && v.Fingerprints() != nil {
		return "m / n, the memory budget per key: the table holds as many f-bit fingerprints as fit"
	}
	if v.Chain() {
		switch sl.ID {
		case settings.IDBitsPerKey:
			return "the first link's bits per key: it holds an eighth of the items; each next link holds twice the last's keys at half its rate, sized for that rate"
		case settings.IDHashes:
			return "the first link's k; each later link takes the optimal k for its own rate"
		case settings.IDItems:
			return "keys given to the chain: the first link's capacity is an eighth of them, and the chain grows a link each time the last fills"
		}
	}
	return sl.Help
}

// theoryFormula is the formula behind the theory rate of layout v, for the
// counter's tooltip.
func theoryFormula(v core.Variant) string {
	if f := v.Formula(); f != "" {
		return f
	}
	return "the " + v.Name() + " filter's own theory"
}
