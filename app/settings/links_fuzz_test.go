package settings

import (
	"net/url"
	"testing"

	"bloomlab/core"
)

// Any link a person can type or paste gives legal settings (clamped with a
// notice) and a calculator answer or a clear error, never a panic or a
// runaway computation.
func FuzzLinks(f *testing.F) {
	f.Add("bits-per-key=10&hashes=7&items=4000&seed=18446744073709551615")
	f.Add("variant=counting&fault=negative-index&hashing=independent&hashes=3&hashes=9")
	f.Add("variant=cuckoo&fingerprint-bits=12&fault=one-hash")
	f.Add("variant=fuse&fingerprint-bits=7&fingerprint-bits=16&hashing=enhanced")
	f.Add("fingerprint-bits=auto&variant=blocked")
	f.Add("find=p&n=9007199254740992&m=512")
	f.Add("find=m&n=99999951&p=0x1p-4&m=17")
	f.Add(`try=apple,pe\,ar,\u{7}x,,%FF&play-at=1234&items=5000`)
	f.Add(`try=\u{110000},\u{,a\&play-at=-3&variant=fuse`)
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		s, _ := LabFromQuery(q)
		p := s.Run()
		p.Queries = min(p.Queries, 1) // validate the shape without running it
		if err := p.Validate(); err != nil {
			t.Fatalf("%q gave illegal settings: %v", raw, err)
		}
		typed := s.Typed.List()
		if err := (core.TryRequest{Params: p, Insert: typed}).Validate(); err != nil {
			t.Fatalf("%q gave typed keys the key panel refuses: %v", raw, err)
		}
		if again, notices := LabFromQuery(s.Query()); again != s || len(notices) > 0 {
			t.Fatalf("%q: its settings' own link reads back as %+v (%v), not %+v", raw, again, notices, s)
		}
		ExperimentFromQuery(q)
		// The calculator solves only what a link asks of it: the default
		// form is the unit tests', and would make every run slow.
		if q.Has(CalcN) || q.Has(CalcP) || q.Has(CalcM) || q.Has(CalcFind) {
			form, _ := CalculatorFromQuery(q)
			form.Solve()
		}
	})
}
