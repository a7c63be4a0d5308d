// One ID's hex digits to bytes with SSE2 (every amd64 CPU has it): sixteen digits to a
// register. A digit is x-'0' below 10, a letter (x|mix)-'a' below 6, compared as signed
// bytes after flipping their top bits; each byte's value is then one of the two, and
// pairs of values become bytes by shifting their 16-bit lanes and packing them.
//
// SPDX-License-Identifier: MIT

#include "textflag.h"

DATA c30<>+0(SB)/8, $0x3030303030303030
DATA c30<>+8(SB)/8, $0x3030303030303030
GLOBL c30<>(SB), RODATA|NOPTR, $16
DATA c61<>+0(SB)/8, $0x6161616161616161
DATA c61<>+8(SB)/8, $0x6161616161616161
GLOBL c61<>(SB), RODATA|NOPTR, $16
DATA c80<>+0(SB)/8, $0x8080808080808080
DATA c80<>+8(SB)/8, $0x8080808080808080
GLOBL c80<>(SB), RODATA|NOPTR, $16
DATA c8a<>+0(SB)/8, $0x8a8a8a8a8a8a8a8a
DATA c8a<>+8(SB)/8, $0x8a8a8a8a8a8a8a8a
GLOBL c8a<>(SB), RODATA|NOPTR, $16
DATA c86<>+0(SB)/8, $0x8686868686868686
DATA c86<>+8(SB)/8, $0x8686868686868686
GLOBL c86<>(SB), RODATA|NOPTR, $16
DATA c0a<>+0(SB)/8, $0x0a0a0a0a0a0a0a0a
DATA c0a<>+8(SB)/8, $0x0a0a0a0a0a0a0a0a
GLOBL c0a<>(SB), RODATA|NOPTR, $16
DATA c00ff<>+0(SB)/8, $0x00ff00ff00ff00ff
DATA c00ff<>+8(SB)/8, $0x00ff00ff00ff00ff
GLOBL c00ff<>(SB), RODATA|NOPTR, $16

// DIGITS decodes the digits in X0 into bytes in the low half of X0 and sets X1 to 0xff
// in each byte that was a valid digit. Uses X2-X4; X7 holds mix.
#define DIGITS \
	MOVO X0, X1 \
	PSUBB c30<>(SB), X1 \
	MOVO X1, X2 \
	PXOR c80<>(SB), X2 \
	MOVO c8a<>(SB), X3 \
	PCMPGTB X2, X3 \
	PAND X3, X1 \
	POR X7, X0 \
	PSUBB c61<>(SB), X0 \
	MOVO X0, X2 \
	PXOR c80<>(SB), X2 \
	MOVO c86<>(SB), X4 \
	PCMPGTB X2, X4 \
	PADDB c0a<>(SB), X0 \
	PAND X4, X0 \
	POR X1, X0 \
	MOVO X3, X1 \
	POR X4, X1 \
	MOVO X0, X2 \
	PSLLW $4, X0 \
	PSRLW $8, X2 \
	POR X2, X0 \
	PAND c00ff<>(SB), X0 \
	PACKUSWB X0, X0

// func decodeHex(dst *byte, src *byte, n int, mix uint64) bool
// n is 40 or 64: it reads src[0:n] and writes dst[0:n/2], nothing else.
TEXT ·decodeHex(SB), NOSPLIT, $0-33
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ mix+24(FP), X7
	PUNPCKLQDQ X7, X7
	MOVL $0xffff, DX
loop:
	CMPQ CX, $16
	JB tail
	MOVOU (SI), X0
	DIGITS
	MOVQ X0, (DI)
	PMOVMSKB X1, AX
	ANDL AX, DX
	ADDQ $16, SI
	ADDQ $8, DI
	SUBQ $16, CX
	JMP loop
tail:
	TESTQ CX, CX
	JZ done
	// Eight digits left (n = 40): the upper half of X0 is zero, and its mask bits unused.
	MOVQ (SI), X0
	DIGITS
	MOVQ X0, AX
	MOVL AX, (DI)
	PMOVMSKB X1, AX
	ORL $0xff00, AX
	ANDL AX, DX
done:
	CMPL DX, $0xffff
	SETEQ ret+32(FP)
	RET

// func decodeHexString(dst *byte, src string, mix uint64) bool: the same arguments'
// layout (the string's pointer, then its length as n).
TEXT ·decodeHexString(SB), NOSPLIT, $0-33
	JMP ·decodeHex(SB)
