package settings

import (
	"strings"

	"github.com/bloomlab/bloomlab/core"
)

// ControlNote says why control id means nothing for layout v, or "" when
// it does: the hashes slider and the optimal k where k does not apply, bits
// per key where the layout sizes itself, the hashing select where the
// layout finds its positions its own way. The lab disables the control
// and shows the note in its help, and the charts say why they have no
// axis for it.
func ControlNote(v core.Variant, id string) string {
	switch id {
	case IDHashes, IDOptimalK:
		if v.UsesK() {
			return ""
		}
		places := v.Places()
		if places == "" {
			places = "the " + v.Name() + " filter places a key its own way"
		}
		return "k does not apply: " + places
	case IDBitsPerKey:
		if v.UsesM() {
			return ""
		}
		sizes := v.Sizes()
		if sizes == "" {
			sizes = "the " + v.Name() + " filter sizes itself from n"
		}
		return "bits per key does not apply: " + sizes
	case IDHashing:
		if v.Hashings() {
			return ""
		}
		how := core.Message(v.HashedBy(core.NoFault, core.IndependentHashing))
		how, _, _ = strings.Cut(how, "; ")
		return "the scheme does not apply: " + how
	}
	return ""
}
