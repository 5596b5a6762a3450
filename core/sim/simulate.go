package sim

import (
	"errors"
	"fmt"
	"math"

	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/keys"
)

// Params are the lab's controls. The zero value of Hashes means "the k the
// lab would choose" (Fault.ChooseK); M, when set, overrides BitsPerKey*Items.
type Params struct {
	BitsPerKey      float64      `json:"bitsPerKey"`
	Hashes          int          `json:"hashes"`
	Items           int          `json:"items"`
	Queries         int          `json:"queries"`
	PresentShare    int          `json:"presentShare"` // percent of queries that are members
	KeyBytes        int          `json:"keyBytes"`
	DuplicatePasses int          `json:"duplicatePasses"`
	Seed            uint64       `json:"seed"`
	Variant         core.Variant `json:"variant"`
	Fault           core.Fault   `json:"fault"`
	M               uint64       `json:"m,omitempty"`
	// Hashing is how the standard and counting filters find a key's
	// positions; "" is double hashing.
	Hashing core.Hashing `json:"hashing,omitempty"`
	// FingerprintBits is the fingerprint width of the layouts that store
	// fingerprints; 0 is the layout's default.
	FingerprintBits int `json:"fingerprintBits,omitempty"`
	// Capacity is the scalable filter's first link's capacity, 0 for an
	// eighth of the items: the player's stops keep the design's while
	// they hold fewer keys.
	Capacity uint64 `json:"capacity,omitempty"`
}

// Defaults is the lab's default shape: m = 40000, n = 4000, k = 7,
// theory rate 0.008194.
func Defaults() Params {
	return Params{BitsPerKey: 10, Hashes: 7, Items: 4000, Queries: 5000, PresentShare: 10,
		KeyBytes: 16, DuplicatePasses: 1, Seed: 1, Variant: core.Standard, Fault: core.NoFault, Hashing: core.DoubleHashing}
}

// Validate reports the first parameter outside its range, naming it and the
// range allowed.
func (p Params) Validate() error {
	switch {
	case p.M == 0 && !(p.BitsPerKey >= core.MinBitsPerKey && p.BitsPerKey <= core.MaxBitsPerKey):
		return fmt.Errorf("sim: bits per key must be in [%v, %v], got %v", core.MinBitsPerKey, core.MaxBitsPerKey, p.BitsPerKey)
	case p.Hashes < 0 || p.Hashes > core.MaxK:
		return fmt.Errorf("sim: hashes must be in [1, %d] (or 0 for the optimum), got %d", core.MaxK, p.Hashes)
	case p.Items < 1 || p.Items > core.MaxItems:
		return fmt.Errorf("sim: items must be in [1, %d], got %d", core.MaxItems, p.Items)
	case p.Queries < 0 || p.Queries > core.MaxQueries:
		return fmt.Errorf("sim: queries must be in [0, %d], got %d", core.MaxQueries, p.Queries)
	case p.PresentShare < 0 || p.PresentShare > 100:
		return fmt.Errorf("sim: present share must be in [0, 100] percent, got %d", p.PresentShare)
	case p.KeyBytes < core.MinKeyBytes || p.KeyBytes > core.MaxKeyBytes:
		return fmt.Errorf("sim: key bytes must be in [%d, %d], got %d", core.MinKeyBytes, core.MaxKeyBytes, p.KeyBytes)
	case p.DuplicatePasses < 1 || p.DuplicatePasses > core.MaxPasses:
		return fmt.Errorf("sim: duplicate passes must be in [1, %d], got %d", core.MaxPasses, p.DuplicatePasses)
	case p.M > core.MaxM:
		return fmt.Errorf("sim: m must be in [1, %d], got %d", uint64(core.MaxM), p.M)
	case p.Capacity > core.MaxItems:
		return fmt.Errorf("sim: capacity must be in [0, %d] (0 for an eighth of the items), got %d", core.MaxItems, p.Capacity)
	case p.Capacity > 0 && !p.Variant.Chain():
		return fmt.Errorf("sim: capacity sets the scalable filter's first link; the %s filter takes 0, got %d", p.Variant, p.Capacity)
	}
	if _, err := core.ParseFault(string(p.Fault)); err != nil {
		return err
	}
	if _, err := core.ParseHashing(string(p.Hashing)); err != nil {
		return err
	}
	if err := p.Variant.Accepts(p.Fault); err != nil {
		return err
	}
	if err := p.Variant.Effective(p.Fault).CheckFingerprintBits(p.FingerprintBits); err != nil {
		return err
	}
	return p.Variant.HashedBy(p.Fault, p.Hashing)
}

