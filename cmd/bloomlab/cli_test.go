//go:build !wasm

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/core/sim"
)

// run runs the CLI in-process and returns its exit status and output.
func run(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := dispatch(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestSizeAndSimulate(t *testing.T) {
	t.Parallel()
	runCases(t, []cliCase{
		{"classic sizing", []string{"size", "-n", "100000000", "-p", "0.01"}, 0, []string{"958505838 bits", "k            7"}, ""},
		{"round not ceil", []string{"size", "-n", "500000", "-p", "0.05", "--json"}, 0, []string{`"k": 4`}, ""},
		{"rate of m n k", []string{"size", "-m", "40000", "-n", "4000", "-k", "7"}, 0, []string{"fpr          0.008194"}, ""},
		{"n zero", []string{"size", "-n", "0", "-p", "0.01"}, 2, nil, "bloomlab size: --n must be a whole number in [1, 9007199254740992], got \"0\""},
		{"p one", []string{"size", "-n", "10", "-p", "1"}, 2, nil, "bloomlab size: --p must be a rate in [1e-19, 1), such as 0.01, 1% or 1 in 100, got \"1\""},
		{"p and m", []string{"size", "-n", "10", "-p", "0.1", "-m", "5"}, 2, nil, "bloomlab size: give either --p (to size m) or --m (to get the rate), not both"},
		{"k zero", []string{"size", "-m", "10", "-n", "10", "-k", "0"}, 2, nil, "bloomlab size: --k must be a whole number in [1, 64], got \"0\""},
		{"no n", []string{"size", "-p", "0.1"}, 2, nil, "bloomlab size: --n is required: give --n and --p, or --m, --n and --k"},
		{"unknown flag", []string{"size", "--bogus"}, 2, nil, "bloomlab size: unknown flag --bogus"},
		{"stray argument", []string{"simulate", "extra"}, 2, nil, "bloomlab simulate: unexpected argument \"extra\""},
		{"simulate default", []string{"simulate"}, 0, []string{"m                    40000 bits", "theory fpr           0.008194", "false negatives      0 of 500"}, ""},
		{"negative items", []string{"simulate", "--items", "-3"}, 2, nil, "bloomlab simulate: --items must be a whole number in [1, 10000000], got \"-3\""},
		{"non-numeric bpk", []string{"simulate", "--bits-per-key", "ten"}, 2, nil, "bloomlab simulate: --bits-per-key must be a number in [0.1, 64], got \"ten\""},
		{"cuckoo", []string{"simulate", "--variant", "cuckoo", "--fingerprint-bits", "12", "--bits-per-key", "16"}, 0,
			[]string{"m                    5332 slots", "fingerprint bits     12", "load                 0.7502 of slots", "cuckoo theory fpr    0.001465"}, ""},
		{"cuckoo overfilled", []string{"simulate", "--variant", "cuckoo", "--fingerprint-bits", "12"}, 0,
			[]string{"insert failures      690: the table is too full", "the members whose inserts failed are not in the filter"}, ""},
		{"fuse", []string{"simulate", "--variant", "fuse", "--fingerprint-bits", "16"}, 0,
			[]string{"m                    5632 cells", "memory               11264 bytes, 22.528 bits per key", "fuse theory fpr      0.000015", "construction         0 failed"}, ""},
		{"ribbon", []string{"simulate", "--variant", "ribbon", "--fingerprint-bits", "7"}, 0,
			[]string{"m                    4360 rows", "memory               3815 bytes, 7.630 bits per key", "ribbon theory fpr    0.007812",
				"construction         0 failed", "false negatives      0 of 500", "probes per negative  32.458 (expected 32.500)"}, ""},
		{"ribbon-128", []string{"simulate", "--variant", "ribbon-128", "--fingerprint-bits", "7"}, 0,
			[]string{"m                    4160 rows", "memory               3640 bytes, 7.280 bits per key", "ribbon-128 theory fpr 0.007812",
				"construction         0 failed", "false negatives      0 of 500", "probes per negative  64.397 (expected 64.500)"}, ""},
		{"ribbon at 0 bits is its choice", []string{"simulate", "--variant", "ribbon"}, 0, []string{"fingerprint bits     7"}, ""},
		{"ribbon fingerprint width too wide", []string{"simulate", "--variant", "ribbon", "--fingerprint-bits", "33"}, 2, nil,
			"bloomlab simulate: --fingerprint-bits: the ribbon filter's fingerprints are 1 to 32 bits wide (or 0 for its choice), got 33"},
		{"fingerprints on a Bloom filter", []string{"simulate", "--fingerprint-bits", "8"}, 2, nil,
			"bloomlab simulate: --fingerprint-bits: the standard filter has no fingerprints, so fingerprint bits must be 0, got 8"},
		{"fuse fingerprint width too wide", []string{"simulate", "--variant", "fuse", "--fingerprint-bits", "33"}, 2, nil,
			"bloomlab simulate: --fingerprint-bits: the fuse filter's fingerprints are 1 to 32 bits wide (or 0 for its choice), got 33"},
		{"fuse fingerprint width negative", []string{"simulate", "--variant", "fuse", "--fingerprint-bits", "-1"}, 2, nil,
			"bloomlab simulate: --fingerprint-bits must be a whole number in [0, 64], got \"-1\""},
		{"fuse fingerprint width past any layout's", []string{"simulate", "--variant", "fuse", "--fingerprint-bits", "65"}, 2, nil,
			"bloomlab simulate: --fingerprint-bits must be a whole number in [0, 64], got \"65\""},
		{"fuse at 0 bits is its choice", []string{"simulate", "--variant", "fuse", "--fingerprint-bits", "0"}, 0,
			[]string{"fingerprint bits     8", "fuse theory fpr      0.003906"}, ""},
		{"fuse at 7 bits", []string{"simulate", "--variant", "fuse", "--fingerprint-bits", "7"}, 0,
			[]string{"m                    5632 cells", "fingerprint bits     7", "memory               4928 bytes, 9.856 bits per key", "fuse theory fpr      0.007812", "false negatives      0 of 500"}, ""},
		{"fuse at 1 bit", []string{"simulate", "--variant", "fuse", "--fingerprint-bits", "1"}, 0,
			[]string{"memory               704 bytes, 1.408 bits per key", "fuse theory fpr      0.500000", "false negatives      0 of 500"}, ""},
		{"fuse at 32 bits", []string{"simulate", "--variant", "fuse", "--fingerprint-bits", "32"}, 0,
			[]string{"memory               22528 bytes, 45.056 bits per key", "false positives      0 of 4500", "false negatives      0 of 500"}, ""},
		{"semi-sorted cuckoo", []string{"simulate", "--variant", "cuckoo-ss", "--fingerprint-bits", "12", "--bits-per-key", "16"}, 0,
			[]string{"m                    5816 slots", "memory               7997 bytes, 15.994 bits per key", "load                 0.6878 of slots", "cuckoo-ss theory fpr 0.001343"}, ""},
		// Exit 0 and "(all": every check open to it ran and passed. The
		// counts are left out: they grow with every check.
		{"semi-sorted cuckoo audit", []string{"audit", "--variant", "cuckoo-ss"}, 0, []string{
			"Bloom Lab audit: the lab's cuckoo-ss filter (lab/cuckoo-ss)",
			"PASS  no-false-negatives/cuckoo-ss-every-width: every member is found again in cuckoo-ss filters of every fingerprint width, 5 to 16 bits",
			"PASS  statistics/fpr-cuckoo-ss/bits-per-key-10:", " skipped (all ", " checks open to lab/cuckoo-ss ran)\n"}, ""},
		{"semi-sorted cuckoo fingerprint width", []string{"simulate", "--variant", "cuckoo-ss", "--fingerprint-bits", "4"}, 2, nil,
			"bloomlab simulate: --fingerprint-bits: the cuckoo-ss filter's fingerprints are 5 to 16 bits wide (or 0 for its choice), got 4"},
		{"cuckoo fingerprint width", []string{"simulate", "--variant", "cuckoo", "--fingerprint-bits", "7"}, 2, nil,
			"bloomlab simulate: --fingerprint-bits: the cuckoo filter's fingerprints are 8, 12 or 16 bits wide (or 0 for its choice), got 7"},
		{"m kept while keys go in", []string{"simulate", "--m", "40000", "--items", "1234"}, 0,
			[]string{"m                    40000 bits", "n                    1234 keys", "bits per key         32.415"}, ""},
		{"m too large", []string{"simulate", "--m", "17179869185"}, 2, nil, "bloomlab simulate: --m must be a whole number in [0, 17179869184], got \"17179869185\""},
		{"unknown variant", []string{"simulate", "--variant", "quotient"}, 2, nil, "bloomlab simulate: --variant must be standard, blocked, counting, cuckoo, cuckoo-ss, fuse, ribbon, ribbon-128 or scalable, got \"quotient\""},
		{"scalable", []string{"simulate", "--variant", "scalable"}, 0, []string{"m                    100480 bits", "k                    34 hashes",
			"link 0               5056 bits from bit 0, k = 7, 500 of 500 keys", "link 3               57792 bits from bit 42688, k = 10, 465 of 4000 keys",
			"rate bound           0.015534 = p0/(1 - r), p0 = 0.007767", "false negatives      0 of 500"}, ""},
		{"scalable on independent hashes", []string{"simulate", "--variant", "scalable", "--hashing", "independent"}, 2, nil,
			"bloomlab simulate: the scalable filter has a seed of its own in each link of its chain; independent hashing applies to the standard and counting filters"},
		{"unknown fault", []string{"simulate", "--fault", "gremlin"}, 2, nil, "bloomlab simulate: --fault: unknown fault \"gremlin\", want none or one of"},
		{"fault in another layout", []string{"simulate", "--variant", "counting", "--fault", "negative-index"}, 2, nil,
			"bloomlab simulate: the negative-index fault lives in the standard filter and has no counting form; use the standard variant or another fault"},
		{"unknown hashing", []string{"simulate", "--hashing", "triple"}, 2, nil, "bloomlab simulate: --hashing must be double, enhanced or independent, got \"triple\""},
		{"hashing on a blocked filter", []string{"simulate", "--variant", "blocked", "--hashing", "independent"}, 2, nil,
			"bloomlab simulate: the blocked filter draws its positions inside one block from a stream of its own"},
		// m = 200, k = 7: double hashing measures above the formula where
		// independent hashes do not.
		{"independent hashing", []string{"simulate", "--items", "20", "--queries", "20000", "--present-share", "0", "--hashing", "independent"}, 0,
			[]string{"hashing              independent hashes: one SipHash a probe", "95% [", "for the whole measurement"}, ""},
		{"hashes too many", []string{"simulate", "--hashes", "65"}, 2, nil, "bloomlab simulate: --hashes must be a whole number in [0, 64], got \"65\""},
		{"unknown command", []string{"frobnicate"}, 2, nil, "bloomlab: unknown command \"frobnicate\""},
		{"version", []string{"version"}, 0, []string{"bloomlab devel (" + runtime.Version() + ")\n"}, ""},
		{"version takes no flags", []string{"version", "--json"}, 2, nil, "bloomlab version: unknown flag --json"},
		{"version takes no arguments", []string{"version", "now"}, 2, nil, "bloomlab version: unexpected argument \"now\""},
	})
}

// TestCommands pins the subcommands by name, apart from the table in
// main.go: usage lists each once, in this order, and each name reaches its
// own command, whose -h prints that command's usage and exits 0.
func TestCommands(t *testing.T) {
	t.Parallel()
	want := []string{"audit", "experiment", "figure", "filter", "lesson", "serve", "simulate", "site", "size", "try", "version"}
	code, _, errOut := run("help")
	if code != 0 {
		t.Fatalf("help: exit %d", code)
	}
	var listed []string
	_, list, _ := strings.Cut(errOut, "commands:\n")
	for _, line := range strings.Split(strings.TrimSpace(list), "\n") {
		if fields := strings.Fields(line); len(fields) > 1 {
			listed = append(listed, fields[0])
		}
	}
	if strings.Join(listed, " ") != strings.Join(want, " ") {
		t.Errorf("usage lists %q, want %q:\n%s", listed, want, errOut)
	}
	for _, name := range want {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			code, _, errOut := run(name, "-h")
			if code != 0 || !strings.HasPrefix(errOut, "usage: bloomlab "+name+" ") {
				t.Errorf("%s -h: exit %d, stderr:\n%s", name, code, errOut)
			}
		})
	}
}

