package engine

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/bloomlab/bloomlab/core/keys"
	"github.com/bloomlab/bloomlab/core/sim"

	"github.com/bloomlab/bloomlab/app/ui/format"
	"github.com/bloomlab/bloomlab/core"
	"github.com/bloomlab/bloomlab/core/plan"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// KeyLimits bound one key list in the lab. Tighter than the command
// line's: the text, its copy in Go and the keys all sit in the page's memory
// at once, and a million keys already take seconds to sort out.
var KeyLimits = keys.Limits{MaxKeys: 1_000_000, MaxBytes: 32 << 20, MaxLineBytes: 4 << 10}

// The two lists, in the order of ownPanel.src.
const (
	ListMembers = iota
	ListAbsent
)

// OwnKeys are key lists a user brought, as read: the lab runs on them
// instead of generated keys until the user goes back.
type OwnKeys struct {
	// Members and absent are the lists where the page holds them. Read by
	// the lab's worker they stay there, empty here, and workerID is their
	// name on it.
	Members, Absent keys.List
	workerID        int
	// Facts are what the page shows of each list.
	Facts [2]listFacts
	// AbsentMembers is how many absent keys were members, -1 until the
	// first run on the lists has counted them: they are left out of the
	// rate.
	AbsentMembers int
}

// listFacts are the counts of a list as read: lines, duplicates dropped and
// distinct keys.
type listFacts struct{ Lines, Duplicates, Len int }

func factsOf(l keys.List) listFacts { return listFacts{l.Lines, l.Duplicates, l.Len()} }

// InWorker reports whether the lists are in the lab's worker, not here.
func (o *OwnKeys) InWorker() bool { return o != nil && o.workerID != 0 }

// N is the filter's key count: the distinct members.
func (o *OwnKeys) N() int { return o.Facts[ListMembers].Len }

// Work is how many keys sim.RunKeys handles for these lists: each once to
// sort the lists out, the members once a pass and once as a query, and the
// absent keys once as a query.
func (o *OwnKeys) Work(passes int) int {
	m, a := o.N(), o.Facts[ListAbsent].Len
	return 2*(m+a) + m*passes
}

// OwnInput is one list's text as the page holds it, before it is read
// into Go: a chosen file, or the box's text.
type OwnInput struct {
	File    app.Value // a File, or nil for the box
	Text    app.Value // the box's text, a JavaScript string
	FromBox bool
}

// ParseOwnKeys reads the two lists with lim. An absent box holding no key
// means no absent queries; an empty members list, or an empty absent file,
// is an error. Each error names its list. step, which may be nil, is
// called as the text is read, with bytes read over bytes in both lists.
func ParseOwnKeys(members, absent []byte, absentFromBox bool, lim keys.Limits, step sim.Step) (*OwnKeys, error) {
	total := len(members) + len(absent)
	var own OwnKeys
	var err error
	if own.Members, err = keys.ReadSteps(newStepReader(members, 0, total, step), lim, holdAt(step, len(members), total)); err != nil {
		return nil, listError(ListMembers, err)
	}
	own.Facts[ListMembers] = factsOf(own.Members)
	own.AbsentMembers = -1
	if absentFromBox && len(bytes.TrimSpace(absent)) == 0 {
		own.AbsentMembers = 0
		return &own, nil
	}
	if own.Absent, err = keys.ReadSteps(newStepReader(absent, len(members), total, step), lim, holdAt(step, total, total)); err != nil {
		return nil, listError(ListAbsent, err)
	}
	own.Facts[ListAbsent] = factsOf(own.Absent)
	return &own, nil
}

// listError says which list an error is about, in words a user reads next
// to the box.
func listError(list int, err error) error {
	if errors.Is(err, sim.ErrCancelled) {
		return err
	}
	return fmt.Errorf("%s: %s", listNames[list], core.Message(err))
}

