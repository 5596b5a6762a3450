package app

import (
	"net/url"
	"testing"
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
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		s, _ := FromQuery(q)
		p := s.Params
		p.Queries = min(p.Queries, 1) // validate the shape without running it
		if err := p.Validate(); err != nil {
			t.Fatalf("%q gave illegal settings: %v", raw, err)
		}
		ExpFromQuery(q)
		// The calculator solves only what a link asks of it: the default
		// form is the unit tests', and would make every run slow.
		if q.Has(CalcN) || q.Has(CalcP) || q.Has(CalcM) || q.Has(CalcFind) {
			form, _ := CalcFromQuery(q)
			solveForm(form)
		}
	})
}
