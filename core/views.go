package core

// The views below are what a layout shows beyond Membership. Each is
// implemented in the layout's own file; the key panel, the simulation and
// the picture ask a filter for a view and never for its type, so a new
// layout shows what it has by having the methods (see doc.go).

// Linked is a filter made of links laid one after another, each a filter
// of its own, as the scalable chain is.
type Linked interface {
	// Links is how many links there are, and Chain the links.
	Links() int
	Chain() []ChainLink
	// TurnLink is the link that was last at Add call number turn (from 0),
	// and LinkAt the link position j belongs to.
	TurnLink(turn uint64) int
	LinkAt(j uint64) int
	// Keys is how many keys the links hold, PastCapacity how many of them
	// went past the last link's capacity, Limit why the chain stopped
	// growing ("" while it can grow), Target the first link's rate at
	// capacity and Bound the most the chain's rate reaches.
	Keys() uint64
	PastCapacity() uint64
	Limit() string
	Target() float64
	Bound() float64
}

// Valued is a layout whose positions hold values: a slot's fingerprint, a
// cell's or a row's bits. Value is the value at position j, false where j
// is past the positions.
type Valued interface {
	Value(j uint64) (uint32, bool)
}

// Fingerprinted is a layout that stores fingerprints of its keys:
// KeyFingerprint is key's, false while the layout has none to give (a
// static filter built from no keys).
type Fingerprinted interface {
	KeyFingerprint(key []byte) (uint32, bool)
}

// Blocks is a layout whose positions come in blocks: Block is the block
// position j is in.
type Blocks interface {
	Block(j uint64) uint64
}

// Lossy is a filter whose positions may fall outside its storage, as a
// fault of the zoo makes them: Lost reports whether a write to position j
// is lost, and Reads what a read of j answers, the padding past m
// included, where IsSet stops at m.
type Lossy interface {
	Lost(j uint64) bool
	Reads(j uint64) bool
}

// Explainer is a layout that can show the arithmetic from a key to its
// positions, every intermediate number, for Explain: Arithmetic fills e in
// (e.Key, e.KeyHex and e.M are set, e.Positions is set after).
type Explainer interface {
	Arithmetic(e *Explanation, key []byte)
}

// Sealer is a filter built once from the whole key set (a static filter):
// Add collects keys and Seal builds it. The simulation seals after the
// inserts; a filter sealed lazily by its first query works without it.
type Sealer interface {
	Seal() error
}

// Terms is what the lab calls a layout's positions and says of them, in
// the picture's caption, the counters, the key panel and `bloomlab try`.
// Each layout's record carries its own; a %s stands for a list of keys.
type Terms struct {
	// Nonzero names the positions in use: "set bits", "occupied slots".
	Nonzero string
	// Dark says when the picture draws a position dark, and Share which
	// share of a dot's positions its shade gives.
	Dark, Share string
	// Reads names what a query reads, for a layout whose k is not a
	// number of hashes ("rows a query may read"); "" for the others.
	Reads string
	// SetBy is the sentence naming the keys behind a position ("Set by
	// %s."), and SetByShort the command line's words for it.
	SetBy, SetByShort string
	// No says why a query answered no where no single zero answers it.
	No string
	// Empty is what a position holding no value is called where the
	// layout shows values only when held ("empty" for a slot); "" where
	// every position's value is shown.
	Empty string
}

// bitTerms are the terms of the layouts whose positions are bits keys set.
var bitTerms = Terms{
	Nonzero: "set bits", Dark: "dark when set", Share: "that are set",
	SetBy: "Set by %s.", SetByShort: "set by %s",
	No: "a probe reads a zero",
}

// Shaped is a filter whose answers are a function of its Shape and the
// keys it took: two filters of one Shape put a key at the same positions,
// so they can be merged, and a file can carry the Shape and the positions
// and nothing else (file.go). Inserted counts the Add calls behind it
// (repeats included; a counting filter's less the keys it removed), the
// count a file keeps beside the positions.
type Shaped interface {
	Shape() Shape
	Inserted() uint64
}

// Merger is a layout whose filters can be combined (merge.go): Merge
// returns a new filter, the receiver's positions joined with other's
// (union) or met (intersect), and how many positions reached their largest
// value on the way (a counting filter's saturated counters; 0 for bits).
// A layout that cannot merge has the method too and says why in its error;
// a filter of another Shape is refused with ErrIncompatible.
type Merger interface {
	Merge(other Membership, intersect bool) (merged Membership, saturated uint64, err error)
}

// KeyCounter is a layout that counts the keys it holds itself, so its
// count is read rather than estimated (estimate.go): a cuckoo filter its
// fingerprints, a static filter the distinct keys it was built from, a
// chain the keys its links took.
type KeyCounter interface {
	Keys() uint64
}
