package try

import (
	"encoding/hex"
	"fmt"
	"math/bits"

	"github.com/bloomlab/bloomlab/core/keys"
	"github.com/bloomlab/bloomlab/core/sim"

	"github.com/bloomlab/bloomlab/core"
)

// MaxCulprits is how many generated culprits a position lists; the rest
// are counted.
const MaxCulprits = 8

// The verdicts of a query.
const (
	VerdictNo            = "no"
	VerdictMember        = "member"
	VerdictFalsePositive = "false-positive"
	VerdictFalseNegative = "false-negative"
)

// Request is a key panel request: the lab's params, the keys to insert
// after the generated members, in order, and the keys to query. Of the
// params Queries and PresentShare are not used, but must be valid. With
// Explain, every typed key comes with its arithmetic (Explain).
//
// Setters are positions to say who set: for each, the inserted keys that
// map to it (Result.Setters), found as a false positive's culprits are.
type Request struct {
	Params  sim.Params `json:"params"`
	Insert  []string   `json:"insert,omitempty"`
	Query   []string   `json:"query,omitempty"`
	Explain bool       `json:"explain,omitempty"`
	Setters []uint64   `json:"setters,omitempty"`
	// Attack, if set, attacks the filter once the queries are answered
	// (attack.go); a forged key is answered as one more query.
	Attack *Attack `json:"attack,omitempty"`
}

// Result is what the key panel shows: the filter's layout and shape,
// one Insert a typed insert and one Query a query, in order.
type Result struct {
	Variant core.Variant `json:"variant"`
	Fault   core.Fault   `json:"fault"`
	// M is the filter's positions, Unit what one is, K the positions a
	// key maps to, N the generated members.
	M    uint64 `json:"m"`
	K    int    `json:"k"`
	N    uint64 `json:"n"`
	Unit string `json:"unit"`
	// BuildError is a static filter's failed construction: it then
	// answers maybe for every key.
	BuildError string   `json:"buildError,omitempty"`
	Inserts    []Insert `json:"inserts"`
	Queries    []Query  `json:"queries"`
	// Setters are the keys behind each position the request asked
	// about, in its order: for a bit or counter the keys that map to it,
	// for a cuckoo slot the keys whose fingerprint it holds and whose
	// buckets include it, for a fuse cell the keys whose cells include it.
	Setters []Culprit `json:"setters,omitempty"`
	// Attack is what the request's attack found.
	Attack *AttackResult `json:"attack,omitempty"`
	// Links is a scalable filter's chain once the typed keys are in.
	Links []core.ChainLink `json:"links,omitempty"`
}

// LinkAt is the link of r.Links position j falls in, -1 without links.
func (r Result) LinkAt(j uint64) int {
	i := len(r.Links) - 1
	for i > 0 && r.Links[i].Start > j {
		i--
	}
	return i
}

// Insert is one typed insert.
type Insert struct {
	Key string `json:"key"`
	// Positions are the key's positions in probe order (a cuckoo key's
	// eight slots, a fuse key's three cells).
	Positions []uint64 `json:"positions"`
	// New[i] reports that this insert turned Positions[i] on: zero
	// before, nonzero after. A position a key probes twice is new at its
	// first probe only, so the new positions count the nonzero positions
	// the insert added. A cuckoo insert turns on at most the one empty
	// slot its fingerprint went to; none if it displaced another. A static
	// (fuse) filter is solved once from the whole key set, so no insert
	// turns a cell on by itself: New is nil.
	New []bool `json:"new,omitempty"`
	// Lost[i], with a fault, reports that Positions[i] is past the
	// filter's storage: the write went nowhere.
	Lost []bool `json:"lost,omitempty"`
	// Block is the blocked filter's 512-bit block the key's bits are in.
	Block *uint64 `json:"block,omitempty"`
	// Counters are the counting filter's counters at Positions after the
	// insert.
	Counters []uint8 `json:"counters,omitempty"`
	// Explain is the arithmetic from the key to Positions, when asked
	// for and the filter has one (not a faulty filter's).
	Explain *core.Explanation `json:"explain,omitempty"`
}

