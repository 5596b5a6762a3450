// Package core is Bloom Lab's deterministic Bloom filter: keys, hashing,
// sizing math, the standard, blocked and counting filters and a zoo of
// deliberately broken filters (the run that measures them is package sim).
// Beside them, so a learner can measure rather than quote the alternatives,
// stand the cuckoo filter (Fan, Andersen, Kaminsky and Mitzenmacher, 2014),
// plain and with semi-sorted buckets (section 5.2: the four fingerprints of
// a bucket kept sorted, their 4-bit prefixes coded in 12 bits, so a bucket
// takes 4(f-1) bits), the binary fuse filter (Graf and Lemire, 2022) and the
// standard Ribbon filter (Dillinger and Walzer, 2021), 64 or 128 rows
// wide, built from the same SipHash output, and the scalable Bloom filter
// (Almeida, Baquero, Preguiça and Hutchison, 2007), a chain of standard
// filters for a key count not known in advance.
//
// Variants. Each layout is one record of a registry (variant.go): its
// name, label, unit of a position, how to build it, its memory, its theory,
// whether it removes keys, whether it is built once from the whole set, and
// its Terms, what the lab calls its positions and says of them. A Variant is
// parsed once at the edge into a handle on its record, and the simulation
// (core/sim), the CLI, the audit and the lab loop over Variants and ask the record; what
// a filter shows beyond Membership they ask of the filter through the views
// of views.go (Explainer for a key's arithmetic, Valued, Fingerprinted,
// Blocks, Linked, Counters, Sealer, Remover, Shaped, Merger, KeyCounter),
// never by its type. So a new
// layout touches exactly: its own file (the filter, its Membership methods,
// the views it has, its record with its Terms and, if it has one, its own
// sizing for n keys at rate p, which Variant.Cheapest otherwise finds from
// its theory), its tests, and one line in Variants. The calculator's table
// and the frontier experiment size every layout through Cheapest, and the
// audit gives the books, idempotence and index checks to every layout whose
// positions are bits or counters (one that shows neither Valued nor
// Linked). Register adds a layout from outside the package; package
// coretest holds a throwaway one, the word filter, that tests of any
// package register to see that their layer takes it:
// TestNewLayoutTouchesOnlyItsFile puts it through the simulation, Explain
// and the key panel, and the audit, plan and experiment tests through
// theirs.
//
// Everything here is a pure function of its inputs. There is no wall clock,
// no global random source and no syscall/js, so the same parameters give the
// same bits natively, under Node and in a browser.
//
// Hashing. Keys are hashed once with SipHash-2-4 (Aumasson and Bernstein,
// 2012) under a 128-bit key derived from the lab's seed. The 128-bit output
// gives two 64-bit bases h1 and h2, and the k probe positions follow by
// double hashing, g_i = h1 + i*h2 (Kirsch and Mitzenmacher, "Less Hashing,
// Same Performance", 2006). Each g_i is reduced into [0, m) by Lemire's
// multiply-shift, floor(g_i * m / 2^64), which is in range for every m >= 1
// by construction and costs one multiplication instead of a division.
//
// Batches. Filter.AddBatch and Filter.ContainsBatch (and AddBatch and
// ContainsBatch for any Membership) hash a batch of keys before they touch
// the bit array, so the cache misses of many keys overlap; on amd64 with
// AVX2, SipHash runs on eight keys at once in vector registers. They set the
// same bits and give the same answers and probe counts as Add and Contains,
// on every platform; the simulation and the experiments use them.
//
// Sizing (Bloom 1970; Broder and Mitzenmacher, "Network Applications of
// Bloom Filters", 2004, section 2.1), for n keys, m bits and k hashes:
//
//	m = ceil(-n ln p / (ln 2)^2)            bits for a target rate p
//	k = max(1, round((m/n) ln 2))           round, never ceil
//	p ≈ (1 - e^(-kn/m))^k                   the usual approximation
//	p = (1 - (1 - 1/m)^(kn))^k              with the exact fill for finite m
//	E[set bits] = m (1 - (1 - 1/m)^(kn))
//	E[probes per negative query] = sum_{i<k} f^i, f the fill
//	log2(1/p) bits per key                  the information floor
//
// At p = 5% the optimum (m/n) ln 2 is 4.32: round gives k = 4 (rate 0.050269)
// where ceil gives 5 (0.051029), which is why k is rounded.
//
// Chains (scalable.go). Link i of a scalable filter holds n0 s^i keys at
// p0 r^i; a query asks every link, so the rate compounds, and a key is
// inserted only where the chain says no, which fills a link by a series cut
// at k terms:
//
//	p = 1 - Π(1 - f_i^k_i)                  over the links, f_i a link's fill
//	p < p0 / (1 - r)                        however long the chain grows
//	n = (m/k) Σ_{j=1..k} f^j / j            a link's keys at fill f (ChainFill)
//
// Systems (merge.go, estimate.go, file.go). Filters of one Shape (layout,
// m, k, hashing, seed) merge: Union ORs the bits, the very filter of both
// key sets, and Intersect ANDs them, which answers yes for every shared
// key but sets, beyond the shared keys' own filter, the bits a key of each
// side alone set (IntersectionFill; Broder and Mitzenmacher, section 2.2):
//
//	fill(A AND B) - fill(A∩B) = q(n∩) (1 - q(nA - n∩)) (1 - q(nB - n∩))
//	q(x) = (1 - 1/m)^(kx)
//
// The counting filter adds its counters, saturating at CounterMax and
// counting the counters that did. A layout that cannot merge implements
// Merger to say why. EstimateKeys reads the keys a filter holds from its x
// set positions (Swamidass and Baldi, 2007), with the delta method's
// standard deviation, the variance of linear counting over k²:
//
//	n̂ = -(m/k) ln(1 - x/m)
//	sd = (sqrt(m)/k) sqrt(m/(m - x) - 1 + ln(1 - x/m))
//
// (the blocked filter's own forms are at blockedEstimate), undefined when
// x = m. Save and Load write and read the file format of FORMAT.md, whose
// loader checks the header before it allocates and allocates no more than
// twice what the file holds.
//
// Floats that other platforms must reproduce are computed as
// Pow(-Expm1(-x), k) with integer k, which agrees to the last bit natively and
// on wasm where (1 - Exp(-x))^k does not; digests round floats besides.
package core
