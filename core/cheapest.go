package core

import (
	"fmt"
	"math"
	"strconv"
)

// BitsPerKeyAtMaxK is the most whole bits per key whose optimal k, (m/n)
// ln 2, stays at or below MaxK: floor(64 / ln 2) = 92. It is the most a
// layout's sizing (Variant.Cheapest) spends on a key, and not
// MaxBitsPerKey, the most the lab's simulation takes (64).
const BitsPerKeyAtMaxK = 92

// Sizing is a layout's filter of n keys at rate p at the fewest bits its
// own theory needs: the spec to build it from, its choices in words ("k =
// 7", "f = 12, 264 buckets"), the memory the theory sizes and the theory's
// rate there, at most p. Reaches is false when no filter of the layout
// within BitsPerKeyAtMaxK bits a key reaches p, and Why then says why.
type Sizing struct {
	Spec     Spec
	Settings string
	Bits     uint64
	Rate     float64
	Reaches  bool
	Why      string
}

// Cheapest sizes n keys at rate p in layout v, by v's own sizing where its
// record has one (each built-in layout's, in its own file) and otherwise
// from its Theory (cheapestByTheory). The calculator's table and the
// frontier experiment list every layout of the registry through it.
func (v Variant) Cheapest(n uint64, p float64) Sizing {
	if c := v.record().cheapest; c != nil {
		return c(n, p)
	}
	return cheapestByTheory(v, n, p)
}

// notWithin is the Sizing of a layout that no size up to BitsPerKeyAtMaxK
// bits a key brings to p.
func notWithin() Sizing {
	return Sizing{Why: "not within " + strconv.Itoa(BitsPerKeyAtMaxK) + " bits per key"}
}

// cheapestByTheory sizes a layout that brings no sizing of its own from
// its theory, asked of an empty filter of each size tried as the audit
// asks it: a layout that sizes itself from n is built once for n keys; any
// other gets the fewest whole 64-bit words (with the k optimal for them
// where k means something to it) whose theory rate reaches p at n keys,
// found by doubling from the information floor and then bisecting, so an
// edge where w words reach p and w - 1 do not. Each step builds one filter
// of at most twice the size found; the steps are at most about 2 log2 of
// the words, and no filter past BitsPerKeyAtMaxK bits a key or MaxM bits
// is built.
func cheapestByTheory(v Variant, n uint64, p float64) Sizing {
	spec := func(words uint64) Spec {
		m := 64 * words
		s := Spec{M: m, N: n}
		if v.UsesK() {
			s.K = min(OptimalK(m, n), MaxK)
		}
		return s
	}
	try := func(s Spec) (Sizing, error) {
		f, err := v.Build(s)
		if err != nil {
			return Sizing{}, err
		}
		rate := v.Theory(f, n).Rate
		return Sizing{Spec: s, Bits: v.MemoryBits(f), Rate: rate, Reaches: rate <= p}, nil
	}
	if !v.UsesM() {
		s, err := try(Spec{N: n})
		if err != nil {
			return Sizing{Why: Message(err)}
		}
		if !s.Reaches {
			return Sizing{Why: fmt.Sprintf("its theory gives %.3g%% for %s keys", 100*s.Rate, FormatCount(n))}
		}
		return s
	}
	most := min(satMul(BitsPerKeyAtMaxK, n), MaxM) / 64
	if most == 0 {
		return notWithin()
	}
	var refused error // the last size the layout would not build, and why
	reaches := func(words uint64) (Sizing, bool) {
		s, err := try(spec(words))
		if err != nil {
			refused = err
		}
		return s, err == nil && s.Reaches
	}
	lo, hi := uint64(0), min(most, max(1, uint64(float64(n)*InfoFloor(p)/64)))
	for {
		if _, ok := reaches(hi); ok {
			break
		}
		if hi == most && refused != nil {
			return Sizing{Why: Message(refused)}
		}
		if hi == most {
			return notWithin()
		}
		lo, hi = hi, min(2*hi, most)
	}
	for hi-lo > 1 { // hi reaches, and lo is 0 or does not
		mid := lo + (hi-lo)/2
		if _, ok := reaches(mid); ok {
			hi = mid
		} else {
			lo = mid
		}
	}
	s, _ := reaches(hi)
	s.Settings = FormatCount(hi) + " words"
	if v.UsesK() {
		s.Settings = "k = " + strconv.Itoa(s.Spec.K) + ", " + s.Settings
	}
	return s
}

// satMul is a*b, or the largest uint64 where that overflows.
func satMul(a, b uint64) uint64 {
	if b != 0 && a > math.MaxUint64/b {
		return math.MaxUint64
	}
	return a * b
}
