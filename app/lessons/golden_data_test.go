package lessons

import (
	"strings"

	"github.com/bloomlab/bloomlab/app/lab"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"
	"github.com/bloomlab/bloomlab/core/try"
)

// The lessons as Go data, as the page showed them before they became
// files (text/): kept only here, so that the round trip of the files is
// tested against what learners saw (golden_lessons_test.go).

// looksFine reports that a run gives nothing away: no member lost, and the
// theory inside the measurement's interval.
func looksFine(r *sim.Result) bool {
	return r.FalseNegatives == 0 && r.WholeCILow <= r.TheoryFPR && r.TheoryFPR <= r.WholeCIHigh
}

// labWith is the default lab changed by change, normalised as a link
// would give it.
func labWith(change func(s *settings.Lab)) settings.Lab {
	s := settings.DefaultLab()
	change(&s)
	return s.Normalize()
}

// withFault switches fault f on, in the layout it lives in.
func withFault(s *settings.Lab, f core.Fault) { *s, _ = s.WithFault(f) }

// The keys lessons type: three for the first lesson, and six fruit for a
// filter small enough to show every bit.
var (
	threeKeys = []string{"apple", "pear", "plum"}
	sixFruit  = []string{"apple", "pear", "plum", "cherry", "grape", "lemon"}
)

