package try

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/bloomlab/bloomlab/core/keys"

	"github.com/bloomlab/bloomlab/core"
)

// What an attacker does with a filter. The lab's hash key is the seed, and
// the seed is in every link: whoever has the link computes any key's
// positions as the filter does, offline, with no query to the filter. Three
// attacks follow from that, and the key panel runs each on its filter
// (Request.Attack):
//
//   - forge: a key the filter answers maybe for. Knowing the key, the
//     attacker tries candidates offline until one reads only set
//     positions, about 1/p of them at rate p, and sends the filter one
//     query. Not knowing it, each try is a query to the filter: 1/p queries.
//     Under the weak-hash fault no search is needed and the key does not
//     help: two keys of one length whose bytes weigh the same under 31*h + c
//     collide under every seed, so a member's twin is a maybe at once.
//   - fill: keys that turn on as many bits as possible, k a key while the
//     array has room, against k(1 - f) for a random key at fill f, so the
//     array fills, and every honest query's rate climbs, in about m/k keys
//     where random keys take m ln(m)/k.
//   - recover: the filter is no anonymization. Given only the filter and a
//     list of candidates (the common words, every 4-digit PIN, a range of
//     ids), every member on the list tests positive, as do about p of the
//     others: the members are recovered, hidden only among p(C - M) false
//     positives.

// The attacks.
const (
	AttackForge   = "forge"
	AttackFill    = "fill"
	AttackRecover = "recover"
)

// Bounds on an attack's work.
const (
	// MaxForgeTries is how many candidates a forge tries offline before
	// it gives up: enough for a rate of 10^-5 about 10 times over.
	MaxForgeTries = 1 << 20
	// FillTries is how many candidates a fill weighs for each key it
	// crafts, keeping the one that turns on the most positions.
	FillTries = 256
)

// The candidate lists of a recover.
const (
	ListWords = "words" // CommonWords
	ListPINs  = "pins"  // 0000 to 9999
	ListIDs   = "ids"   // user-1 to user-100000
)

// CandidateLists are the lists a recover takes, in the order the lab
// offers them.
var CandidateLists = []string{ListWords, ListPINs, ListIDs}

// idCount is how many ids the ids list holds.
const idCount = 100_000

// Candidates returns the named list.
func Candidates(list string) ([]string, error) {
	switch list {
	case ListWords:
		return keys.CommonWords(), nil
	case ListPINs:
		out := make([]string, 10_000)
		for i := range out {
			out[i] = fmt.Sprintf("%04d", i)
		}
		return out, nil
	case ListIDs:
		out := make([]string, idCount)
		for i := range out {
			out[i] = "user-" + strconv.Itoa(i+1)
		}
		return out, nil
	}
	return nil, noList(list)
}

// noList is the error for a candidate list that is none of CandidateLists.
func noList(list string) error {
	return fmt.Errorf("try: no candidate list %q; the lists are %s, %s and %s", list, ListWords, ListPINs, ListIDs)
}

// Attack asks the key panel to attack its filter: Kind is AttackForge,
// AttackFill (Keys keys, 1 to core.MaxTypedKeys) or AttackRecover (List, one of
// CandidateLists).
type Attack struct {
	Kind string `json:"kind"`
	Keys int    `json:"keys,omitempty"`
	List string `json:"list,omitempty"`
}

// check reports what is wrong with the attack, for a filter already
// holding typed keys.
func (a Attack) check(typed int) error {
	switch a.Kind {
	case AttackForge:
		if a.Keys != 0 || a.List != "" {
			return fmt.Errorf("try: a forge takes no keys or list")
		}
	case AttackFill:
		if a.Keys < 1 || a.Keys > keys.MaxTyped-typed {
			return fmt.Errorf("try: a fill crafts 1 to %d keys beside the %d typed (at most %d in all), got %d", keys.MaxTyped-typed, typed, keys.MaxTyped, a.Keys)
		}
		if a.List != "" {
			return fmt.Errorf("try: a fill takes no list")
		}
	case AttackRecover:
		if a.Keys != 0 {
			return fmt.Errorf("try: a recover takes no keys")
		}
		// Named, not built: a list of ten thousand PINs is made when the
		// attack runs, not each time a request is checked.
		if !slices.Contains(CandidateLists, a.List) {
			return noList(a.List)
		}
	default:
		return fmt.Errorf("try: no attack %q; the attacks are %s, %s and %s", a.Kind, AttackForge, AttackFill, AttackRecover)
	}
	return nil
}

