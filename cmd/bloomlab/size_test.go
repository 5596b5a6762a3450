//go:build !wasm

package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestSizeCalculator covers what size grew for the calculator: any two of
// n, p and m, units on m, k by round against ceil, the blocked filter, the
// overfill line, the exact set and the cost model.
func TestSizeCalculator(t *testing.T) {
	t.Parallel()
	runCases(t, []cliCase{
		{"reference at 1%", []string{"size", "-n", "1e8", "-p", "1%"}, 0, []string{
			"m            958505838 bits (119813230 bytes)",
			"memory       114.26 MiB",
			"k by round   7, fpr 0.010039",
			"info floor   6.644 bits per key; this filter spends 1.44x that",
			"blocked      fpr 0.011509 at the same m (k = 6); 991799296 bits (9.918 per key) to reach p = 0.01",
			"overfill     1.5x n (150000000 keys): fpr 0.057883, 2x n (200000000 keys): fpr 0.157453, 5x n (500000000 keys): fpr 0.831885",
			"Cuckoo filter, 8-bit fingerprints ",
			"Binary fuse filter, 4-wise ",
		}, ""},
		{"round against ceil at 5%", []string{"size", "-n", "100,000,000", "-p", "0.05"}, 0, []string{
			"k by round   4, fpr 0.050269",
			"k by ceil    5, fpr 0.051029   (round is better)",
		}, ""},
		{"m with a unit", []string{"size", "-n", "4000", "-m", "5000B"}, 0, []string{"m            40000 bits (5000 bytes)", "fpr          0.008194"}, ""},
		{"m in MiB", []string{"size", "-n", "1000", "-m", "1.5 KiB"}, 0, []string{"m            12288 bits (1536 bytes)"}, ""},
		{"n from p and m", []string{"size", "-p", "0.01", "-m", "958505838"}, 0, []string{"n            100000000 keys"}, ""},
		{"exact set with key bytes", []string{"size", "-n", "1000000", "-p", "0.01", "--key-bytes", "36"}, 0, []string{"for 36-byte keys"}, ""},
		{"cost model", []string{"size", "-n", "1000000", "-p", "0.01", "--absent-qps", "1000", "--maybe-cost", "2", "--saved-cost", "2"}, 0,
			[]string{`cost         10.04 false positives/s cost 20.08/s; the "no" answers save 1980/s; net 1960/s (the filter pays while p < 0.5)`}, ""},
		{"bad unit", []string{"size", "-n", "10", "-m", "5 Mb"}, 2, nil, `bloomlab size: --m has unknown unit "Mb"; use bits, bytes, KiB, MiB, GiB or TiB (or kB, MB, GB, TB for powers of 1000)`},
		{"fractional bits", []string{"size", "-n", "10", "-m", "1.5"}, 2, nil, `bloomlab size: --m must be a whole number of bits, got "1.5"`},
		{"m zero", []string{"size", "-n", "10", "-m", "0 KiB"}, 2, nil, `bloomlab size: --m must be from 1 bit to 2^63 bits (1 EiB), got "0 KiB"`},
		{"m too small for a key", []string{"size", "-p", "0.001", "-m", "5"}, 2, nil, "bloomlab size: 5 bits cannot hold even one key at p = 0.001; one key needs 15 bits"},
		{"p percent too big", []string{"size", "-n", "10", "-p", "150%"}, 2, nil, `bloomlab size: --p must be a rate in [1e-19, 1), such as 0.01, 1% or 1 in 100, got "150%"`},
		{"key bytes zero", []string{"size", "-n", "10", "-p", "0.1", "--key-bytes", "0"}, 2, nil, `bloomlab size: --key-bytes must be a whole number from 1 to 1048576, got "0"`},
		{"negative qps", []string{"size", "-n", "10", "-p", "0.1", "--absent-qps", "-1"}, 2, nil, `bloomlab size: --absent-qps must be a number from 0 to 10^15, got "-1"`},
		{"only n", []string{"size", "-n", "10"}, 2, nil, "bloomlab size: give --p (to size m) or --m (to get the rate)"},
		{"only m", []string{"size", "-m", "10"}, 2, nil, "bloomlab size: --n is required"},
		// The plan row, the design rate and the alternatives are priced at
		// the k given, not at the optimum.
		{"given k", []string{"size", "-m", "40000", "-n", "4000", "-k", "2"}, 0, []string{
			"fpr          0.032859",
			"Bloom filter (this plan)                    10.000    4.88 KiB   0.032859",
		}, ""},
		{"p below k = 64", []string{"size", "-n", "1000", "-p", "5e-324"}, 2, nil,
			`bloomlab size: --p must be a rate in [1e-19, 1), such as 0.01, 1% or 1 in 100, got "5e-324"`},
		{"hexadecimal p", []string{"size", "-n", "1000", "-p", "0x1p-4"}, 2, nil,
			`bloomlab size: --p must be a rate in [1e-19, 1), such as 0.01, 1% or 1 in 100, got "0x1p-4"`},
		{"k past 64", []string{"size", "-n", "1", "-m", "1000"}, 2, nil,
			"bloomlab size: 1000 bits per key (m = 1000, n = 1) want k = 693, past 64, the most the lab's filters take; use at most 92 bits per key"},
		// Once summed 10^8 terms for each k it tried, and never returned.
		{"one block, 10^8 keys", []string{"size", "-n", "100000000", "-m", "512"}, 0, []string{
			"fpr          1.000000", "blocked      fpr 1.000000 at the same m (k = 1)",
		}, ""},
	})
}

