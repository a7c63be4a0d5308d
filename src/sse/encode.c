/*
 * The SSE encode kernel (SSSE3): binary IDs to lowercase hex, 16 input bytes per vector.
 *
 * Each byte's high and low nibble pick their digit from "0123456789abcdef" with pshufb;
 * punpcklbw / punpckhbw interleave the two digit vectors into string order.
 *
 * Memory: only a record's own hexsz output bytes are written (the caller's separators
 * between records must survive), and only the n * rawsz input bytes are read. A 20-byte
 * SHA-1 ID is read as bytes 0..15 plus bytes 12..19 and written as digits 0..31 plus
 * digits 24..39, the overlap rewriting the same digits.
 *
 * SPDX-License-Identifier: MIT
 */
#include <simde/x86/sse4.1.h>

#include "../kernel.h"

struct encoder {
	simde__m128i digits; /* "0123456789abcdef" */
	simde__m128i nibble; /* 0x0f in every byte */
};

HEXOID_INLINE struct encoder encoder_init(void)
{
	struct encoder e;
	e.digits = simde_mm_setr_epi8('0', '1', '2', '3', '4', '5', '6', '7',
				      '8', '9', 'a', 'b', 'c', 'd', 'e', 'f');
	e.nibble = simde_mm_set1_epi8(0x0f);
	return e;
}

/* 16 bytes -> 32 digits: *lo gets those of bytes 0..7, *hi those of bytes 8..15. */
HEXOID_INLINE void expand(const struct encoder *e, simde__m128i v, simde__m128i *lo,
			  simde__m128i *hi)
{
	simde__m128i high = simde_mm_shuffle_epi8(
		e->digits, simde_mm_and_si128(simde_mm_srli_epi16(v, 4), e->nibble));
	simde__m128i low = simde_mm_shuffle_epi8(e->digits, simde_mm_and_si128(v, e->nibble));
	*lo = simde_mm_unpacklo_epi8(high, low);
	*hi = simde_mm_unpackhi_epi8(high, low);
}

HEXOID_INLINE simde__m128i load16(const unsigned char *p)
{
	return simde_mm_loadu_si128((const simde__m128i *)(const void *)p);
}

HEXOID_INLINE simde__m128i load8(const unsigned char *p)
{
	return simde_mm_loadl_epi64((const simde__m128i *)(const void *)p);
}

HEXOID_INLINE void store16(char *p, simde__m128i v)
{
	simde_mm_storeu_si128((simde__m128i *)(void *)p, v);
}

/* One 20-byte ID. */
HEXOID_INLINE void one20(const struct encoder *e, char *out, const unsigned char *in)
{
	simde__m128i lo, hi, tail_lo, tail_hi;
	expand(e, load16(in), &lo, &hi);
	expand(e, load8(in + 12), &tail_lo, &tail_hi);
	store16(out, lo);
	store16(out + 16, hi);
	store16(out + 24, tail_lo);
}

/* Two 20-byte IDs, their bytes 12..19 sharing one vector. */
HEXOID_INLINE void two20(const struct encoder *e, char *out, size_t stride,
			 const unsigned char *in)
{
	simde__m128i lo0, hi0, lo1, hi1, tail0, tail1;
	expand(e, load16(in), &lo0, &hi0);
	expand(e, load16(in + 20), &lo1, &hi1);
	expand(e, simde_mm_unpacklo_epi64(load8(in + 12), load8(in + 32)), &tail0, &tail1);
	store16(out, lo0);
	store16(out + 16, hi0);
	store16(out + 24, tail0);
	store16(out + stride, lo1);
	store16(out + stride + 16, hi1);
	store16(out + stride + 24, tail1);
}

/* One 32-byte ID. */
HEXOID_INLINE void one32(const struct encoder *e, char *out, const unsigned char *in)
{
	simde__m128i lo0, hi0, lo1, hi1;
	expand(e, load16(in), &lo0, &hi0);
	expand(e, load16(in + 16), &lo1, &hi1);
	store16(out, lo0);
	store16(out + 16, hi0);
	store16(out + 32, lo1);
	store16(out + 48, hi1);
}

void HEXOID_KSYM(sse, encode)(char *out, size_t stride, const unsigned char *in, size_t n,
			      size_t rawsz)
{
	struct encoder e = encoder_init();
	size_t i = 0;
	if (rawsz == 20) {
		for (; n - i >= 2; i += 2)
			two20(&e, out + i * stride, stride, in + i * 20);
		if (i < n)
			one20(&e, out + i * stride, in + i * 20);
		return;
	}
	for (; i < n; i++)
		one32(&e, out + i * stride, in + i * 32);
}
