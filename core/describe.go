package core

// Description is what a filter tells of itself without its keys: its
// Shape, the Add calls it took, its nonzero positions and fill, and the
// distinct keys estimated from them (EstimateKeys), or why there is no
// estimate (EstimateErr: ErrFull, ErrNoEstimate). It is what a page shows
// of a filter file it opened and `bloomlab filter info` prints.
type Description struct {
	Shape       Shape
	Inserted    uint64
	Nonzero     uint64
	Fill        float64
	Estimate    Estimate
	EstimateErr error
}

// Describe describes f, a filter of a layout with a Shape (every layout
// Load makes): a filter without one gives its counts and a zero Shape.
func Describe(f Membership) Description {
	d := Description{Nonzero: f.SetBits()}
	if s, ok := f.(Shaped); ok {
		d.Shape, d.Inserted = s.Shape(), s.Inserted()
	}
	if m := f.M(); m > 0 {
		d.Fill = float64(d.Nonzero) / float64(m)
	}
	d.Estimate, d.EstimateErr = EstimateKeys(f)
	return d
}
