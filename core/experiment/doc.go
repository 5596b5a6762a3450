// Package experiment reproduces the classic Bloom filter measurements as
// tables, each with the name (in brackets here) that `bloomlab experiment`
// and the experiments page know it by: the rate formula against ten million
// queries (theory-vs-observed), RocksDB's 10 bits per key (rocksdb), the
// rate over k by bits per key (grid), the flat optimum of k (k-sweep), round
// against ceil (rounding), hashing schemes (hashing), overfilling (overfill),
// probes per negative query (probes), counting-filter overflow (counting),
// memory against an exact set (memory), the blocked layout (blocked),
// small filters (small-m), the blocked, cuckoo, semi-sorted cuckoo, binary
// fuse and Ribbon filters beside the standard one in the same memory, where
// the seed articles' claims are put to the test (alternatives), and the
// space frontier: each structure at the fewest bits that reach rates from
// 10% to 10^-6, against the floor log2(1/p) (frontier). Two more take the
// side of an attacker who knows the hash key, as anyone with a lab link
// does (try.Forge, try.Crafter, try.Recover, the key panel's own searches):
// one forges false positives and fills the array with crafted keys
// (adversarial), the other recovers a filter's members from a list of
// candidates (membership-inference). The last grows a scalable Bloom
// filter (core.Scalable; Almeida, Baquero, Preguiça and Hutchison, 2007) to
// 100 times its first capacity at Redis's tightening and the paper's
// (scalable): its compounded rate against the bound p0/(1 - r), and its
// memory against a filter sized right from the start. The last two take
// filters into a system (core's merge.go and estimate.go): the keys a
// filter holds estimated from its set bits at fills 10% to 90%, the error
// in the estimate's own SDs (estimate), and two filters of one shape
// sharing some of their keys, their union's rate against one filter over
// both sets and their intersection's against IntersectionFill and the
// filter of the shared keys, its lower bound (merge).
//
// Every experiment is data: a name, a one-line summary, the sizes it uses
// (Quick for the browser, Full for the published figures) and a Run that
// turns sizes and a seed into a Table. A Table prints itself aligned, as CSV
// or as JSON, and carries a Chart description (a theory line and measured
// points with their intervals) that a page can draw without knowing which
// experiment made it.
//
// Results depend only on the sizes and the seed. Work is cut into tasks whose
// results are integers kept by task index, so one worker or many give the
// same table; natively the tasks run on GOMAXPROCS goroutines, in the browser
// on one, with a Progress callback between chunks that can yield to the page
// and cancel the run. The exceptions are the native measurements
// (Options.Native): the memory experiment reads the Go runtime's heap
// statistics around building a map, and the alternatives experiment adds
// the time its filters spent inserting and answering, two columns that no
// browser run or test table holds.
//
// Rates carry 95% Wilson score intervals (core.Wilson) and the ratio of the
// observed rate to the formula's.
package experiment
