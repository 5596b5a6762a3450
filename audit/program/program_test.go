// The tests start programs, which js/wasm cannot: they run natively.

//go:build !js

package program

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bloomlab/bloomlab/audit"
	"github.com/bloomlab/bloomlab/core"
)

// The tests start this test binary as the program: given the arguments
// "adapter MODE ONCE", TestMain serves the lab's standard filter over the
// protocol instead of running tests, and misbehaves as MODE says if the
// file ONCE does not exist yet, creating it: the process started after the
// fault behaves.
func TestMain(m *testing.M) {
	if len(os.Args) == 4 && os.Args[1] == "adapter" {
		mode := os.Args[2]
		if _, err := os.Stat(os.Args[3]); err == nil && mode != "exit-always" {
			mode = map[bool]string{true: "system"}[strings.HasPrefix(mode, "system")]
		} else if err := os.WriteFile(os.Args[3], nil, 0o644); err != nil {
			os.Exit(6)
		}
		os.Exit(serve(mode))
	}
	os.Exit(m.Run())
}

// labName names the lab's filter behind the protocol and in process alike,
// so that the two reports can be compared digest for digest.
const labName = "lab/standard"

// serve is a small adapter in Go: the lab's standard filter, seeded, over
// the protocol. In mode "system" it declares save, merge and count, and
// serves them from core (Save, Load, Union, EstimateKeys); "system:FAULT"
// answers FAULT instead of the first answer to the request FAULT names
// (systemFaults). Other modes make it misbehave at its first test request:
// "exit" exits ("exit-always" in every process, not only the first),
// "hang" stops answering, "garbage" answers a line of
// nonsense, "short" answers one character too few, "huge" writes 64 MiB
// with no end of line; "hello" botches the handshake. In mode "counting"
// it serves the lab's counting filter instead, and removes keys.
func serve(mode string) int {
	lab := audit.MustLab(core.Standard, core.NoFault, "")
	if mode == "counting" {
		lab = audit.MustLab(core.CountingVariant, core.NoFault, "")
	}
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	filters := map[string]audit.Filter{}
	fault, system := strings.CutPrefix(mode, "system")
	fault = strings.TrimPrefix(fault, ":")
	readKeys := func(n int) [][]byte {
		keys := make([][]byte, n)
		for i := range keys {
			line, err := in.ReadString('\n')
			if err != nil {
				os.Exit(3)
			}
			keys[i], _ = hex.DecodeString(strings.TrimSuffix(line, "\n"))
		}
		return keys
	}
	for {
		line, err := in.ReadString('\n')
		if err != nil {
			return 0
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			return 4
		}
		switch f[0] {
		case "bloomlab-audit":
			switch mode {
			case "hello":
				fmt.Fprintln(out, "hi there")
			case "blocked":
				fmt.Fprintf(out, "hello blocked\nrate blocked 512\nready\n")
			case "counting":
				fmt.Fprintf(out, "hello counting\ncan remove\nready\n")
			default:
				if system {
					fmt.Fprintf(out, "hello system\ncan seed\ncan save\ncan merge\ncan count\nready\n")
					break
				}
				fmt.Fprintf(out, "hello %s\nabout the lab's standard filter, behind the protocol\ncan seed\nready\n", labName)
			}
		case "new":
			m, _ := strconv.ParseUint(f[2], 10, 64)
			k, _ := strconv.Atoi(f[3])
			n, _ := strconv.Atoi(f[4])
			seed, _ := strconv.ParseUint(f[5], 10, 64)
			flt, err := lab.New(audit.Shape{M: m, K: k, N: n, Seed: seed})
			if system {
				var mem core.Membership
				mem, err = core.Standard.Build(core.Spec{M: m, K: k, N: uint64(n), Seed: seed})
				flt = &member{mem}
			}
			if err != nil {
				fmt.Fprintf(out, "refused %s\n", strings.ReplaceAll(err.Error(), "\n", " "))
				break
			}
			filters[f[1]] = flt
			fmt.Fprintln(out, "ok")
		case "add":
			n, _ := strconv.Atoi(f[2])
			for _, k := range readKeys(n) {
				filters[f[1]].Add(k)
			}
			fmt.Fprintln(out, "ok")
		case "test":
			n, _ := strconv.Atoi(f[2])
			keys := readKeys(n)
			switch mode {
			case "exit", "exit-always":
				fmt.Fprintln(os.Stderr, "adapter: giving up at the first test")
				return 7
			case "hang":
				out.Flush()
				time.Sleep(time.Hour)
			case "garbage":
				fmt.Fprintln(out, "maybe?")
				out.Flush()
				continue
			case "short":
				keys = keys[1:]
			case "huge":
				out.WriteString(strings.Repeat("1", 64<<20))
				out.Flush()
				time.Sleep(time.Hour)
			}
			answer := make([]byte, len(keys))
			for i, k := range keys {
				answer[i] = '0'
				if filters[f[1]].Test(k) {
					answer[i] = '1'
				}
			}
			fmt.Fprintf(out, "%s\n", answer)
		case "remove":
			n, _ := strconv.Atoi(f[2])
			keys := readKeys(n)
			answer := make([]byte, len(keys))
			for i, k := range keys {
				answer[i] = '0'
				if filters[f[1]].(audit.Remover).Remove(k) {
					answer[i] = '1'
				}
			}
			fmt.Fprintf(out, "%s\n", answer)
		case "save", "load", "merge", "count":
			answer, err := systemAnswer(f, filters, in)
			if err != nil {
				fmt.Fprintf(os.Stderr, "adapter: %v\n", err)
				return 8
			}
			if bad, ok := systemFaults[fault]; ok && strings.HasPrefix(fault, f[0]) {
				answer, fault = bad, ""
			}
			fmt.Fprintln(out, answer)
		case "free":
			delete(filters, f[1])
			fmt.Fprintln(out, "ok")
		case "bye":
			return 0
		default:
			fmt.Fprintf(os.Stderr, "adapter: unknown request %q\n", line)
			return 5
		}
		out.Flush()
	}
}