// Query is one query and why the filter answered as it did.
type Query struct {
	Key    string  `json:"key"`
	Probes []Probe `json:"probes"`
	// Fingerprint is the query's fingerprint in the cuckoo and fuse
	// filters, which store fingerprints.
	Fingerprint *uint32 `json:"fingerprint,omitempty"`
	Verdict     string  `json:"verdict"`
	// FirstZero is the 1-based probe whose zero proved "no" (Bloom
	// layouts).
	FirstZero int `json:"firstZero,omitempty"`
	// Member is "typed" or "generated #i" for a member.
	Member   string    `json:"member,omitempty"`
	Culprits []Culprit `json:"culprits,omitempty"`
	// Explain is as Insert's.
	Explain *core.Explanation `json:"explain,omitempty"`
}

// Probe is one position a query reads, in probe order.
type Probe struct {
	Position uint64 `json:"position"`
	// Set reports a nonzero position: a bit on, a counter above zero, an
	// occupied slot, a nonzero cell.
	Set bool `json:"set"`
	// Counter is a counting filter's counter; Value a cuckoo slot's
	// fingerprint or a fuse cell's value.
	Counter *uint8  `json:"counter,omitempty"`
	Value   *uint32 `json:"value,omitempty"`
}

// Culprit is the inserted keys to blame for one position of a false
// positive (see the layouts above).
type Culprit struct {
	Position  uint64      `json:"position"`
	Typed     []string    `json:"typed,omitempty"`
	Generated []Generated `json:"generated,omitempty"`
	// More counts the generated culprits past the MaxCulprits listed.
	More uint64 `json:"more,omitempty"`
}

// Generated is a generated member: its index and the hex of its first
// eight bytes, which alone tell generated keys apart (keys.go).
type Generated struct {
	Index uint64 `json:"index"`
	Hex   string `json:"hex"`
}

// Validate checks the params and the typed keys: at most core.MaxTypedKeys to
// insert and as many to query, each one core.CheckTypedKeys accepts. The error
// names the key by list and place.
func (req Request) Validate() error {
	for _, list := range []struct {
		name string
		keys []string
	}{{"insert", req.Insert}, {"query", req.Query}} {
		if len(list.keys) > keys.MaxTyped {
			return fmt.Errorf("try: %d keys to %s, at most %d", len(list.keys), list.name, keys.MaxTyped)
		}
	}
	if len(req.Setters) > keys.MaxTyped {
		return fmt.Errorf("try: %d positions to find the setters of, at most %d", len(req.Setters), keys.MaxTyped)
	}
	if req.Attack != nil {
		if err := req.Attack.check(len(req.Insert)); err != nil {
			return err
		}
	}
	if err := keys.CheckTyped("insert", req.Insert); err != nil {
		return err
	}
	if err := keys.CheckTyped("query", req.Query); err != nil {
		return err
	}
	return req.Params.Validate()
}

// Run builds the request's filter, inserts the typed keys and answers the
// queries (see the top of this file). step is called between chunks of
// work as in sim.RunSteps, nil for none; its error stops Run and is
// returned. The same request gives the same result on every platform.
func Run(req Request, step sim.Step) (Result, error) {
	pn, inserts, err := newPanel(req, step)
	if err != nil {
		return Result{}, err
	}
	res := pn.result()
	res.Inserts = inserts
	res.Queries = make([]Query, 0, len(req.Query))
	for _, key := range req.Query {
		q, err := pn.query(key)
		if err != nil {
			return Result{}, err
		}
		res.Queries = append(res.Queries, q)
	}
	for _, pos := range req.Setters {
		probe := Probe{Position: pos, Value: pn.value(pos)}
		qfp := uint32(0)
		if probe.Value != nil {
			qfp = *probe.Value
		}
		c, err := pn.culprits(qfp, []Probe{probe})
		if err != nil {
			return Result{}, err
		}
		setters := Culprit{Position: pos}
		if len(c) > 0 {
			setters = c[0]
		}
		res.Setters = append(res.Setters, setters)
	}
	if req.Attack != nil {
		a, q, err := pn.attack(*req.Attack)
		if err != nil {
			return Result{}, err
		}
		res.Attack = &a
		if q != nil {
			res.Queries = append(res.Queries, *q)
		}
	}
	if req.Explain {
		for i := range res.Inserts {
			res.Inserts[i].Explain = pn.explain(res.Inserts[i].Key)
		}
		for i := range res.Queries {
			res.Queries[i].Explain = pn.explain(res.Queries[i].Key)
		}
	}
	return res, nil
}

