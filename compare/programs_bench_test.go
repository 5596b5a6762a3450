package compare

import (
	"context"
	"testing"

	"github.com/bloomlab/bloomlab/audit"
	"github.com/bloomlab/bloomlab/core"
)

// nullProgram answers without a filter: beside the libraries, what the
// protocol itself costs a key.
var nullProgram = Program{Name: "js/null", Adapter: "adapters/js/null.js"}

// BenchmarkPrograms measures each filter of another language through its
// adapter as the audit drives it: distinct 16-byte keys inserted into a
// fresh filter of m = 10^7, k = 7 (n = 10^6), batched as the audit
// batches them, and absent keys queried in batches of 4,096 after 10^5
// inserts. The null adapter's figures are the protocol's cost.
//
//	cd compare && go test -run '^$' -bench Programs -count 6
func BenchmarkPrograms(b *testing.B) {
	for _, p := range append([]Program{nullProgram}, Programs()...) {
		prog, err := p.Start(context.Background())
		if err != nil {
			b.Logf("%s: %v", p.Name, err)
			continue
		}
		target := prog.Target()
		fresh := func(b *testing.B) audit.Batcher {
			f, err := target.New(audit.Shape{M: 10_000_000, K: 7, N: 1_000_000, Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			return f.(audit.Batcher)
		}
		b.Run(p.Name+"/insert", func(b *testing.B) {
			b.ReportAllocs()
			f := fresh(b)
			var key []byte
			i := 0
			for b.Loop() {
				key = core.Key(key, core.Members, uint64(i), 1, 16)
				f.(audit.Filter).Add(key)
				i++
			}
			f.TestAll(nil, nil) // sends what the last batch holds
			target.Done()
		})
		b.Run(p.Name+"/query", func(b *testing.B) {
			b.ReportAllocs()
			f := fresh(b)
			var key []byte
			for i := range 100_000 {
				key = core.Key(key, core.Members, uint64(i), 1, 16)
				f.(audit.Filter).Add(key)
			}
			keys := make([][]byte, 4096)
			found := make([]bool, len(keys))
			q := 0
			b.ResetTimer()
			for b.Loop() {
				keys[q%len(keys)] = core.Key(keys[q%len(keys)][:0], core.Absent, uint64(q), 1, 16)
				if q++; q%len(keys) == 0 {
					f.TestAll(keys, found)
				}
			}
			f.TestAll(keys[:q%len(keys)], found)
			target.Done()
		})
		prog.Close()
	}
}
