package program

import (
	"io"

	"github.com/bloomlab/bloomlab/audit"
)

// The views a program may declare, each a method set over the filter. The
// audit discovers a view by the methods a filter has, so a filter must have
// those of the views its program declared and no others: views holds one
// type for each set of them, by the bits of viewOf.
type (
	remover    struct{ *filter } // can remove
	positioner struct{ *filter } // can positions
	saver      struct{ *filter } // can save
	merger     struct{ *filter } // can merge
	counter    struct{ *filter } // can count
)

func (v remover) Remove(key []byte) bool                         { return v.remove(key) }
func (v positioner) Positions(dst []uint64, key []byte) []uint64 { return v.positions(dst, key) }
func (v positioner) Size() uint64                                { return v.size() }
func (v saver) Save(w io.Writer) error                           { return v.save(w) }
func (v merger) Merge(other audit.Filter) error                  { return v.merge(other) }
func (v counter) Count() (n, sd float64)                         { return v.count() }

// viewOf is the index in views of the views h declares: a bit each, in
// the order of the types above.
func viewOf(h hello) int {
	i := 0
	for bit, declared := range []bool{h.remove, h.positions, h.save, h.merge, h.count} {
		if declared {
			i |= 1 << bit
		}
	}
	return i
}

// view is f with the views its program declared.
func (f *filter) view() audit.Filter { return views[viewOf(f.p.hello)](f) }

// views builds a filter with each set of views; TestViews holds every entry
// to its index.
var views = [32]func(f *filter) audit.Filter{
	func(f *filter) audit.Filter { return f },
	func(f *filter) audit.Filter {
		return struct {
			*filter
			remover
		}{f, remover{f}}
	},
	func(f *filter) audit.Filter {
		return struct {
			*filter
			positioner
		}{f, positioner{f}}
	},
	func(f *filter) audit.Filter {
		return struct {
			*filter
			remover
			positioner
		}{f, remover{f}, positioner{f}}
	},
	func(f *filter) audit.Filter {
		return struct {
			*filter
			saver
		}{f, saver{f}}
	},
	func(f *filter) audit.Filter {
		return struct {
			*filter
			remover
			saver
		}{f, remover{f}, saver{f}}
	},
	func(f *filter) audit.Filter {
		return struct {
			*filter
			positioner
			saver
		}{f, positioner{f}, saver{f}}
	},
	func(f *filter) audit.Filter {
		return struct {
			*filter
			remover
			positioner
			saver
		}{f, remover{f}, positioner{f}, saver{f}}
	},
	func(f *filter) audit.Filter {
		return struct {
			*filter
			merger
		}{f, merger{f}}
	},
	func(f *filter) audit.Filter {
		return struct {
			*filter
			remover
			merger
		}{f, remover{f}, merger{f}}
	},
	func(f *filter) audit.Filter {
		return struct {
			*filter
			positioner
			merger
		}{f, positioner{f}, merger{f}}
	},
	func(f *filter) audit.Filter {
		return struct {
			*filter
			remover
			positioner
			merger
		}{f, remover{f}, positioner{f}, merger{f}}
	},
	func(f *filter) audit.Filter {
		return struct {
			*filter
			saver
			merger
		}{f, saver{f}, merger{f}}
	},
	func(f *filter) audit.Filter {
		return struct {
			*filter
			remover
			saver
			merger
		}{f, remover{f}, saver{f}, merger{f}}
	},
	func(f *filter) audit.Filter {
		return struct {
			*filter
			positioner
			saver
			merger
		}{f, positioner{f}, saver{f}, merger{f}}
	},
	func(f *filter) audit.Filter {
		return struct {
			*filter
			remover
			positioner
			saver
			merger
		}{f, remover{f}, positioner{f}, saver{f}, merger{f}}
	},
	func(f *filter) audit.Filter {
		return struct {
			*filter
			counter
		}{f, counter{f}}
	},
	func(f *filter) audit.Filter {
		return struct {
			*filter
			remover
			counter
		}{f, remover{f}, counter{f}}
	},
	func(f *filter) audit.Filter {
		return struct {
			*filter
			positioner
			counter
		}{f, positioner{f}, counter{f}}
	},
	func(f *filter) audit.Filter {
		return struct {
			*filter
			remover
			positioner
			counter
		}{f, remover{f}, positioner{f}, counter{f}}
	},
	func(f *filter) audit.Filter {
		return struct {
			*filter
			saver
			counter
		}{f, saver{f}, counter{f}}
	},
	func(f *filter) audit.Filter {
		return struct {
			*filter
			remover
			saver
			counter
		}{f, remover{f}, saver{f}, counter{f}}
	},
	func(f *filter) audit.Filter {
		return struct {
			*filter
			positioner
			saver
			counter
		}{f, positioner{f}, saver{f}, counter{f}}
	},
	func(f *filter) audit.Filter {
		return struct {
			*filter
			remover
			positioner
			saver
			counter
		}{f, remover{f}, positioner{f}, saver{f}, counter{f}}
	},
	func(f *filter) audit.Filter {
		return struct {
			*filter
			merger
			counter
		}{f, merger{f}, counter{f}}
	},
	func(f *filter) audit.Filter {
		return struct {
			*filter
			remover
			merger
			counter
		}{f, remover{f}, merger{f}, counter{f}}
	},
	func(f *filter) audit.Filter {
		return struct {
			*filter
			positioner
			merger
			counter
		}{f, positioner{f}, merger{f}, counter{f}}
	},
	func(f *filter) audit.Filter {
		return struct {
			*filter
			remover
			positioner
			merger
			counter
		}{f, remover{f}, positioner{f}, merger{f}, counter{f}}
	},
	func(f *filter) audit.Filter {
		return struct {
			*filter
			saver
			merger
			counter
		}{f, saver{f}, merger{f}, counter{f}}
	},
	func(f *filter) audit.Filter {
		return struct {
			*filter
			remover
			saver
			merger
			counter
		}{f, remover{f}, saver{f}, merger{f}, counter{f}}
	},
	func(f *filter) audit.Filter {
		return struct {
			*filter
			positioner
			saver
			merger
			counter
		}{f, positioner{f}, saver{f}, merger{f}, counter{f}}
	},
	func(f *filter) audit.Filter {
		return struct {
			*filter
			remover
			positioner
			saver
			merger
			counter
		}{f, remover{f}, positioner{f}, saver{f}, merger{f}, counter{f}}
	},
}