// explain is key's arithmetic in the panel's filter, nil for a faulty
// filter's.
func (pn *panel) explain(key string) *core.Explanation {
	if e, ok := core.Explain(pn.f, []byte(key)); ok {
		return &e
	}
	return nil
}

// FindFalsePositive queries the CommonWords in order against the filter
// of req (its Insert keys inserted too; its Query keys are not used) and
// returns the first false positive, a word that is no member and answers
// maybe, explained as Run would, and how many words it tried. If none is,
// the error says how many were tried. The request is validated whole,
// Query included. step is as in Run.
func FindFalsePositive(req Request, step sim.Step) (Query, int, error) {
	if err := req.Validate(); err != nil {
		return Query{}, 0, err
	}
	req.Query = nil
	pn, _, err := newPanel(req, step)
	if err != nil {
		return Query{}, 0, err
	}
	words := keys.CommonWords()
	for i, w := range words {
		if maybe, _ := pn.f.Contains([]byte(w)); !maybe {
			continue
		}
		if member, err := pn.member([]byte(w)); err != nil {
			return Query{}, i + 1, err
		} else if member != "" {
			continue
		}
		q, err := pn.query(w)
		if req.Explain {
			q.Explain = pn.explain(w)
		}
		return q, i + 1, err
	}
	return Query{}, len(words), fmt.Errorf("try: none of the %d common words is a false positive of this filter; every one meets a zero or is a member", len(words))
}

// panel is a filter filled for the key panel, with the buffers its scans
// reuse.
type panel struct {
	p     sim.Params
	r     sim.Result
	f     core.Membership
	typed [][]byte // the distinct typed inserts, in order
	// typedLink is, for a scalable filter, the link each typed insert
	// went into, -1 for one the chain already said maybe to.
	typedLink []int
	pr        *sim.Pace
	keys      [core.BatchKeys][]byte
	pos       []uint64
}

// newPanel validates req, builds its filter, inserts the generated members
// as sim.Run does and then the typed keys, and seals a static filter.
func newPanel(req Request, step sim.Step) (*panel, []Insert, error) {
	if err := req.Validate(); err != nil {
		return nil, nil, err
	}
	r, err := req.Params.Start()
	if err != nil {
		return nil, nil, err
	}
	p := req.Params
	pn := &panel{p: p, r: r, f: r.Filter, pr: &sim.Pace{Step: step,
		Total: p.Items*p.DuplicatePasses + len(req.Insert) + len(req.Query)}}
	for range p.DuplicatePasses {
		if err := pn.members(func(_ uint64, keys [][]byte) bool { core.AddBatch(pn.f, keys); return true }); err != nil {
			return nil, nil, err
		}
	}
	_, static := pn.f.(core.Sealer)
	inserts := make([]Insert, 0, len(req.Insert))
	for _, key := range req.Insert {
		kb := []byte(key)
		in := Insert{Key: key}
		chain, _ := pn.f.(core.Linked)
		var held uint64
		if chain != nil {
			held = chain.Keys()
		}
		if !static {
			in = pn.insert(key, kb)
		} else {
			pn.f.Add(kb)
		}
		inserts = append(inserts, in)
		if !pn.isTyped(kb) {
			pn.typed = append(pn.typed, kb)
			if chain != nil {
				l := -1
				if chain.Keys() > held {
					l = chain.Links() - 1
				}
				pn.typedLink = append(pn.typedLink, l)
			}
		}
		if err := pn.pr.Tick(); err != nil {
			return nil, nil, err
		}
	}
	if s, ok := pn.f.(core.Sealer); ok {
		if err := s.Seal(); err != nil {
			pn.r.BuildError = err.Error()
		}
	}
	if static {
		for i := range inserts {
			inserts[i].Positions = pn.f.Positions(nil, []byte(inserts[i].Key))
		}
	}
	return pn, inserts, nil
}