// Start validates p and builds its empty filter, in the Result that will
// measure it: the one place a run reads its variant, fault and hashing.
func (p Params) Start() (Result, error) {
	if err := p.Validate(); err != nil {
		return Result{}, err
	}
	fault, hashing := core.WithDefaults(p.Fault, p.Hashing)
	variant := p.Variant.Effective(fault)
	m, k := p.Shape()
	f, err := variant.Build(core.Spec{M: m, K: k, N: uint64(p.Items), Capacity: p.Capacity, FingerprintBits: p.FingerprintBits, Seed: p.Seed, Fault: fault, Hashing: hashing})
	if err != nil {
		return Result{}, err
	}
	return Result{Variant: variant, Fault: fault, Hashing: hashing, N: uint64(p.Items), Filter: f}, nil
}

// Shape returns the filter's m and k for these params: m = ceil(bits per
// key * n) unless M is set, at least 1; k = Hashes, or the lab's choice.
func (p Params) Shape() (m uint64, k int) {
	m = p.M
	if m == 0 {
		// The tiny slack keeps 9.585 * n from rounding up a whole bit.
		m = uint64(math.Max(1, math.Ceil(p.BitsPerKey*float64(p.Items)-1e-6)))
	}
	k = p.Hashes
	if k == 0 {
		k = p.Fault.ChooseK(m, uint64(p.Items))
	}
	return m, k
}

// Result is what one simulation measured, beside what theory predicts.
type Result struct {
	Variant core.Variant `json:"variant"`
	Fault   core.Fault   `json:"fault"`
	Hashing core.Hashing `json:"hashing"`
	// M is the filter's positions (Variant.Unit) and K the most a key
	// reads; BitsPerKey is m/n, positions per key.
	M          uint64  `json:"m"`
	N          uint64  `json:"n"`
	K          int     `json:"k"`
	BitsPerKey float64 `json:"bitsPerKey"`
	// MemoryBits is the filter's true storage, and FilterBytes the same
	// in whole bytes.
	MemoryBits       uint64  `json:"memoryBits"`
	MemoryBitsPerKey float64 `json:"memoryBitsPerKey"`
	FilterBytes      uint64  `json:"filterBytes"`
	SetBits          uint64  `json:"setBits"`
	ExpectedSetBits  float64 `json:"expectedSetBits"`
	Occupancy        float64 `json:"occupancy"`
	TheoryFPR        float64 `json:"theoryFpr"`
	TheoryFPRExact   float64 `json:"theoryFprExact"`
	TheoryFPRVariant float64 `json:"theoryFprVariant"` // the variant's own theory (blocked: Poisson mixture)
	EmpiricalFPR     float64 `json:"empiricalFpr"`
	// QueryCILow and QueryCIHigh bound the rate for the queries' noise
	// alone (95% Wilson): how well this filter's own rate is measured.
	QueryCILow  float64 `json:"queryCiLow"`
	QueryCIHigh float64 `json:"queryCiHigh"`
	// WholeCILow and WholeCIHigh bound it for the measurement as a whole,
	// the queries and the filter's own draw (FilterSpread): the interval
	// to judge the theory by.
	WholeCILow        float64 `json:"wholeCiLow"`
	WholeCIHigh       float64 `json:"wholeCiHigh"`
	FalsePositives    uint64  `json:"falsePositives"`
	FalseNegatives    uint64  `json:"falseNegatives"`
	AbsentQueries     uint64  `json:"absentQueries"`
	PresentQueries    uint64  `json:"presentQueries"`
	ProbesPerNegative float64 `json:"probesPerNegative"`
	ExpectedProbes    float64 `json:"expectedProbes"`
	ExactSetBytes     uint64  `json:"exactSetBytes"`
	Digest            string  `json:"digest"`
	// Typed is how many of the N keys are the key panel's typed keys
	// (RunTyped).
	Typed uint64 `json:"typed,omitempty"`

	// The figures of the layouts that have them, zero for the others:
	// the fingerprint width; the share of slots in use, the relocations
	// and the inserts that failed (cuckoo); the construction attempts
	// that failed before one succeeded, and the error if none did (fuse).
	FingerprintBits int     `json:"fingerprintBits,omitempty"`
	Load            float64 `json:"load,omitempty"`
	Relocations     uint64  `json:"relocations,omitempty"`
	InsertFailures  uint64  `json:"insertFailures,omitempty"`
	BuildRetries    uint64  `json:"buildRetries,omitempty"`
	BuildError      string  `json:"buildError,omitempty"`
	// The scalable filter's links, the keys that went into its last link
	// past capacity once the chain reached its bound, why it stopped
	// growing, and the bound on its rate, p0/(1 - r).
	Links        int     `json:"links,omitempty"`
	PastCapacity uint64  `json:"pastCapacity,omitempty"`
	ChainLimit   string  `json:"chainLimit,omitempty"`
	RateBound    float64 `json:"rateBound,omitempty"`

	// Filter is the filled filter, and LastInserted and FirstProbed the
	// positions of the last key inserted (typed, if any; else a member) and of the first absent query,
	// for the lab's bit array.
	Filter       core.Membership `json:"-"`
	LastInserted []uint64        `json:"-"`
	FirstProbed  []uint64        `json:"-"`
}

