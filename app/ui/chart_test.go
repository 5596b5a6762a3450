package ui

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// TestAxisTicks pins the one tick algorithm on whole, linear and log axes,
// with the axes the lab and the experiments draw.
func TestAxisTicks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		a    axis
		n    int
		want string // the labels, space-separated
	}{
		{"whole k from 1 labels k = 1", axis{lo: 1, hi: 15, whole: true}, 8, "1 3 5 7 9 11 13 15"},
		{"whole padded k range", axis{lo: 0.5, hi: 11.5, whole: true}, 8, "1 3 5 7 9 11"},
		{"whole steps over the whole numbers inside", axis{lo: 3.2, hi: 20.8, whole: true}, 8, "4 6 8 10 12 14 16 18 20"},
		{"whole without a whole number", axis{lo: 0.2, hi: 0.8, whole: true}, 8, ""},
		{"whole short range steps by 1", axis{lo: 3, hi: 6, whole: true}, 8, "3 4 5 6"},
		{"whole steps are round", axis{lo: 1, hi: 40, whole: true}, 8, "1 6 11 16 21 26 31 36"},
		{"whole never steps by 2.5", axis{lo: 0, hi: 14, whole: true}, 6, "0 5 10"},
		{"whole from below zero", axis{lo: -0.5, hi: 3.5, whole: true}, 8, "0 1 2 3"},
		{"linear bits per key", axis{lo: 0.5, hi: 20}, 6, "5 10 15 20"},
		{"linear small values keep their decimals", axis{lo: 0.0485, hi: 0.0575}, 5, "0.05 0.052 0.054 0.056"},
		{"linear quarter steps", axis{lo: 0, hi: 1}, 4, "0 0.25 0.5 0.75 1"},
		{"linear through zero writes no -0", axis{lo: -0.3, hi: 0.3}, 5, "-0.2 0 0.2"},
		{"linear empty range", axis{lo: 2, hi: 2}, 5, "2"},
		{"log decades", axis{lo: 1e-4, hi: 1, log: true}, 5, "1e-4 0.001 0.01 0.1 1"},
		{"log many decades, every other", axis{lo: 1e-7, hi: 1, log: true}, 5, "1e-7 1e-5 0.001 0.1"},
		{"log six decades, each", axis{lo: 1e-6, hi: 1, log: true}, 5, "1e-6 1e-5 1e-4 0.001 0.01 0.1 1"},
		{"log two decades, 1 2 5", axis{lo: 0.9, hi: 11, log: true}, 6, "1 2 5 10"},
		{"log small, 1 2 5", axis{lo: 1e-6, hi: 1e-4, log: true}, 5, "1e-6 2e-6 5e-6 1e-5 2e-5 5e-5 1e-4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ts, ls := tt.a.ticks(tt.n)
			if got := strings.Join(ls, " "); got != tt.want {
				t.Errorf("%+v.ticks(%d) labels %q, want %q", tt.a, tt.n, got, tt.want)
			}
			if len(ts) != len(ls) {
				t.Fatalf("%d ticks, %d labels", len(ts), len(ls))
			}
			for i, v := range ts {
				want, err := strconv.ParseFloat(ls[i], 64)
				if err != nil {
					t.Fatal(err)
				}
				if math.Abs(v-want) > 1e-9*math.Abs(want) {
					t.Errorf("tick %d is %v, labelled %q", i, v, ls[i])
				}
			}
		})
	}
}

func TestFormatTick(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		v    float64
		want string
	}{{1, "1"}, {0.1, "0.1"}, {0.001, "0.001"}, {1e-4, "1e-4"}, {1e-7, "1e-7"}, {2e-5, "2e-5"}, {0.002, "0.002"}} {
		if got := formatTick(c.v); got != c.want {
			t.Errorf("formatTick(%v) = %q, want %q", c.v, got, c.want)
		}
	}
	for i, want := range map[int]string{0: "A", 3: "D", 25: "Z", 26: "AA"} {
		if got := categoryLetter(i); got != want {
			t.Errorf("categoryLetter(%d) = %q, want %q", i, got, want)
		}
	}
}
