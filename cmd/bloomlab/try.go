//go:build !wasm

package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/bloomlab/bloomlab/core/keys"
	"github.com/bloomlab/bloomlab/core/sim"

	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/try"
)

// runTry is the key panel on the command line: the lab's filter (the
// simulate flags' generated keys), then --insert's keys, then --query's
// answered one by one.
//
// Keys are separated by commas. A comma inside a key is written \, and a
// backslash \\ (any other backslash stands for itself); keys are printed
// the same way, so a printed key can be pasted back.
func runTry(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("try")
	params := filterFlags(fs)
	f := defineTryFlags(fs)
	if err := parse(fs, args); err != nil {
		return fail("try", fs, err, stderr)
	}
	p, err := params("0", "0")
	if err != nil {
		return fail("try", fs, err, stderr)
	}
	req, err := f.request(p)
	if err != nil {
		return fail("try", fs, err, stderr)
	}
	out, interrupted, err := answerTry(ctx, req, *f.findFP, stderr)
	if interrupted {
		return statusInterrupted
	}
	if err != nil {
		return fail("try", fs, badFlag("%v", err), stderr)
	}
	if *f.asJSON {
		writeJSON(stdout, out)
		return 0
	}
	writeTry(stdout, out)
	return 0
}

// tryFlags is the try command's own flags, beside the filter's.
type tryFlags struct {
	insert, query, who, recover    *string
	explain, findFP, forge, asJSON *bool
	fill                           *int
}

// defineTryFlags defines the try command's own flags on fs.
func defineTryFlags(fs *flag.FlagSet) tryFlags {
	var f tryFlags
	f.insert = fs.String("insert", "", `keys to insert after the generated ones, comma-separated (\, for a comma in a key, \\ for a backslash)`)
	f.query = fs.String("query", "", `keys to query, comma-separated (\, for a comma in a key, \\ for a backslash)`)
	f.who = fs.String("who", "", fmt.Sprintf("positions to say who set, comma-separated (at most %d): the inserted keys that map to each", keys.MaxTyped))
	f.explain = fs.Bool("explain", false, "show each typed key's arithmetic: its SipHash-2-4 halves h1 and h2 and every probe's value and reduction to a position")
	f.findFP = fs.Bool("find-fp", false, fmt.Sprintf("also try the %d built-in common English words in order and show the first false positive", len(keys.CommonWords())))
	f.forge = fs.Bool("forge", false, fmt.Sprintf("attack as one who knows the seed: try up to %d candidates offline until one is a false positive (under --fault weak-hash, a typed key's twin)", try.MaxForgeTries))
	f.fill = fs.Int("fill", 0, fmt.Sprintf("attack as one who knows the seed: craft this many keys (with --insert's, at most %d), each the best of %d candidates at turning bits on, and insert them", keys.MaxTyped, try.FillTries))
	f.recover = fs.String("recover", "", "attack with a list of candidates ("+strings.Join(try.CandidateLists, ", ")+"): test each against the filter and count the members among those that test positive")
	f.asJSON = fs.Bool("json", false, "print JSON")
	return f
}

// request is the key panel request the parsed flags ask for on the
// filter p, or the usage error that refuses them. The attack is checked
// with the request before --who's positions join it, so an attack's
// error comes first, then --who's, then the typed keys'.
func (f tryFlags) request(p sim.Params) (try.Request, error) {
	req := try.Request{Params: p, Insert: keys.Split(*f.insert), Query: keys.Split(*f.query), Explain: *f.explain}
	attack, err := f.attack()
	if err != nil {
		return req, err
	}
	req.Attack = attack
	if req.Attack != nil {
		if err := req.Validate(); err != nil {
			return req, badFlag("%s", core.Message(err))
		}
	}
	if req.Setters, err = whoPositions(*f.who); err != nil {
		return req, err
	}
	for _, list := range []struct {
		flag string
		keys []string
	}{{"--insert", req.Insert}, {"--query", req.Query}} {
		if len(list.keys) > keys.MaxTyped {
			return req, badFlag("%s: %d keys, at most %d", list.flag, len(list.keys), keys.MaxTyped)
		}
		if err := keys.CheckTyped(list.flag, list.keys); err != nil {
			return req, badFlag("%s", core.Message(err))
		}
	}
	return req, nil
}

