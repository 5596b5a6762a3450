package app

import (
	"math"
	"strconv"

	"bloomlab/core"
)

// The charts' measured points come from smaller runs of the same shape: the
// rate depends on bits per key and k, not on n, so a sample of n keeps the
// charts quick for any slider position. The lab says so in the legend.
const (
	sampleItems   = 5_000
	sampleQueries = 10_000
)

// sampleParams returns p scaled down for a chart point: at most sampleItems
// keys and sampleQueries queries, all of them absent (the rate is what the
// charts measure).
func sampleParams(p core.Params) (core.Params, bool) {
	s := p
	s.Items = min(p.Items, sampleItems)
	s.Queries = min(max(p.Queries, 2000), sampleQueries)
	s.PresentShare = 0
	return s, s.Items != p.Items
}

// kRange is the k axis of the rate-against-k chart: 1 to past twice the
// optimum, at least 12, at most the lab's limit.
func kRange(m, n uint64, k int) int {
	opt := float64(m) / float64(max(n, 1)) * math.Ln2
	return min(maxLabHashes, max(12, int(math.Ceil(2*opt))+1, k+2))
}

// bpkRange is the bits-per-key axis: to past the current value, at least 20.
func bpkRange(bpk float64) float64 {
	return math.Min(64, math.Max(20, math.Ceil(bpk*1.25/4)*4))
}

// measureK runs the sample simulation at each k from 1 to kmax and returns
// the measured rates; step lets the browser yield and cancel.
func measureK(p core.Params, kmax int, step core.Step) ([]Point, error) {
	s, _ := sampleParams(p)
	var pts []Point
	for k := 1; k <= kmax; k++ {
		s.Hashes = k
		r, err := core.SimulateSteps(s, step)
		if err != nil {
			return nil, err
		}
		pts = append(pts, Point{X: float64(k), Y: r.EmpiricalFPR})
		if step != nil {
			if err := step(k, kmax); err != nil {
				return nil, err
			}
		}
	}
	return pts, nil
}

// bpkSamples are the bits-per-key values measured on the second chart.
func bpkSamples(xmax float64) []float64 {
	var xs []float64
	stepX := math.Max(1, math.Round(xmax/10))
	for x := stepX; x <= xmax; x += stepX {
		xs = append(xs, x)
	}
	return xs
}

// measureBPK runs the sample simulation at each bits-per-key sample with the
// current k.
func measureBPK(p core.Params, xs []float64, step core.Step) ([]Point, error) {
	s, _ := sampleParams(p)
	var pts []Point
	for i, x := range xs {
		s.BitsPerKey = x
		r, err := core.SimulateSteps(s, step)
		if err != nil {
			return nil, err
		}
		pts = append(pts, Point{X: x, Y: r.EmpiricalFPR})
		if step != nil {
			if err := step(i+1, len(xs)); err != nil {
				return nil, err
			}
		}
	}
	return pts, nil
}

// rateFloor is the lowest rate a chart shows: a decade under the smallest
// theory value plotted, but no lower than 10^-7.
func rateFloor(vals ...float64) float64 {
	lo := 1.0
	for _, v := range vals {
		if v > 0 && v < lo {
			lo = v
		}
	}
	return math.Max(1e-7, math.Pow(10, math.Floor(math.Log10(lo))-0.0))
}

// kChart is the rate-against-k chart for the filter r: the theory curve for
// its m and n, the optimum (m/n) ln 2, the sampled measurements, and this
// run's own measured point.
func kChart(r core.Result, measured []Point, sampled bool, width float64) Chart {
	kmax := kRange(r.M, r.N, r.K)
	var theory []Point
	ys := []float64{}
	for k := 1; k <= kmax; k++ {
		y := core.Rate(r.M, r.N, k)
		theory = append(theory, Point{X: float64(k), Y: y})
		ys = append(ys, y)
	}
	opt := float64(r.M) / float64(max(r.N, 1)) * math.Ln2
	name := "measured"
	if sampled {
		name = "measured (n sampled to 5,000)"
	}
	c := Chart{
		Title:  "False-positive rate vs hash probes k",
		Width:  width,
		IntX:   true,
		XLabel: "hash probes k",
		YLabel: "false-positive rate",
		XMin:   1, XMax: float64(kmax),
		LogY: true, YMin: rateFloor(ys...) / 10, YMax: 1,
		Series: []Series{
			{Name: "theory (1 - e^(-kn/m))^k", Class: "theory", Line: true, Points: theory},
			{Name: name, Class: "measured", Points: measured},
		},
		Marks: []Mark{{X: opt, Label: "optimum (m/n) ln 2 = " + formatFloat(opt, 2), Class: "optimum"}},
	}
	if r.AbsentQueries > 0 {
		c.Series = append(c.Series, Series{Name: "this run", Class: "current", Points: []Point{{X: float64(r.K), Y: r.EmpiricalFPR}}})
	}
	return c
}

