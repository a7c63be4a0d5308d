/*
 * NEON encode kernel: binary object IDs to lowercase hex.
 * SPDX-License-Identifier: MIT
 *
 * Each byte's two nibbles index a 16-entry TBL of "0123456789abcdef"; ZIP1/ZIP2 interleave
 * high and low digits into output order. Converting bytes to digits does not depend on
 * where a record starts, so four packed 20-byte SHA-1 IDs (80 bytes) are converted as five
 * dense vectors and the 160 digits are then stored per record. A record's 40 digits begin
 * at 40*r, a multiple of 8, so every piece is a whole 8- or 16-byte half of a digit
 * vector and nothing is shuffled. Only the hexsz bytes of each record are written: the
 * caller's separators between records are never touched, not even rewritten.
 */

/*
 * SIMDe's portable fallbacks ask for loop vectorization that clang cannot always do, and
 * clang reports each failure as a -Wpass-failed warning in the function that inlined them.
 * Only the emulated (test) build runs those fallbacks; the native build has no such loops.
 */
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wpass-failed"
#endif
#include <simde/arm/neon.h>

#include "../kernel.h"

static const uint8_t neon_digits[16] = {'0', '1', '2', '3', '4', '5', '6', '7',
					'8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};

/* The 32 digits of 16 bytes: lo gets those of bytes 0..7, hi those of bytes 8..15. */
HEXOID_INLINE void neon_hex16(simde_uint8x16_t lut, simde_uint8x16_t x, simde_uint8x16_t *lo,
			      simde_uint8x16_t *hi)
{
	simde_uint8x16_t h = simde_vqtbl1q_u8(lut, simde_vshrq_n_u8(x, 4));
	simde_uint8x16_t l = simde_vqtbl1q_u8(lut, simde_vandq_u8(x, simde_vdupq_n_u8(0x0f)));
	*lo = simde_vzip1q_u8(h, l);
	*hi = simde_vzip2q_u8(h, l);
}

HEXOID_INLINE void neon_store16(char *p, simde_uint8x16_t v)
{
	simde_vst1q_u8((uint8_t *)p, v);
}

/* Store 64-bit half `lane` of v at p (memcpy: p has no alignment; one ST1 lane store). */
#define NEON_STORE_HALF(p, v, lane)                                                         \
	do {                                                                                \
		uint64_t half_ = simde_vgetq_lane_u64(simde_vreinterpretq_u64_u8(v), lane);  \
		memcpy((p), &half_, 8);                                                     \
	} while (0)

static void neon_encode40(char *out, size_t stride, const unsigned char *in, size_t n,
			  simde_uint8x16_t lut)
{
	size_t i = 0;
	for (; i + 4 <= n; i += 4, in += 80) {
		/* d[j]: digits 16*j..16*j+15 of the four records (written out: GCC would
		 * otherwise keep the array on the stack). */
		simde_uint8x16_t d[10];
		neon_hex16(lut, simde_vld1q_u8(in), &d[0], &d[1]);
		neon_hex16(lut, simde_vld1q_u8(in + 16), &d[2], &d[3]);
		neon_hex16(lut, simde_vld1q_u8(in + 32), &d[4], &d[5]);
		neon_hex16(lut, simde_vld1q_u8(in + 48), &d[6], &d[7]);
		neon_hex16(lut, simde_vld1q_u8(in + 64), &d[8], &d[9]);
		char *o0 = out + i * stride, *o1 = o0 + stride;
		char *o2 = o1 + stride, *o3 = o2 + stride;
		/* Record 0: digits 0..39; record 1: 40..79 (d[2] is split between them). */
		neon_store16(o0, d[0]);
		neon_store16(o0 + 16, d[1]);
		NEON_STORE_HALF(o0 + 32, d[2], 0);
		NEON_STORE_HALF(o1, d[2], 1);
		neon_store16(o1 + 8, d[3]);
		neon_store16(o1 + 24, d[4]);
		/* Records 2 and 3: the same pattern, 80 digits on. */
		neon_store16(o2, d[5]);
		neon_store16(o2 + 16, d[6]);
		NEON_STORE_HALF(o2 + 32, d[7], 0);
		NEON_STORE_HALF(o3, d[7], 1);
		neon_store16(o3 + 8, d[8]);
		neon_store16(o3 + 24, d[9]);
	}
	for (; i < n; i++, in += 20) {
		/* Bytes 0..15, then 4..19 so the load stays inside the record; keep 12..19. */
		simde_uint8x16_t a, b, unused, tail;
		char *o = out + i * stride;
		neon_hex16(lut, simde_vld1q_u8(in), &a, &b);
		neon_hex16(lut, simde_vld1q_u8(in + 4), &unused, &tail);
		(void)unused;
		neon_store16(o, a);
		neon_store16(o + 16, b);
		neon_store16(o + 24, tail);
	}
}

static void neon_encode64(char *out, size_t stride, const unsigned char *in, size_t n,
			  simde_uint8x16_t lut)
{
	for (size_t i = 0; i < n; i++, in += 32) {
		simde_uint8x16_t a, b, c, d;
		char *o = out + i * stride;
		neon_hex16(lut, simde_vld1q_u8(in), &a, &b);
		neon_hex16(lut, simde_vld1q_u8(in + 16), &c, &d);
		neon_store16(o, a);
		neon_store16(o + 16, b);
		neon_store16(o + 32, c);
		neon_store16(o + 48, d);
	}
}

void HEXOID_KSYM(neon, encode)(char *out, size_t stride, const unsigned char *in, size_t n,
			       size_t rawsz)
{
	simde_uint8x16_t lut = simde_vld1q_u8(neon_digits);
	if (rawsz == 20)
		neon_encode40(out, stride, in, n, lut);
	else
		neon_encode64(out, stride, in, n, lut);
}