// member is a core filter served in mode "system": a pointer, so that a
// merge replaces its filter in place.
type member struct{ core.Membership }

func (m *member) Test(key []byte) bool { ok, _ := m.Contains(key); return ok }

// systemFaults are the answers mode "system:FAULT" gives to the first
// request FAULT begins with, in place of the right one.
var systemFaults = map[string]string{
	"save-odd":       "abc",
	"save-not-hex":   "00zz",
	"save-huge":      strings.Repeat("00", fileLimit+1),
	"load-garbage":   "loaded!",
	"merge-garbage":  "merged!",
	"count-word":     "many",
	"count-negative": "-3",
	"count-nan":      "nan",
	"count-inf":      "inf 0",
	"count-sd-nan":   "1000 nan",
	"count-three":    "1000 30 2",
	"count-empty":    "",
}

// systemAnswer answers save, load, merge and count from core.
func systemAnswer(f []string, filters map[string]audit.Filter, in *bufio.Reader) (string, error) {
	flt, _ := filters[f[1]].(*member)
	if flt == nil && f[0] != "load" {
		return "", fmt.Errorf("no filter %s", f[1])
	}
	switch f[0] {
	case "save":
		var b strings.Builder
		if err := core.Save(&b, flt.Membership); err != nil {
			return "", err
		}
		return hex.EncodeToString([]byte(b.String())), nil
	case "load":
		line, err := in.ReadString('\n')
		if err != nil {
			return "", err
		}
		file, err := hex.DecodeString(strings.TrimSuffix(line, "\n"))
		if err != nil {
			return "", err
		}
		mem, err := core.Load(bytes.NewReader(file))
		if err != nil {
			return "refused " + err.Error(), nil
		}
		filters[f[1]] = &member{mem}
		return "ok", nil
	case "merge":
		other, _ := filters[f[2]].(*member)
		if other == nil {
			return "", fmt.Errorf("no filter %s", f[2])
		}
		merged, err := core.Union(flt.Membership, other.Membership)
		if err != nil {
			return "refused " + err.Error(), nil
		}
		flt.Membership = merged.Filter
		return "ok", nil
	}
	e, err := core.EstimateKeys(flt.Membership)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%g %g", e.N, e.SD), nil
}