func (pn *panel) result() Result {
	r := Result{Variant: pn.r.Variant, Fault: pn.r.Fault, M: pn.f.M(), K: pn.f.K(), N: pn.r.N,
		Unit: pn.r.Variant.Unit(), BuildError: pn.r.BuildError}
	if chain, ok := pn.f.(core.Linked); ok {
		r.Links = chain.Chain()
	}
	return r
}

// insert adds one typed key to a filter that is not static and says what
// it changed.
func (pn *panel) insert(key string, kb []byte) Insert {
	f := pn.f
	in := Insert{Key: key, Positions: f.Positions(nil, kb)}
	before := make([]bool, len(in.Positions))
	for i, j := range in.Positions {
		before[i] = pn.on(j)
	}
	f.Add(kb)
	in.New = make([]bool, len(in.Positions))
	for i, j := range in.Positions {
		in.New[i] = !before[i] && pn.on(j) && !contains(in.Positions[:i], j)
	}
	if l, ok := f.(core.Lossy); ok {
		in.Lost = make([]bool, len(in.Positions))
		for i, j := range in.Positions {
			in.Lost[i] = l.Lost(j)
		}
	}
	if b, ok := f.(core.Blocks); ok && len(in.Positions) > 0 {
		block := b.Block(in.Positions[0])
		in.Block = &block
	}
	if c, ok := f.(core.Counters); ok {
		in.Counters = make([]uint8, len(in.Positions))
		for i, j := range in.Positions {
			in.Counters[i] = c.Counter(j)
		}
	}
	return in
}

// on reports whether position j is nonzero as the filter reads it.
func (pn *panel) on(j uint64) bool { return isOn(pn.f, j) }

// isOn reports whether position j of f is nonzero as f reads it: a lossy
// filter may read past m (see Lossy), where IsSet stops.
func isOn(f core.Membership, j uint64) bool {
	if l, ok := f.(core.Lossy); ok {
		return l.Reads(j)
	}
	return f.IsSet(j)
}

func contains(s []uint64, v uint64) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func (pn *panel) isTyped(kb []byte) bool {
	for _, t := range pn.typed {
		if string(t) == string(kb) {
			return true
		}
	}
	return false
}

// members hands do the generated members, a batch at a time with the
// index of its first key, counting each in the progress; do returns false
// to stop.
func (pn *panel) members(do func(first uint64, keys [][]byte) bool) error {
	n := uint64(pn.p.Items)
	for first := uint64(0); first < n; {
		b := int(min(core.BatchKeys, n-first, uint64(pn.pr.Room())))
		keys := pn.keys[:b]
		core.Keys(keys, core.Members, first, pn.p.Seed, pn.p.KeyBytes)
		more := do(first, keys)
		first += uint64(b)
		if err := pn.pr.Advance(b); err != nil {
			return err
		}
		if !more {
			return nil
		}
	}
	return nil
}

// member returns "typed" or "generated #i" if kb was inserted, else "".
// Generated keys are KeyBytes long, so only a key of that length is
// compared with them, all of them if need be.
func (pn *panel) member(kb []byte) (string, error) {
	if pn.isTyped(kb) {
		return "typed", nil
	}
	if len(kb) != pn.p.KeyBytes {
		return "", nil
	}
	found := ""
	pn.pr.Total += pn.p.Items
	err := pn.members(func(first uint64, keys [][]byte) bool {
		for j, k := range keys {
			if string(k) == string(kb) {
				found = fmt.Sprintf("generated #%d", first+uint64(j))
				return false
			}
		}
		return true
	})
	return found, err
}

