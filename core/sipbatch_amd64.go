package core

import "sync"

// sipVector is whether sipBatch has the vector kernel: AVX2, where the CPU
// has it and the OS saves its registers. Asked on the first batch, not at
// the program's start.
var sipVector = sync.OnceValue(hasAVX2)

// sip8 hashes eight keys of at least full 8-byte blocks each from the
// initial state v: their first full blocks, then last[i], key i's last
// message word (sipLast), or lastAll for every key if last is nil. It
// writes key i's two words into h1[i] and h2[i] (sipbatch_amd64.s).
//
//go:noescape
func sip8(v *[4]uint64, keys *[sipLanes][]byte, full int, last *[sipLanes]uint64, lastAll uint64, h1, h2 *[sipLanes]uint64)

// hasAVX2 reports whether the CPU has AVX2 and the OS saves the YMM
// registers (CPUID leaves 1 and 7, XGETBV).
func hasAVX2() bool
