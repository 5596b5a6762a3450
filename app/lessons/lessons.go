package lessons

import (
	"math"
	"strings"

	"github.com/bloomlab/bloomlab/app/lab"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/sim"
	"github.com/bloomlab/bloomlab/core/try"
)

// Guided lessons are data: each step is a paragraph, the lab state its
// "show me" button sets, and its task as a predicate over the lab's state
// (lab.State). The page re-checks the predicate whenever the state may have
// changed, so a task completes by itself as the learner works.
//
// A predicate reads only the state, does no simulation, and is honest: it
// holds when the task is really done, not when the learner merely visited
// the right slider. lessons_test.go builds every step's "show me" state
// from the core and checks that it satisfies its own predicate, and that
// the state the step starts from (the previous step's, or the default lab
// for a first step) does not.
//
// Figures in the texts are those of the step's "show me" state, seed 1:
// the default shape is m = 40,000 bits, n = 4000 keys, k = 7, theory
// 0.8194%.

// lesson is a short sequence of steps about one idea.
type lesson struct {
	Title, Intro string
	Steps        []lessonStep
}

// lessonStep is one step of a lesson.
type lessonStep struct {
	// Text is the step's paragraph; Task says in one sentence what the
	// learner does.
	Text, Task string
	// Show is the lab "show me" sets, and Ask the keys the key panel then
	// queries in order (nil for none).
	Show settings.Lab
	Ask  []string
	// Attack is an attack the key panel then runs (nil for none); a step
	// asks keys or attacks, not both.
	Attack *try.Attack
	// Audited says that Done reads the audit of Show's fault, so "show
	// me" completes the task only once that audit has finished.
	Audited bool
	// Done is the task's predicate.
	Done func(st lab.State) bool
	// Question, if set, asks the learner to predict before the lab
	// answers (questions.go).
	Question *question
}

// load is how many times its design load a Bloom filter of m bits and k
// hashes holds with n keys: kn / (m ln 2), 1 where k is the optimum for n
// and the array is half full (fill 1 - 2^-load).
func load(m, n uint64, k int) float64 {
	return float64(k) * float64(n) / (float64(m) * math.Ln2)
}

// designRate is the theory rate of a filter of m bits and k hashes at its
// design load, the n for which k is the optimum.
func designRate(m uint64, k int) float64 {
	return core.Rate(m, uint64(math.Round(float64(m)*math.Ln2/float64(k))), k)
}

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
var lessons = []lesson{
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
			Text:    "The audit badge runs the filter's contract in your browser, the rate last. For short-range, 20 of the 131 checks that apply fail: positions are not uniform (chi-square 5.4 per degree of freedom where 1 is fair), and at a million keys the rate is 16% above theory.",
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