// attack is the one attack --forge, --fill and --recover ask for, nil
// for none; two or three at once are refused.
func (f tryFlags) attack() (*try.Attack, error) {
	var chosen *try.Attack
	attacks := 0
	for _, a := range []struct {
		on   bool
		what try.Attack
	}{
		{*f.forge, try.Attack{Kind: try.AttackForge}},
		{*f.fill != 0, try.Attack{Kind: try.AttackFill, Keys: *f.fill}},
		{*f.recover != "", try.Attack{Kind: try.AttackRecover, List: *f.recover}},
	} {
		if a.on {
			attacks++
			chosen = &a.what
		}
	}
	if attacks > 1 {
		return nil, badFlag("--forge, --fill and --recover are three attacks: give one at a time")
	}
	return chosen, nil
}

// whoPositions is --who's comma-separated positions, nil for none, each a
// whole number below core.MaxM and at most keys.MaxTyped of them.
func whoPositions(who string) ([]uint64, error) {
	if who == "" {
		return nil, nil
	}
	parts := strings.Split(who, ",")
	if len(parts) > keys.MaxTyped {
		return nil, badFlag("--who: %d positions, at most %d", len(parts), keys.MaxTyped)
	}
	var out []uint64
	for _, part := range parts {
		pos, err := wholeIn("who", strings.TrimSpace(part), 0, core.MaxM-1)
		if err != nil {
			return nil, err
		}
		out = append(out, pos)
	}
	return out, nil
}

// answerTry runs the request, then with findFP the common words' search
// for a false positive, under one progress line. interrupted is Ctrl-C,
// which the caller reports; err is the request's own failure.
func answerTry(ctx context.Context, req try.Request, findFP bool, stderr io.Writer) (out tryOutput, interrupted bool, err error) {
	pr := newProgress(ctx, "try", stderr)
	out.Result, err = try.Run(req, pr.step)
	if err == nil && findFP {
		// Ctrl-C's error is caught by finish below; any other error is
		// the search's answer: no word is a false positive.
		pr.stage("trying common words")
		q, tried, ferr := try.FindFalsePositive(req, pr.step)
		out.FindFalsePositive = &findFalsePositive{Query: &q, Tried: tried}
		if ferr != nil {
			out.FindFalsePositive.Query, out.FindFalsePositive.None = nil, core.Message(ferr)
		}
	}
	if pr.finish() {
		return out, true, nil
	}
	return out, false, err
}

// tryOutput is try.Result, with --find-fp's search when asked: without
// it the JSON is try.Result's own.
type tryOutput struct {
	try.Result
	FindFalsePositive *findFalsePositive `json:"findFalsePositive,omitempty"`
}

// findFalsePositive is --find-fp's answer: the false positive and the
// words tried to find it, or why there is none.
type findFalsePositive struct {
	Query *try.Query `json:"query,omitempty"`
	Tried int        `json:"tried"`
	None  string     `json:"none,omitempty"`
}

func writeTry(w io.Writer, out tryOutput) {
	r := out.Result
	unit := r.Unit
	fmt.Fprintf(w, "%-20s %s (fault: %s): %d %ss", "filter", r.Variant, r.Fault, r.M, unit)
	if r.Variant.UsesK() {
		fmt.Fprintf(w, ", k = %d", r.K)
	}
	fmt.Fprintf(w, "\n%-20s %d generated keys, then %d typed\n", "holds", r.N, len(r.Inserts))
	for i, l := range r.Links {
		fmt.Fprintf(w, "%-20s bits %d to %d, k = %d, %d of %d keys, rate %.6f at capacity\n", fmt.Sprintf("link %d", i),
			l.Start, l.Start+l.M-1, l.K, l.N, l.Capacity, l.Rate)
	}
	if r.BuildError != "" {
		fmt.Fprintf(w, "%-20s FAILED: %s; the filter answers maybe for every key\n", "construction", r.BuildError)
	}
	for _, in := range r.Inserts {
		writeInsert(w, r, in)
	}
	queries := r.Queries
	if r.Attack != nil && r.Attack.Kind == try.AttackForge {
		queries = queries[:len(queries)-1] // the forged key's, shown with the attack
	}
	for _, q := range queries {
		writeQuery(w, r, q)
	}
	writeAttack(w, r)
	for _, c := range r.Setters {
		fmt.Fprintf(w, "\nwho set %s %d: %s\n", r.Unit, c.Position, strings.TrimPrefix(strings.TrimPrefix(culpritWords(r, c), "set by "), "matches: "))
	}
	if f := out.FindFalsePositive; f != nil {
		if f.Query == nil {
			fmt.Fprintf(w, "\n%-20s none: %s\n", "false positive", f.None)
			return
		}
		fmt.Fprintf(w, "\n%-20s %s, word %d of the common words tried in order\n", "false positive", keys.Join([]string{f.Query.Key}), f.Tried)
		writeQuery(w, r, *f.Query)
	}
}

