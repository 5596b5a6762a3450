#include "textflag.h"

// VPSHUFB mask rotating each 64-bit lane left by 16 bits: result byte i is
// source byte (i + 6) mod 8 of the same lane.
DATA rot16<>+0(SB)/8, $0x0504030201000706
DATA rot16<>+8(SB)/8, $0x0d0c0b0a09080f0e
DATA rot16<>+16(SB)/8, $0x0504030201000706
DATA rot16<>+24(SB)/8, $0x0d0c0b0a09080f0e
GLOBL rot16<>(SB), RODATA|NOPTR, $32

// The finalization's xors into v2 (128-bit output) and v1 (second half).
DATA final<>+0(SB)/8, $0xee
DATA final<>+8(SB)/8, $0xdd
GLOBL final<>(SB), RODATA|NOPTR, $16

// One SipRound on four lanes, v0..v3 in four registers, t scratch, the
// rot16 mask in Y7. Rotations by 32 and 16 are shuffles, the others two
// shifts and an or.
#define SIPROUND(v0, v1, v2, v3, t) \
	VPADDQ v1, v0, v0; \
	VPADDQ v3, v2, v2; \
	VPSLLQ $13, v1, t; \
	VPSRLQ $51, v1, v1; \
	VPOR t, v1, v1; \
	VPSHUFB Y7, v3, v3; \
	VPXOR v0, v1, v1; \
	VPXOR v2, v3, v3; \
	VPSHUFD $0xb1, v0, v0; \
	VPADDQ v1, v2, v2; \
	VPADDQ v3, v0, v0; \
	VPSLLQ $17, v1, t; \
	VPSRLQ $47, v1, v1; \
	VPOR t, v1, v1; \
	VPSLLQ $21, v3, t; \
	VPSRLQ $43, v3, v3; \
	VPOR t, v3, v3; \
	VPXOR v2, v1, v1; \
	VPXOR v0, v3, v3; \
	VPSHUFD $0xb1, v2, v2

// Both groups of four lanes: A in Y0..Y3, B in Y8..Y11.
#define ROUNDS \
	SIPROUND(Y0, Y1, Y2, Y3, Y5); \
	SIPROUND(Y8, Y9, Y10, Y11, Y13)

// The message word of one block for four lanes: eight bytes at offset DX
// of each of four keys, into ymm (x its low half, tx a scratch xmm).
#define LOAD4(p0, p1, p2, p3, x, ymm, tx) \
	VMOVQ (p0)(DX*1), x; \
	VPINSRQ $1, (p1)(DX*1), x, x; \
	VMOVQ (p2)(DX*1), tx; \
	VPINSRQ $1, (p3)(DX*1), tx, tx; \
	VINSERTI128 $1, tx, ymm, ymm

// func sip8(v *[4]uint64, keys *[8][]byte, full int, last *[8]uint64, lastAll uint64, h1, h2 *[8]uint64)
TEXT ·sip8(SB), NOSPLIT, $0-56
	MOVQ v+0(FP), AX
	VPBROADCASTQ 0(AX), Y0
	VPBROADCASTQ 8(AX), Y1
	VPBROADCASTQ 16(AX), Y2
	VPBROADCASTQ 24(AX), Y3
	VMOVDQU Y0, Y8
	VMOVDQU Y1, Y9
	VMOVDQU Y2, Y10
	VMOVDQU Y3, Y11
	VMOVDQU rot16<>(SB), Y7
	MOVQ full+16(FP), CX
	XORQ DX, DX
	TESTQ CX, CX
	JZ tail
	// The keys' data pointers, from their slice headers.
	MOVQ keys+8(FP), AX
	MOVQ 0(AX), R8
	MOVQ 24(AX), R9
	MOVQ 48(AX), R10
	MOVQ 72(AX), R11
	MOVQ 96(AX), R12
	MOVQ 120(AX), R13
	MOVQ 144(AX), SI
	MOVQ 168(AX), DI

block:
	LOAD4(R8, R9, R10, R11, X4, Y4, X5)
	LOAD4(R12, R13, SI, DI, X12, Y12, X13)
	VPXOR Y4, Y3, Y3
	VPXOR Y12, Y11, Y11
	ROUNDS
	ROUNDS
	VPXOR Y4, Y0, Y0
	VPXOR Y12, Y8, Y8
	ADDQ $8, DX
	DECQ CX
	JNZ block

tail:
	MOVQ last+24(FP), AX
	TESTQ AX, AX
	JZ broadcast
	VMOVDQU 0(AX), Y4
	VMOVDQU 32(AX), Y12
	JMP final

broadcast:
	VPBROADCASTQ lastAll+32(FP), Y4
	VMOVDQU Y4, Y12

final:
	VPXOR Y4, Y3, Y3
	VPXOR Y12, Y11, Y11
	ROUNDS
	ROUNDS
	VPXOR Y4, Y0, Y0
	VPXOR Y12, Y8, Y8

	VPBROADCASTQ final<>+0(SB), Y4
	VPXOR Y4, Y2, Y2
	VPXOR Y4, Y10, Y10
	ROUNDS
	ROUNDS
	ROUNDS
	ROUNDS
	MOVQ h1+40(FP), DI
	VPXOR Y1, Y0, Y5
	VPXOR Y3, Y2, Y6
	VPXOR Y6, Y5, Y5
	VMOVDQU Y5, 0(DI)
	VPXOR Y9, Y8, Y13
	VPXOR Y11, Y10, Y14
	VPXOR Y14, Y13, Y13
	VMOVDQU Y13, 32(DI)

	VPBROADCASTQ final<>+8(SB), Y4
	VPXOR Y4, Y1, Y1
	VPXOR Y4, Y9, Y9
	ROUNDS
	ROUNDS
	ROUNDS
	ROUNDS
	MOVQ h2+48(FP), DI
	VPXOR Y1, Y0, Y5
	VPXOR Y3, Y2, Y6
	VPXOR Y6, Y5, Y5
	VMOVDQU Y5, 0(DI)
	VPXOR Y9, Y8, Y13
	VPXOR Y11, Y10, Y14
	VPXOR Y14, Y13, Y13
	VMOVDQU Y13, 32(DI)
	VZEROUPPER
	RET

// func hasAVX2() bool
TEXT ·hasAVX2(SB), NOSPLIT, $0-1
	MOVL $0, AX
	XORL CX, CX
	CPUID
	CMPL AX, $7
	JB no
	// Leaf 1, ECX: bit 27 OSXSAVE, bit 28 AVX.
	MOVL $1, AX
	XORL CX, CX
	CPUID
	ANDL $0x18000000, CX
	CMPL CX, $0x18000000
	JNE no
	// XCR0 bits 1 and 2: the OS saves the SSE and AVX state.
	XORL CX, CX
	BYTE $0x0f; BYTE $0x01; BYTE $0xd0 // XGETBV
	ANDL $6, AX
	CMPL AX, $6
	JNE no
	// Leaf 7, EBX bit 5: AVX2.
	MOVL $7, AX
	XORL CX, CX
	CPUID
	BTL $5, BX
	JCC no
	MOVB $1, ret+0(FP)
	RET
no:
	MOVB $0, ret+0(FP)
	RET