// query answers one key and explains the answer.
func (pn *panel) query(key string) (Query, error) {
	f, kb := pn.f, []byte(key)
	q := Query{Key: key}
	pn.pos = f.Positions(pn.pos, kb)
	counters, _ := f.(core.Counters)
	for _, j := range pn.pos {
		pr := Probe{Position: j, Set: pn.on(j)}
		if counters != nil {
			c := counters.Counter(j)
			pr.Counter = &c
		}
		pr.Value = pn.value(j)
		q.Probes = append(q.Probes, pr)
	}
	if fp, ok := pn.fingerprint(kb); ok {
		q.Fingerprint = &fp
	}
	maybe, _ := f.Contains(kb)
	member, err := pn.member(kb)
	if err != nil {
		return Query{}, err
	}
	q.Member = member
	switch {
	case maybe && member != "":
		q.Verdict = VerdictMember
	case member != "":
		q.Verdict = VerdictFalseNegative
	case !maybe:
		q.Verdict = VerdictNo
	default:
		q.Verdict = VerdictFalsePositive
		qfp, _ := pn.fingerprint(kb)
		if q.Culprits, err = pn.culprits(qfp, pn.answering(q.Probes)); err != nil {
			return Query{}, err
		}
	}
	if !maybe && pn.r.Variant.Bloom() {
		// A chain's query reads every link, so no one zero answers it.
		for i, p := range q.Probes {
			if !p.Set {
				q.FirstZero = i + 1
				break
			}
		}
	}
	if err := pn.pr.Tick(); err != nil {
		return Query{}, err
	}
	return q, nil
}

// answering is, for a scalable filter, the probes of the newest link
// whose probes are all set, the link that said maybe; for the other
// layouts every probe.
func (pn *panel) answering(probes []Probe) []Probe {
	chain, ok := pn.f.(core.Linked)
	if !ok {
		return probes
	}
	for l := chain.Links() - 1; l >= 0; l-- {
		var in []Probe
		all := true
		for _, p := range probes {
			if chain.LinkAt(p.Position) == l {
				in = append(in, p)
				all = all && p.Set
			}
		}
		if all && len(in) > 0 {
			return in
		}
	}
	return probes
}

// value is the value position j holds in a layout whose positions hold
// values (see Valued), nil for the others.
func (pn *panel) value(j uint64) *uint32 {
	if vf, ok := pn.f.(core.Valued); ok {
		if v, ok := vf.Value(j); ok {
			return &v
		}
	}
	return nil
}

// fingerprint is a key's fingerprint in the layouts that store them.
func (pn *panel) fingerprint(kb []byte) (uint32, bool) {
	if fp, ok := pn.f.(core.Fingerprinted); ok {
		return fp.KeyFingerprint(kb)
	}
	return 0, false
}

// culprits scans the typed keys and every generated member for the keys
// to blame for a false positive (see the package doc).
// In a layout of slots (see Variant.Slots), qfp is the fingerprint to
// blame keys for: the query's, or the one a slot holds.
func (pn *panel) culprits(qfp uint32, probes []Probe) ([]Culprit, error) {
	slots := pn.r.Variant.Slots()
	targets := blameTargets(probes, slots, qfp)
	out := make([]Culprit, len(targets))
	for i, t := range targets {
		out[i].Position = t
	}
	m := pn.newBlamer(targets, slots, qfp)
	for i, t := range pn.typed {
		in := 0
		if m.chain != nil {
			in = pn.typedLink[i]
		}
		if m.hits(t, in) {
			m.blame(out, func(c *Culprit) { c.Typed = append(c.Typed, string(t)) })
		}
	}
	if len(targets) == 0 {
		return out, nil
	}
	if err := pn.blameGenerated(m, out); err != nil {
		return nil, err
	}
	return out, nil
}