// lessons are the guided lessons, in the order /lessons lists them; a link
// names one by its place from 1.
var goldenLessons = []lesson{
	{
		Title: "A zero is proof",
		Intro: "Inserting a key only ever sets bits. So if one of the bits a key maps to is still zero, the key was never inserted: a certain no. If all of them are set, the answer is only maybe.",
		Steps: []lessonStep{{
			Text: "The lab's filter holds 4,000 generated keys in 40,000 bits, and each key maps to k = 7 of them. In the key panel, type a word of your own and insert it: its 7 positions light up in the bit array. Do it three times.",
			Task: "Insert three keys of your own.",
			Show: labWith(func(s *settings.Lab) { s.Typed = settings.JoinTyped(threeKeys) }),
			Done: func(st lab.State) bool { return len(st.Settings.Typed.List()) >= 3 },
		}, {
			Text: "Query the three keys you inserted. Each one reads its 7 bits and finds every one set, because it set them itself, so the filter must answer maybe. A filter that said no here would have lost a key, and a real Bloom filter never does.",
			Task: "Query your three keys and see each answer maybe (a member).",
			Show: labWith(func(s *settings.Lab) { s.Typed = settings.JoinTyped(threeKeys) }),
			Ask:  threeKeys,
			Done: func(st lab.State) bool {
				return len(st.Answered(try.VerdictMember, func(q try.Query) bool { return st.Settings.Typed.Has(q.Key) })) >= 3
			},
		}, {
			Text: "Now query two words you never inserted. About half the bits are set, so each probe finds a one about half the time; the query stops at the first zero, and that zero proves the key is absent. \"cherry\" and \"grape\" both stop at their second probe.",
			Task: "Query two keys you never inserted and get a no for each.",
			Show: labWith(func(s *settings.Lab) { s.Typed = settings.JoinTyped(threeKeys) }),
			Ask:  []string{"cherry", "grape"},
			Done: func(st lab.State) bool {
				return len(st.Answered(try.VerdictNo, func(q try.Query) bool { return q.FirstZero > 0 })) >= 2
			},
			Question: askCherry,
		}},
	},
	{
		Title: "A false positive, explained",
		Intro: "A maybe for a key that was never inserted is no malfunction: other keys set every bit it reads. The key panel names those keys, the culprits.",
		Steps: []lessonStep{{
			Text: "At the default shape theory says 0.82% of absent keys answer maybe: about one word in 120. Query words you never inserted until one does. Show me queries \"want\", the first of the panel's 500 common words that does (the 91 before it each met a zero); each of its 7 bits was set by one to three of the 4,000 generated keys.",
			Task: "Find a key you never inserted that the filter answers maybe for.",
			Show: settings.DefaultLab(),
			Ask:  []string{"want"},
			Done: func(st lab.State) bool { return len(st.Answered(try.VerdictFalsePositive, nil)) > 0 },

			Question: askWordsToMaybe,
		}, {
			Text: "In a small filter you can see every bit: 100 bits, k = 3, holding 20 generated keys and six fruit you insert. There the word \"in\" answers maybe: one of its bits was set by \"cherry\" alone, another by \"pear\", \"grape\" and two generated keys. Insert words of your own and query others until a maybe names one of your words.",
			Task: "Get a false positive with one of your own keys among its culprits.",
			Show: labWith(func(s *settings.Lab) {
				s.Params.Items, s.Params.BitsPerKey, s.Params.Hashes = 20, 5, 3
				s.Typed = settings.JoinTyped(sixFruit)
			}),
			Ask: []string{"in"},
			Done: func(st lab.State) bool {
				return len(st.Answered(try.VerdictFalsePositive, func(q try.Query) bool {
					for _, c := range q.Culprits {
						if len(c.Typed) > 0 {
							return true
						}
					}
					return false
				})) > 0
			},
		}},
	},
	{
		Title: "The three moves",
		Intro: "Three controls tell three different stories: bits per key decides how full the array gets, k trades a stricter test against a fuller array, and inserting a key twice changes nothing at all.",
		Steps: []lessonStep{{
			Text: "Every key sets up to k bits, so fewer bits per key means a fuller array. At k = 7 the fill passes 90% below about 3 bits per key. At 2.5 the array is 94% ones and 64% of absent keys answer maybe, against 0.82% at 10 bits per key.",
			Task: "Lower bits per key until the fill passes 90%.",
			Show: labWith(func(s *settings.Lab) { s.Params.BitsPerKey = 2.5 }),
			Done: func(st lab.State) bool {
				r := st.Shown()
				return r != nil && r.Occupancy > 0.9
			},
			Question: askFill,
		}, {
			Text: "Give the array its 10 bits per key back. The chart of rate against k marks the optimum at (m/n) ln 2 = 6.93. The curve is flat near it: k = 8 costs only 3% more. Move k past the line until the theory rate is 10% above the optimum's: k = 9 gives 0.913% against 0.819%.",
			Task: "With the fill under 90%, raise k past the optimum until the theory rate is 10% above the optimum's.",
			Show: labWith(func(s *settings.Lab) { s.Params.Hashes = 9 }),
			Done: func(st lab.State) bool {
				r := st.Shown()
				if r == nil || !r.Variant.Bloom() || r.Occupancy >= 0.9 {
					return false
				}
				best := core.OptimalK(r.M, r.N)
				return r.K > best && r.TheoryFPR >= 1.1*core.Rate(r.M, r.N, best)
			},
		}, {
			Text: "Raise the duplicate passes: every key is inserted again. The bits it maps to are set already, so the set bits (20,066 at k = 7) and the measured rate stay exactly as they were, bit for bit. A Bloom filter is a set, and inserting a key twice is inserting it once.",
			Task: "Raise duplicate passes to 2 or more and see that the counters do not move.",
			Show: labWith(func(s *settings.Lab) { s.Params.DuplicatePasses = 3 }),
			Done: func(st lab.State) bool {
				return st.Settings.Params.DuplicatePasses >= 2 && st.Fault() == core.NoFault && st.Shown() != nil
			},
		}},
	},
	{
		Title: "Round, not ceil",
		Intro: "The best k is (m/n) ln 2, a fraction. Many libraries take its ceiling; the lab rounds it. At a 5% target the two differ, and the rounded k wins.",
		Steps: []lessonStep{{
			Text: "A 5% filter needs 6.24 bits per key; the slider's 6.2 is close. There (m/n) ln 2 = 4.30, which rounds to 4 (its ceiling is 5). Set 6.2 bits per key and switch on the optimal k: theory says 5.11%.",
			Task: "Set about 6.2 bits per key with k at the rounded optimum, 4.",
			Show: labWith(func(s *settings.Lab) { s.Params.BitsPerKey, s.OptimalK = 6.2, true }),
			Done: func(st lab.State) bool {
				r := st.Shown()
				return r != nil && st.Fault() == core.NoFault && nearFivePercent(r) &&
					r.K == core.OptimalK(r.M, r.N) && r.K < core.CeilK(r.M, r.N)
			},
			Question: askRoundK,
		}, {
			Text: "Now make the ceiling's mistake: the k-ceil fault chooses k = 5. The theory rate climbs to 5.20%, and every insert and every maybe touches 5 bits instead of 4, 25% more work. At 4,000 keys the measured rates wander by more than this 2% gap (with seed 1 the ceiling even measures lower, 4.27% against 4.82%, well inside each other's intervals): telling them apart takes a large filter and millions of queries.",
			Task: "Switch on the k-ceil fault (or set k to 5) and see the theory rate rise above the rounded k's.",
			Show: labWith(func(s *settings.Lab) { withFault(s, core.KFromCeil); s.Params.BitsPerKey, s.OptimalK = 6.2, true }),
			Done: func(st lab.State) bool {
				r := st.Shown()
				if r == nil || !nearFivePercent(r) {
					return false
				}
				round := core.OptimalK(r.M, r.N)
				return r.K == core.CeilK(r.M, r.N) && r.K > round && r.TheoryFPR > core.Rate(r.M, r.N, round)
			},
		}},
	},
	{
		Title: "The beautiful lie",
		Intro: "A broken filter can report a fine false-positive rate. The audit checks the contract in an order where the rate comes last, so the lie cannot hide behind it.",
		Steps: []lessonStep{{
			Text: "Switch on the short-range fault: its positions never reach the last 1/32 of the array, so 1,250 of the 40,000 bits are never used. The measured rate is 0.93%, its interval holds the theory's 0.82%, and no key is lost. By every counter, the filter looks fine.",
			Task: "Switch on a fault whose measured rate stays inside its interval and that loses no key.",
			Show: labWith(func(s *settings.Lab) { withFault(s, core.ShortRange) }),
			Done: func(st lab.State) bool {
				r := st.Shown()
				return r != nil && st.Fault() != core.NoFault && looksFine(r)
			},
			Question: askLooksFine,
		}, {
			Text:    "The audit badge runs the filter's contract in your browser, the rate last. For short-range, the checks of its positions fail, then those of its rate: positions are not uniform (chi-square 5.4 per degree of freedom where 1 is fair), and at a million keys the rate is 16% above theory.",
			Task:    "Keep the fault on, with the rate still looking fine, until the audit badge reports failed checks.",
			Show:    labWith(func(s *settings.Lab) { withFault(s, core.ShortRange) }),
			Audited: true,
			Done: func(st lab.State) bool {
				r, a := st.Shown(), st.Audit
				return r != nil && st.Fault() != core.NoFault && looksFine(r) &&
					a != nil && strings.HasSuffix(a.Target, "/"+string(st.Fault())) && a.Failed > 0
			},
		}, {
			Text: "The audit measured a million keys; you can catch the lie yourself at a smaller scale. At 20,000 keys and 200,000 queries the measured rate is 0.95%, and its interval, 0.90% to 1.00%, no longer holds the theory's 0.82%.",
			Task: "With the fault on, raise items and queries until the theory rate falls outside the measured interval.",
			Show: labWith(func(s *settings.Lab) { withFault(s, core.ShortRange); s.Params.Items, s.Params.Queries = 20000, 200000 }),
			Done: func(st lab.State) bool {
				r := st.Shown()
				return r != nil && st.Fault() != core.NoFault && r.FalseNegatives == 0 &&
					(r.TheoryFPR < r.WholeCILow || r.TheoryFPR > r.WholeCIHigh)
			},
		}},
	},
	{
		Title: "Overfill",
		Intro: "A filter is sized for the number of keys it expects. Give it twice that and the rate does not double: it grows about sixteenfold.",
		Steps: []lessonStep{{
			Text: "This filter has 38,400 bits and k = 7, the shape for 4,000 keys at 1%, and it will hold 8,000. Stop the player at 4,000 keys: the array is about half full (52%) and the rate is 1.0%, as designed.",
			Task: "Stop the player where the filter holds its design load: about half full.",
			Show: labWith(func(s *settings.Lab) {
				s.Params.Items, s.Params.BitsPerKey, s.Params.Hashes, s.PlayAt = 8000, 4.8, 7, 4000
			}),
			Done: func(st lab.State) bool {
				r := st.Shown()
				if r == nil || !st.Settings.Playing() || !r.Variant.Bloom() {
					return false
				}
				m, k := st.Settings.Params.Shape()
				full := uint64(st.Settings.Params.Items) + r.Typed
				now := load(r.M, r.N, r.K)
				return now >= 0.9 && now <= 1.1 && load(m, full, k) >= 1.9
			},
		}, {
			Text: "Now play every key in: 8,000, twice the design. The fill climbs from 52% to 77%, and the rate from 1.0% to 15.7% in theory, 15.4% measured. One doubling, sixteen times the false positives.",
			Task: "Put twice the design's keys in and read the rate against the design's.",
			Show: labWith(func(s *settings.Lab) { s.Params.Items, s.Params.BitsPerKey, s.Params.Hashes = 8000, 4.8, 7 }),
			Done: func(st lab.State) bool {
				r := st.Shown()
				return r != nil && r.Variant.Bloom() && load(r.M, r.N, r.K) >= 1.9 &&
					r.EmpiricalFPR >= 4*designRate(r.M, r.K)
			},
			Question: askOverfill,
		}, {
			Text: "The cure is to rebuild for the keys you have: 8,000 keys at 1% need 9.6 bits per key with k = 7, 76,800 bits. The rate falls back to 1.0%. Real systems rebuild on a schedule, or add a new filter as the last one fills.",
			Task: "Keep the 8,000 keys and give them the bits to bring the theory rate back to 1% or less.",
			Show: labWith(func(s *settings.Lab) { s.Params.Items, s.Params.BitsPerKey, s.Params.Hashes = 8000, 9.6, 7 }),
			Done: func(st lab.State) bool {
				r := st.Shown()
				return r != nil && !st.Settings.Playing() && r.N >= 8000 && r.TheoryFPR <= 0.01
			},
		}},
	},
	adversarialLesson,
	inferenceLesson,
}