// holdAt is the step while a list's duplicates are dropped, after its text
// is read: the progress stays at the list's end, at, and the page still
// yields and can stop the read there (a million keys take a moment).
func holdAt(step sim.Step, at, total int) sim.Step {
	if step == nil {
		return nil
	}
	return func(int, int) error { return step(at, total) }
}

// stepReader hands text to keys.Read a slice at a time, calling step
// before each slice: the browser yields there, and a newer read stops this
// one.
type stepReader struct {
	data        []byte
	off         int
	base, total int
	step        sim.Step
}

func newStepReader(data []byte, base, total int, step sim.Step) *stepReader {
	return &stepReader{data: data, base: base, total: total, step: step}
}

func (r *stepReader) Read(p []byte) (int, error) {
	if r.off >= len(r.data) {
		return 0, io.EOF
	}
	if r.step != nil {
		if err := r.step(r.base+r.off, r.total); err != nil {
			return 0, err
		}
	}
	n := copy(p, r.data[r.off:])
	r.off += n
	return n, nil
}

// TooLarge is the error for a list over the byte limit, found before its
// text is copied into Go.
func TooLarge(list int, size int) error {
	return listError(list, fmt.Errorf("%w: %s, more than the %s a list allowed here", keys.ErrKeysTooLarge,
		plan.FormatBytes(uint64(size)), format.Limit(KeyLimits.MaxBytes)))
}

// PageKeyBytes is the most text the page reads itself, about where a run
// on the lists grows past syncWork. Larger lists go to the lab's worker,
// which reads them and keeps them for the runs on them.
const PageKeyBytes = 256 << 10

// readOwnKeys copies both lists into Go and parses them.
func readOwnKeys(in [2]OwnInput, step sim.Step) (*OwnKeys, error) {
	var text [2][]byte
	for i, src := range in {
		b, err := inputBytes(src)
		if err != nil {
			return nil, listError(i, err)
		}
		text[i] = b
	}
	return ParseOwnKeys(text[ListMembers], text[ListAbsent], in[ListAbsent].FromBox, KeyLimits, step)
}

// inputBytes returns a list's bytes (see inputArray) in Go.
func inputBytes(src OwnInput) ([]byte, error) {
	arr, err := inputArray(src)
	if err != nil {
		return nil, err
	}
	b := make([]byte, arr.Length())
	app.CopyBytesToGo(b, arr)
	return b, nil
}

// ReadFile reads a browser File's bytes into Go, blocking the calling
// goroutine, never the page's, until the browser has read them.
func ReadFile(file app.Value) ([]byte, error) { return inputBytes(OwnInput{File: file}) }

// inputArray returns a list's bytes as they are, a Uint8Array: a file's
// raw bytes (so a binary file shows as one, not as replacement
// characters), or the box's text in UTF-8.
func inputArray(src OwnInput) (app.Value, error) {
	if src.File == nil {
		return app.Window().Get("TextEncoder").New().Call("encode", src.Text), nil
	}
	buf, err := await(src.File.Call("arrayBuffer"))
	if err != nil {
		return nil, fmt.Errorf("the file could not be read: %v", err)
	}
	return app.Window().Get("Uint8Array").New(buf), nil
}

// await blocks the calling goroutine, never the page's, until the promise
// settles.
func await(promise app.Value) (app.Value, error) {
	type settled struct {
		v   app.Value
		err error
	}
	done := make(chan settled, 1)
	ok := app.FuncOf(func(this app.Value, args []app.Value) any {
		done <- settled{v: args[0]}
		return nil
	})
	fail := app.FuncOf(func(this app.Value, args []app.Value) any {
		msg := "unknown error"
		if len(args) > 0 && args[0].Truthy() {
			msg = args[0].Call("toString").String()
		}
		done <- settled{err: errors.New(msg)}
		return nil
	})
	promise.Call("then", ok, fail)
	s := <-done
	ok.Release()
	fail.Release()
	return s.v, s.err
}

// listNames name the two lists in errors.
var listNames = [2]string{"members", "absent queries"}