// cliCase is one command line: the exit status it must give, what its
// stdout must hold, and how its first line on stderr starts.
type cliCase struct {
	name   string
	args   []string
	code   int
	stdout []string
	stderr string
}

// runCases runs each case in-process, in parallel.
func runCases(t *testing.T, cases []cliCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := run(tt.args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tt.code, stderr)
			}
			for _, want := range tt.stdout {
				if !strings.Contains(stdout, want) {
					t.Errorf("stdout lacks %q:\n%s", want, stdout)
				}
			}
			if first, _, _ := strings.Cut(stderr, "\n"); tt.stderr != "" && !strings.HasPrefix(first, tt.stderr) {
				t.Errorf("stderr starts %q, want %q", first, tt.stderr)
			}
		})
	}
}

func TestSimulateJSONFields(t *testing.T) {
	t.Parallel()
	code, stdout, _ := run("simulate", "--json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	for _, field := range strings.Fields("m n k filterBytes setBits occupancy theoryFpr theoryFprExact empiricalFpr queryCiLow queryCiHigh wholeCiLow wholeCiHigh hashing falsePositives falseNegatives absentQueries presentQueries probesPerNegative exactSetBytes digest") {
		if _, ok := got[field]; !ok {
			t.Errorf("simulate --json lacks %q", field)
		}
	}
	if got["m"] != 40000.0 || got["k"] != 7.0 || got["falseNegatives"] != 0.0 {
		t.Errorf("m %v k %v falseNegatives %v", got["m"], got["k"], got["falseNegatives"])
	}
	for variant, want := range map[string]string{"cuckoo": `"fingerprintBits":8,"load":0.8,"relocations":353`,
		"cuckoo-ss": `"fingerprintBits":10,"load":0.9000900090009001,"relocations":1766`,
		"fuse":      `"memoryBits":45056,"memoryBitsPerKey":11.264`} {
		_, stdout, _ := run("simulate", "--variant", variant, "--json")
		var r sim.Result
		if err := json.Unmarshal([]byte(stdout), &r); err != nil || r.Variant.Name() != variant {
			t.Fatalf("simulate --variant %s --json: %v, variant %v", variant, err, r.Variant)
		}
		if compact := strings.Join(strings.Fields(stdout), ""); !strings.Contains(compact, want) {
			t.Errorf("simulate --variant %s --json lacks %s:\n%s", variant, want, stdout)
		}
	}
}