// ErrCancelled is what Run returns when its step callback stops it.
var ErrCancelled = errors.New("sim: simulation cancelled")

// Step is called between chunks of work with the operations done and the
// total; a non-nil error stops the simulation and is returned. The browser
// uses it to yield to the page and to cancel a run a newer slider move
// replaced.
type Step func(done, total int) error

// Chunk is how many inserts or queries run between two Step calls.
const Chunk = 1 << 14

// Run builds the filter the params describe, inserts Items member keys
// DuplicatePasses times, runs Queries queries (PresentShare percent of them
// members, the rest absent by construction), and measures. It is pure: the
// same params give the same Result everywhere.
func Run(p Params) (Result, error) { return RunSteps(p, nil) }

// RunSteps is Run with a Step callback (nil for none).
func RunSteps(p Params, step Step) (Result, error) { return RunTyped(p, nil, step) }

// RunTyped is RunSteps on the lab's filter with the key panel's
// typed keys inserted too: once each, in order, after the generated
// members' passes (as try.Run inserts them, so the two build the same filter).
// The typed keys count in N and in the theory, since the filter holds
// them; the queries stay the generated ones. At most MaxTypedKeys keys of 1
// to MaxTypedKeyBytes bytes of UTF-8.
func RunTyped(p Params, typed []string, step Step) (Result, error) {
	typedKeys, err := typedBytes(typed)
	if err != nil {
		return Result{}, err
	}
	r, err := p.Start()
	if err != nil {
		return Result{}, err
	}
	pr := r.plan(p, len(typed), step)
	member, present, absent := p.lists()
	probes, err := r.measure(p.DuplicatePasses, typedKeys, pr, member, present, absent)
	if err != nil {
		return Result{}, err
	}
	r.end(p, len(typed), probes)
	return r, nil
}

// typedBytes checks the key panel's typed keys and returns them as keys.
func typedBytes(typed []string) ([][]byte, error) {
	if len(typed) > keys.MaxTyped {
		return nil, fmt.Errorf("sim: %d keys typed, at most %d", len(typed), keys.MaxTyped)
	}
	if err := keys.CheckTyped("insert", typed); err != nil {
		return nil, err
	}
	out := make([][]byte, len(typed))
	for i, key := range typed {
		out[i] = []byte(key)
	}
	return out, nil
}

// plan sets the run's queries and returns its Pace for step: every insert
// of the members' passes and of the typed keys, and every query.
func (r *Result) plan(p Params, typed int, step Step) *Pace {
	r.PresentQueries = uint64(p.Queries) * uint64(p.PresentShare) / 100
	r.AbsentQueries = uint64(p.Queries) - r.PresentQueries
	return &Pace{Step: step, Total: p.Items*p.DuplicatePasses + typed + p.Queries}
}

// lists are the run's generated keys: the members, the members queried
// (drawn from the first Items), and the absent keys.
func (p Params) lists() (member, present, absent keysAt) {
	n := uint64(p.Items)
	pick := core.SplitMix(p.Seed ^ 0x13198a2e03707344)
	member = func(dst [][]byte, first uint64) { core.Keys(dst, core.Members, first, p.Seed, p.KeyBytes) }
	present = func(dst [][]byte, first uint64) {
		for j := range dst {
			dst[j] = core.Key(dst[j], core.Members, core.Reduce(core.SplitMix(pick+first+uint64(j)), n), p.Seed, p.KeyBytes)
		}
	}
	absent = func(dst [][]byte, first uint64) { core.Keys(dst, core.Absent, first, p.Seed, p.KeyBytes) }
	return member, present, absent
}

