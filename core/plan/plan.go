package plan

import (
	"fmt"
	"math"

	"github.com/bloomlab/bloomlab/core"
)

// Unknown names the one of n, p and m that Solve finds from the other two.
type Unknown string

const (
	FindM Unknown = "m" // from n and p: the bits to spend
	FindP Unknown = "p" // from n and m: the rate at the optimal k
	FindN Unknown = "n" // from p and m: the keys the filter holds
)

// ParseUnknown reads "m", "p" or "n".
func ParseUnknown(s string) (Unknown, error) {
	switch u := Unknown(s); u {
	case FindM, FindP, FindN:
		return u, nil
	}
	return "", fmt.Errorf("plan: find must be m, p or n, got %q", s)
}

// Input is what the user gives: two of N, P and M (the third, named by
// Find, is ignored), an optional fixed K, the key length for the exact set,
// and the cost model's figures.
type Input struct {
	Find     Unknown
	N        uint64
	P        float64
	M        uint64
	K        int // 0: the optimal k
	KeyBytes int // 0: DefaultKeyBytes
	Cost     Cost
}

// Cost is the cost model's input, in whatever unit the user thinks in
// (milliseconds of database time, cents): what one "maybe" on an absent key
// costs, what one "no" saves (the lookup it avoids), and how many absent
// keys are queried per second.
type Cost struct {
	Maybe     float64 `json:"maybeCost"`
	Saved     float64 `json:"savedCost"`
	AbsentQPS float64 `json:"absentQps"`
}

// DefaultKeyBytes is the key length the calculator assumes: a 16-byte id.
const DefaultKeyBytes = 16

// Overfill factors: how far past its design n a filter is shown.
var OverfillFactors = []float64{1.5, 2, 5}

// Plan is Solve's answer.
type Plan struct {
	Find Unknown `json:"find"`
	N    uint64  `json:"n"`
	M    uint64  `json:"m"`
	// P is the design rate: the target given, or for Find == FindP the rate
	// at the optimal k. The alternatives are priced at this rate.
	P          float64 `json:"p"`
	Bytes      uint64  `json:"bytes"`
	BitsPerKey float64 `json:"bitsPerKey"`

	K         int     `json:"k"` // the k used: optimal (round) unless fixed
	Rate      float64 `json:"fpr"`
	RateExact float64 `json:"fprExact"`
	KRound    int     `json:"kRound"`
	RateRound float64 `json:"fprRound"`
	KCeil     int     `json:"kCeil"`
	RateCeil  float64 `json:"fprCeil"`
	// KStar is (m/n) ln 2, the real-valued optimum round and ceil start from.
	KStar float64 `json:"kStar"`
	Fill  float64 `json:"fill"`

	InfoFloor float64 `json:"infoFloor"` // log2(1/p) bits per key
	// Overhead is bits per key over the floor; 1/ln 2 = 1.44 at the optimum.
	Overhead float64 `json:"overhead"`

	KeyBytes      int    `json:"keyBytes"`
	ExactSetBytes uint64 `json:"exactSetBytes"`

	Alternatives []Alternative `json:"alternatives"`
	Overfill     []Overfill    `json:"overfill"`
	Cost         CostResult    `json:"cost"`
}

// Overfill is the filter's rate with Factor times its design n inserted.
type Overfill struct {
	Factor float64 `json:"factor"`
	N      uint64  `json:"n"`
	Rate   float64 `json:"fpr"`
	Fill   float64 `json:"fill"`
}

// CostResult prices the filter's false positives against its savings, per
// second. BreakEven is the rate at which they cancel.
type CostResult struct {
	Cost
	FalsePositives float64 `json:"falsePositivesPerSecond"`
	Spent          float64 `json:"costPerSecond"`
	SavedTotal     float64 `json:"savedPerSecond"`
	Net            float64 `json:"netPerSecond"`
	BreakEven      float64 `json:"breakEvenP"`
}