// nearFivePercent reports a filter sized for about a 5% rate: theory
// between 4% and 6%.
func nearFivePercent(r *sim.Result) bool { return r.TheoryFPR >= 0.04 && r.TheoryFPR <= 0.06 }

// The two lessons on attacks: what one who knows the hash key can do to a
// filter, and what a filter gives away about its members. The key panel
// runs the attacks (core/try/attack.go); the experiments adversarial and
// membership-inference measure them over many filters.

// sixPINs are the members the inference lesson's filter holds beside its
// generated keys, and threeIDs its ids.
var (
	sixPINs  = []string{"4821", "1234", "0000", "7777", "2580", "9051"}
	threeIDs = []string{"user-7", "user-4242", "user-90001"}
)

var (
	forge   = &try.Attack{Kind: try.AttackForge}
	fill    = &try.Attack{Kind: try.AttackFill, Keys: 8}
	pinList = &try.Attack{Kind: try.AttackRecover, List: try.ListPINs}
	idList  = &try.Attack{Kind: try.AttackRecover, List: try.ListIDs}
)

var adversarialLesson = lesson{
	Title: "Adversarial keys",
	Intro: "The lab's hash is SipHash keyed by the seed in the link: whoever has the link computes any key's positions offline. A filter's promises hold for random keys, not for keys chosen against it.",
	Steps: []lessonStep{{
		Text:   "Without the key, the only way to find a false positive is to ask the filter, one key at a time: about 1/p queries, 122 at the default shape (the panel's common words took 92). With the key, an attacker tries made-up keys on a copy of the computation and asks the filter once. Forge one: seed 1's \"forged-g\" is the 17th made-up key tried.",
		Task:   "Forge a false positive with the seed from the link.",
		Show:   settings.DefaultLab(),
		Attack: forge,
		Done: func(st lab.State) bool {
			a := st.Attacked(try.AttackForge)
			return a != nil && !a.Algebraic && len(st.Answered(try.VerdictFalsePositive, nil)) > 0
		},
	}, {
		Text: "A secret key only helps if the hash mixes it in. The weak-hash fault uses 31·h + c, where two keys of one length whose bytes weigh the same collide under every seed: \"apple\" and \"bQple\" (a → b, p → Q) read the very same bits. Switch the fault on, insert a word and forge: its twin is a maybe at once, and changing the seed changes nothing.",
		Task: "With the weak-hash fault on and a word of your own inserted, forge its twin.",
		Show: labWith(func(s *settings.Lab) {
			withFault(s, core.WeakHash)
			s.Typed = settings.JoinTyped([]string{"apple"})
		}),
		Attack: forge,
		Done: func(st lab.State) bool {
			a := st.Attacked(try.AttackForge)
			return a != nil && a.Algebraic && st.Fault() == core.WeakHash
		},
	}, {
		Text:     "Knowing the key, an attacker can also pick keys that fill the array, each the best of 256 made-up keys. In 100 bits with k = 3 and 20 keys (44% full), 8 crafted keys turn on 24 bits: 68% full, where 8 random keys add about 12. Honest queries pay: the measured rate goes from 9% to 31%; the formula, which assumes random keys, says 18%.",
		Task:     "Craft filling keys into a small filter and see the fill climb faster than random keys would make it.",
		Show:     labWith(func(s *settings.Lab) { s.Params.Items, s.Params.BitsPerKey, s.Params.Hashes = 20, 5, 3 }),
		Attack:   fill,
		Question: askFillKeys,
		Done: func(st lab.State) bool {
			a := st.Attacked(try.AttackFill)
			if a == nil {
				return false
			}
			turned := 0
			for _, n := range a.New {
				turned += n
			}
			return float64(turned) > a.RandomNew
		},
	}},
}

