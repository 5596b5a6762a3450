package lessons

import (
	"github.com/bloomlab/bloomlab/app/lab"
	"github.com/bloomlab/bloomlab/app/settings"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/try"
)

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