// Solve finds the unknown of n, p and m from the other two and everything
// the calculator shows around it. It rejects values outside the parsers'
// ranges, a fixed k outside [1, core.MaxK], and an m too small to hold one
// key at p.
func Solve(in Input) (Plan, error) {
	pl, _, err := solve(in)
	return pl, err
}

// solve is Solve with its work, in the blocked searches' units of about
// 100 ns (everything else it computes is a closed form or a short walk).
func solve(in Input) (Plan, int, error) {
	pl, err := SolveFigures(in)
	if err != nil {
		return Plan{}, 0, err
	}
	var work int
	pl.Alternatives, work = alternatives(pl.N, pl.M, pl.P, pl.K)
	return pl, work, nil
}

// SolveFigures is Solve without the alternatives (Alternatives is nil):
// its closed forms and short walks take microseconds, where the blocked
// rows' searches take from milliseconds to a tenth of a second and more
// (BenchmarkSolve100M, BenchmarkSolveTinyRate1M), so a page answers a
// key with these at once and has the alternatives found elsewhere
// (Shape.Plan).
func SolveFigures(in Input) (Plan, error) {
	if in.KeyBytes == 0 {
		in.KeyBytes = DefaultKeyBytes
	}
	pl, err := solveUnknown(in)
	if err != nil {
		return Plan{}, err
	}
	return figures(pl, in)
}

// solveUnknown checks the input and finds its unknown of n, p and m from
// the other two; the plan it returns holds the three and nothing else.
// Each unknown checks only the two values it is found from.
func solveUnknown(in Input) (Plan, error) {
	if in.KeyBytes < 1 || in.KeyBytes > MaxKeyBytes {
		return Plan{}, fmt.Errorf("plan: key bytes must be from 1 to %d, got %d", MaxKeyBytes, in.KeyBytes)
	}
	if in.K < 0 || in.K > core.MaxK {
		return Plan{}, fmt.Errorf("plan: k must be from 1 to %d (or 0 for the optimum), got %d", core.MaxK, in.K)
	}
	pl := Plan{Find: in.Find, N: in.N, M: in.M, P: in.P}
	switch in.Find {
	case FindM:
		if err := firstErr(checkN(in.N), checkP(in.P)); err != nil {
			return Plan{}, err
		}
		m, err := core.BitsFor(in.N, in.P)
		if err != nil {
			return Plan{}, fmt.Errorf("plan: %w", err)
		}
		pl.M = m
	case FindP:
		if err := firstErr(checkN(in.N), checkM(in.M)); err != nil {
			return Plan{}, err
		}
		// With k given, the design rate is the rate at that k: the plan
		// row and the alternatives are priced at what the user builds.
		k := in.K
		if k == 0 {
			k = core.OptimalK(pl.M, pl.N)
		}
		pl.P = core.Rate(pl.M, pl.N, k)
	case FindN:
		if err := firstErr(checkP(in.P), checkM(in.M)); err != nil {
			return Plan{}, err
		}
		n, err := KeysFor(in.M, in.P)
		if err != nil {
			return Plan{}, err
		}
		pl.N = n
	default:
		return Plan{}, fmt.Errorf("plan: find must be m, p or n, got %q", in.Find)
	}
	return pl, nil
}

// checkN refuses an n outside the parser's range.
func checkN(n uint64) error {
	if n < 1 || n > MaxN {
		return fmt.Errorf("plan: n must be from 1 to 2^53 keys, got %d", n)
	}
	return nil
}

// checkP refuses a p outside the parser's range.
func checkP(p float64) error {
	if !(p >= MinP && p < 1) {
		return fmt.Errorf("plan: p must be from %v to below 1, got %v", MinP, p)
	}
	return nil
}

// checkM refuses an m outside the parser's range.
func checkM(m uint64) error {
	if m < 1 || m > MaxBits {
		return fmt.Errorf("plan: m must be from 1 to 2^63 bits, got %d", m)
	}
	return nil
}