// adapter starts this binary as the program, in mode.
func adapter(t *testing.T, mode string, timeout time.Duration) *Program {
	t.Helper()
	p, err := Start(context.Background(), adapterArgv(t, mode), timeout)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

// adapterArgv is the command that starts this binary as the adapter.
func adapterArgv(t *testing.T, mode string) []string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return []string{exe, "adapter", mode, t.TempDir() + "/misbehaved"}
}

// check is the audit check named id.
func check(t *testing.T, id string) audit.Check {
	t.Helper()
	for _, c := range audit.Checks() {
		if c.ID == id {
			return c
		}
	}
	t.Fatalf("no check %s", id)
	return audit.Check{}
}

// The lab's filter behind the protocol gets the verdicts, the details and
// the digest it gets in process through Add and Test alone.
func TestSameVerdictsThroughTheProtocol(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole audit twice")
	}
	lab := audit.MustLab(core.Standard, core.NoFault, "")
	p := adapter(t, "", 0)
	remote := p.Target()
	local := audit.Target{Name: remote.Name, About: remote.About, Seeded: true,
		New: func(s audit.Shape) (audit.Filter, error) {
			f, err := lab.New(s)
			return struct{ audit.Filter }{f}, err
		}}
	want, err := audit.Run(local, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := audit.Run(remote, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, o := range got.Checks {
		if w := want.Checks[i]; o != w {
			t.Errorf("%s through the protocol: pass %v, %q\n in process: pass %v, %q", o.ID, o.Pass, o.Detail, w.Pass, w.Detail)
		}
	}
	if got.Digest != want.Digest || p.Started() != 1 {
		t.Errorf("digest %s through the protocol, %s in process; %d processes started", got.Digest, want.Digest, p.Started())
	}
	t.Logf("%s: %s, digest %s", got.Target, got.Summary(), got.Digest)
}

// A program that misbehaves fails the check it was serving with what was
// sent and what came back, and the next check gets a fresh process.
func TestMisbehavingPrograms(t *testing.T) {
	for _, c := range []struct {
		mode, want string
	}{
		{"exit", `exited (exit status 7) before answering; its stderr ends: adapter: giving up at the first test`},
		{"garbage", `answered "maybe?", want 4000 characters of 0 and 1`},
		{"short", `want 4000 characters of 0 and 1`},
		{"huge", "answered a line longer than 4000 bytes"},
	} {
		t.Run(c.mode, func(t *testing.T) {
			t.Parallel()
			p := adapter(t, c.mode, 10*time.Second) // far above the milliseconds a request takes
			target := p.Target()
			o, err := audit.RunCheck(target, check(t, "no-false-negatives/k-1"))
			if err != nil {
				t.Fatal(err)
			}
			if o.Pass || !strings.Contains(o.Detail, c.want) || !strings.Contains(o.Detail, `to "test `) {
				t.Errorf("%s: pass %v, detail %q, want it to fail with %q", c.mode, o.Pass, o.Detail, c.want)
			}
			o, err = audit.RunCheck(target, check(t, "determinism/same-build-same-answers"))
			if err != nil {
				t.Fatal(err)
			}
			if !o.Pass || p.Started() != 2 { // the first, then a fresh one
				t.Errorf("%s: the next check: pass %v, %q; %d processes started, want 2", c.mode, o.Pass, o.Detail, p.Started())
			}
			t.Logf("%s: %s", c.mode, o.Detail)
		})
	}
}

// A program that hangs costs one timeout, not one a check: the check it
// hung in fails, every later one is reported at once as not run, because
// of that hang, and the program is not started again.
func TestHangCostsOneTimeout(t *testing.T) {
	p := adapter(t, "hang", 2*time.Second) // far above the milliseconds a request takes
	r, err := audit.Run(p.Target(), nil)
	if err != nil {
		t.Fatal(err)
	}
	hung, notRun := 0, 0
	for _, o := range r.Checks {
		switch {
		case strings.Contains(o.Detail, "did not answer within 2s") && !o.Skipped:
			hung++
		case o.Skipped && strings.HasPrefix(o.Detail, "not run: program lab/standard did not answer within 2s and is not started again"):
			notRun++
		case !o.Skipped:
			if hung > 0 {
				t.Errorf("%s ran after the hang: pass %v, %q", o.ID, o.Pass, o.Detail)
			}
		}
	}
	if hung != 1 || notRun < 30 || p.Started() != 1 || r.AllPassed() {
		t.Errorf("%d checks hung, %d not run, %d processes started, all passed %v; want 1 hang, the rest not run, 1 process",
			hung, notRun, p.Started(), r.AllPassed())
	}
	t.Logf("%s; %d not run after the hang", r.Summary(), notRun)
}

// A program that fails every check is started a bounded number of times:
// after maxStarts, the rest of the audit is not run.
func TestRestartsAreBounded(t *testing.T) {
	p := adapter(t, "exit-always", 0)
	r, err := audit.Run(p.Target(), nil)
	if err != nil {
		t.Fatal(err)
	}
	notRun := 0
	for _, o := range r.Checks {
		if o.Skipped && strings.Contains(o.Detail, "failed 16 times and is not started again") {
			notRun++
		}
	}
	if p.Started() != maxStarts || notRun == 0 || r.AllPassed() {
		t.Errorf("%d processes started, want %d; %d checks not run", p.Started(), maxStarts, notRun)
	}
	t.Logf("%s; %d not run after %d starts", r.Summary(), notRun, p.Started())
}

// A program that does not open with hello is refused at once, with what
// it said.
func TestBadHandshake(t *testing.T) {
	_, err := Start(context.Background(), adapterArgv(t, "hello"), 5*time.Second)
	if err == nil || !strings.Contains(err.Error(), `answered "hi there", want "hello NAME"`) {
		t.Errorf("bad handshake: %v", err)
	}
	if _, err := Start(context.Background(), []string{"/nonexistent/adapter"}, time.Second); err == nil || !strings.Contains(err.Error(), "cannot start /nonexistent/adapter") {
		t.Errorf("missing program: %v", err)
	}
}

// A program that names the blocked theory gets it, at m rounded up to
// whole blocks; one that names none gets the standard formula.
func TestRateByName(t *testing.T) {
	s := audit.Shape{M: 1000, K: 6, N: 100}
	if got, want := adapter(t, "blocked", 0).Target().Rate(s), core.BlockedRateExact(1024, 100, 6); got != want {
		t.Errorf("rate blocked 512: %g, want %g", got, want)
	}
	if rate := adapter(t, "", 0).Target().Rate; rate != nil {
		t.Errorf("no rate named: the target has its own theory, want the standard formula")
	}
}

// A program that declares removal gets the removal check, and its removes
// travel: the lab's counting filter behind the protocol passes it, with
// every member it keeps found.
func TestRemovalThroughTheProtocol(t *testing.T) {
	p := adapter(t, "counting", 0)
	o, err := audit.RunCheck(p.Target(), check(t, "no-false-negatives/remove-half"))
	if err != nil {
		t.Fatal(err)
	}
	if o.Skipped || !o.Pass || !strings.HasPrefix(o.Detail, "0 of 2000 removals refused, 0 of 2000") {
		t.Errorf("remove-half through the protocol: skipped %v, pass %v, %q", o.Skipped, o.Pass, o.Detail)
	}
}

// The checks past 2^32 and of the seed's high bits, on filters of other
// languages (testdata/filter.py and filter.js, the same filter in each):
// green on the correct one, red on each real mistake, and a seed's width
// declared is the one the program is held to.
func TestWideChecksInOtherLanguages(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the checks through Python and Node")
	}
	checks := []string{"index-range/positions-m-2^33", "index-range/positions-m-2^63+1",
		"determinism/seed-moves-answers", "determinism/seed-high-bits"}
	for _, c := range []struct {
		mode string
		pass []bool // the checks' verdicts, in order
		want string // in the last check's detail
	}{
		{"good", []bool{true, true, true, true}, "held to the whole 64-bit seed"},
		{"hash32", []bool{false, false, true, true}, "held to the whole 64-bit seed"},
		{"seed32", []bool{true, true, true, false}, "(bit 63): 0 of 100000 answers differ"},
		{"seed32-declared", []bool{true, true, true, true}, "takes 32 bits of seed, as it declared"},
		{"seed-low", []bool{true, true, true, false}, "(bit 31): 0 of 100000 answers differ"},
	} {
		for _, lang := range []string{"python3", "node"} {
			t.Run(lang+"/"+c.mode, func(t *testing.T) {
				t.Parallel()
				script := map[string]string{"python3": "testdata/filter.py", "node": "testdata/filter.js"}[lang]
				p, err := Start(context.Background(), []string{lang, script, c.mode}, 0)
				if err != nil {
					t.Fatal(err)
				}
				defer p.Close()
				target := p.Target()
				for i, id := range checks {
					o, err := audit.RunCheck(target, check(t, id))
					if err != nil {
						t.Fatal(err)
					}
					if o.Skipped || o.Pass != c.pass[i] {
						t.Errorf("%s: skipped %v, pass %v, want pass %v: %s", id, o.Skipped, o.Pass, c.pass[i], o.Detail)
					}
					if i == len(checks)-1 && !strings.Contains(o.Detail, c.want) {
						t.Errorf("%s: %q, want it to say %q", id, o.Detail, c.want)
					}
				}
				if p.Started() != 1 {
					t.Errorf("%d processes started, want 1: no fault", p.Started())
				}
			})
		}
	}
}

