package lab

import (
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/core"
)

// A layout of fingerprints and a chain explain their sliders their own way.
func TestSliderHelp(t *testing.T) {
	t.Parallel()
	if h := sliderHelp(settings.SliderByID(settings.IDBitsPerKey), core.CuckooVariant); !strings.Contains(h, "memory budget") {
		t.Errorf("cuckoo's bits per key help: %q", h)
	}
	if h := sliderHelp(settings.SliderByID(settings.IDBitsPerKey), core.Standard); h != settings.SliderByID(settings.IDBitsPerKey).Help {
		t.Errorf("standard's bits per key help: %q", h)
	}
}