// end counts the typed keys in N and measures the filled filter.
func (r *Result) end(p Params, typed int, probes uint64) {
	r.Typed = uint64(typed)
	r.N += r.Typed
	r.ExactSetBytes = core.ExactSetBytes(uint64(p.Items), p.KeyBytes)
	r.finish(probes)
}

// finish fills in what follows from the filled filter and the counts:
// shape, sizes, occupancy, theory, the empirical rate with its interval,
// probes, the layout's own figures and the digest. r.N, Variant, Filter,
// FalsePositives, AbsentQueries and ExactSetBytes must be set; probes is
// the positions all absent queries read.
func (r *Result) finish(probes uint64) {
	f, n := r.Filter, r.N
	r.M, r.K = f.M(), f.K()
	m, k := r.M, r.K
	r.BitsPerKey = float64(m) / float64(n)
	r.MemoryBits = r.Variant.MemoryBits(f)
	r.MemoryBitsPerKey = float64(r.MemoryBits) / float64(n)
	r.FilterBytes = (r.MemoryBits + 7) / 8
	r.SetBits = f.SetBits()
	r.Occupancy = float64(r.SetBits) / float64(max(m, 1))
	th := r.Variant.Theory(f, n)
	r.TheoryFPR, r.TheoryFPRExact, r.TheoryFPRVariant = th.Rate, th.Rate, th.Rate
	if r.Variant.Bloom() {
		r.TheoryFPR, r.TheoryFPRExact = core.Rate(m, n, k), core.RateExact(m, n, k)
	}
	r.ExpectedSetBits, r.ExpectedProbes = th.ExpectedSet, th.ExpectedProbes
	if absent := r.AbsentQueries; absent > 0 {
		r.EmpiricalFPR = float64(r.FalsePositives) / float64(absent)
		r.ProbesPerNegative = float64(probes) / float64(absent)
	}
	r.QueryCILow, r.QueryCIHigh = core.Wilson(r.FalsePositives, r.AbsentQueries, core.Z95)
	r.WholeCILow, r.WholeCIHigh = core.Widen(r.FalsePositives, r.AbsentQueries, th.Variance)
	r.figures()
	r.Digest = r.digest()
}

// figures copies the figures of the layouts that have them (see Result).
func (r *Result) figures() {
	f := r.Filter
	if x, ok := f.(interface{ FingerprintBits() int }); ok {
		r.FingerprintBits = x.FingerprintBits()
	}
	if x, ok := f.(interface{ Load() float64 }); ok {
		r.Load = x.Load()
	}
	if x, ok := f.(interface{ Relocations() uint64 }); ok {
		r.Relocations = x.Relocations()
	}
	if x, ok := f.(interface{ Failures() uint64 }); ok {
		r.InsertFailures = x.Failures()
	}
	if x, ok := f.(interface{ Retries() uint64 }); ok {
		r.BuildRetries = x.Retries()
	}
	if x, ok := f.(core.Linked); ok {
		r.Links, r.PastCapacity, r.ChainLimit, r.RateBound = x.Links(), x.PastCapacity(), x.Limit(), x.Bound()
	}
}

// keysAt makes dst keys first, first+1, ... of a list: it writes each into
// the buffer dst[j] holds and sets dst[j] to it, or points dst[j] at a
// stored key.
type keysAt func(dst [][]byte, first uint64)

// Pace counts a run's operations for its Step, which it calls each time
// Done reaches a multiple of Chunk: the simulation, the lists of keys and
// the key panel (package try) report and cancel through it alike. Total is
// the operations the run expects, which a run may raise as it learns more.
type Pace struct {
	Step        Step
	Done, Total int
}

// Tick counts one operation.
func (pr *Pace) Tick() error { return pr.Advance(1) }

// Room is how many operations can run before the next Step is due.
func (pr *Pace) Room() int { return Chunk - pr.Done%Chunk }

// Advance counts n operations, at most Room(), and calls the Step if it is
// due.
func (pr *Pace) Advance(n int) error {
	pr.Done += n
	if pr.Step != nil && pr.Done%Chunk == 0 {
		return pr.Step(pr.Done, pr.Total)
	}
	return nil
}

