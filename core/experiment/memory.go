package experiment

import (
	"encoding/hex"
	"fmt"
	"runtime"

	"github.com/bloomlab/bloomlab/core"
)

var memory = Experiment{
	Name:    "memory",
	Summary: "a Bloom filter against an exact set (a Go map), extrapolated to a billion keys",
	Quick:   Sizes{Items: 200_000, Seed: 1},
	Full:    Sizes{Items: 2_000_000, Seed: 1},
	run:     runMemory,
}

// billion is the key count the table extrapolates to.
const billion = 1_000_000_000

// uuidBytes is the length of a UUID in its text form.
const uuidBytes = 36

func runMemory(s Sizes, r *runner) (Table, error) {
	n := uint64(s.Items)
	how := "estimate"
	if r.native {
		how = "measured"
	}
	t := Table{
		Title: fmt.Sprintf("memory: a Bloom filter against an exact set, n = %s keys, extrapolated to 10^9 keys", group(s.Items)),
		Columns: []Column{{Key: "structure", Title: "structure", Kind: Text}, {Key: "bytes", Title: "bytes", Kind: Int},
			{Key: "bytesPerKey", Title: "bytes/key", Kind: Float, Decimals: 2},
			{Key: "gibAtBillion", Title: "GiB at 10^9 keys", Kind: Float, Decimals: 2},
			{Key: "timesFilter", Title: "x filter at 1%", Kind: Float, Decimals: 1},
			{Key: "source", Title: "source", Kind: Text}},
		Chart: &Chart{Title: "memory for a billion keys", X: "structure", Y: "GiB at 10^9 keys", LogY: true,
			Series: []Series{{Name: "GiB at 10^9 keys", Kind: Points}}},
	}
	type entry struct {
		name    string
		bytes   uint64
		billion float64 // bytes at 10^9 keys
		source  string
	}
	var rows []entry
	for _, p := range []float64{0.01, 0.001} {
		m, err := core.BitsFor(n, p)
		if err != nil {
			return Table{}, err
		}
		mb, _ := core.BitsFor(billion, p)
		rows = append(rows, entry{fmt.Sprintf("Bloom filter, p = %g%%", 100*p), (m + 7) / 8, float64((mb + 7) / 8), "formula"})
	}
	r.plan(2 * s.Items)
	for _, text := range []bool{false, true} {
		size, name := keyBytes, fmt.Sprintf("Go map[string]struct{}, %d-byte keys", keyBytes)
		if text {
			size, name = uuidBytes, fmt.Sprintf("Go map[string]struct{}, %d-char UUID strings", uuidBytes)
		}
		bytes := core.ExactSetBytes(n, size)
		var err error
		if r.native {
			bytes, err = measureMap(r, n, derive(s.Seed, saltMemory), text)
		} else {
			err = r.report(s.Items)
		}
		if err != nil {
			return Table{}, err
		}
		rows = append(rows, entry{name, bytes, float64(bytes) / float64(n) * billion, how})
	}
	for i, e := range rows {
		t.Rows = append(t.Rows, []Cell{txt(e.name), count(e.bytes), num(float64(e.bytes) / float64(n)),
			num(e.billion / (1 << 30)), num(e.billion / rows[0].billion), txt(e.source)})
		t.Chart.XLabels = append(t.Chart.XLabels, e.name)
		t.Chart.Series[0].Points = append(t.Chart.Series[0].Points, Point{X: float64(i), Y: e.billion / (1 << 30)})
	}
	if r.native {
		t.Notes = append(t.Notes, "The maps are measured: live heap after a garbage collection, before and after inserting the keys, without a size hint.")
	} else {
		t.Notes = append(t.Notes, "The maps are an estimate (core.ExactSetBytes: each key's bytes in the allocator's size class, and a swiss table of 25-byte slots kept between 7/16 and 7/8 full); run natively with measuring on for the real heap.")
	}
	t.Notes = append(t.Notes, "A filter's size depends on n and p only, never on the keys; an exact set grows with every key's bytes.")
	return t, nil
}

// measureMap returns the live heap bytes that a map[string]struct{} of n
// distinct keys adds, keys included. It reads process-wide statistics, so it
// runs alone: nothing else of the experiment allocates meanwhile. It reports
// every tick keys, since ten million keys take half a minute; what a
// progress callback allocates meanwhile is garbage by the second GC.
func measureMap(r *runner, n, seed uint64, text bool) (uint64, error) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	set := make(map[string]struct{})
	key := make([]byte, 0, keyBytes)
	var uuid [uuidBytes]byte
	for i := uint64(0); i < n; i++ {
		key = core.Key(key, core.Members, i, seed, keyBytes)
		if text {
			set[string(uuidText(&uuid, key))] = struct{}{}
		} else {
			set[string(key)] = struct{}{}
		}
		if (i+1)%tick == 0 {
			if err := r.report(tick); err != nil {
				return 0, err
			}
		}
	}
	if err := r.report(int(n % tick)); err != nil {
		return 0, err
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(set)
	if after.HeapAlloc < before.HeapAlloc {
		return 0, nil
	}
	return after.HeapAlloc - before.HeapAlloc, nil
}

// uuidText writes 16 bytes in the 8-4-4-4-12 hex form of a UUID.
func uuidText(dst *[uuidBytes]byte, b []byte) []byte {
	hex.Encode(dst[0:8], b[0:4])
	dst[8] = '-'
	hex.Encode(dst[9:13], b[4:6])
	dst[13] = '-'
	hex.Encode(dst[14:18], b[6:8])
	dst[18] = '-'
	hex.Encode(dst[19:23], b[8:10])
	dst[23] = '-'
	hex.Encode(dst[24:36], b[10:16])
	return dst[:]
}