// PROTOCOL.md states the figures a program must plan for; this test takes
// them from the code and from a whole audit, so the page cannot drift from
// what the audit does. The recorder is the lab's filter with every view,
// as a program that declares everything would be asked.
func TestProtocolStatesTheLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a whole audit")
	}
	doc, err := os.ReadFile("PROTOCOL.md")
	if err != nil {
		t.Fatal(err)
	}
	lab := audit.MustLab(core.Standard, core.NoFault, "")
	var first *audit.Shape
	minM, maxM, minK, maxK, minN, maxN := uint64(math.MaxUint64), uint64(0), math.MaxInt, 0, math.MaxInt, 0
	minSeed, maxSeed, longest := uint64(math.MaxUint64), uint64(0), 0
	var wide []uint64
	recorder := audit.Target{Name: "recorder", Seeded: true, New: func(s audit.Shape) (audit.Filter, error) {
		if first == nil {
			first = &s
		}
		minM, maxM, minK, maxK, minN, maxN = min(minM, s.M), max(maxM, s.M), min(minK, s.K), max(maxK, s.K), min(minN, s.N), max(maxN, s.N)
		minSeed, maxSeed = min(minSeed, s.Seed), max(maxSeed, s.Seed)
		if s.M > 1<<32 {
			if !slices.Contains(wide, s.M) {
				wide = append(wide, s.M)
			}
			return nil, audit.Refusal{Reason: "the recorder builds no filter past 2^32 positions"}
		}
		f, err := lab.New(s)
		if err != nil {
			return nil, err
		}
		return recording{f.(positionsFilter), &longest}, nil
	}}
	if _, err := audit.Run(recorder, nil); err != nil {
		t.Fatal(err)
	}
	for _, phrase := range []string{
		fmt.Sprintf("`M` is from %s to %s (2^63 + 1), `K` from %d to %d, `N` from %s to %s.", commas(minM), commas(maxM), minK, maxK, commas(uint64(minN)), commas(uint64(maxN))),
		fmt.Sprintf("`SEED` is from %s to %s (2^64 - 1)", commas(minSeed), commas(maxSeed)),
		fmt.Sprintf("The audit's first\nfilter is `M` = %s, `K` = %d, `N` = %s", commas(first.M), first.K, commas(uint64(first.N))),
		fmt.Sprintf("At most %s keys come in one request", commas(batch)),
		fmt.Sprintf("the longest the audit sends\n  is 1 MiB + %d byte", longest-1<<20),
		fmt.Sprintf("up to %s more requests", map[int]string{8: "eight"}[unanswered]),
		fmt.Sprintf("at most %s bytes for a handshake line and the answers to `new`, `load` and\n  `merge`, %d bytes for `ok`, a `size`, a `rate` and a `count`, %s bytes for a key's positions, and\n  %s hex digits for `save` (a file of at most %s bytes, %d MiB)",
			commas(lineLimit), numberLimit, commas(positionsLimit), commas(saveLimit), commas(fileLimit), fileLimit>>20),
		fmt.Sprintf("at most %d MiB of bytes as for `save`", fileLimit>>20),
		fmt.Sprintf("It starts a program at most %d times in one audit, the first start included", maxStarts),
		fmt.Sprintf("(%d s a request, `--exec-timeout`)", int(DefaultTimeout.Seconds())),
		fmt.Sprintf("\nbloomlab-audit %d\n", Version),
	} {
		if !strings.Contains(strings.ReplaceAll(string(doc), "\n    ", "\n"), phrase) {
			t.Errorf("PROTOCOL.md does not say %q", phrase)
		}
	}
	if want := []uint64{1 << 33, 1<<40 + 15, 1<<63 + 1}; !slices.Equal(wide, want) {
		t.Errorf("M past 2^32: %v, PROTOCOL.md names %v", wide, want)
	}
}