// measure fills r.Filter and measures it, the one procedure behind
// generated keys and a user's lists: it inserts r.N members passes times,
// then the typed keys once each (fill), and queries the filter (query).
// Every insert and query counts one operation in pr; a Step's error stops
// the run.
//
// Keys go to the filter in batches (AddBatch, ContainsBatch), each ending
// where a Step is due, so the Step sees the same counts as it would key by
// key and a cancelled run stops at the same key.
func (r *Result) measure(passes int, typed [][]byte, pr *Pace, member, present, absent keysAt) (probes uint64, err error) {
	last, err := fill(r.Filter, 0, r.N, passes, typed, pr, member)
	if err != nil {
		return 0, err
	}
	return r.query(last, pr, present, absent)
}

// fill inserts members lo..hi-1 into f passes times, then the typed keys
// once each, and returns the last key inserted (nil for none).
func fill(f core.Membership, lo, hi uint64, passes int, typed [][]byte, pr *Pace, member keysAt) (last []byte, err error) {
	var keys [core.BatchKeys][]byte
	for pass := 0; pass < passes; pass++ {
		err := batches(pr, &keys, lo, hi, member, func(_ uint64, keys [][]byte) {
			core.AddBatch(f, keys)
			last = keys[len(keys)-1]
		})
		if err != nil {
			return nil, err
		}
	}
	for _, key := range typed {
		f.Add(key)
		last = key
		if err := pr.Tick(); err != nil {
			return nil, err
		}
	}
	return last, nil
}

// batches hands do keys lo to hi-1 of list, a batch at a time in keys,
// with the index of each batch's first key, counting them in pr.
func batches(pr *Pace, keys *[core.BatchKeys][]byte, lo, hi uint64, list keysAt, do func(first uint64, keys [][]byte)) error {
	for first := lo; first < hi; {
		n := int(min(core.BatchKeys, hi-first, uint64(pr.Room())))
		list(keys[:n], first)
		do(first, keys[:n])
		first += uint64(n)
		if err := pr.Advance(n); err != nil {
			return err
		}
	}
	return nil
}

// query seals a static filter, records the positions of last, the last
// key inserted, and of the first absent query for the bit array, queries
// r.PresentQueries members (a miss is a false negative) and r.AbsentQueries
// absent keys (a hit is a false positive), and returns the bits the absent
// queries read.
func (r *Result) query(last []byte, pr *Pace, present, absent keysAt) (probes uint64, err error) {
	f := r.Filter
	var (
		keys  [core.BatchKeys][]byte
		found [core.BatchKeys]bool
		read  [core.BatchKeys]int
	)
	if s, ok := f.(core.Sealer); ok {
		if err := s.Seal(); err != nil {
			r.BuildError = err.Error()
		}
	}
	r.LastInserted = f.Positions(nil, last)
	err = batches(pr, &keys, 0, r.PresentQueries, present, func(_ uint64, keys [][]byte) {
		core.ContainsBatch(f, keys, found[:], read[:])
		for j := range keys {
			if !found[j] {
				r.FalseNegatives++
			}
		}
	})
	if err != nil {
		return 0, err
	}
	err = batches(pr, &keys, 0, r.AbsentQueries, absent, func(first uint64, keys [][]byte) {
		core.ContainsBatch(f, keys, found[:], read[:])
		for j := range keys {
			if found[j] {
				r.FalsePositives++
			}
			probes += uint64(read[j])
		}
		if first == 0 {
			r.FirstProbed = f.Positions(nil, keys[0])
		}
	})
	if err != nil {
		return 0, err
	}
	return probes, nil
}

// digest folds the run's figures and its filter's words into Digest.
func (r *Result) digest() string {
	var d core.Digester
	d.String(r.Variant.Name())
	d.String(string(r.Fault))
	for _, x := range []uint64{r.M, r.N, uint64(r.K), r.SetBits, r.FalsePositives, r.FalseNegatives,
		r.AbsentQueries, r.PresentQueries} {
		d.Uint(x)
	}
	d.Words(r.Filter.Words())
	for _, x := range []float64{r.TheoryFPR, r.TheoryFPRExact, r.EmpiricalFPR, r.ProbesPerNegative} {
		d.Float(x)
	}
	return d.Sum()
}
