package core

import (
	"fmt"
	"math"
	"testing"
)

func TestBitsForAndK(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n     uint64
		p     float64
		wantM uint64
		wantK int
	}{
		{100_000_000, 0.01, 958_505_838, 7}, // the classic sizing vector
		{500_000, 0.1, 2_396_265, 3},        // 4.793 bits per key
		{500_000, 0.05, 3_117_613, 4},       // round: 4.32 -> 4, where ceil gives 5
		{500_000, 0.01, 4_792_530, 7},
		{500_000, 0.0001, 9_585_059, 13},
		{200_000, 0.01, 1_917_012, 7}, // the overfill experiment's filter
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("n=%d,p=%v", tt.n, tt.p), func(t *testing.T) {
			m, err := BitsFor(tt.n, tt.p)
			if err != nil {
				t.Fatal(err)
			}
			if m != tt.wantM {
				t.Errorf("BitsFor = %d, want %d", m, tt.wantM)
			}
			if k := OptimalK(m, tt.n); k != tt.wantK {
				t.Errorf("OptimalK(%d, %d) = %d, want %d", m, tt.n, k, tt.wantK)
			}
		})
	}
}

func TestBitsForRejects(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		n uint64
		p float64
	}{{0, 0.01}, {10, 0}, {10, 1}, {10, -0.5}, {10, math.NaN()}, {10, 2}} {
		if _, err := BitsFor(tt.n, tt.p); err == nil {
			t.Errorf("BitsFor(%d, %v) gave no error", tt.n, tt.p)
		}
	}
}

// TestRoundBeatsCeil pins why k is rounded: at a 5% target the rounded k
// has the lower rate (reference figures 0.050269 against 0.051029).
func TestRoundBeatsCeil(t *testing.T) {
	t.Parallel()
	n := uint64(500_000)
	m, _ := BitsFor(n, 0.05)
	want := map[int]float64{3: 0.055708, 4: 0.050269, 5: 0.051029, 6: 0.055697}
	for k, w := range want {
		if got := Rate(m, n, k); math.Abs(got-w) > 5e-7 {
			t.Errorf("Rate(k=%d) = %.6f, want %.6f", k, got, w)
		}
	}
	if OptimalK(m, n) != 4 || CeilK(m, n) != 5 {
		t.Errorf("OptimalK = %d, CeilK = %d; want 4 and 5", OptimalK(m, n), CeilK(m, n))
	}
}

func TestDefaultShapeTheory(t *testing.T) {
	t.Parallel()
	m, n, k := uint64(40000), uint64(4000), 7
	if got := fmt.Sprintf("%.6f %.6f", Rate(m, n, k), RateExact(m, n, k)); got != "0.008194 0.008194" {
		t.Errorf("rates = %s, want 0.008194 0.008194", got)
	}
	if got := ExpectedSetBits(m, n, k); math.Abs(got-20136.8) > 0.05 {
		t.Errorf("ExpectedSetBits = %.2f, want 20136.8", got)
	}
}

func TestTheoryColumn(t *testing.T) {
	t.Parallel()
	// The theory column of the classic 500,000-key table, to six places.
	targets := []float64{0.1, 0.05, 0.02, 0.01, 0.005, 0.001, 0.0001}
	want := []string{"0.100713", "0.050269", "0.020092", "0.010039", "0.005017", "0.001000", "0.000100"}
	for i, p := range targets {
		n := uint64(500_000)
		m, _ := BitsFor(n, p)
		if got := fmt.Sprintf("%.6f", Rate(m, n, OptimalK(m, n))); got != want[i] {
			t.Errorf("p=%v: theory %s, want %s", p, got, want[i])
		}
	}
}

func TestOverfillTheory(t *testing.T) {
	t.Parallel()
	m, k := uint64(1_917_012), 7
	want := []string{"0.01004", "0.15745", "0.83188", "0.99530"}
	for i, x := range []uint64{1, 2, 5, 10} {
		if got := fmt.Sprintf("%.5f", Rate(m, 200_000*x, k)); got != want[i] {
			t.Errorf("%dx: theory %s, want %s", x, got, want[i])
		}
	}
}

func TestBlockedRateRocksDB(t *testing.T) {
	t.Parallel()
	// 512-bit blocks, 10 bits per key, k = 6: about 0.954%, against 0.8436%
	// for the standard filter.
	n := uint64(1_000_000)
	if got := BlockedRate(10*n, n, 6); math.Abs(got-0.00954) > 0.00005 {
		t.Errorf("BlockedRate = %.5f, want about 0.00954", got)
	}
	if got := Rate(10*n, n, 6); math.Abs(got-0.008436) > 0.0000005 {
		t.Errorf("Rate = %.6f, want 0.008436", got)
	}
}

func TestExpectedProbes(t *testing.T) {
	t.Parallel()
	if got := ExpectedProbes(7, 0.5184); math.Abs(got-2.056) > 0.001 {
		t.Errorf("ExpectedProbes(7, 0.5184) = %.4f, want 2.056", got)
	}
	if got := ExpectedProbes(3, 0); got != 1 {
		t.Errorf("an empty filter answers every absent query in one probe, got %v", got)
	}
}

func TestInfoFloor(t *testing.T) {
	t.Parallel()
	if got := InfoFloor(0.01); math.Abs(got-6.6439) > 0.0001 {
		t.Errorf("InfoFloor(0.01) = %v, want 6.6439", got)
	}
}

func TestRatesLegalAndMonotone(t *testing.T) {
	t.Parallel()
	for _, k := range []int{1, 2, 7, 20} {
		prev := 0.0
		for n := uint64(0); n <= 5000; n += 250 {
			r, e := Rate(1000, n, k), RateExact(1000, n, k)
			if r < 0 || r > 1 || e < 0 || e > 1 || r < prev {
				t.Fatalf("k=%d n=%d: rate %v exact %v after %v", k, n, r, e, prev)
			}
			prev = r
		}
	}
}

// TestExactSetBytes pins the Go map model to figures measured with
// runtime.MemStats for 16-byte keys: 51.0 bytes per key at 100,000 keys and
// 71.8 at 500,000, where the table has just doubled.
func TestExactSetBytes(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		n        uint64
		measured float64
	}{{100_000, 51.0}, {500_000, 71.8}, {1_000_000, 71.7}, {1_500_000, 53.3}} {
		got := float64(ExactSetBytes(tt.n, 16)) / float64(tt.n)
		if math.Abs(got-tt.measured) > 0.06*tt.measured {
			t.Errorf("n=%d: %.1f bytes per key, measured %.1f", tt.n, got, tt.measured)
		}
	}
	if KeyHeapBytes(16) != 16 || KeyHeapBytes(17) != 24 || KeyHeapBytes(1000) != 1024 {
		t.Errorf("size classes: %d %d %d", KeyHeapBytes(16), KeyHeapBytes(17), KeyHeapBytes(1000))
	}
}
