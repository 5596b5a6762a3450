package core

import (
	"fmt"
	"slices"
	"testing"
)

// The records below are written out as literals so that nothing of core
// runs at the program's start; these tests hold each written-out text to
// the constants it names.

func TestFuseFingerprints(t *testing.T) {
	var want []int
	for f := FuseMinBits; f <= FuseMaxBits; f++ {
		want = append(want, f)
	}
	for name, got := range map[string][]int{"FuseFingerprints": FuseFingerprints, "RibbonFingerprints": RibbonFingerprints} {
		if !slices.Equal(got, want) {
			t.Errorf("%s = %v, want every width from FuseMinBits to FuseMaxBits: %v", name, got, want)
		}
	}
}

func TestRibbonTextsNameWidth(t *testing.T) {
	for _, c := range []struct {
		v    Variant
		w    int
		rows string
	}{
		{RibbonVariant, RibbonWidth, "about 1.1 n rows of r bits"},
		{RibbonWideVariant, RibbonWideWidth, "about 1.05 n rows of r bits"},
	} {
		k := c.v.record()
		want := []string{
			fmt.Sprintf("Ribbon (static, w = %d)", c.w),
			fmt.Sprintf("built once from the whole key set: the rows a key's %d-bit coefficient selects xor to its fingerprint (Dillinger and Walzer, 2021)", c.w),
			fmt.Sprintf("selects its rows by a %d-bit coefficient from a start drawn from one hash", c.w),
			fmt.Sprintf("a key selects about half the %d rows from its start", c.w),
			"the Ribbon filter sizes itself from n, " + c.rows,
		}
		got := []string{k.label, k.about, k.positions, k.places, k.sizes}
		if !slices.Equal(got, want) {
			t.Errorf("%s's texts\n%q\nwant, for w = %d,\n%q", c.v, got, c.w, want)
		}
		f, err := k.build(Spec{N: 100, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got := f.(*Ribbon).Width(); got != c.w {
			t.Errorf("%s builds w = %d, want %d", c.v, got, c.w)
		}
	}
}

func TestScalableSizesNamesItsConstants(t *testing.T) {
	want := fmt.Sprintf("the scalable filter's first link holds 1/%d of the items in 1/%d of m (the lab's bits per key) with the lab's k; "+
		"each next link holds %d times the last's keys at %v times its rate, sized for that rate",
		ScalableShare, ScalableShare, ScalableGrowth, ScalableTightening)
	if got := ScalableVariant.Sizes(); got != want {
		t.Errorf("ScalableVariant.Sizes() = %q,\nwant %q", got, want)
	}
}
