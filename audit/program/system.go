package program

import (
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/bloomlab/bloomlab/audit"
)

// The requests of a filter in a system: saved, merged, counted.

// save asks the program for the filter's file, one line of hex, and
// writes its bytes to w.
func (f *filter) save(w io.Writer) error {
	f.live()
	request := fmt.Sprintf("save %d", f.id)
	answer, err := f.p.call(request, nil, saveLimit)
	if err != nil {
		broken(err)
	}
	file, err := hex.DecodeString(answer)
	if err != nil {
		panic(audit.Broken{Err: f.p.fault(f.proc.unexpected(request, answer, "the file's bytes in hex ("+err.Error()+")"))})
	}
	_, err = w.Write(file)
	return err
}

// merge asks the program to take other, a filter it holds, into f. Its
// refusal is the error.
func (f *filter) merge(other audit.Filter) error {
	f.live()
	o, ok := other.(interface{ base() *filter })
	if !ok || o.base().p != f.p {
		return fmt.Errorf("program %s: merges only filters it built, not a %T", f.p.hello.name, other)
	}
	g := o.base()
	g.live()
	request := fmt.Sprintf("merge %d %d", f.id, g.id)
	answer, err := f.p.call(request, nil, lineLimit)
	if err != nil {
		broken(err)
	}
	if reason, ok := strings.CutPrefix(answer, "refused "); ok {
		return fmt.Errorf("program %s refused the merge: %s", f.p.hello.name, reason)
	}
	if answer != "ok" {
		panic(audit.Broken{Err: f.p.fault(f.proc.unexpected(request, answer, `"ok" or "refused REASON"`))})
	}
	return nil
}

func (f *filter) base() *filter { return f }

// count asks the program how many keys the filter holds.
func (f *filter) count() (n, sd float64) {
	f.live()
	request := fmt.Sprintf("count %d", f.id)
	answer, err := f.p.call(request, nil, numberLimit)
	if err != nil {
		broken(err)
	}
	n, sd, ok := parseCount(answer)
	if !ok {
		panic(audit.Broken{Err: f.p.fault(f.proc.unexpected(request, answer, `"N" or "N SD", finite numbers from 0 up`))})
	}
	return n, sd
}

// parseCount reads a count's answer, N or N SD.
func parseCount(answer string) (n, sd float64, ok bool) {
	fields := strings.Split(answer, " ")
	if len(fields) > 2 {
		return 0, 0, false
	}
	var v [2]float64
	for i, field := range fields {
		x, err := strconv.ParseFloat(field, 64)
		if err != nil || x < 0 || math.IsInf(x, 0) || math.IsNaN(x) {
			return 0, 0, false
		}
		v[i] = x
	}
	return v[0], v[1], true
}