var inferenceLesson = lesson{
	Title: "Not anonymization",
	Intro: "A filter stores no key, yet it answers for any: with its bits and a list of candidates, anyone finds every member on the list, hidden only among the false positives.",
	Steps: []lessonStep{{
		Text:     "This filter holds 4,000 generated keys and six 4-digit PINs. There are only 10,000 PINs: test every one. 84 test positive: all six members and 78 others (at 0.83%, about 82 are expected), so 7% of the positives are members.",
		Task:     "Recover members from every 4-digit PIN.",
		Show:     labWith(func(s *settings.Lab) { s.Typed = settings.JoinTyped(sixPINs) }),
		Attack:   pinList,
		Question: askPINs,
		Done: func(st lab.State) bool {
			a := st.Attacked(try.AttackRecover)
			return a != nil && a.List == try.ListPINs && a.Members > 0
		},
	}, {
		Text:   "The lower the rate, the fewer places to hide. Raise bits per key and the recover runs again on each new filter: at 18 bits per key (k = 7) 10 PINs test positive, the six members among them, 60%; at 20, 7 of which 6 are members.",
		Task:   "Raise bits per key until at least half the PINs that test positive are members.",
		Show:   labWith(func(s *settings.Lab) { s.Typed = settings.JoinTyped(sixPINs); s.Params.BitsPerKey = 18 }),
		Attack: pinList,
		Done: func(st lab.State) bool {
			a := st.Attacked(try.AttackRecover)
			return a != nil && a.List == try.ListPINs && a.Precision() >= 0.5
		},
	}, {
		Text:   "A longer list hides members better, but never hides them all: of 100,000 ids, 29 test positive at 18 bits per key, the three members among them. What does protect members: a keyed hash whose key stays secret (no one can test candidates offline), no access to the filter for those who need none (with access, every test is one query), and keeping the filter no longer than the data it was made from.",
		Task:   "Recover the members from the ids.",
		Show:   labWith(func(s *settings.Lab) { s.Typed = settings.JoinTyped(threeIDs); s.Params.BitsPerKey = 18 }),
		Attack: idList,
		Done: func(st lab.State) bool {
			a := st.Attacked(try.AttackRecover)
			return a != nil && a.List == try.ListIDs && a.Members > 0
		},
	}},
}

