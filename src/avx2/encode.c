/*
 * The AVX2 encode kernel: binary IDs to lowercase hex, 32 input bytes per vector.
 *
 * Each byte's high and low nibble pick their digit from "0123456789abcdef" with vpshufb;
 * vpunpcklbw / vpunpckhbw interleave the two digit vectors. Those work within 128-bit
 * lanes, so the input is first arranged so that each lane's low and high halves expand
 * to the 32-digit pieces we store.
 *
 * Memory: only a record's own hexsz output bytes are written (the caller's separators
 * between records must survive), and only the record's own input bytes are read. A
 * 20-byte SHA-1 ID is read as bytes 0..15 and 4..19 (one per lane) and written as digits
 * 0..31 plus digits 24..39, the overlap rewriting the same digits.
 *
 * SPDX-License-Identifier: MIT
 */
#include "simd.h"

#include "../kernel.h"

struct encoder {
	simde__m256i digits; /* "0123456789abcdef" in each lane */
	simde__m256i nibble; /* 0x0f in every byte */
};

HEXOID_INLINE struct encoder encoder_init(void)
{
	struct encoder e;
	e.digits = simde_mm256_setr_epi8('0', '1', '2', '3', '4', '5', '6', '7',
					 '8', '9', 'a', 'b', 'c', 'd', 'e', 'f',
					 '0', '1', '2', '3', '4', '5', '6', '7',
					 '8', '9', 'a', 'b', 'c', 'd', 'e', 'f');
	e.nibble = simde_mm256_set1_epi8(0x0f);
	return e;
}

/*
 * 32 bytes -> 64 digits, lane by lane: *lo gets the digits of bytes 0..7 | 16..23,
 * *hi those of bytes 8..15 | 24..31.
 */
HEXOID_INLINE void expand(const struct encoder *e, simde__m256i v, simde__m256i *lo,
			  simde__m256i *hi)
{
	simde__m256i high = simde_mm256_shuffle_epi8(
		e->digits, simde_mm256_and_si256(simde_mm256_srli_epi16(v, 4), e->nibble));
	simde__m256i low = simde_mm256_shuffle_epi8(e->digits,
						    simde_mm256_and_si256(v, e->nibble));
	*lo = simde_mm256_unpacklo_epi8(high, low);
	*hi = simde_mm256_unpackhi_epi8(high, low);
}

HEXOID_INLINE void store32(char *p, simde__m256i v)
{
	simde_mm256_storeu_si256((simde__m256i *)(void *)p, v);
}

/* One 20-byte ID. */
HEXOID_INLINE void one20(const struct encoder *e, char *out, const unsigned char *in)
{
	/* Lanes: bytes 0..15 | 4..19, so expand gives digits 0..15 | 8..23 and 16..31 | 24..39. */
	simde__m256i v = simde_mm256_loadu2_m128i((const simde__m128i *)(const void *)(in + 4),
						  (const simde__m128i *)(const void *)in);
	simde__m256i lo, hi;
	expand(e, v, &lo, &hi);
	store32(out, simde_mm256_permute2x128_si256(lo, hi, 0x20));
	simde_mm_storeu_si128((simde__m128i *)(void *)(out + 24),
			      simde_mm256_extracti128_si256(hi, 1));
}

/* One 32-byte ID. */
HEXOID_INLINE void one32(const struct encoder *e, char *out, const unsigned char *in)
{
	simde__m256i v = simde_mm256_loadu_si256((const simde__m256i *)(const void *)in);
	/* Quarters 0 2 | 1 3: then lo holds the digits of bytes 0..15 and hi of 16..31. */
	v = simde_mm256_permute4x64_epi64(v, 0xd8);
	simde__m256i lo, hi;
	expand(e, v, &lo, &hi);
	store32(out, lo);
	store32(out + 32, hi);
}

void HEXOID_KSYM(avx2, encode)(char *out, size_t stride, const unsigned char *in, size_t n,
			       size_t rawsz)
{
	struct encoder e = encoder_init();
	if (rawsz == 20) {
		for (size_t i = 0; i < n; i++)
			one20(&e, out + i * stride, in + i * 20);
		return;
	}
	for (size_t i = 0; i < n; i++)
		one32(&e, out + i * stride, in + i * 32);
}