// positionsFilter is the lab's filter with the views a program may declare.
type positionsFilter interface {
	audit.Filter
	audit.Positioner
}

// recording is a filter that keeps the longest key it was given.
type recording struct {
	positionsFilter
	longest *int
}

func (r recording) Add(key []byte) {
	*r.longest = max(*r.longest, len(key))
	r.positionsFilter.Add(key)
}

func (r recording) Test(key []byte) bool {
	*r.longest = max(*r.longest, len(key))
	return r.positionsFilter.Test(key)
}

// commas writes n with a comma every three digits, as PROTOCOL.md does.
func commas(n uint64) string {
	s := strconv.FormatUint(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// The JavaScript adapter PROTOCOL.md shows runs as written: over a small
// filter of its own it passes the checks it can reach, and refuses an m it
// cannot build instead of building another.
func TestProtocolExampleRuns(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("needs Node")
	}
	doc, err := os.ReadFile("PROTOCOL.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "```js\n")
	code, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("PROTOCOL.md has no JavaScript example")
	}
	dir := t.TempDir()
	const myfilter = `const crypto = require("node:crypto");
class MyFilter {
  constructor(m, k, seed) {
    this.m = m, this.k = k, this.key = Buffer.alloc(8), this.bits = new Set();
    this.key.writeBigUInt64LE(seed);
  }
  positions(key) {
    const d = crypto.createHmac("sha256", this.key).update(key).digest();
    const h1 = d.readBigUInt64LE(0), h2 = d.readBigUInt64LE(8) | 1n, out = [];
    for (let i = 0n; i < BigInt(this.k); i++) out.push((((h1 + i * h2) & ((1n << 64n) - 1n)) * this.m) >> 64n);
    return out;
  }
  add(key) { for (const p of this.positions(key)) this.bits.add(p); }
  has(key) { return this.positions(key).every((p) => this.bits.has(p)); }
}
module.exports = { MyFilter };
`
	for name, text := range map[string]string{"adapter.js": code, "myfilter.js": myfilter} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := Start(context.Background(), []string{node, filepath.Join(dir, "adapter.js")}, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	target := p.Target()
	for _, id := range []string{"no-false-negatives/k-1", "no-false-negatives/seed-2^63", "determinism/seed-high-bits"} {
		if o, err := audit.RunCheck(target, check(t, id)); err != nil || !o.Pass {
			t.Errorf("%s: %v, pass %v: %s", id, err, o.Pass, o.Detail)
		}
	}
	if _, err := target.New(audit.Shape{M: 1 << 33, K: 7, N: 10, Seed: 1}); !strings.Contains(fmt.Sprint(err), "refused: MyFilter holds at most 2^32 bits") {
		t.Errorf("m = 2^33: %v, want the example's refusal", err)
	}
	if target.Name != "myfilter" || p.Started() != 1 {
		t.Errorf("target %q, %d processes started", target.Name, p.Started())
	}
}
