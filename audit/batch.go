package audit

// Batcher is a filter that answers many queries at once. A filter in
// another process pays a round trip for every answer, so it shows this
// view, and the audit hands it its queries in batches of up to
// queryBatch; found[i] is the answer for keys[i]. The keys are valid only
// for the call.
type Batcher interface {
	TestAll(keys [][]byte, found []bool)
}

// queryBatch is the most keys the audit hands a Batcher at once.
const queryBatch = 4096

// ask calls answer with flt's answer for each of the n keys that key(dst,
// i) makes, in order, pausing as long checks do; a Batcher gets them in
// batches. It stops at the first error of the pause.
func (t Target) ask(flt Filter, n int, key func(dst []byte, i int) []byte, answer func(i int, found bool)) error {
	b, batched := flt.(Batcher)
	if !batched {
		var k []byte
		for i := 0; i < n; i++ {
			if err := t.paused(i); err != nil {
				return err
			}
			k = key(k, i)
			answer(i, flt.Test(k))
		}
		return nil
	}
	keys := make([][]byte, min(n, queryBatch))
	found := make([]bool, len(keys))
	for start := 0; start < n; start += len(keys) {
		if err := t.yield(); err != nil {
			return err
		}
		size := min(len(keys), n-start)
		for j := range size {
			keys[j] = key(keys[j][:0], start+j)
		}
		b.TestAll(keys[:size], found[:size])
		for j := range size {
			answer(start+j, found[j])
		}
	}
	return nil
}

// count is how many of the n keys key makes flt answers yes to.
func (t Target) count(flt Filter, n int, key func(dst []byte, i int) []byte) (int, error) {
	yes := 0
	err := t.ask(flt, n, key, func(_ int, found bool) {
		if found {
			yes++
		}
	})
	return yes, err
}

// answerAll is flt's answer for each of the n keys key makes.
func (t Target) answerAll(flt Filter, n int, key func(dst []byte, i int) []byte) ([]bool, error) {
	found := make([]bool, n)
	err := t.ask(flt, n, key, func(i int, yes bool) { found[i] = yes })
	return found, err
}