func writeInsert(w io.Writer, r try.Result, in try.Insert) {
	fmt.Fprintf(w, "\ninsert %s", keys.Join([]string{in.Key}))
	if in.Block != nil {
		fmt.Fprintf(w, " (block %d)", *in.Block)
	}
	fmt.Fprintln(w)
	fresh := 0
	for i, j := range in.Positions {
		state := ""
		switch {
		case in.Lost != nil && in.Lost[i]:
			state = "lost: past the filter's storage, the write went nowhere"
		case in.New == nil:
		case in.New[i]:
			state = "new"
			fresh++
		case r.Variant.SetsBits():
			state = "already on"
		}
		if in.Counters != nil {
			state += fmt.Sprintf(", now %d", in.Counters[i])
		}
		line := fmt.Sprintf("  probe %-2d %s %-10d%s %s", i+1, r.Unit, j, linkOf(r, j), strings.TrimPrefix(state, ", "))
		fmt.Fprintln(w, strings.TrimRight(line, " "))
	}
	switch {
	case in.New == nil:
		fmt.Fprintf(w, "  a static filter: its %ss are solved once from every key, none is any one key's\n", r.Unit)
	case r.Variant.Chain() && fresh == 0:
		fmt.Fprintf(w, "  0 of %d %ss new: the chain already said maybe to it, so it went into no link\n", len(in.Positions), r.Unit)
	case r.Variant.Chain():
		fmt.Fprintf(w, "  %d of %d %ss new, in link %d, the last when it came; the other links' bits are those a query reads\n",
			fresh, len(in.Positions), r.Unit, len(r.Links)-1)
	case r.Variant.Bloom():
		fmt.Fprintf(w, "  %d of %d %ss new\n", fresh, len(in.Positions), r.Unit)
	}
	writeExplain(w, r, in.Explain)
}

// writeExplain prints a key's arithmetic (core.Explanation.Lines).
func writeExplain(w io.Writer, r try.Result, e *core.Explanation) {
	if e == nil {
		if r.Fault != core.NoFault {
			fmt.Fprintf(w, "  arithmetic: the fault %s computes positions its own broken way; --explain shows the real filters'\n", r.Fault)
		}
		return
	}
	lines := e.Lines()
	fmt.Fprintf(w, "  arithmetic, %s\n", lines[0])
	for _, l := range lines[1:] {
		fmt.Fprintf(w, "    %s\n", l)
	}
}

func writeQuery(w io.Writer, r try.Result, q try.Query) {
	fmt.Fprintf(w, "\nquery %s: ", keys.Join([]string{q.Key}))
	switch q.Verdict {
	case try.VerdictNo:
		switch {
		case q.FirstZero > 0:
			fmt.Fprintf(w, "no: probe %d reads a zero\n", q.FirstZero)
		default:
			fmt.Fprintf(w, "no: %s\n", r.Variant.Terms().No)
		}
	case try.VerdictMember:
		fmt.Fprintf(w, "maybe, and it is a member (%s)\n", q.Member)
	case try.VerdictFalseNegative:
		fmt.Fprintf(w, "no, yet it is a member (%s): a false negative, which a working filter never gives\n", q.Member)
	case try.VerdictFalsePositive:
		fmt.Fprintf(w, "maybe, but it was never inserted: a false positive\n")
	}
	if q.Fingerprint != nil {
		fmt.Fprintf(w, "  fingerprint %#x\n", *q.Fingerprint)
	}
	blame := map[uint64]try.Culprit{}
	for _, c := range q.Culprits {
		blame[c.Position] = c
	}
	for i, p := range q.Probes {
		var state string
		switch {
		case p.Counter != nil:
			state = fmt.Sprintf("= %d", *p.Counter)
		case p.Value != nil && (p.Set || r.Variant.Terms().Empty == ""):
			state = fmt.Sprintf("holds %#x", *p.Value)
		case p.Value != nil:
			state = r.Variant.Terms().Empty
		case p.Set:
			state = "on"
		default:
			state = "off"
		}
		if i+1 == q.FirstZero {
			state += "  <- the first zero: the answer is no"
		}
		if c, ok := blame[p.Position]; ok {
			state += "  " + culpritWords(r, c)
			delete(blame, p.Position) // a position probed twice is explained once
		}
		fmt.Fprintf(w, "  probe %-2d %s %-10d%s %s\n", i+1, r.Unit, p.Position, linkOf(r, p.Position), state)
	}
	writeExplain(w, r, q.Explain)
}

