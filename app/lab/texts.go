package lab

import (
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/core"
)

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