// AttackResult is what an attack found.
type AttackResult struct {
	Kind string `json:"kind"`
	// Tries is the candidates computed offline: a forge's until the
	// first maybe, a fill's in all.
	Tries int `json:"tries"`
	// Expected is a forge's expected tries, 1/p at the filter's theory
	// rate p; a recover's expected false positives, p(Candidates -
	// Members).
	Expected float64 `json:"expected"`
	// Algebraic reports a forge made from a member under the weak hash,
	// with no search: Twin is the member.
	Algebraic bool   `json:"algebraic,omitempty"`
	Twin      string `json:"twin,omitempty"`
	// Keys are a fill's crafted keys, in order, and New the positions
	// each turned on; RandomNew is what as many random keys are expected
	// to turn on from the same start.
	Keys      []string `json:"keys,omitempty"`
	New       []int    `json:"new,omitempty"`
	RandomNew float64  `json:"randomNew,omitempty"`
	// FillBefore and FillAfter are the share of positions on before and
	// after the fill.
	FillBefore float64 `json:"fillBefore,omitempty"`
	FillAfter  float64 `json:"fillAfter,omitempty"`
	// A recover's list, its length, the candidates that test positive,
	// the members among them, and the first core.MaxTypedKeys positives with
	// Member[i] telling a member.
	List       string   `json:"list,omitempty"`
	Candidates int      `json:"candidates,omitempty"`
	Positive   int      `json:"positive,omitempty"`
	Members    int      `json:"members,omitempty"`
	Found      []string `json:"found,omitempty"`
	Member     []bool   `json:"member,omitempty"`
}

// Precision is a recover's share of positives that are members, 0 for
// none.
func (a AttackResult) Precision() float64 {
	if a.Positive == 0 {
		return 0
	}
	return float64(a.Members) / float64(a.Positive)
}

// attack runs a on the panel's filter; a forge's key is answered as a
// query too, which it returns.
func (pn *panel) attack(a Attack) (AttackResult, *Query, error) {
	switch a.Kind {
	case AttackForge:
		return pn.forge()
	case AttackFill:
		r, err := pn.fill(a.Keys)
		return r, nil, err
	default:
		r, err := pn.recover(a.List)
		return r, nil, err
	}
}

// theoryRate is the filter's theory rate as it stands, typed keys in.
func (pn *panel) theoryRate() float64 {
	return pn.r.Variant.Theory(pn.f, pn.r.N+uint64(len(pn.typed))).Rate
}

// forge finds a key the filter answers maybe for and that is no member.
func (pn *panel) forge() (AttackResult, *Query, error) {
	out := AttackResult{Kind: AttackForge}
	if p := pn.theoryRate(); p > 0 {
		out.Expected = 1 / p
	}
	if pn.r.Fault == core.WeakHash {
		for _, t := range pn.typed {
			if twin, ok := WeakTwin(string(t)); ok && !pn.isTyped([]byte(twin)) {
				out.Tries, out.Algebraic, out.Twin = 1, true, string(t)
				q, err := pn.query(twin)
				return out, &q, err
			}
		}
	}
	pn.pr.Total += MaxForgeTries
	key, tries, err := Forge(pn.f, MaxForgeTries, pn.isTyped, pn.pr.Tick)
	out.Tries = tries
	if err != nil {
		return out, nil, err
	}
	if key == "" {
		return out, nil, fmt.Errorf("try: none of %d forged candidates is a false positive of this filter (expected about %.3g tries at its theory rate)", MaxForgeTries, out.Expected)
	}
	q, err := pn.query(key)
	return out, &q, err
}