// percentOf reads a figure of the shown run in percent.
func percentOf(figure func(r *sim.Result) float64) func(st lab.State) (float64, bool) {
	return func(st lab.State) (float64, bool) {
		r := st.Shown()
		if r == nil {
			return 0, false
		}
		return figure(r) * 100, true
	}
}

// verdictOf is the answer to "no or maybe" for key: 0 for no, 1 for
// maybe, once the key panel answered it.
func verdictOf(key string) func(st lab.State) (float64, bool) {
	return func(st lab.State) (float64, bool) {
		for _, q := range st.Queries {
			if q.Key == key {
				if q.Verdict == try.VerdictNo {
					return 0, true
				}
				return 1, true
			}
		}
		return 0, false
	}
}

// wordsToMaybe is how many of the key panel's common words, in order, are
// queried until the first answers maybe (Find a false positive).
func wordsToMaybe(st lab.State) (float64, bool) {
	_, tried, err := try.FindFalsePositive(try.Request{Params: st.Settings.Run(), Insert: st.Settings.Typed.List()}, nil)
	if err != nil || tried == 0 {
		return 0, false
	}
	return float64(tried), true
}

// lowerRateK is which of k = 4 and k = 5 (0 or 1) gives the shown filter
// the lower theory rate.
func lowerRateK(st lab.State) (float64, bool) {
	r := st.Shown()
	if r == nil {
		return 0, false
	}
	if core.Rate(r.M, r.N, 4) <= core.Rate(r.M, r.N, 5) {
		return 0, true
	}
	return 1, true
}

// fineOrNot is whether the shown run looks fine (0) or gives the fault
// away (1).
func fineOrNot(st lab.State) (float64, bool) {
	r := st.Shown()
	if r == nil {
		return 0, false
	}
	if looksFine(r) {
		return 0, true
	}
	return 1, true
}

