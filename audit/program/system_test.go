//go:build !js

package program

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/bloomlab/bloomlab/audit"
	"github.com/bloomlab/bloomlab/core"
)

// Every entry of views shows exactly the views of its index: the audit
// finds a view by its methods, so one too many would be asked of a
// program that never declared it.
func TestViews(t *testing.T) {
	kinds := []reflect.Type{
		reflect.TypeFor[audit.Remover](), reflect.TypeFor[audit.Positioner](),
		reflect.TypeFor[audit.Saver](), reflect.TypeFor[audit.Merger](), reflect.TypeFor[audit.Counter](),
	}
	for i, build := range views {
		h := hello{remove: i&1 != 0, positions: i&2 != 0, save: i&4 != 0, merge: i&8 != 0, count: i&16 != 0}
		if viewOf(h) != i {
			t.Errorf("viewOf(%+v) = %d, want %d", h, viewOf(h), i)
		}
		f := reflect.TypeOf(build(&filter{}))
		for bit, kind := range kinds {
			if has, want := f.Implements(kind), i>>bit&1 != 0; has != want {
				t.Errorf("views[%d] is %v %s, want %v", i, has, kind.Name(), want)
			}
		}
	}
}

// systemCheck is a check of the audit's form that runs do: the tests of
// this file drive the views through RunCheck, so that a bad answer fails
// the check as the audit's own checks would see it fail.
func systemCheck(need audit.Need, do func(t audit.Target) (string, bool)) audit.Check {
	return audit.Check{ID: "test/" + string(need), Group: audit.Checks()[0].Group, Needs: []audit.Need{need},
		Run: func(t audit.Target) audit.Verdict {
			detail, pass := do(t)
			return audit.Verdict{Pass: pass, Detail: detail}
		}}
}

// keysOf is n member keys from first, of the lab's kind.
func keysOf(first, n int) [][]byte {
	keys := make([][]byte, n)
	for i := range keys {
		keys[i] = core.Key(nil, core.Members, uint64(first+i), 1, 16)
	}
	return keys
}

// built is a filter of t of shape s holding keys.
func built(t audit.Target, s audit.Shape, keys [][]byte) audit.Filter {
	f, err := t.New(s)
	if err != nil {
		panic(audit.Broken{Err: err})
	}
	for _, k := range keys {
		f.Add(k)
	}
	return f
}

// found counts the keys f may hold.
func found(f audit.Filter, keys [][]byte) int {
	n := 0
	for _, k := range keys {
		if f.Test(k) {
			n++
		}
	}
	return n
}

// The lab's standard filter behind the protocol, saved, loaded, merged and
// counted by the program (core's Save, Load, Union and EstimateKeys): the
// file travels byte for byte, the loaded filter answers as the saved one,
// the union of disjoint filters holds both key sets, a filter of another
// seed is refused, and the count is near n.
func TestSystemThroughTheProtocol(t *testing.T) {
	p := adapter(t, "system", 0)
	target := p.Target()
	if target.Load == nil {
		t.Fatal("a program that declares can save has no Load")
	}
	s := audit.Shape{M: 100000, K: 7, N: 10000, Seed: 1}
	a, b, absent := keysOf(0, 5000), keysOf(5000, 5000), keysOf(1<<40, 20000)
	run := func(need audit.Need, do func(t audit.Target) (string, bool)) {
		t.Helper()
		o, err := audit.RunCheck(target, systemCheck(need, do))
		if err != nil {
			t.Fatal(err)
		}
		if !o.Pass || o.Skipped {
			t.Errorf("%s: pass %v, skipped %v: %s", need, o.Pass, o.Skipped, o.Detail)
		}
		t.Logf("%s: %s", need, o.Detail)
	}
	run(audit.NeedSave, func(tg audit.Target) (string, bool) {
		f := built(tg, s, a)
		var file bytes.Buffer
		if err := f.(audit.Saver).Save(&file); err != nil {
			return err.Error(), false
		}
		local, _ := core.Standard.Build(core.Spec{M: s.M, K: s.K, N: uint64(s.N), Seed: s.Seed})
		for _, k := range a {
			local.Add(k)
		}
		var want bytes.Buffer
		core.Save(&want, local)
		g, err := tg.Load(bytes.NewReader(file.Bytes()))
		if err != nil {
			return err.Error(), false
		}
		same := 0
		for _, k := range absent {
			if f.Test(k) == g.Test(k) {
				same++
			}
		}
		var again bytes.Buffer
		g.(audit.Saver).Save(&again)
		damaged := bytes.Clone(file.Bytes())
		damaged[60] ^= 1
		_, refusal := tg.Load(bytes.NewReader(damaged))
		return fmt.Sprintf("%d bytes, as core saves them %v, saved again %v; %d of %d members and %d of %d absent answers as before; damaged: %v",
				file.Len(), bytes.Equal(file.Bytes(), want.Bytes()), bytes.Equal(again.Bytes(), file.Bytes()),
				found(g, a), len(a), same, len(absent), refusal),
			bytes.Equal(file.Bytes(), want.Bytes()) && bytes.Equal(again.Bytes(), file.Bytes()) &&
				found(g, a) == len(a) && same == len(absent) && strings.Contains(fmt.Sprint(refusal), "refused the file: core: ")
	})
	run(audit.NeedMerge, func(tg audit.Target) (string, bool) {
		fa, fb := built(tg, s, a), built(tg, s, b)
		if err := fa.(audit.Merger).Merge(fb); err != nil {
			return err.Error(), false
		}
		other := s
		other.Seed = 2
		err := fa.(audit.Merger).Merge(built(tg, other, nil))
		return fmt.Sprintf("union: %d of %d and %d of %d; other seed: %v", found(fa, a), len(a), found(fa, b), len(b), err),
			found(fa, a) == len(a) && found(fa, b) == len(b) && strings.Contains(fmt.Sprint(err), "refused the merge: core: ")
	})
	run(audit.NeedCount, func(tg audit.Target) (string, bool) {
		n, sd := built(tg, s, a).(audit.Counter).Count()
		return fmt.Sprintf("n̂ = %.1f, sd %.1f, for %d keys", n, sd, len(a)), sd > 0 && math.Abs(n-float64(len(a))) < 4*sd
	})
	if p.Started() != 1 {
		t.Errorf("%d processes started, want 1", p.Started())
	}
}