func TestSizeCostModelNeedsQPS(t *testing.T) {
	t.Parallel()
	if _, stdout, _ := run("size", "-n", "10", "-p", "0.1"); strings.Contains(stdout, "cost ") {
		t.Errorf("cost model printed without --absent-qps:\n%s", stdout)
	}
}

// TestSizeJSONCalculatorFields: the new fields sit beside the old ones.
func TestSizeJSONCalculatorFields(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := run("size", "-n", "100000000", "-p", "0.05", "--json", "--absent-qps", "100")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		M, N, K                  float64
		Bytes                    float64
		BitsPerKey, FPR          float64
		KRound, KCeil            int
		FPRRound, FPRCeil        float64
		InfoFloor, ExactSetBytes float64
		Memory                   string
		Blocked                  map[string]float64
		Overfill                 []map[string]float64
		Alternatives             []map[string]any
		Cost                     map[string]float64
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal([]byte(stdout), &raw); err != nil {
		t.Fatal(err)
	}
	for _, field := range strings.Fields("m n k bytes bitsPerKey fpr fprExact kRound fprRound kCeil fprCeil kStar infoFloor overhead keyBytes exactSetBytes memory blocked overfill alternatives cost") {
		if _, ok := raw[field]; !ok {
			t.Errorf("size --json lacks %q", field)
		}
	}
	if got.M != 623522423 || got.KRound != 4 || got.KCeil != 5 || got.Memory != "74.33 MiB" {
		t.Errorf("m %v kRound %d kCeil %d memory %q", got.M, got.KRound, got.KCeil, got.Memory)
	}
	if got.Blocked["fprSameM"] <= got.FPR || got.Blocked["mSameP"] <= got.M {
		t.Errorf("blocked %v against fpr %v and m %v", got.Blocked, got.FPR, got.M)
	}
	if len(got.Overfill) != 3 || got.Overfill[1]["factor"] != 2 || len(got.Alternatives) != 10 {
		t.Errorf("%d overfill rows, %d alternatives", len(got.Overfill), len(got.Alternatives))
	}
	if got.Cost["absentQps"] != 100 {
		t.Errorf("cost %v", got.Cost)
	}
}
