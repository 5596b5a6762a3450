//go:build !amd64

package core

// sipVector is whether sipBatch has a vector kernel: not on this platform.
func sipVector() bool { return false }

func sip8(v *[4]uint64, keys *[sipLanes][]byte, full int, last *[sipLanes]uint64, lastAll uint64, h1, h2 *[sipLanes]uint64) {
	panic("core: no vector SipHash on this platform")
}