func TestSizeJSONFields(t *testing.T) {
	t.Parallel()
	_, stdout, _ := run("size", "-n", "100000000", "-p", "0.01", "--json")
	var got map[string]any
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{"m", "n", "k", "bytes", "bitsPerKey", "fpr"} {
		if _, ok := got[field]; !ok {
			t.Errorf("size --json lacks %q", field)
		}
	}
	if got["m"] != 958505838.0 || got["k"] != 7.0 {
		t.Errorf("m %v k %v", got["m"], got["k"])
	}
}

func TestSimulateOwnKeys(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, text string) string {
		path := dir + "/" + name
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	keys := write("keys.txt", "alice\nbob\ncarol\nbob\n")
	absent := write("absent.txt", "dave\r\nerin\r\nalice\r\n")
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"keys and absent", []string{"--keys", keys, "--absent", absent}, 0, "4 lines, 1 duplicates not counted twice", ""},
		{"keys only", []string{"--keys", keys, "--json"}, 0, `"memberDuplicates": 1`, ""},
		{"n is distinct keys", []string{"--keys", keys}, 0, "n                    3 keys", ""},
		{"absent without keys", []string{"--absent", absent}, 2, "", "--absent needs --keys"},
		{"missing file", []string{"--keys", dir + "/none.txt"}, 1, "", "no such file"},
		{"empty file", []string{"--keys", write("empty.txt", "\n\n")}, 1, "", "empty.txt: no keys: the input is empty"},
		{"both from standard input", []string{"--keys", "-", "--absent", "-"}, 2, "", "bloomlab simulate: --keys and --absent cannot both be - (standard input)"},
		{"a byte order mark and bare cr", []string{"--keys", write("mac.txt", "\ufeffalice\rbob\rcarol\r")}, 0, "3 lines, 0 duplicates", ""},
		{"binary file", []string{"--keys", write("bin.txt", "a\x00b\n")}, 1, "", "keys must be text"},
		{"line too long", []string{"--keys", write("long.txt", strings.Repeat("x", 5000)+"\n")}, 1, "", "line 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(append([]string{"simulate"}, tt.args...)...)
			// Users read "bloomlab simulate: ...", never core's "core: ".
			if code != tt.code || !strings.Contains(stdout, tt.stdout) || !strings.Contains(stderr, tt.stderr) || strings.Contains(stderr, "core:") {
				t.Fatalf("exit %d (want %d)\nstdout:\n%s\nstderr:\n%s\nwant stdout containing %q, stderr containing %q",
					code, tt.code, stdout, stderr, tt.stdout, tt.stderr)
			}
		})
	}
}
