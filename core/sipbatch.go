package core

// SipHash-2-4 of several keys at once. One SipHash is a chain of dependent
// additions, rotations and xors: a core runs it at the speed of the chain,
// about 30 ns for a 24-byte key, with its vector units idle. Where the CPU
// has them (AVX2 on amd64), eight keys go through side by side, four to a
// vector register, in two registers' worth of independent chains; elsewhere
// keys are hashed one at a time. Each key gets exactly Sip128's two words
// either way, which a test checks against the scalar function.

// sipLanes is how many keys the vector kernel hashes together.
const sipLanes = 8

// sipInit is SipHash-2-4's initial state v0, v1, v2, v3 under the key (k0,
// k1), with the xor that selects the 128-bit output (Aumasson and
// Bernstein, "SipHash: a fast short-input PRF", 2012; the reference
// implementation's 128-bit mode).
func sipInit(k0, k1 uint64) [4]uint64 {
	return [4]uint64{k0 ^ 0x736f6d6570736575, k1 ^ 0x646f72616e646f6d ^ 0xee, k0 ^ 0x6c7967656e657261, k1 ^ 0x7465646279746573}
}

// sipLast is key's last message word: its tail bytes after the last full
// 8-byte block, little-endian, and its length mod 256 in the top byte.
func sipLast(key []byte) uint64 {
	tail := key[len(key)&^7:]
	w := uint64(len(key)) << 56
	for i, c := range tail {
		w |= uint64(c) << (8 * i)
	}
	return w
}

// sipBatch writes Sip128(k0, k1, keys[i]) into h1[i] and h2[i]. With the
// vector kernel, eight neighbouring keys with the same number of full
// blocks go through together, and a last group of two to seven repeats its
// last key in the spare lanes; a key whose neighbour differs in length goes
// alone.
func sipBatch(k0, k1 uint64, keys [][]byte, h1, h2 []uint64) {
	h1, h2 = h1[:len(keys)], h2[:len(keys)]
	if !sipVector() {
		for i, key := range keys {
			h1[i], h2[i] = Sip128(k0, k1, key)
		}
		return
	}
	v := sipInit(k0, k1)
	var (
		spare  [sipLanes][]byte
		last   [sipLanes]uint64
		o1, o2 [sipLanes]uint64
	)
	// uniform: every key of one length, the simulation's and the
	// experiments' case, checked once for the whole batch.
	uniform := true
	for _, key := range keys {
		uniform = uniform && len(key) == len(keys[0])
	}
	for i := 0; i < len(keys); {
		n, size := min(sipLanes, len(keys)-i), len(keys[i])
		same := uniform // all n keys of size bytes
		if !uniform {
			for j, key := range keys[i+1 : i+n] {
				if len(key) != size {
					same = false
					if len(key)/8 != size/8 {
						n = j + 1
						break
					}
				}
			}
		}
		if n == 1 {
			h1[i], h2[i] = Sip128(k0, k1, keys[i])
			i++
			continue
		}
		group, out1, out2 := &spare, &o1, &o2
		if n == sipLanes {
			group = (*[sipLanes][]byte)(keys[i : i+sipLanes])
			out1, out2 = (*[sipLanes]uint64)(h1[i:i+sipLanes]), (*[sipLanes]uint64)(h2[i:i+sipLanes])
		} else {
			copy(spare[:], keys[i:i+n])
			for lane := n; lane < sipLanes; lane++ {
				spare[lane] = spare[n-1]
			}
		}
		// Keys of one length that is a multiple of 8 share their last
		// word, the length alone, which the kernel broadcasts.
		lanes := &last
		if same && size%8 == 0 {
			lanes, last[0] = nil, uint64(size)<<56
		} else {
			for lane, key := range group {
				last[lane] = sipLast(key)
			}
		}
		sip8(&v, group, size/8, lanes, last[0], out1, out2)
		if n < sipLanes {
			copy(h1[i:i+n], o1[:n])
			copy(h2[i:i+n], o2[:n])
		}
		i += n
	}
}