// bpkChart is the rate-against-bits-per-key chart for n keys at the run's
// k: theory at this k, theory at the best k for each size, the sampled
// measurements at this k, and a line at the current bits per key.
func bpkChart(r core.Result, bpk float64, measured []Point, sampled bool, width float64) Chart {
	xmax := bpkRange(bpk)
	var fixed, best []Point
	ys := []float64{}
	n := max(r.N, 1)
	for x := 0.5; x <= xmax+1e-9; x += 0.25 {
		m := uint64(math.Max(1, math.Ceil(x*float64(n))))
		y := core.Rate(m, n, r.K)
		fixed = append(fixed, Point{X: x, Y: y})
		yb := core.Rate(m, n, core.OptimalK(m, n))
		best = append(best, Point{X: x, Y: yb})
		ys = append(ys, y, yb)
	}
	name := "measured at k = " + formatPlain(float64(r.K))
	if sampled {
		name += " (n sampled)"
	}
	return bpkAxes("False-positive rate vs bits per key", bpk, xmax, width, ys,
		Series{Name: "theory at k = " + formatPlain(float64(r.K)), Class: "theory", Line: true, Points: fixed},
		Series{Name: "theory at the best k", Class: "alt", Line: true, Dashed: true, Points: best},
		Series{Name: name, Class: "measured", Points: measured})
}

// bpkAxes is a chart of the rate against bits per key up to xmax, its
// rate axis fitted to ys, with series and a line at this filter's bpk.
func bpkAxes(title string, bpk, xmax, width float64, ys []float64, series ...Series) Chart {
	return Chart{
		Title:  title,
		Width:  width,
		XLabel: "bits per key m/n",
		YLabel: "false-positive rate",
		XMin:   0.5, XMax: xmax,
		LogY: true, YMin: math.Max(rateFloor(ys...), 1e-7), YMax: 1,
		Series: series,
		Marks:  []Mark{{X: bpk, Label: "this filter: " + formatPlain(round3(bpk)) + " bits per key", Class: "here"}},
	}
}

// layoutBPKChart is the rate-against-bits-per-key chart of a layout with a
// theory of its own (the cuckoo filter, whose m is a memory budget): the
// layout's theory at each budget for its fingerprint width (0 for its
// choice, which changes along the axis), the standard Bloom filter's at its
// best k beside it, the sampled measurements, this run's point and a line
// at the current bits per key. The theory is taken from empty filters of at
// most sampleItems keys: the layout's theory of an empty filter is the one
// at n keys, and it depends on bits per key, not on n.
func layoutBPKChart(r core.Result, bpk float64, fingerprintBits int, measured []Point, sampled bool, width float64) Chart {
	xmax := bpkRange(bpk)
	n := min(max(r.N, 1), sampleItems)
	var own, bloom []Point
	ys := []float64{}
	for x := 0.5; x <= xmax+1e-9; x += 0.5 {
		m := uint64(math.Max(1, math.Ceil(x*float64(n))))
		if f, err := r.Variant.Build(core.Spec{M: m, N: n, FingerprintBits: fingerprintBits, Seed: 1}); err == nil {
			y := r.Variant.Theory(f, n).Rate
			own = append(own, Point{X: x, Y: y})
			ys = append(ys, y)
		}
		yb := core.Rate(m, n, core.OptimalK(m, n))
		bloom = append(bloom, Point{X: x, Y: yb})
		ys = append(ys, yb)
	}
	widthName := "auto width"
	if fingerprintBits != 0 {
		widthName = strconv.Itoa(fingerprintBits) + "-bit fingerprints"
	}
	name := "measured"
	if sampled {
		name += " (n sampled)"
	}
	c := bpkAxes("False-positive rate vs memory bits per key", bpk, xmax, width, ys,
		Series{Name: "theory, " + r.Variant.Name() + " (" + widthName + ")", Class: "theory", Line: true, Points: own},
		Series{Name: "standard Bloom at the best k", Class: "alt", Line: true, Dashed: true, Points: bloom},
		Series{Name: name, Class: "measured", Points: measured})
	if r.AbsentQueries > 0 {
		c.Series = append(c.Series, Series{Name: "this run", Class: "current", Points: []Point{{X: bpk, Y: r.EmpiricalFPR}}})
	}
	return c
}