// linkOf names the link of a scalable filter's chain position j is in, ""
// for the other layouts.
func linkOf(r try.Result, j uint64) string {
	if len(r.Links) == 0 {
		return ""
	}
	return fmt.Sprintf(" link %-2d", r.LinkAt(j))
}

// culpritWords names the keys to blame for one position.
func culpritWords(r try.Result, c try.Culprit) string {
	var names []string
	for _, k := range c.Typed {
		names = append(names, keys.Join([]string{k}))
	}
	for _, g := range c.Generated {
		names = append(names, fmt.Sprintf("member #%d (%s)", g.Index, g.Hex))
	}
	if c.More > 0 {
		names = append(names, fmt.Sprintf("%d more members", c.More))
	}
	list := "no key"
	if len(names) > 0 {
		list = strings.Join(names, ", ")
	}
	return fmt.Sprintf(r.Variant.Terms().SetByShort, list)
}

// writeAttack prints what --forge, --fill or --recover found.
func writeAttack(w io.Writer, r try.Result) {
	a := r.Attack
	if a == nil {
		return
	}
	switch a.Kind {
	case try.AttackForge:
		q := r.Queries[len(r.Queries)-1]
		if a.Algebraic {
			fmt.Fprintf(w, "\n%-20s %s, the twin of the member %s under the weak hash: the same 31*h + c weight, so the same positions under every seed; no search, no key needed\n",
				"forged", keys.Join([]string{q.Key}), keys.Join([]string{a.Twin}))
		} else {
			fmt.Fprintf(w, "\n%-20s %s, candidate %d tried offline with the known seed (1/p = %.1f expected); the filter is asked once\n",
				"forged", keys.Join([]string{q.Key}), a.Tries, a.Expected)
		}
		writeQuery(w, r, q)
	case try.AttackFill:
		turned := 0
		for _, n := range a.New {
			turned += n
		}
		fmt.Fprintf(w, "\n%-20s %d keys crafted with the known seed (%d candidates weighed) turned on %d %ss, %.1f a key (k = %d); as many random keys are expected to turn on %.1f\n",
			"filled", len(a.Keys), a.Tries, turned, r.Unit, float64(turned)/float64(len(a.Keys)), r.K, a.RandomNew)
		fmt.Fprintf(w, "%-20s %s -> %s of the %ss on\n", "fill", pct(a.FillBefore), pct(a.FillAfter), r.Unit)
		for i, key := range a.Keys {
			fmt.Fprintf(w, "  %-12s %d new\n", keys.Join([]string{key}), a.New[i])
		}
	case try.AttackRecover:
		fmt.Fprintf(w, "\n%-20s %d of the %d candidates (%s) test positive: %d %s and %d %s (p(C - M) = %.1f expected); %s of the positives are members\n",
			"recovered", a.Positive, a.Candidates, a.List, a.Members, plural(a.Members, "member"), a.Positive-a.Members, plural(a.Positive-a.Members, "other"), a.Expected, pct(a.Precision()))
		for i, key := range a.Found {
			what := "not a member"
			if a.Member[i] {
				what = "a member"
			}
			fmt.Fprintf(w, "  %-12s %s\n", keys.Join([]string{key}), what)
		}
		if a.Positive > len(a.Found) {
			fmt.Fprintf(w, "  and %d more\n", a.Positive-len(a.Found))
		}
	}
}

// plural is word, with an s unless n is 1.
func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// pct writes a share as a percentage with two decimals.
func pct(x float64) string { return fmt.Sprintf("%.2f%%", 100*x) }