// figures fills in everything the calculator shows around a solved n, p
// and m: the ks and their rates, the fill, the memory against the
// information floor and an exact set, the overfill and the cost (not the
// alternatives: see solve). It refuses a shape whose optimal k is past
// core.MaxK.
func figures(pl Plan, in Input) (Plan, error) {
	m, n := pl.M, pl.N
	pl.Bytes = (m + 7) / 8
	pl.BitsPerKey = float64(m) / float64(n)
	pl.KStar = pl.BitsPerKey * math.Ln2
	if math.Ceil(pl.KStar) > core.MaxK {
		return Plan{}, fmt.Errorf("plan: %s bits per key (m = %d, n = %d) want k = %.0f, past %d, the most the lab's filters take; use at most %d bits per key",
			trim3(pl.BitsPerKey), m, n, math.Round(pl.KStar), core.MaxK, BitsPerKeyAtMaxK)
	}
	pl.KRound, pl.KCeil = core.OptimalK(m, n), core.CeilK(m, n)
	pl.RateRound, pl.RateCeil = core.Rate(m, n, pl.KRound), core.Rate(m, n, pl.KCeil)
	pl.K = pl.KRound
	if in.K > 0 {
		pl.K = in.K
	}
	pl.Rate, pl.RateExact = core.Rate(m, n, pl.K), core.RateExact(m, n, pl.K)
	pl.Fill = core.Fill(m, n, pl.K)
	pl.InfoFloor = core.InfoFloor(pl.P)
	pl.Overhead = pl.BitsPerKey / pl.InfoFloor
	pl.KeyBytes = in.KeyBytes
	pl.ExactSetBytes = core.ExactSetBytes(n, in.KeyBytes)
	pl.Overfill = overfill(m, n, pl.K)
	pl.Cost = Price(pl.Rate, in.Cost)
	return pl, nil
}

// KeysFor returns the largest n whose m for rate p (core.BitsFor) fits in m
// bits: the keys a filter of m bits holds at p with the optimal k.
func KeysFor(m uint64, p float64) (uint64, error) {
	if !(p > 0 && p < 1) {
		return 0, fmt.Errorf("plan: p must be in (0, 1), got %v", p)
	}
	fits := func(n uint64) bool {
		need, err := core.BitsFor(n, p)
		return err == nil && need <= m
	}
	if !fits(1) {
		need, _ := core.BitsFor(1, p)
		return 0, fmt.Errorf("plan: %d bits cannot hold even one key at p = %v; one key needs %d bits", m, p, need)
	}
	// The inverse formula lands within a few keys; walk to the exact edge.
	guess := math.Floor(float64(m) * math.Ln2 * math.Ln2 / -math.Log(p))
	n := uint64(math.Max(1, math.Min(guess, MaxN)))
	for n > 1 && !fits(n) {
		n--
	}
	for n < MaxN && fits(n+1) {
		n++
	}
	return n, nil
}

// overfill prices the filter at each of OverfillFactors times its n.
func overfill(m, n uint64, k int) []Overfill {
	out := make([]Overfill, 0, len(OverfillFactors))
	for _, f := range OverfillFactors {
		over := uint64(math.Round(f * float64(n)))
		out = append(out, Overfill{Factor: f, N: over, Rate: core.Rate(m, over, k), Fill: core.Fill(m, over, k)})
	}
	return out
}

// Price runs the cost model at rate p. Of every absent query a share p
// comes back "maybe" and costs c.Maybe; the rest come back "no" and save
// c.Saved. The filter pays where Saved (1 - p) exceeds Maybe p, that is
// below BreakEven = Saved / (Maybe + Saved).
func Price(p float64, c Cost) CostResult {
	r := CostResult{Cost: c}
	r.FalsePositives = p * c.AbsentQPS
	r.Spent = r.FalsePositives * c.Maybe
	r.SavedTotal = (1 - p) * c.AbsentQPS * c.Saved
	r.Net = r.SavedTotal - r.Spent
	if c.Maybe+c.Saved > 0 {
		r.BreakEven = c.Saved / (c.Maybe + c.Saved)
	}
	return r
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