// Forge is the search of a forge with the hash key in hand: it tries
// ForgeKey(0), ForgeKey(1), ... against f, skipping those member reports
// true for (member may be nil), until one answers maybe or limit
// candidates are tried. It returns that key, "" when none answered, and
// the candidates tried, skipped ones included. At rate p the tries are
// geometric with mean 1/p. step, if not nil, is called after each
// candidate, and an error from it stops the search and is returned.
func Forge(f core.Membership, limit int, member func([]byte) bool, step func() error) (key string, tries int, err error) {
	for i := 0; i < limit; i++ {
		key := ForgeKey(i)
		kb := []byte(key)
		maybe, _ := f.Contains(kb)
		if step != nil {
			if err := step(); err != nil {
				return "", i + 1, err
			}
		}
		if maybe && (member == nil || !member(kb)) {
			return key, i + 1, nil
		}
	}
	return "", limit, nil
}

// ForgeKey is the i-th candidate of a forge, FillKey of a fill: short,
// printable and distinct from every word, PIN and id of the candidate
// lists, and from the lab's generated keys of 16 bytes until i reaches
// 36^9.
func ForgeKey(i int) string { return "forged-" + strconv.FormatUint(uint64(i), 36) }
func FillKey(i int) string  { return fillPrefix + strconv.FormatUint(uint64(i), 36) }

const fillPrefix = "filler-"

// WeakTwin is a key of key's length with the same 31*h + c weight, so the
// same weak hash under every seed: two neighbouring bytes (a, b) become
// (a+1, b-31), both printable ASCII. It reports false for a key with no
// such pair (one shorter than two bytes, or not printable).
func WeakTwin(key string) (string, bool) {
	b := []byte(key)
	for i := 0; i+1 < len(b); i++ {
		if b[i] >= 0x20 && b[i] < 0x7e && b[i+1] >= 0x21+31 && b[i+1] < 0x7f {
			b[i]++
			b[i+1] -= 31
			return string(b), true
		}
	}
	return "", false
}

// fill crafts keys, each the candidate of FillTries that turns on the most
// positions, inserts them in turn and says what they turned on. The Bloom
// layouts only: a cuckoo or fuse key takes a fixed share of the table.
func (pn *panel) fill(keys int) (AttackResult, error) {
	if !pn.r.Variant.Bloom() {
		return AttackResult{}, fmt.Errorf("try: a fill crafts keys that turn on many bits, which applies to the Bloom layouts, not to the %s filter", pn.r.Variant)
	}
	f := pn.f
	m := float64(f.M())
	out := AttackResult{Kind: AttackFill, FillBefore: float64(f.SetBits()) / m}
	pn.pr.Total += keys * FillTries
	c := Crafter{Member: pn.isTyped, Step: pn.pr.Tick}
	for range keys {
		before := c.Next
		best, _, err := c.Craft(f)
		out.Tries += c.Next - before
		if err != nil {
			return out, err
		}
		set := f.SetBits()
		f.Add([]byte(best))
		pn.typed = append(pn.typed, []byte(best))
		out.Keys = append(out.Keys, best)
		out.New = append(out.New, int(f.SetBits()-set))
	}
	out.FillAfter = float64(f.SetBits()) / m
	// Random keys turn on each of their k positions with the chance it is
	// still off: from fill f0, the zeros after c keys are (1-f0) m
	// (1 - 1/m)^(kc).
	zeros := (1 - out.FillBefore) * m * math.Pow(1-1/m, float64(f.K()*keys))
	out.RandomNew = (1-out.FillBefore)*m - zeros
	return out, nil
}