// Each answer the protocol does not allow fails the check that asked, with
// the request, the answer and what was wanted; the audit reads no more
// than the limit of a save.
func TestBadSystemAnswers(t *testing.T) {
	s := audit.Shape{M: 1000, K: 3, N: 100, Seed: 1}
	save := func(f audit.Filter) { f.(audit.Saver).Save(io.Discard) }
	count := func(f audit.Filter) { f.(audit.Counter).Count() }
	for _, c := range []struct {
		fault string
		need  audit.Need
		do    func(f audit.Filter, tg audit.Target)
		want  string
	}{
		{"save-odd", audit.NeedSave, func(f audit.Filter, _ audit.Target) { save(f) }, `to "save 2" it answered "abc", want the file's bytes in hex (encoding/hex: odd length hex string)`},
		{"save-not-hex", audit.NeedSave, func(f audit.Filter, _ audit.Target) { save(f) }, `answered "00zz", want the file's bytes in hex (encoding/hex: invalid byte: U+007A 'z')`},
		{"save-huge", audit.NeedSave, func(f audit.Filter, _ audit.Target) { save(f) }, `to "save 2" it answered a line longer than 33554432 bytes`},
		{"load-garbage", audit.NeedSave, func(f audit.Filter, tg audit.Target) { tg.Load(bytes.NewReader([]byte("BLMf"))) }, `to "load 3 4" it answered "loaded!", want "ok" or "refused REASON"`},
		{"merge-garbage", audit.NeedMerge, func(f audit.Filter, tg audit.Target) { f.(audit.Merger).Merge(f) }, `to "merge 2 2" it answered "merged!", want "ok" or "refused REASON"`},
		{"count-word", audit.NeedCount, func(f audit.Filter, _ audit.Target) { count(f) }, `to "count 2" it answered "many", want "N" or "N SD", finite numbers from 0 up`},
		{"count-negative", audit.NeedCount, func(f audit.Filter, _ audit.Target) { count(f) }, `answered "-3", want "N" or "N SD"`},
		{"count-nan", audit.NeedCount, func(f audit.Filter, _ audit.Target) { count(f) }, `answered "nan", want "N" or "N SD"`},
		{"count-inf", audit.NeedCount, func(f audit.Filter, _ audit.Target) { count(f) }, `answered "inf 0", want "N" or "N SD"`},
		{"count-sd-nan", audit.NeedCount, func(f audit.Filter, _ audit.Target) { count(f) }, `answered "1000 nan", want "N" or "N SD"`},
		{"count-three", audit.NeedCount, func(f audit.Filter, _ audit.Target) { count(f) }, `answered "1000 30 2", want "N" or "N SD"`},
		{"count-empty", audit.NeedCount, func(f audit.Filter, _ audit.Target) { count(f) }, `answered "", want "N" or "N SD"`},
	} {
		t.Run(c.fault, func(t *testing.T) {
			t.Parallel()
			p := adapter(t, "system:"+c.fault, 10*time.Second) // far above the milliseconds a request takes
			o, err := audit.RunCheck(p.Target(), systemCheck(c.need, func(tg audit.Target) (string, bool) {
				c.do(built(tg, s, keysOf(0, 10)), tg)
				return "no fault seen", true
			}))
			if err != nil {
				t.Fatal(err)
			}
			if o.Pass || o.Skipped || !strings.Contains(o.Detail, c.want) {
				t.Errorf("pass %v, skipped %v, %q\nwant it to fail with %q", o.Pass, o.Skipped, o.Detail, c.want)
			}
		})
	}
}