// bitsFilled is how many bits the key panel's fill turned on.
func bitsFilled(st lab.State) (float64, bool) {
	a := st.Attacked(try.AttackFill)
	if a == nil {
		return 0, false
	}
	turned := 0
	for _, n := range a.New {
		turned += n
	}
	return float64(turned), true
}

// positives is how many candidates the key panel's recover found
// positive.
func positives(st lab.State) (float64, bool) {
	a := st.Attacked(try.AttackRecover)
	if a == nil {
		return 0, false
	}
	return float64(a.Positive), true
}

// The lessons' questions, one a lesson, each set on its step in lessons.go.
var (
	askCherry = &question{
		Prompt:  "Before you query it: will \"cherry\", never inserted, answer no or maybe?",
		Options: []string{"No", "Maybe"},
		Answer:  verdictOf("cherry"),
		Why:     "No: its second probe finds a zero, and a zero proves that \"cherry\" was never inserted.",
		Veil:    veilAnswer,
	}
	askWordsToMaybe = &question{
		Prompt: "Querying the 500 common words in order, how many until the first maybe?",
		Min:    5, Step: 5, Steps: 99, Start: 250, Tolerance: 40,
		Unit: " words", Points: "words",
		Answer: wordsToMaybe,
		Why:    "Theory says one absent word in 122 answers maybe (0.82%), but the wait is luck: here the first maybe, \"want\", comes after 92 words.",
		Veil:   veilAnswer,
	}
	askFill = &question{
		Prompt: "At 2.5 bits per key and k = 7, what share of the bits will be ones?",
		Min:    0, Step: 1, Steps: 100, Start: 50, Tolerance: 5,
		Unit: "%", Points: "percentage points",
		Answer: percentOf(func(r *sim.Result) float64 { return r.Occupancy }),
		Why:    "4,000 keys set 7 bits each in only 10,000 bits, 2.8 settings a bit, so just e^-2.8 ≈ 6% of the bits stay zero: the fill is 93.7%.",
		Veil:   veilReadouts,
	}
	askRoundK = &question{
		Prompt:  "At 6.2 bits per key, which k gives the lower theory rate?",
		Options: []string{"k = 4", "k = 5"},
		Answer:  lowerRateK,
		Why:     "k = 4: (m/n) ln 2 = 4.30 is nearer 4, and theory gives 5.11% against 5.20% at k = 5.",
		Veil:    veilReadouts,
	}
	askLooksFine = &question{
		Prompt:  "With the short-range fault on, will the measured rate look fine?",
		Options: []string{"Yes, it looks fine", "No, it gives the fault away"},
		Answer:  fineOrNot,
		Why:     "Yes, it looks fine: 1,250 unused bits of 40,000 lift the rate too little to see at 4,000 keys, and the measured 0.93% has the theory's 0.82% inside its interval.",
		Veil:    veilReadouts,
	}
	askOverfill = &question{
		Prompt: "Built for 4,000 keys at 1%, the filter now holds 8,000: what will the measured rate be?",
		Min:    0, Step: 0.5, Steps: 80, Start: 2, Tolerance: 3,
		Unit: "%", Points: "percentage points",
		Answer: percentOf(func(r *sim.Result) float64 { return r.EmpiricalFPR }),
		Why:    "A false positive needs all 7 probes to find a one, and the fill is now 77%: 0.77^7 ≈ 16%, and the lab measures 15.4%: about 15 times the design's 1.0%, not twice.",
		Veil:   veilReadouts,
	}
	askFillKeys = &question{
		Prompt: "How many bits will 8 keys crafted with the known seed turn on here?",
		Min:    0, Step: 1, Steps: 24, Start: 12, Tolerance: 3,
		Unit: " bits", Points: "bits",
		Answer: bitsFilled,
		Why:    "24 bits, all 3 of every key: each is the best of 256 keys tried offline, and with 56% of the bits still zero one whose 3 bits are all zero is easy to find.",
		Veil:   veilBoth,
	}
	askPINs = &question{
		Prompt: "Testing all 10,000 PINs, how many will test positive?",
		Min:    0, Step: 5, Steps: 40, Start: 20, Tolerance: 20,
		Unit: " PINs", Points: "PINs",
		Answer: positives,
		Why:    "84 PINs: the 6 members, which always test positive, and 78 of the 9,994 others, near the 82 that a 0.83% rate predicts.",
		Veil:   veilBoth,
	}
)