// blameTargets is the positions to blame keys for, each once: at most
// MaxK = 64 in the Bloom layouts, 128 for a Ribbon filter of w = 128. In
// a layout of slots only the slots holding qfp count.
func blameTargets(probes []Probe, slots bool, qfp uint32) []uint64 {
	var targets []uint64
	for _, p := range probes {
		if contains(targets, p.Position) || slots && (p.Value == nil || *p.Value != qfp) {
			continue
		}
		targets = append(targets, p.Position)
	}
	return targets
}

// blameGenerated scans every generated member, the long part of a
// culprit search (one tick of progress a member), and adds those m hits
// to out, at most MaxCulprits a position, the rest counted.
func (pn *panel) blameGenerated(m *blamer, out []Culprit) error {
	pn.pr.Total += pn.p.Items
	return pn.members(func(first uint64, keys [][]byte) bool {
		for j, k := range keys {
			in := 0
			if m.chain != nil {
				in = m.chain.TurnLink(first + uint64(j))
			}
			if !m.hits(k, in) {
				continue
			}
			m.blame(out, func(c *Culprit) {
				if len(c.Generated) < MaxCulprits {
					c.Generated = append(c.Generated, Generated{Index: first + uint64(j), Hex: hex.EncodeToString(k[:8])})
				} else {
					c.More++
				}
			})
		}
		return true
	})
}

// blamer tests keys against a culprit search's targets. It is a type,
// not a loop body, because the same test runs over the typed keys and
// over every generated member, and its filters are built once.
type blamer struct {
	pn      *panel
	targets []uint64
	slots   bool
	qfp     uint32
	// sig has bit t%64 set for each target t: most positions miss it, and
	// one test turns them away. A Ribbon query's targets are a run of up to
	// w = 64 or 128 rows, which fill sig; lo and hi, the least and greatest
	// target, turn away the rows outside that run.
	sig, lo, hi uint64
	// chain is a scalable filter's chain, nil for the other layouts.
	chain core.Linked
	// mask is the targets the last key tested hit: bit i%64 of word i/64
	// for targets[i], as many words as it takes.
	mask []uint64
}

// newBlamer is a blamer for targets in pn's filter.
func (pn *panel) newBlamer(targets []uint64, slots bool, qfp uint32) *blamer {
	m := &blamer{pn: pn, targets: targets, slots: slots, qfp: qfp, lo: ^uint64(0)}
	for _, t := range targets {
		m.sig |= 1 << (t & 63)
		m.lo, m.hi = min(m.lo, t), max(m.hi, t)
	}
	m.chain, _ = pn.f.(core.Linked)
	m.mask = make([]uint64, (len(targets)+63)/64)
	return m
}

// hits sets in mask the bits of the targets key's positions include and
// reports whether any is; in a layout of slots a key counts only if its
// fingerprint is the query's.
// A key of a scalable chain set bits only in the link it went into
// (in), the link that was last at its turn; -1 for none.
func (m *blamer) hits(key []byte, in int) bool {
	clear(m.mask)
	if m.chain != nil && in < 0 {
		return false
	}
	if m.slots {
		if fp, _ := m.pn.fingerprint(key); fp != m.qfp {
			return false
		}
	}
	pos := m.pn.f.Positions(m.pn.pos, key)
	m.pn.pos = pos
	hit := false
	for _, j := range pos {
		if m.sig>>(j&63)&1 == 0 || j < m.lo || j > m.hi || m.chain != nil && m.chain.LinkAt(j) != in {
			continue
		}
		for ti, t := range m.targets {
			if j == t {
				m.mask[ti/64] |= 1 << (ti % 64)
				hit = true
			}
		}
	}
	return hit
}

// blame calls add with the culprit of out for each target the last key
// hit, after hits.
func (m *blamer) blame(out []Culprit, add func(c *Culprit)) {
	for w, bitsOf := range m.mask {
		for ; bitsOf != 0; bitsOf &= bitsOf - 1 {
			add(&out[64*w+bits.TrailingZeros64(bitsOf)])
		}
	}
}