// Crafter crafts the keys of a fill for an attacker who computes positions
// with the hash key in hand: each key is the candidate, of FillTries from
// FillKey(Next) on, that turns on the most positions still off, so the
// array fills in about m/k keys where random keys take m ln(m)/k.
type Crafter struct {
	// Next is the candidate the next Craft weighs first; each Craft moves
	// it past the candidates it weighed.
	Next int
	// Member, if not nil, reports keys already in the filter, which are
	// passed over.
	Member func([]byte) bool
	// Step, if not nil, is called after each candidate weighed, and an
	// error from it stops the Craft and is returned.
	Step func() error

	pos []uint64
	buf []byte
}

// Craft returns the best of the next FillTries candidates against f, a
// Bloom layout, and how many of its positions are off; it stops weighing
// at one whose k positions are all off and distinct. It does not insert
// the key. Craft returns "" and -1 when every candidate was a member.
func (c *Crafter) Craft(f core.Membership) (key string, fresh int, err error) {
	fresh = -1
	for range FillTries {
		c.buf = strconv.AppendUint(append(c.buf[:0], fillPrefix...), uint64(c.Next), 36)
		c.Next++
		if c.Step != nil {
			if err := c.Step(); err != nil {
				return key, fresh, err
			}
		}
		if c.Member != nil && c.Member(c.buf) {
			continue
		}
		c.pos = f.Positions(c.pos, c.buf)
		off := 0
		for i, j := range c.pos {
			if !isOn(f, j) && !contains(c.pos[:i], j) {
				off++
			}
		}
		if off > fresh {
			key, fresh = string(c.buf), off
		}
		if off == len(c.pos) {
			break
		}
	}
	return key, fresh, nil
}

// recover tests every candidate of list against the filter and counts
// the members among those that test positive. A generated member is only
// ever a key of KeyBytes bytes, so only positives of that length are
// looked for among them, in one pass.
func (pn *panel) recover(list string) (AttackResult, error) {
	cands, err := Candidates(list)
	if err != nil {
		return AttackResult{}, err
	}
	out := AttackResult{Kind: AttackRecover, List: list, Candidates: len(cands)}
	pn.pr.Total += len(cands)
	asBytes := make([][]byte, len(cands))
	for i, c := range cands {
		asBytes[i] = []byte(c)
	}
	found, err := Recover(pn.f, asBytes, pn.pr.Tick)
	if err != nil {
		return out, err
	}
	positives := make([]string, len(found))
	maybeGenerated := map[string]int{} // a positive of KeyBytes bytes: its place among positives
	isMember := make([]bool, len(found))
	for i, c := range found {
		positives[i] = cands[c]
		if len(positives[i]) == pn.p.KeyBytes {
			maybeGenerated[positives[i]] = i
		}
		isMember[i] = pn.isTyped(asBytes[c])
	}
	if len(maybeGenerated) > 0 {
		err := pn.members(func(_ uint64, batch [][]byte) bool {
			for _, k := range batch {
				if i, ok := maybeGenerated[string(k)]; ok {
					isMember[i] = true
				}
			}
			return true
		})
		if err != nil {
			return out, err
		}
	}
	out.Positive = len(positives)
	// The members found come first in the list shown, then the others.
	for _, members := range []bool{true, false} {
		for i, c := range positives {
			if isMember[i] != members {
				continue
			}
			if members {
				out.Members++
			}
			if len(out.Found) < keys.MaxTyped {
				out.Found = append(out.Found, c)
				out.Member = append(out.Member, members)
			}
		}
	}
	out.Expected = pn.theoryRate() * float64(out.Candidates-out.Members)
	return out, nil
}

// Recover is the membership inference of a recover: it tests every
// candidate against f and returns the indices, in order, of those that
// answer maybe. A filter has no false negatives, so every member on the
// list is among them, beside about p of the others. step as for Forge,
// after each candidate.
func Recover(f core.Membership, cands [][]byte, step func() error) ([]int, error) {
	var found []int
	for i, c := range cands {
		maybe, _ := f.Contains(c)
		if step != nil {
			if err := step(); err != nil {
				return found, err
			}
		}
		if maybe {
			found = append(found, i)
		}
	}
	return found, nil
}
