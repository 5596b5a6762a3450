package settings

import (
	"net/url"
	"testing"

	"github.com/bloomlab/bloomlab/app/internal/linktest"
	"github.com/bloomlab/bloomlab/core/try"
)

// Any link a person can type or paste gives legal settings (clamped with a
// notice) and a calculator answer or a clear error, never a panic or a
// runaway computation.
func FuzzLinks(f *testing.F) {
	f.Add(linktest.Query(IDBitsPerKey, "10", IDHashes, "7", IDItems, "4000", IDSeed, "18446744073709551615"))
	f.Add(linktest.Query(IDVariant, "counting", IDFault, "negative-index", IDHashing, "independent", IDHashes, "3", IDHashes, "9"))
	f.Add(linktest.Query(IDVariant, "cuckoo", IDFingerprintBits, "12", IDFault, "one-hash"))
	f.Add(linktest.Query(IDVariant, "fuse", IDFingerprintBits, "7", IDFingerprintBits, "16", IDHashing, "enhanced"))
	f.Add(linktest.Query(IDFingerprintBits, "auto", IDVariant, "blocked"))
	f.Add(linktest.Query(CalcFind, "p", CalcN, "9007199254740992", CalcM, "512"))
	f.Add(linktest.Query(CalcFind, "m", CalcN, "99999951", CalcP, "0x1p-4", CalcM, "17"))
	f.Add(linktest.Query(IDTry, `apple,pe\,ar,\u{7}x,,%FF`, IDPlayAt, "1234", IDItems, "5000"))
	f.Add(linktest.Query(IDTry, `\u{110000},\u{,a\`, IDPlayAt, "-3", IDVariant, "fuse"))
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
		if err := (try.Request{Params: p, Insert: typed}).Validate(); err != nil {
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
